import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { browserWithClip, untilDone } from '../support/capture'
import { projectRoot } from '../support/process'
import { consentBox } from '../support/consent'
import { lightCamera, type LightCamera } from '../support/light-camera'
import { startWebHost, type TestWebHost } from '../support/web-host'

// The screen-light check end to end: the page lights the visitor in the colours the services drew,
// the embedded engine judges the frames. The camera is the live stand-in (test/support/light-camera.ts):
// a real face photo relit over its own mesh passes; the same photo lit evenly, as a print or a phone
// held up to the kiosk, is refused. Beside the other screens (not in the one-at-a-time liveness
// project): its verdict rests on the colours' timing, which allows a camera 400 ms late, not on the
// frame rate.
let host: TestWebHost
let head: LightCamera
let flat: LightCamera
let moving: LightCamera
const ALG = 'HumanFaceRes'

test.describe.configure({ timeout: 180_000 })

test.beforeAll(async () => {
  ;[host, head, flat, moving] = await Promise.all([startWebHost(), lightCamera('head'), lightCamera('flat'), lightCamera('moving')])
  await expect.poll(async () => (await host.bridge('getEngineStatus')).state, untilDone).toBe('running')
  await host.bridge('associateAlgorithm', { algCode: ALG })
  await host.bridge('associateLiveness', { algCode: ALG, livenessCode: 'screen-light' })
})

test.afterAll(async () => {
  await host?.stop()
})

/** Enroll as a visitor in front of `camera` (without one: the browser's fake webcam): the photos, then the screen's light; the outcome as the screen says it. */
async function enroll(page: Page, camera: LightCamera | null, email: string): Promise<'enrolled' | 'refused'> {
  if (camera) await page.addInitScript(camera.script)
  await page.goto(host.launchUrl)
  await page.locator('.tiles').getByRole('button', { name: /^Enroll visitor/ }).click()
  await page.getByLabel('Visitor’s e-mail').fill(email)
  await consentBox(page).check()
  await page.getByRole('button', { name: 'Continue to photos' }).click()
  // The light: everything around the picture takes the colours in turn, the prompt above it
  // (unless a step of the active challenge before it was refused).
  const refused = page.getByTestId('liveness-error')
  await expect(page.getByTestId('liveness-prompt').filter({ hasText: 'Hold still and look at the screen while it changes colour' }).or(refused)).toBeVisible(untilDone)
  if (await refused.isVisible()) return 'refused'
  const light = page.getByTestId('screen-light')
  await expect(light).toHaveAttribute('data-colour', /^(blue|yellow|green|magenta|cyan|orange)$/, untilDone)
  // Its words stay whole on screen, whatever the colour.
  const words = light.getByText('Hold still and look at the screen while it changes colour')
  const box = await words.boundingBox()
  const viewport = page.viewportSize()!
  expect(box && box.y >= 0 && box.x >= 0 && box.x + box.width <= viewport.width, `the light's words at ${JSON.stringify(box)} in ${JSON.stringify(viewport)}`).toBe(true)
  const enrollButton = page.getByRole('button', { name: `Enroll ${email}` })
  await expect(enrollButton.or(refused)).toBeVisible(untilDone)
  await expect(light).toHaveCount(0)
  if (await refused.isVisible()) return 'refused'
  await enrollButton.click()
  const enrolled = page.getByText(`${email} is enrolled`)
  await expect(enrolled.or(refused)).toBeVisible(untilDone)
  return (await enrolled.isVisible()) ? 'enrolled' : 'refused'
}

async function auditDetail(userId: string): Promise<string> {
  const log = await host.bridge<{ entries: Array<{ detail?: string | null }> }>('getAuditLog', { userId, limit: 1 })
  return log.entries[0]?.detail ?? '(no audit entry)'
}

test('a face that takes the screen’s colours as a head does is enrolled', async ({ page }) => {
  const email = 'light.head@example.com'
  const result = await enroll(page, head, email)
  expect(result, await auditDetail(email)).toBe('enrolled')
})

test('the same photo lit evenly (a print or a phone held up) is refused, the audit naming the light over the face and its margin', async ({ page }) => {
  const email = 'light.flat@example.com'
  expect(await enroll(page, flat, email)).toBe('refused')
  expect(await auditDetail(email)).toMatch(/light over the face: the face took the light evenly, like a flat picture, not a head \(spread 0\.\d+, needs 0\.12\)/)
})

/**
 * CI presents the moving stand-in once, with the one more try the screen offers after a refusal (as
 * liveness.spec.ts does for the bona fide clips: a first-try refusal is logged, not hidden);
 * LIVENESS_FULL=1 ten times, of which at least nine must pass at the first try.
 */
const movingRuns = process.env.LIVENESS_FULL === '1' ? 10 : 1

test(`with the active challenge too: a person who makes the moves asked and takes the light as a head is enrolled (${movingRuns} run${movingRuns > 1 ? 's' : ''})`, async ({ browser }) => {
  test.setTimeout(movingRuns * 240_000)
  await host.bridge('associateLiveness', { algCode: ALG, livenessCode: 'active-challenge' })
  /** One try: its outcome, with the audit's words when refused. */
  const attempt = async (email: string): Promise<string> => {
    const context = await browser.newContext()
    try {
      const result = await enroll(await context.newPage(), moving, email)
      return result === 'enrolled' ? 'enrolled' : `refused: ${await auditDetail(email)}`
    } finally {
      await context.close()
      // The same face again under a new e-mail would be held for staff as a duplicate: each try starts clean.
      await host.bridge('removeVisitor', { userId: email }).catch(() => undefined)
    }
  }
  try {
    const firstTries: string[] = []
    for (let run = 0; run < movingRuns; run++) {
      firstTries.push(await attempt(`light.moving.${run}@example.com`))
      console.log(`moving stand-in run ${run + 1}: ${firstTries.at(-1)}`)
    }
    const enrolled = firstTries.filter((r) => r === 'enrolled').length
    console.log(`moving stand-in, active challenge and screen light: ${enrolled} of ${movingRuns} enrolled at the first try`)
    if (movingRuns > 1) expect(enrolled, firstTries.join('\n')).toBeGreaterThanOrEqual(Math.ceil(0.9 * movingRuns))
    else if (enrolled === 0) expect(await attempt('light.moving.again@example.com'), `first try ${firstTries[0]}; tried again`).toBe('enrolled')
  } finally {
    await host.bridge('disassociateLiveness', { algCode: ALG, livenessCode: 'active-challenge' })
  }
})

/** The recorded attacks the active challenge alone does not stop (a slideshow, a tight curl): liveness.spec.ts presents the others. */
const liveness = join(projectRoot, 'test/fixtures/generated/liveness')
const recorded = (JSON.parse(readFileSync(join(liveness, 'streams.json'), 'utf8')) as Array<{ file: string; kind: string; variant: string; needsLight?: boolean }>).filter(
  (stream) => stream.kind === 'attack' && stream.needsLight,
)

for (const stream of recorded) {
  test(`a recording cannot answer the light: attack ${stream.variant} is refused, by the screen light`, async () => {
    const email = `light.${stream.variant}@example.com`
    const browser = await browserWithClip(join(liveness, stream.file))
    try {
      expect(await enroll(await browser.newPage(), null, email)).toBe('refused')
    } finally {
      await browser.close()
    }
    const detail = await auditDetail(email)
    expect(detail).toMatch(/screen light: the face's colour did not follow the screen's colours \(fit \d\.\d+ at a delay of \d+ ms, at most 400, needs 0\.7\)/)
    // Refused with room: at least 10% short of the mark.
    expect(Number(/fit (\d\.\d+)/.exec(detail)![1]), detail).toBeLessThan(0.9 * 0.7)
  })
}

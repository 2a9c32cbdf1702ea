import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { CONSENT } from '../../electron/shared/consent'
import { browserWithClip, capture, untilDone } from '../support/capture'
import { projectRoot } from '../support/process'
import { startWebHost, type TestWebHost } from '../support/web-host'
import { consentBox } from '../support/consent'

// Liveness end to end in Chromium against the web host, the real services and the embedded engine.
// The fake webcam plays the streams test/fixtures/liveness-streams.mjs makes: photos held up (still,
// moved, rotated, tilted, scaled, print- and screen-like; two photos swapped; a print curled with
// painted eyelids) and clips of recorded head motion; the slideshow and the tight curl, which the
// active challenge alone does not stop, are screen-light.spec.ts's. With the
// tenant's algorithm associated with 'active-challenge', every attack must be refused for enroll and
// verify (APCER 0%) and the bona fide clips must pass (BPCER ≤ 10%); without it, nothing changes.
const liveness = join(projectRoot, 'test/fixtures/generated/liveness')
interface Stream {
  file: string
  kind: 'attack' | 'bona-fide'
  person: string
  variant: string
  frames: number
  /** The still the claimed identity is enrolled from (default `${person}-base.png`). */
  enrollFrom?: string
  /** The person is also a bona fide one: the attack's test enrolls the claimed identity itself and removes it after. */
  ownsIdentity?: boolean
  /** The page takes the stream for a real head's moves: it gets a bona fide's time, and the engine must refuse it. */
  foolsPage?: boolean
  /** The active challenge alone does not stop it (a slideshow, a tight curl): screen-light.spec.ts presents it. */
  needsLight?: boolean
}
const streams = JSON.parse(readFileSync(join(liveness, 'streams.json'), 'utf8')) as Stream[]
const ALG = 'HumanFaceRes'
const CHECK = 'active-challenge'
const PROMPT = /^(Blink your eyes|Turn your head to your left|Turn your head to your right)$/
/** A bona fide clip loops in 7.5–8.8 s: each step's time covers two loops, so every motion comes round twice. */
const BONA_FIDE_STEP_SECONDS = 20
/** The smallest setting: an attack's first step times out quickly. */
const ATTACK_STEP_SECONDS = 3
const claimed = (person: string) => `photo.${person}@example.com`
const emailFor = (stream: Stream, what: string) => `${what}.${stream.person}.${stream.variant}@example.com`

// Each stream's test runs one enroll and one verify attempt with its own browser (a clip is a launch flag).
test.describe.configure({ timeout: 180_000 })

type Tally = Record<Stream['kind'], { presented: number; refused: number }>
const tally: Tally = { attack: { presented: 0, refused: 0 }, 'bona-fide': { presented: 0, refused: 0 } }
let host: TestWebHost

test.beforeAll(async () => {
  host = await startWebHost()
  await expect.poll(async () => (await host.bridge('getEngineStatus')).state, untilDone).toBe('running')
  // The people in the attack photos are enrolled first (from the photo itself, before any liveness
  // association): an impostor holding up their photo claims an identity that exists.
  for (const person of new Set(streams.filter((s) => s.kind === 'attack' && !s.ownsIdentity).map((s) => s.person))) await enrollPhoto(person)
  await host.bridge('associateAlgorithm', { algCode: ALG })
  await host.bridge('associateLiveness', { algCode: ALG, livenessCode: CHECK })
})

/**
 * Enrolls the person in an attack photo from the photo itself. With liveness associated, staff go
 * on without it (an override with a reason), as they would for a record made from an ID photo.
 */
async function enrollPhoto(person: string, still = `${person}-base.png`) {
  const photo = readFileSync(join(liveness, still)).toString('base64')
  const override = (await host.bridge<{ required: boolean }>('startLivenessChallenge', { purpose: 'enroll' })).required ? { livenessOverride: { reason: 'enrolled from a photo for the attack test' } } : {}
  await host.bridge('enrollVisitor', { userId: claimed(person), samples: [photo], consent: true, consentVersion: CONSENT.version, ...override })
}

test.afterAll(async () => {
  const line = (kind: Stream['kind']) => `${kind}: ${tally[kind].presented} presented, ${tally[kind].refused} refused`
  console.log(`liveness presentations (this worker): ${line('attack')}; ${line('bona-fide')}`)
  await host.stop()
})

async function open(page: Page, tile: string) {
  await page.goto('about:blank')
  await page.goto(host.launchUrl)
  await page.locator('.tiles').getByRole('button', { name: new RegExp(`^${tile}`) }).click()
}

/** The challenge shows one of its three prompts while the camera runs. */
async function expectChallenge(page: Page) {
  await expect(page.getByTestId('liveness-prompt')).toHaveText(PROMPT, untilDone)
}

/**
 * Which end state showed: `accepted`, or a liveness refusal. Any other error notice fails the
 * presentation with its words at once (it is neither, and the screen would otherwise idle away).
 */
async function outcome(page: Page, accepted: Locator): Promise<'accepted' | 'refused'> {
  const refused = page.getByTestId('liveness-error')
  const notice = page.getByRole('alert').filter({ hasNot: refused })
  await expect(accepted.or(refused).or(notice).first()).toBeVisible(untilDone)
  if (await refused.isVisible()) return 'refused'
  if (await accepted.isVisible()) return 'accepted'
  throw new Error(`neither accepted nor refused by liveness: ${(await notice.allInnerTexts()).join(' | ')}`)
}

async function enrollAttempt(page: Page, email: string): Promise<'accepted' | 'refused'> {
  await open(page, 'Enroll visitor')
  await page.getByLabel('Visitor’s e-mail').fill(email)
  await consentBox(page).check()
  await page.getByRole('button', { name: 'Continue to photos' }).click()
  await expectChallenge(page)
  await capture(page.getByRole('heading', { name: 'Check the photos' }))
  // A step the page did not see in time is judged at once: there is no Enroll to tap.
  const enroll = page.getByRole('button', { name: `Enroll ${email}` })
  await expect(enroll.or(page.getByTestId('liveness-error'))).toBeVisible(untilDone)
  if (await enroll.isVisible()) await enroll.click()
  return outcome(page, page.getByText(`${email} is enrolled`))
}

async function verifyAttempt(page: Page, email: string): Promise<'accepted' | 'refused'> {
  await open(page, 'Verify identity')
  await page.getByLabel('Visitor’s e-mail').fill(email)
  await page.getByRole('button', { name: 'Continue to photo' }).click()
  await expectChallenge(page)
  return outcome(page, page.getByTestId('verify-decision'))
}

/** The audit's words for the person's latest entry (numbers and codes only): which check failed, and by how much. */
async function auditDetail(userId: string): Promise<string> {
  const log = await host.bridge<{ entries: Array<{ detail?: string | null }> }>('getAuditLog', { userId, limit: 1 })
  return log.entries[0]?.detail ?? '(no audit entry)'
}

/** Counts one presentation and says how it went, with the audit's detail, so a failure names the stream, the attempt and the check. */
async function count(stream: Stream, attempt: 'enroll' | 'verify', result: 'accepted' | 'refused', userId: string): Promise<string> {
  tally[stream.kind].presented += 1
  if (result === 'refused') tally[stream.kind].refused += 1
  const line = `liveness ${stream.kind} ${stream.file} ${attempt}: ${result} — ${await auditDetail(userId)}`
  console.log(line)
  return line
}

/**
 * CI presents each kind of attack once: each photo attack with one of the three people in turn,
 * to enroll or to verify in turn (so every person meets both workflows). LIVENESS_FULL=1 presents
 * every stream to both (~12 min).
 */
const full = process.env.LIVENESS_FULL === '1'
const attacks = streams.filter((s) => s.kind === 'attack' && !s.needsLight)
const presented = full
  ? attacks
  : [...new Set(attacks.map((s) => s.variant))].map((variant, i) => {
      const people = attacks.filter((s) => s.variant === variant)
      return people[i % people.length]!
    })

for (const [index, stream] of presented.entries()) {
  const attempts = full ? (['enroll', 'verify'] as const) : ([index % 2 === 0 ? 'enroll' : 'verify'] as const)
  test(`attack ${stream.person} ${stream.variant}: refused for ${attempts.join(' and for ')}`, async () => {
    // An attack the page takes for a head is given the bona fide time: the page is fooled, the engine must refuse.
    await host.bridge('saveSettings', { livenessStepSeconds: stream.foolsPage ? BONA_FIDE_STEP_SECONDS : ATTACK_STEP_SECONDS })
    if (stream.ownsIdentity) await enrollPhoto(stream.person, stream.enrollFrom)
    const browser = await browserWithClip(join(liveness, stream.file))
    try {
      const page = await browser.newPage()
      for (const attempt of attempts) {
        const email = attempt === 'enroll' ? emailFor(stream, 'enroll') : claimed(stream.person)
        const result = attempt === 'enroll' ? await enrollAttempt(page, email) : await verifyAttempt(page, email)
        expect(result, await count(stream, attempt, result, email)).toBe('refused')
        // Refused by the liveness judgement (not for another reason), in plain words.
        await expect(page.getByText('The liveness check did not pass')).toBeVisible()
        if (attempt === 'verify') await expect(page.getByTestId('verify-decision')).toHaveCount(0)
        // An attack the page does not take for a head runs out of time: the step not seen is said with the refusal.
        if (!stream.foolsPage) await expect(page.getByTestId('liveness-not-seen')).toBeVisible()
        // Two photos swapped: real views, so the depth is there; the cut between them is what gives it
        // away, and the page, judging the path by the engine's rule, never counts it as a turn (the
        // steps not seen are named in the challenge's own random order: a blink may come first).
        if (stream.variant === 'swap') expect(await auditDetail(email)).toMatch(/the challenge was not finished: (?:[^.,]+, )*a turn of the head/)
        // A curled print with painted lids, and a curled mask over a real head that blinks through its
        // eye holes: the page takes them for a head; the engine's own measures refuse them.
        if (stream.variant === 'bent' || stream.variant === 'mask') expect(await auditDetail(email)).toMatch(/active-challenge: (image depth: the face turned to the (left|right) like a flat picture|face motion: )/)
      }
    } finally {
      await browser.close()
      if (stream.ownsIdentity) await host.bridge('removeVisitor', { userId: claimed(stream.person) }).catch(() => undefined)
    }
  })
}

/**
 * A bona fide presentation, with the one more try the screen offers after a refusal. Both tries are
 * counted in the tally: a first-try refusal is a measured false rejection, not hidden (one in 42 so
 * far, a turn measured just under the engine's mark on its JPEG). Refused twice in a row fails.
 */
async function liveAttempt(stream: Stream, attempt: 'enroll' | 'verify', email: string, present: () => Promise<'accepted' | 'refused'>): Promise<void> {
  const first = await present()
  const line = await count(stream, attempt, first, email)
  if (first === 'accepted') return
  const again = await present()
  expect(again, `${line}; tried again: ${await count(stream, attempt, again, email)}`).toBe('accepted')
}

for (const stream of streams.filter((s) => s.kind === 'bona-fide')) {
  test(`bona fide ${stream.person}: passes the challenge for enroll and for verify`, async () => {
    await host.bridge('saveSettings', { livenessStepSeconds: BONA_FIDE_STEP_SECONDS })
    const browser = await browserWithClip(join(liveness, stream.file))
    try {
      const page = await browser.newPage()
      const email = emailFor(stream, 'live')
      // A visitor reads the outcome only (the audit keeps the liveness outcome): enrolled, then confirmed.
      await liveAttempt(stream, 'enroll', email, () => enrollAttempt(page, email))
      await expect(page.locator('#result-title')).toHaveText(`${email} is enrolled.`)
      await expect(page.getByTestId('liveness-result')).toHaveCount(0)

      await liveAttempt(stream, 'verify', email, () => verifyAttempt(page, email))
      await expect(page.getByTestId('verify-decision')).toHaveText(`This is ${email}.`)
      await expect(page.getByTestId('liveness-result')).toHaveCount(0)
    } finally {
      await browser.close()
      // cap12 and cap13 are the same man: left enrolled, his next clip's new e-mail would (rightly) be sent to staff.
      await host.bridge('removeVisitor', { userId: emailFor(stream, 'live') }).catch(() => undefined)
    }
  })
}

test('without a liveness association the capture works as before and says nothing about liveness', async ({ page }) => {
  await host.bridge('disassociateLiveness', { algCode: ALG, livenessCode: CHECK })
  // The default clip shows sample1's photo, enrolled above as an attack's claimed identity: that
  // record goes for this test (a new e-mail with an enrolled face asks staff), and comes back after.
  await host.bridge('removeVisitor', { userId: claimed('sample1') })
  const email = 'plain.capture@example.com'
  try {
    // The default webcam clip is a still photo: accepted, as today, when the tenant asks for no liveness.
    const email = 'plain.capture@example.com'
    await open(page, 'Enroll visitor')
    await page.getByLabel('Visitor’s e-mail').fill(email)
    await consentBox(page).check()
    await page.getByRole('button', { name: 'Continue to photos' }).click()
    await capture(page.getByRole('heading', { name: 'Check the photos' }))
    await page.getByRole('button', { name: `Enroll ${email}` }).click()
    await expect(page.getByText(`${email} is enrolled`)).toBeVisible(untilDone)
    await expect(page.getByText(/liveness/i)).toHaveCount(0)

    await open(page, 'Verify identity')
    await page.getByLabel('Visitor’s e-mail').fill(email)
    await page.getByRole('button', { name: 'Continue to photo' }).click()
    await capture(page.getByTestId('verify-decision'))
    await expect(page.getByTestId('verify-decision')).toHaveText('This is plain.capture@example.com.')
    await expect(page.getByText(/liveness/i)).toHaveCount(0)
    await expect(page.getByTestId('liveness-check')).toHaveCount(0)
  } finally {
    await host.bridge('removeVisitor', { userId: email }).catch(() => undefined)
    await enrollPhoto('sample1')
    await host.bridge('associateLiveness', { algCode: ALG, livenessCode: CHECK })
  }
})

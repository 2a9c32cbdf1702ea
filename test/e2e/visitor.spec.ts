import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test, type Locator, type Page } from '@playwright/test'
import sharp from 'sharp'
import { CONSENT } from '../../electron/shared/consent'
import fr from '../../renderer/src/i18n/locales/fr.json' with { type: 'json' }
import { projectRoot } from '../support/process'
import { tiltedCameraFile } from '../../playwright.config'
import { browserWithClip, capture, untilDone } from '../support/capture'
import { expectAccessible } from '../support/screens'
import { signInAs, startWebHost, type TestWebHost } from '../support/web-host'
import { consentBox } from '../support/consent'

// The visitor flows in Debian Chromium against the web host and the real embedded engine. The
// fake webcam shows the face in test/fixtures/generated/face.png (a photo shipped in face-api).
const fixture = (name: string) => join(projectRoot, 'test/fixtures/generated', name)
const VISITOR = 'camera.visitor@example.com'

// Camera flows take one or two guided captures each; on a busy machine they outlast the default
// 60 s while their result is already on screen. Their steps wait on states; this only lifts the cap.
test.describe.configure({ mode: 'serial', timeout: 180_000 })

let host: TestWebHost

test.beforeAll(async () => {
  host = await startWebHost()
  await expect.poll(async () => (await host.bridge('getEngineStatus')).state, untilDone).toBe('running')
})

test.afterAll(async () => {
  await host.stop()
})

/** A fresh page on Home, staff signed in first for an operator's task (identify, face match), then the task's tile. */
async function open(page: Page, tile: string, as: 'visitor' | 'staff' = 'visitor') {
  await page.goto('about:blank') // a fresh load: going to the launch URL again would only change the hash
  await page.goto(host.launchUrl)
  if (as === 'staff') {
    await signInAs(page)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Home', exact: true }).click()
  }
  await page.locator('.tiles').getByRole('button', { name: new RegExp(`^${tile}`) }).click()
}

test('enrolls a visitor end to end with consent and the camera; the focus follows each step', async ({ page }) => {
  await open(page, 'Enroll visitor')
  const email = page.getByLabel('Visitor’s e-mail')
  // Tile → form: the first field has the focus.
  await expect(email).toBeFocused()
  await email.fill('not-an-email')
  await consentBox(page).check()
  await page.getByRole('button', { name: 'Continue to photos' }).click()
  await expect(page.getByText('An e-mail address has one @ between the name and the domain, like name@example.com.')).toBeVisible()
  await expect(email).toBeFocused()
  await email.fill(VISITOR)
  await expectAccessible(page)
  await page.getByRole('button', { name: 'Continue to photos' }).click()
  // Form → capture: the capture's heading (the first photo may already be on its way).
  await expect(page.getByRole('heading', { name: `Take 3 photos of ${VISITOR}` }).or(page.getByRole('heading', { name: 'Check the photos' }))).toBeFocused()
  // Capture → review.
  await capture(page.getByRole('heading', { name: 'Check the photos' }))
  await expect(page.getByRole('heading', { name: 'Check the photos' })).toBeFocused()
  await expect(page.getByRole('img', { name: /Photo \d of the visitor/ })).toHaveCount(3)
  await page.screenshot({ path: 'test-results/screens/enroll-review.png', fullPage: true })
  await page.getByRole('button', { name: `Enroll ${VISITOR}` }).click()
  await expect(page.getByText(`${VISITOR} is enrolled`)).toBeVisible(untilDone)
  // Review → result.
  await expect(page.getByRole('region', { name: /is enrolled/ })).toBeFocused()
  // A visitor reads the outcome only: no photo quality (28% would read as a failure), no server status.
  await expect(page.locator('#result-title')).toHaveText(`${VISITOR} is enrolled.`)
  await expectAccessible(page)
  await page.screenshot({ path: 'test-results/screens/enroll-done.png', fullPage: true })
})

test('a visitor who chooses French reads French from the first word to the result', async ({ page }) => {
  // Every guidance line the capture shows, recorded in the page as it changes.
  await page.addInitScript(() => {
    const seen: string[] = ((window as unknown as { guidanceSeen: string[] }).guidanceSeen = [])
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="capture-guidance"]')?.textContent
      if (text && seen.at(-1) !== text) seen.push(text)
    }).observe(document, { childList: true, characterData: true, subtree: true })
  })
  await page.goto(host.launchUrl)
  await page.getByRole('button', { name: 'Français' }).click()
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(fr.home.welcome)
  const nav = page.getByRole('navigation', { name: fr.app.mainNav })
  // Enroll: the consent and the e-mail's rules in French.
  await page.locator('.tiles').getByRole('button', { name: new RegExp(`^${fr.screens.enroll}`) }).click()
  await expect(page.getByText(fr.consent.text)).toBeVisible()
  await page.getByLabel(fr.common.email).fill('pas-une-adresse')
  await page.getByLabel(fr.consent.agree, { exact: true }).check()
  await page.getByRole('button', { name: fr.enroll.continue }).click()
  await expect(page.getByText(fr.email.oneAt)).toBeVisible()
  await expectAccessible(page)
  // Verify the visitor enrolled above: guidance and decision in French.
  await nav.getByRole('button', { name: fr.screens.verify, exact: true }).click()
  await page.getByLabel(fr.common.email).fill(VISITOR)
  await page.getByRole('button', { name: fr.verify.continue }).click()
  await expect(page.getByRole('heading', { name: `Photo de ${VISITOR}` })).toBeVisible()
  await expect(page.getByTestId('verify-decision')).toHaveText(`Vous êtes bien ${VISITOR}.`, untilDone)
  await expect(page.getByText(fr.verify.matchTitle)).toBeVisible()
  const french = [...Object.values(fr.guidance), ...Object.values(fr.capture)].map(
    (text) => new RegExp(`^${text.split(/\{\{\w+\}\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+')}$`),
  )
  const seen = await page.evaluate(() => (window as unknown as { guidanceSeen: string[] }).guidanceSeen)
  expect(seen.length).toBeGreaterThan(1)
  expect(seen.filter((line) => !french.some((pattern) => pattern.test(line)))).toEqual([])
  await expectAccessible(page)
  await expect(page.getByTestId('engine-state')).toHaveText(fr.status.ready)
})

test('verifies the same visitor, and refuses a different person', async ({ page }) => {
  await host.bridge('enrollVisitor', { userId: 'someone.else@example.com', samples: [readFileSync(fixture('person-b.jpg')).toString('base64')], consent: true, consentVersion: CONSENT.version })
  // A visitor reads the decision without a score; a different face reads as "not confirmed"
  // (nothing tells whether an e-mail is registered). Staff see the score and the pass mark.
  for (const [email, decision, as, words] of [
    [VISITOR, 'Identity confirmed', 'visitor', new RegExp(`^This is ${VISITOR.replace(/[.]/g, '\\.')}\\.$`)],
    ['someone.else@example.com', 'Not confirmed', 'visitor', /^We could not confirm that this is someone\.else@example\.com\. Try again, or please ask staff\.$/],
    ['someone.else@example.com', 'Not confirmed', 'staff', /: score \d{1,3}\.\d, needs 48\./],
  ] as const) {
    await open(page, 'Verify identity', as)
    await expect(page.getByLabel('Visitor’s e-mail')).toBeFocused()
    await page.getByLabel('Visitor’s e-mail').fill(email)
    await page.getByRole('button', { name: 'Continue to photo' }).click()
    await capture(page.getByTestId('verify-decision'))
    await expect(page.getByRole('region', { name: 'Result' })).toBeFocused()
    await expect(page.getByText(decision, { exact: true })).toBeVisible()
    // Staff: the score and the pass mark on the template type's 0–100 scale, "score 97.0, needs 48".
    await expect(page.getByTestId('verify-decision')).toHaveText(words)
    await expectAccessible(page)
  }
  await page.screenshot({ path: 'test-results/screens/verify.png', fullPage: true })
})

test('Enroll and Verify check the e-mail with the contract’s rules before any photo, and say what is missing next to the field', async ({ page }) => {
  const capturePanel = page.locator('section.gc')
  await open(page, 'Verify identity')
  const email = page.getByLabel('Visitor’s e-mail')
  // Empty: said, not silently ignored.
  await page.getByRole('button', { name: 'Continue to photo' }).click()
  await expect(email).toHaveAccessibleDescription('The e-mail address is missing. Enter the visitor’s e-mail address.')
  await expect(email).toBeFocused()
  // A one-letter top-level domain: the services' schema refuses it, so the form does, before the photo, naming the rule.
  await email.fill('visitor@example.c')
  await page.getByRole('button', { name: 'Continue to photo' }).click()
  await expect(email).toHaveAccessibleDescription('The part after the @ must be a domain, like example.com.')
  await expect(capturePanel).toHaveCount(0)
  await expectAccessible(page)

  await open(page, 'Enroll visitor')
  await page.getByLabel('Visitor’s e-mail').fill('visitor@example.c')
  await consentBox(page).check()
  await page.getByRole('button', { name: 'Continue to photos' }).click()
  await expect(page.getByLabel('Visitor’s e-mail')).toHaveAccessibleDescription('The part after the @ must be a domain, like example.com.')
  await expect(capturePanel).toHaveCount(0)
  await expect(page.getByText(/Invalid input/)).toHaveCount(0)
})

test('without a camera: one clear message; staff use a photo file, a visitor is sent to staff; Identify has Cancel', async ({ page }) => {
  await page.addInitScript(() => {
    navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('Requested device not found', 'NotFoundError'))
  })
  const fileChoice = page.getByLabel(/^Use a photo file instead/)
  // A visitor: the message and its next step, no file picker, no disabled "Capture now".
  await open(page, 'Verify identity')
  await page.getByLabel('Visitor’s e-mail').fill(VISITOR)
  await page.getByRole('button', { name: 'Continue to photo' }).click()
  const alert = page.getByRole('alert').filter({ hasText: 'No camera found' })
  await expect(alert).toContainText('If it keeps failing, please ask staff.')
  await expect(page.getByText('No camera found')).toHaveCount(1)
  await expect(page.getByRole('button', { name: 'Capture now' })).toHaveCount(0)
  await expect(fileChoice).toHaveCount(0)

  // Staff: Identify, the same single message, then a photo file instead of the camera.
  await open(page, 'Who is this?', 'staff')
  await expect(page.getByRole('heading', { name: 'Photo of the visitor' })).toBeFocused()
  await expect(alert).toContainText('Or use a photo file below.')
  await expect(page.getByText('No camera found')).toHaveCount(1)
  await expect(page.getByRole('button', { name: 'Capture now' })).toHaveCount(0)
  await expectAccessible(page)
  await page.screenshot({ path: 'test-results/screens/identify-no-camera.png', fullPage: true })
  await fileChoice.setInputFiles({ name: 'notes.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'binary') })
  await expect(page.getByRole('alert').filter({ hasText: 'notes.gif' })).toHaveText('notes.gif: The file is not a JPEG or PNG image.')
  await fileChoice.setInputFiles(fixture('face.png'))
  await expect(page.getByTestId('identify-decision')).toHaveText(`Best match: ${VISITOR}`, untilDone)
  await expect(page.getByRole('region', { name: 'Result' })).toBeFocused()

  // Identify someone else → Cancel during the capture goes back to Home.
  await page.getByRole('button', { name: 'Identify someone else' }).click()
  await page.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.locator('.tiles')).toBeVisible()
})

test('identifies the enrolled visitor from the camera', async ({ page }) => {
  await open(page, 'Who is this?', 'staff')
  await capture(page.getByTestId('identify-decision'))
  await expect(page.getByTestId('identify-decision')).toHaveText(`Best match: ${VISITOR}`)
  await expect(page.getByRole('table')).toContainText(VISITOR)
  await expect(page.getByRole('table', { name: 'Candidates at or above 48, best first (scores on a 0–100 scale)' })).toBeVisible()
  await expect(page.getByRole('row').filter({ hasText: VISITOR }).getByRole('cell').last()).toHaveText(/^\d{1,3}\.\d$/)
  await expectAccessible(page)
  await page.screenshot({ path: 'test-results/screens/identify.png', fullPage: true })
})

// The page's clock is Playwright's, paused: the idle tests move it on instead of waiting.
const pauseClock = async (page: Page) => page.clock.pauseAt((await page.evaluate(() => Date.now())) + 100)
async function idleClock(page: Page, ms: number): Promise<void> {
  await page.clock.runFor(ms)
  // What the jump's timers changed has rendered (React schedules through message ports, which the clock leaves real).
  for (let i = 0; i < 2; i++) await page.evaluate(() => new Promise<void>((done) => { const channel = new MessageChannel(); channel.port1.onmessage = () => done(); channel.port2.postMessage(0) }))
}

test('idle: "Still there?" only where a reset would lose something: mid-way through a screen or signed in, never on a visitor’s Home', async ({ page }) => {
  await host.bridge('saveSettings', { idleTimeoutSeconds: 15 })
  const dialog = page.getByRole('alertdialog', { name: 'Still there?' })
  const pause = () => pauseClock(page)
  const idleFor = (ms: number) => idleClock(page, ms)
  const asked = async () => (await dialog.count()) > 0
  /**
   * Second by second, until "Still there?" comes. Not within a fixed number of the page's seconds:
   * a call the person waits on (the template types, on a busy machine) holds the count while it is
   * in flight, as it should. Had the kiosk not asked, the reset would have taken the screen first,
   * which the callers check.
   */
  const askedWhileIdle = async (): Promise<boolean> => {
    await expect.poll(async () => {
      await idleFor(1000)
      return asked()
    }, untilDone).toBe(true)
    return true
  }
  try {
    await page.clock.install()
    await page.goto(host.launchUrl)
    await expect(page.locator('.tiles')).toBeVisible()
    await pause()
    await idleFor(8_000)
    expect(await asked()).toBe(false)
    // Half-way through Enroll: asked first, with the form still there.
    await page.locator('.tiles').getByRole('button', { name: /^Enroll visitor/ }).click()
    await page.getByLabel('Visitor’s e-mail').fill('half.way@example.com')
    expect(await askedWhileIdle()).toBe(true)
    await expect(page.getByLabel('Visitor’s e-mail')).toHaveValue('half.way@example.com')
    // Nobody answers: back to Home, the form gone, and Home asks nothing however long it stays.
    await idleFor(15_000)
    await expect(page.locator('.tiles')).toBeVisible()
    await expect(page.getByLabel('Visitor’s e-mail')).toHaveCount(0)
    for (let cycle = 0; cycle < 3; cycle++) {
      await idleFor(8_000)
      expect(await asked(), `cycle ${cycle}`).toBe(false)
    }
    // A language chosen on Home is something to reset: asked in that language, then back to the kiosk's own.
    await page.getByRole('button', { name: 'Español' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Le damos la bienvenida')
    await expect(page.locator('html')).toHaveAttribute('lang', 'es')
    const spanishDialog = page.getByRole('alertdialog', { name: '¿Sigue ahí?' })
    await expect.poll(async () => {
      await idleFor(1000)
      return spanishDialog.count()
    }, untilDone).toBe(1)
    await idleFor(15_000)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome')
    await expect(page.locator('html')).toHaveAttribute('lang', 'en')
    await expect(page.getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'true')
    await idleFor(16_000)
    expect(await asked()).toBe(false)
    // Staff signed in on Home: a reset would sign them out, so they are asked.
    await page.clock.resume()
    await signInAs(page)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Home', exact: true }).click()
    await pause()
    expect(await askedWhileIdle()).toBe(true)
  } finally {
    await host.bridge('saveSettings', { idleTimeoutSeconds: 90 })
  }
})

test('idle: "Still there?" counts down 10 s before the reset; "I’m still here" keeps the result on screen; a face in view counts as presence', async ({ page }) => {
  await host.bridge('saveSettings', { idleTimeoutSeconds: 15 })
  try {
    // The capture on the page's own time; then its clock paused and moved on by the test.
    await page.clock.install()
    await open(page, 'Verify identity')
    await page.getByLabel('Visitor’s e-mail').fill(VISITOR)
    await page.getByRole('button', { name: 'Continue to photo' }).click()
    const result = page.getByTestId('verify-decision')
    await capture(result)
    await pauseClock(page)
    /** Second by second until `target` shows (a call in flight holds the idle count, as it should). */
    const idleUntil = (target: Locator) =>
      expect.poll(async () => {
        await idleClock(page, 1000)
        return target.count()
      }, untilDone).toBeGreaterThan(0)
    // The camera is off now; nobody touches the screen: the kiosk asks first.
    const dialog = page.getByRole('alertdialog', { name: 'Still there?' })
    await idleUntil(dialog)
    await expect(dialog.getByTestId('still-there-seconds')).toHaveText(/^([1-9]|10) s$/)
    await expect(dialog.getByRole('button', { name: 'I’m still here' })).toBeFocused()
    // axe and the screenshot on the page's own time (the countdown goes on meanwhile, far from its end).
    await page.clock.resume()
    await expectAccessible(page)
    await page.screenshot({ path: 'test-results/screens/still-there.png', fullPage: true })
    await pauseClock(page)
    await dialog.getByRole('button', { name: 'I’m still here' }).click()
    await expect(dialog).toBeHidden()
    await expect(result).toHaveText(`This is ${VISITOR}.`)
    // Nobody answers this time: the countdown runs out and the kiosk starts over.
    await idleUntil(dialog)
    await idleUntil(dialog.getByTestId('still-there-seconds').filter({ hasText: /^1 s$/ }))
    await idleUntil(page.locator('.tiles'))
    await expect(result).toHaveCount(0)
    await expect(dialog).toHaveCount(0)
    await page.clock.resume()

    // A face in view counts as presence. The tilted clip: the face is seen (and guided) but never
    // taken, so the capture stays open for as long as it takes.
    const browser = await browserWithClip(tiltedCameraFile)
    try {
      const kiosk = await browser.newPage()
      await kiosk.addInitScript(() => {
        const w = window as unknown as { presence: number; dialogSeen: boolean }
        w.presence = 0
        w.dialogSeen = false
        window.addEventListener('kiosk-presence', () => w.presence++)
        new MutationObserver(() => (w.dialogSeen ||= document.querySelector('[data-testid=still-there]') !== null)).observe(document, { childList: true, subtree: true })
      })
      await kiosk.goto(host.launchUrl)
      await kiosk.locator('.tiles').getByRole('button', { name: /^Verify identity/ }).click()
      await kiosk.getByLabel('Visitor’s e-mail').fill(VISITOR)
      await kiosk.getByRole('button', { name: 'Continue to photo' }).click()
      await expect(kiosk.getByTestId('capture-guidance')).toHaveText('Hold your head upright, not tilted.', untilDone)
      // Presence is reported at most once a second: 30 reports span well past the 15 s timeout and the
      // 10 s countdown, with nobody touching the screen.
      await kiosk.waitForFunction(() => (window as unknown as { presence: number }).presence >= 30, undefined, untilDone)
      expect(await kiosk.evaluate(() => (window as unknown as { dialogSeen: boolean }).dialogSeen)).toBe(false)
      // The face leaves (the capture is cancelled, the camera off): now the kiosk asks, its clock moved on by the test.
      await kiosk.clock.install()
      await pauseClock(kiosk)
      await kiosk.getByRole('button', { name: 'Cancel' }).click()
      await expect
        .poll(async () => {
          await idleClock(kiosk, 1000)
          return kiosk.getByRole('alertdialog', { name: 'Still there?' }).count()
        }, untilDone)
        .toBe(1)
    } finally {
      await browser.close()
    }
  } finally {
    await host.bridge('saveSettings', { idleTimeoutSeconds: 90 })
  }
})

test('face match: same face passes, different faces fail, a wrong file is refused with the reason, a heavy one fitted and said so', async ({ page }) => {
  await open(page, 'Face match', 'staff')
  const slot = (n: number) => page.getByLabel(`Choose a file for image ${n}`)
  await slot(1).setInputFiles(fixture('person-a1.jpg'))
  await slot(2).setInputFiles(fixture('person-a2.jpg'))
  await page.getByRole('button', { name: 'Compare' }).click()
  // Two images through the engine on a busy machine: wait for the decision, however long it takes.
  await expect(page.getByTestId('match-decision')).toContainText('passes the pass mark of 48', untilDone)
  await expect(page.getByText('Same person')).toBeVisible()
  await expectAccessible(page)
  await page.screenshot({ path: 'test-results/screens/face-match.png', fullPage: true })

  await slot(2).setInputFiles(fixture('person-b.jpg'))
  await page.getByRole('button', { name: 'Compare' }).click()
  await expect(page.getByText('Different people')).toBeVisible(untilDone)

  await slot(2).setInputFiles({ name: 'notes.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'binary') })
  await expect(page.getByTestId('match-slot-2').getByRole('alert')).toHaveText('notes.gif: The file is not a JPEG or PNG image.')
  const noise = await sharp(Buffer.from(Array.from({ length: 1000 * 1000 * 3 }, (_, i) => (i * 2654435761) % 251)), { raw: { width: 1000, height: 1000, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer()
  await slot(1).setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: noise })
  // Too heavy but fittable: saved again as a JPEG on the kiosk, and said so (test/e2e/face-match.spec.ts has the rest).
  await expect(page.getByTestId('match-slot-1').getByRole('status')).toHaveText(/^Photo was 2\.9 MB, saved again as a [\d.]+ MB JPEG to fit the 2\.0 MB limit\.$/, untilDone)
})

test('an enrollment made while the engine is down is queued, then delivered when it is back', async ({ page }) => {
  // The fake webcam shows one face: once nobody else has it, the queued enrollment passes the identity checks at delivery.
  await host.bridge('removeVisitor', { userId: VISITOR })
  await open(page, 'Enroll visitor')
  await page.getByLabel('Visitor’s e-mail').fill('offline.visitor@example.com')
  await consentBox(page).check()
  await page.getByRole('button', { name: 'Continue to photos' }).click()
  await capture(page.getByRole('heading', { name: 'Check the photos' }))

  const { pid } = await host.bridge('getEngineStatus')
  process.kill(pid, 'SIGKILL')
  await page.getByRole('button', { name: 'Enroll offline.visitor@example.com' }).click()
  await expect(page.getByText('Saved, will be sent later')).toBeVisible(untilDone)
  await expect(page.getByTestId('offline-banner')).toBeVisible()
  await page.screenshot({ path: 'test-results/screens/enroll-queued.png', fullPage: true })

  await expect.poll(async () => (await host.bridge('getOutbox')).counts.delivered, untilDone).toBe(1)
  await expect(page.getByTestId('offline-banner')).toBeHidden(untilDone)
  const person = await host.bridge('identifyVisitor', { sample: readFileSync(fixture('face.png')).toString('base64') })
  expect(person.candidates.map((c: { userId: string }) => c.userId)).toContain('offline.visitor@example.com')
})

test('removing a visitor another tenant also holds only takes them out of this tenant (the seed rule)', async ({ page }) => {
  const sample = readFileSync(fixture('person-e.jpg')).toString('base64')
  await host.bridge('saveSettings', { tenantCode: 'BRANCH' })
  const enrollment = { userId: 'shared.visitor@example.com', samples: [sample], consent: true, consentVersion: CONSENT.version, onExisting: 'add', acceptDuplicates: true }
  await host.bridge('enrollVisitor', enrollment)
  await host.bridge('saveSettings', { tenantCode: 'KIOSK' })
  await host.bridge('enrollVisitor', enrollment)

  await page.goto('about:blank')
  await page.goto(host.launchUrl)
  await signInAs(page)
  await page.getByRole('button', { name: 'Details of shared.visitor@example.com' }).click()
  const detail = page.getByTestId('person-detail')
  await detail.getByRole('button', { name: 'Remove visitor' }).click()
  const dialog = page.getByRole('dialog', { name: 'Remove shared.visitor@example.com?' })
  await expect(dialog).toContainText('Other tenants hold them too (BRANCH)')
  await dialog.getByRole('button', { name: 'Remove visitor' }).click()
  await expect(page.getByText('shared.visitor@example.com was removed from tenant KIOSK only.')).toBeVisible()
  await expect(page.getByRole('listitem').filter({ hasText: /^BRANCH$/ })).toBeVisible()
  // The person and their face stay for BRANCH.
  const found = await host.bridge('identifyVisitor', { sample })
  expect(found.candidates.map((c: { userId: string }) => c.userId)).toContain('shared.visitor@example.com')
})

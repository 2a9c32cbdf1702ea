import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test'
import sharp from 'sharp'
import { CONSENT } from '../../electron/shared/consent'
import ar from '../../renderer/src/i18n/locales/ar.json' with { type: 'json' }
import en from '../../renderer/src/i18n/locales/en.json' with { type: 'json' }
import fr from '../../renderer/src/i18n/locales/fr.json' with { type: 'json' }
import { tiltedCameraFile } from '../../playwright.config'
import { browserWithClip, untilDone } from '../support/capture'
import { expectControlsBesideLabels, expectFits, expectInView, expectNavShown, expectNoOverlap, expectWholeWords, expectTouchTargets, kioskSizes, layoutFacts, type KioskSize } from '../support/layout'
import { projectRoot } from '../support/process'
import { checkScreenAt } from '../support/screens'
import { signInAs, startWebHost, TEST_ADMIN, type TestWebHost } from '../support/web-host'
import { consentBox } from '../support/consent'
import { hiddenPart, linesOf } from '../support/whole'

// Every screen at every kiosk display size (test/support/layout.ts), on the web host with the embedded engine:
// no page scrolling, the primary action and the result on screen, touch targets of 44 px, axe
// clean, and a screenshot per size in test-results/screens/<size>/.
// Its tests run apart, two at a time (each worker its own host): one file of them would outlast every other screen.
test.describe.configure({ mode: 'parallel', timeout: 900_000 })

const fixture = (name: string) => join(projectRoot, 'test/fixtures/generated', name)
const base64 = (name: string) => readFileSync(fixture(name)).toString('base64')
/** A valid e-mail of 250 characters with no place to break it. */
const LONG_EMAIL = `${'l'.repeat(64)}@${'d'.repeat(61)}.${'e'.repeat(61)}.${'f'.repeat(57)}.com`
/** Staff screens hold more than a display: their area scrolls inside itself, the page never does. */
const staffLong = new Set(['persons', 'outbox', 'audit', 'admin', 'settings', 'accounts'])

let host: TestWebHost

test.beforeAll(async () => {
  host = await startWebHost()
  await expect.poll(async () => (await host.bridge('getEngineStatus')).state, untilDone).toBe('running')
  // The tour waits on captures and on the engine without touching the screen, for minutes on a
  // busy machine: the idle reset (tested on its own) must not send it Home half-way.
  await host.bridge('saveSettings', { idleTimeoutSeconds: 3600 })
})

test.afterAll(async () => {
  await host.stop()
})

/** The layout checks for one screen in one state; `buttons` must be whole on screen, read in the same instant. */
async function check(page: Page, size: KioskSize, name: string, options: { buttons?: string[]; inView?: Locator[]; axe?: boolean; mainMayScroll?: boolean; also?: (what: string) => Promise<void> } = {}): Promise<void> {
  const what = `${size.name} ${name}`
  // What must be in view first, in the same instant as the layout's facts: the screen may not last (a liveness step's time).
  const [facts] = await Promise.all([layoutFacts(page, options.buttons ?? []), options.inView ? expectInView(page, what, ...options.inView) : null])
  // Soft: one run reports every screen that does not fit, not only the first.
  expect.soft(facts.buttonsOutOfView, `${what}: buttons not on screen`).toEqual([])
  expectFits(facts, what, { mainMayScroll: options.mainMayScroll ?? staffLong.has(name.split('-')[0]!) })
  expectTouchTargets(facts, what)
  expectNavShown(facts, what)
  expectNoOverlap(facts, what)
  expectWholeWords(facts, what)
  expectControlsBesideLabels(facts, what)
  await options.also?.(what)
  if (options.axe === false) await page.screenshot({ path: join(projectRoot, 'test-results/screens', size.name, `${name}.png`) })
  else await checkScreenAt(page, size.name, name)
}

/** One browser context at `size` on Home, closed afterwards whatever happens (its event stream would keep the host from stopping). */
async function withKiosk(browser: Browser, size: KioskSize, use: (page: Page) => Promise<void>): Promise<void> {
  const context = await browser.newContext({ viewport: { width: size.width, height: size.height } })
  try {
    const page = await context.newPage()
    await page.goto(host.launchUrl)
    await expect(page.getByTestId('engine-state')).toHaveText('Ready', untilDone)
    await use(page)
  } finally {
    await context.close()
  }
}

/** Sets the window to `size` and waits for the page to lay itself out again (two frames). */
async function resize(page: Page, size: KioskSize): Promise<void> {
  await page.setViewportSize({ width: size.width, height: size.height })
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))
}

/** The sizes axe also checks at (the markup is the same at every size; the smallest and the portrait one crowd it most). */
const axeSizes = new Set<KioskSize>([kioskSizes[0], kioskSizes[kioskSizes.length - 1]!])

/**
 * One screen in one state checked at every size by resizing the window, as a display change
 * would: the walk through the screens is made once, not once per size (each capture and match is
 * real face work). It goes on at the smallest size.
 */
async function checkEverySize(page: Page, name: string, options: Parameters<typeof check>[3] = {}): Promise<void> {
  for (const size of kioskSizes) {
    await resize(page, size)
    await check(page, size, name, { ...options, axe: options.axe !== false && axeSizes.has(size) })
  }
  await resize(page, kioskSizes[0])
}

const nav = (page: Page, title: string) => page.getByRole('navigation').getByRole('button', { name: title, exact: true }).click()
const heading = (page: Page, text: string) => expect(page.getByRole('heading', { level: 1 })).toHaveText(text)

test(`every screen fits every size: ${kioskSizes.map((size) => size.name).join(', ')}`, async () => {
  // The tilted clip: a face is seen but never taken by itself, so every capture state can be checked.
  const browser = await browserWithClip(tiltedCameraFile)
  try {
    await withKiosk(browser, kioskSizes[0], async (page) => {
      const email = 'layout@example.com'

      // Visitor: Home, then Enroll from its form to its result.
      await checkEverySize(page, 'home', { buttons: ['Staff sign-in'], inView: [page.locator('.tile').first(), page.locator('.tile').last()] })
      await page.locator('.tile', { hasText: 'Enroll visitor' }).click()
      await heading(page, 'Enroll visitor')
      await checkEverySize(page, 'enroll', { buttons: ['Continue to photos'] })
      await page.getByLabel('Visitor’s e-mail').fill(email)
      await consentBox(page).check()
      await page.getByRole('button', { name: 'Continue to photos' }).click()
      const captureNow = page.getByRole('button', { name: 'Capture now' })
      await expect(captureNow).toBeEnabled(untilDone)
      await checkEverySize(page, 'enroll-capture', { buttons: ['Capture now', 'Cancel'], inView: [page.locator('.gc-stage'), page.getByTestId('capture-guidance')] })
      // One photo by hand: the thumbnail and its "Retake" join the buttons while the others are taken.
      await captureNow.click()
      await expect(page.getByRole('button', { name: 'Retake photo 1' })).toBeVisible()
      await checkEverySize(page, 'enroll-retake', { buttons: ['Capture now', 'Cancel', 'Retake photo 1'], axe: false })
      // The rest by hand too: the tilted clip is never taken by itself, so each state stays to be looked at.
      await expect(captureNow).toBeEnabled(untilDone)
      await captureNow.click()
      await expect(page.getByRole('button', { name: 'Retake photo 2' })).toBeVisible(untilDone)
      await expect(captureNow).toBeEnabled(untilDone)
      await captureNow.click()
      await expect(page.getByRole('heading', { name: 'Check the photos' })).toBeVisible(untilDone)
      await checkEverySize(page, 'enroll-review', { buttons: [`Enroll ${email}`, 'Retake photos'] })
      await page.getByRole('button', { name: `Enroll ${email}` }).click()
      await expect(page.locator('#result-title')).toBeVisible(untilDone)
      await checkEverySize(page, 'enroll-result', { inView: [page.locator('#result-title')] })

      // Verify: form, capture, result.
      await nav(page, 'Verify identity')
      await heading(page, 'Verify identity')
      await checkEverySize(page, 'verify', { buttons: ['Continue to photo'] })
      await page.getByLabel('Visitor’s e-mail').fill(email)
      await page.getByRole('button', { name: 'Continue to photo' }).click()
      await expect(captureNow).toBeEnabled(untilDone)
      await checkEverySize(page, 'verify-capture', { buttons: ['Capture now', 'Cancel'], inView: [page.locator('.gc-stage')] })
      await captureNow.click()
      await expect(page.getByTestId('verify-decision')).toBeVisible(untilDone)
      await checkEverySize(page, 'verify-result', { buttons: ['Verify someone else'], inView: [page.getByTestId('verify-decision')] })

      // Staff: the sign-in on Home, then every operator and administrator screen.
      await nav(page, 'Home')
      await page.getByRole('button', { name: 'Staff sign-in' }).click()
      await checkEverySize(page, 'home-sign-in', { buttons: ['Sign in', 'Cancel'] })
      const form = page.getByRole('region', { name: 'Staff sign-in' })
      await form.getByLabel('Name', { exact: true }).fill(TEST_ADMIN.name)
      await form.getByLabel('PIN or password', { exact: true }).fill(TEST_ADMIN.secret)
      await form.getByRole('button', { name: 'Sign in' }).click()
      await heading(page, 'Persons')
      await expect(page.getByTestId('persons-summary')).toBeVisible()
      await checkEverySize(page, 'persons', { buttons: ['Search'], inView: [page.getByRole('button', { name: /^Details of / }).first()] })
      await page.getByRole('button', { name: /^Details of / }).first().click()
      await expect(page.getByTestId('person-detail')).toBeVisible()
      await checkEverySize(page, 'persons-detail', { inView: [page.getByTestId('person-detail').getByRole('heading').first()] })

      await nav(page, 'Home')
      await checkEverySize(page, 'home-staff', { inView: [page.locator('.tile').first(), page.locator('.tile').last()] })

      await nav(page, 'Who is this?')
      await expect(captureNow).toBeEnabled(untilDone)
      await checkEverySize(page, 'identify-capture', { buttons: ['Capture now'], inView: [page.locator('.gc-stage')] })
      await captureNow.click()
      await expect(page.getByTestId('identify-decision')).toBeVisible(untilDone)
      await checkEverySize(page, 'identify-result', { buttons: ['Identify someone else'], inView: [page.getByTestId('identify-decision')] })

      await nav(page, 'Face match')
      await page.getByLabel('Choose a file for image 1').setInputFiles(fixture('person-a1.jpg'))
      await page.getByLabel('Choose a file for image 2').setInputFiles(fixture('person-a2.jpg'))
      await checkEverySize(page, 'match', { buttons: ['Compare'] })
      await page.getByRole('button', { name: 'Compare' }).click()
      await expect(page.getByTestId('match-decision')).toBeVisible(untilDone)
      await checkEverySize(page, 'match-result', { buttons: ['Compare'], inView: [page.getByTestId('match-decision'), page.locator('.gauge')] })

      await nav(page, 'Outbox')
      await expect(page.getByTestId('outbox-counts')).toBeVisible()
      await checkEverySize(page, 'outbox', { inView: [page.getByTestId('outbox-counts')] })
      await nav(page, 'Audit')
      await expect(page.getByTestId('audit-entries')).toBeVisible()
      await checkEverySize(page, 'audit', { buttons: ['Verify now', 'Show entries'] })
      await nav(page, 'Invites')
      await expect(page.getByTestId('invites-summary')).toBeVisible()
      await checkEverySize(page, 'invites', { buttons: ['Create invite'] })
      await nav(page, 'Admin')
      await expect(page.getByTestId('template-types')).toBeVisible(untilDone)
      await checkEverySize(page, 'admin')
      await nav(page, 'Settings')
      await expect(page.getByLabel('Idle timeout (seconds)')).toBeVisible()
      await checkEverySize(page, 'settings', { buttons: ['Save settings'] })
      await nav(page, 'Accounts')
      await expect(page.getByTestId('accounts')).toBeVisible()
      await checkEverySize(page, 'accounts', { buttons: ['Add account'] })
      // A kiosk on its own: Kiosks says so, and where to join a site (its site view is toured in site-join.spec.ts).
      await nav(page, 'Kiosks')
      await expect(page.getByTestId('not-on-site')).toBeVisible()
      await checkEverySize(page, 'kiosks', { buttons: ['Open Settings'] })
    })
  } finally {
    await browser.close()
  }
})

test('in Arabic the visitor screens read right to left and fit every size, axe clean', async () => {
  const browser = await browserWithClip(tiltedCameraFile)
  try {
    await withKiosk(browser, kioskSizes[0], async (page) => {
      await page.getByRole('button', { name: 'العربية' }).click()
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl')
      await expect(page.locator('html')).toHaveAttribute('lang', 'ar')
      await heading(page, ar.home.welcome)
      await expect(page.getByTestId('engine-state')).toHaveText(ar.status.ready)
      // Right to left: the first tile starts at the right-hand side.
      const [first, second] = await page.locator('.tile').evaluateAll((tiles) => tiles.map((tile) => tile.getBoundingClientRect().left))
      expect(first!).toBeGreaterThan(second!)
      await checkEverySize(page, 'ar-home', { buttons: [ar.home.staffSignIn], inView: [page.locator('.tile').first(), page.locator('.tile').last()] })
      await page.locator('.tile', { hasText: ar.screens.enroll }).click()
      await heading(page, ar.screens.enroll)
      await expect(page.getByRole('button', { name: ar.enroll.continue })).toBeDisabled()
      await page.getByLabel(ar.consent.agree, { exact: true }).check()
      await page.getByRole('button', { name: ar.enroll.continue }).click()
      await expect(page.getByText(ar.email.missing)).toBeVisible()
      await checkEverySize(page, 'ar-enroll', { buttons: [ar.enroll.continue], inView: [page.getByText(ar.email.missing)] })
      await page.getByLabel(ar.common.email).fill('arabic.layout@example.com')
      await page.getByRole('button', { name: ar.enroll.continue }).click()
      const captureNow = page.getByRole('button', { name: ar.capture.captureNow })
      await expect(captureNow).toBeEnabled(untilDone)
      await checkEverySize(page, 'ar-enroll-capture', { buttons: [ar.capture.captureNow, ar.common.cancel], inView: [page.locator('.gc-stage'), page.getByTestId('capture-guidance')] })
      // Big displays get a big picture: most of a portrait screen's width, over 1000 px on a 1920 one (it was 640).
      for (const size of kioskSizes.filter((s) => s.name === '1920x1080' || s.name === '1080x1920')) {
        await resize(page, size)
        const width = await page.locator('.gc-stage').evaluate((stage) => stage.getBoundingClientRect().width)
        expect(width, size.name).toBeGreaterThan(Math.min(0.9 * size.width, 1000))
      }
      await resize(page, kioskSizes[0])
      await nav(page, ar.screens.verify)
      await heading(page, ar.screens.verify)
      await checkEverySize(page, 'ar-verify', { buttons: [ar.verify.continue] })
    })
  } finally {
    await browser.close()
  }
})

test('the liveness challenge fits every size: prompt, time left, picture and Cancel on screen', async () => {
  // With the tenant's algorithm asking for the active challenge, a capture goes on to it after the photo.
  await host.bridge('associateAlgorithm', { algCode: 'HumanFaceRes' })
  await host.bridge('associateLiveness', { algCode: 'HumanFaceRes', livenessCode: 'active-challenge' })
  await host.bridge('saveSettings', { livenessStepSeconds: 30 })
  const browser = await browserWithClip(tiltedCameraFile)
  try {
    for (const size of kioskSizes) {
      await withKiosk(browser, size, async (page) => {
        await page.locator('.tile', { hasText: 'Verify identity' }).click()
        await page.getByLabel('Visitor’s e-mail').fill(`layout.${size.name}@example.com`)
        await page.getByRole('button', { name: 'Continue to photo' }).click()
        const captureNow = page.getByRole('button', { name: 'Capture now' })
        await expect(captureNow).toBeEnabled(untilDone)
        await captureNow.click()
        await expect(page.getByTestId('liveness-prompt')).toHaveText(/^(Blink your eyes|Turn your head to your (left|right))$/, untilDone)
        await check(page, size, 'verify-liveness', { buttons: ['Cancel'], inView: [page.getByTestId('liveness-prompt'), page.getByTestId('liveness-time'), page.locator('.gc-stage')] })
      })
    }
  } finally {
    await browser.close()
    await host.bridge('disassociateLiveness', { algCode: 'HumanFaceRes', livenessCode: 'active-challenge' })
  }
})

test('a 250-character e-mail wraps: the page never grows wider than the window', async ({ browser }) => {
  const size = kioskSizes[0]
  await host.bridge('enrollVisitor', { userId: LONG_EMAIL, samples: [base64('person-d.jpg')], consent: true, consentVersion: CONSENT.version, onExisting: 'add', acceptDuplicates: true })
  await withKiosk(browser, size, async (page) => {
    const noWiderThanWindow = async (what: string) => {
      const facts = await layoutFacts(page)
      expect(facts.scroll.width, `${what}: the page is wider than the window`).toBeLessThanOrEqual(size.width)
    }
    await page.locator('.tile', { hasText: 'Enroll visitor' }).click()
    await page.getByLabel('Visitor’s e-mail').fill(LONG_EMAIL)
    await consentBox(page).check()
    await page.getByRole('button', { name: 'Continue to photos' }).click()
    await expect(page.getByRole('heading', { name: `Take 3 photos of ${LONG_EMAIL}` })).toBeVisible()
    await noWiderThanWindow('enroll capture')
    await nav(page, 'Home')
    await signInAs(page)
    await page.getByRole('button', { name: `Details of ${LONG_EMAIL}` }).click()
    await expect(page.getByTestId('person-detail')).toBeVisible()
    await noWiderThanWindow('persons with the detail open')
  })
})

test('every item of the staff navigation is on screen at every size, for an operator and an administrator', async ({ browser }) => {
  const operator = { name: 'Nav Operator', secret: 'nav-operator-secret-1' }
  await host.bridge('createAccount', { ...operator, role: 'operator' })
  for (const who of [operator, TEST_ADMIN]) {
    await withKiosk(browser, kioskSizes[0], async (page) => {
      await signInAs(page, who.name, who.secret)
      await heading(page, 'Persons')
      for (const size of kioskSizes) {
        await resize(page, size)
        const facts = await layoutFacts(page)
        expectNavShown(facts, `${size.name} ${who.name}`)
        expectFits(facts, `${size.name} ${who.name} persons`, { mainMayScroll: true })
      }
    })
  }
})

test('face match at every size: each photo with its caption apart, and an error under Compare', async ({ browser }) => {
  // A photo too large to send as it is: the slot says what was done to it, under its caption.
  const large = await sharp(fixture('person-a1.jpg')).resize(1600, 2000, { fit: 'cover' }).jpeg().toBuffer()
  await withKiosk(browser, kioskSizes[0], async (page) => {
    await signInAs(page)
    await nav(page, 'Face match')
    await page.getByLabel('Choose a file for image 1').setInputFiles({ name: 'a-photo-from-the-visitors-phone.jpg', mimeType: 'image/jpeg', buffer: large })
    await expect(page.getByTestId('match-slot-1').getByRole('status')).toContainText('resized')
    await page.getByLabel('Choose a file for image 2').setInputFiles(fixture('two-faces.jpg'))
    await expect(page.getByTestId('match-slot-2').getByRole('img')).toBeVisible()
    await page.getByRole('button', { name: 'Compare' }).click()
    await expect(page.getByRole('alert').filter({ hasText: 'The comparison did not run' })).toBeVisible(untilDone)
    await checkEverySize(page, 'match-error', { buttons: ['Compare'], inView: [page.getByRole('alert').filter({ hasText: 'The comparison did not run' })] })
  })
})

test('first run at every size: the brand in the header, and the heading focused without a ring until the keyboard is used', async ({ browser }) => {
  const fresh = await startWebHost({ firstRun: true })
  const context = await browser.newContext({ viewport: { width: kioskSizes[0].width, height: kioskSizes[0].height } })
  try {
    const page = await context.newPage()
    await page.goto(fresh.launchUrl)
    const title = page.getByRole('heading', { level: 1 })
    await expect(title).toHaveText('Set up the kiosk')
    // Focus is there for a screen reader; a mouse user sees no ring on load.
    await expect(title).toBeFocused()
    const ring = () => title.evaluate((h) => (getComputedStyle(h).outlineStyle === 'none' ? 0 : parseFloat(getComputedStyle(h).outlineWidth)))
    expect(await ring(), 'a ring on the heading on load').toBe(0)
    const tiles = page.locator('.first-run-choice .tile')
    for (const size of kioskSizes) {
      await resize(page, size)
      // The header is never an empty bar: the brand stays at every width.
      await expect(page.locator('header .brand'), `${size.name}: the brand`).toBeVisible()
      await check(page, size, 'first-run-choice', { inView: [tiles.first(), tiles.last()], axe: axeSizes.has(size) })
    }
    await resize(page, kioskSizes[0])
    // On its own: the kiosk's first administrator.
    await page.getByRole('button', { name: /^Set up this kiosk on its own/ }).click()
    for (const size of kioskSizes) {
      await resize(page, size)
      await check(page, size, 'first-run', { buttons: ['Create administrator', 'Back'], axe: axeSizes.has(size) })
    }
    // Joining a site: the form, then a site that cannot be reached, its error beside the button that tries again.
    await resize(page, kioskSizes[0])
    await page.getByRole('button', { name: 'Back' }).click()
    await page.getByRole('button', { name: /^Join a site/ }).click()
    await checkEverySize(page, 'first-run-join', { buttons: ['Join the site', 'Back'] })
    await page.getByLabel('Site address').fill('http://127.0.0.1:9')
    await page.getByLabel('Pairing code').fill('abcd-efgh')
    await page.getByRole('button', { name: 'Join the site' }).click()
    const refusal = page.locator('form.join-site').getByRole('alert')
    await expect(refusal).toContainText('The site could not be reached', untilDone)
    await checkEverySize(page, 'first-run-join-error', { buttons: ['Join the site', 'Back'], inView: [refusal] })
    await page.getByRole('button', { name: 'Back' }).click()
    // Someone using the keyboard sees where focus is when it comes back to the heading.
    await page.keyboard.press('Tab')
    await title.focus()
    expect(await ring(), 'a ring on the heading for a keyboard user').toBeGreaterThan(0)
  } finally {
    await context.close()
    await fresh.stop()
  }
})

test('each screen names itself in the page title', async ({ browser }) => {
  await withKiosk(browser, kioskSizes[2], async (page) => {
    await expect(page).toHaveTitle('Home — Identity Kiosk')
    await signInAs(page)
    for (const title of ['Enroll visitor', 'Verify identity', 'Who is this?', 'Face match', 'Persons', 'Outbox', 'Audit', 'Invites', 'Admin', 'Settings', 'Accounts', 'Kiosks', 'Home']) {
      await nav(page, title)
      await expect(page).toHaveTitle(`${title} — Identity Kiosk`)
    }
  })
})

test('browser Back goes to the previous screen and never leaves the kiosk', async ({ browser }) => {
  await withKiosk(browser, kioskSizes[2], async (page) => {
    const origin = new URL(host.launchUrl).origin
    await page.locator('.tile', { hasText: 'Enroll visitor' }).click()
    await heading(page, 'Enroll visitor')
    await nav(page, 'Verify identity')
    await heading(page, 'Verify identity')
    await page.goBack()
    await heading(page, 'Enroll visitor')
    await page.goBack()
    await heading(page, 'Welcome')
    // Back on Home stays on Home, in the kiosk.
    await page.goBack()
    await heading(page, 'Welcome')
    expect(new URL(page.url()).origin).toBe(origin)
    await page.goForward()
    await page.goBack()
    await heading(page, 'Welcome')
    expect(new URL(page.url()).origin).toBe(origin)
  })
})

test('the page has an icon that loads: no 404 for a favicon', async ({ browser }) => {
  const size = kioskSizes[2]
  const context = await browser.newContext({ viewport: { width: size.width, height: size.height } })
  try {
    const page = await context.newPage()
    const missing: string[] = []
    page.on('response', (response) => {
      if (response.status() === 404) missing.push(response.url())
    })
    await page.goto(host.launchUrl)
    await expect(page.getByTestId('engine-state')).toHaveText('Ready', untilDone)
    const icon = page.locator('link[rel~="icon"]')
    await expect(icon, 'a <link rel="icon"> in the page').toHaveAttribute('href', /.+/)
    const status = await icon.evaluate(async (link: HTMLLinkElement) => (await fetch(link.href)).status)
    expect(status).toBe(200)
    // Nothing the page asked for was missing (Chromium asks for /favicon.ico when a page names no icon).
    expect(missing).toEqual([])
  } finally {
    await context.close()
  }
})

test('the offline banner takes its own height, not the screen’s', async ({ browser }) => {
  // Servers nobody answers at: an enrollment is queued, the kiosk is offline, the banner shows.
  // The tenant's liveness policy read while the servers answered, as a kiosk in use has it: with
  // none known, the kiosk requires every check of an enrollment it cannot ask the servers about.
  expect(await host.bridge('startLivenessChallenge', { purpose: 'enroll' })).toMatchObject({ required: false })
  await host.bridge('saveSettings', { mode: 'remote', personServerUrl: 'http://127.0.0.1:9', bioEngineUrl: 'http://127.0.0.1:9' })
  try {
    const queued = await host.bridge('enrollVisitor', { userId: 'banner.visitor@example.com', samples: [base64('person-c.jpg')], consent: true, consentVersion: CONSENT.version })
    expect(queued.outcome).toBe('queued')
    for (const size of [kioskSizes[0], kioskSizes[2], kioskSizes[4]]) {
      await withKiosk(browser, size, async (shown) => {
        const banner = shown.getByTestId('offline-banner')
        await expect(banner).toBeVisible(untilDone)
        const box = (await banner.boundingBox())!
        expect(box.height, `${size.name}: the banner's height`).toBeLessThanOrEqual(80)
        const main = (await shown.locator('main').boundingBox())!
        expect(main.height, `${size.name}: the screen's area`).toBeGreaterThan(size.height / 2)
        await check(shown, size, 'home-banner', { buttons: ['Staff sign-in'] })
      })
    }
  } finally {
    await host.bridge('saveSettings', { mode: 'embedded' })
  }
})

/** The languages a visitor may choose for the visits screens: each one's words, and its button on Home. */
const visitorLanguages = [
  { code: 'en', words: en, choose: 'English', email: 'ada.lovelace@example.com', name: 'Ada' },
  { code: 'fr', words: fr, choose: 'Français', email: 'marie.dupont@example.com', name: 'Marie' },
  { code: 'ar', words: ar, choose: 'العربية', email: 'layla.haddad@example.com', name: 'ليلى' },
] as const

/** A host to visit, and badges that may show the visitor's face (the tallest badge): set up once for the visits tours. */
let visitsSetUp: Promise<void> | null = null
function setUpVisits(): Promise<void> {
  visitsSetUp ??= (async () => {
    // The test before may have switched the engine away and back: it restarts.
    await expect.poll(async () => (await host.bridge('getEngineStatus')).state, untilDone).toBe('running')
    // Earlier tests here enrolled faces from the same camera clip: each tour's visitor must enroll as
    // someone new, not as a duplicate of them that waits for staff.
    const { content } = await host.bridge<{ content: Array<{ userId: string }> }>('searchPersons', { pageSize: 100 })
    for (const { userId } of content) await host.bridge('removeVisitor', { userId })
    await host.bridge('addHost', { name: 'Grace Hopper' })
    const tenant = await host.bridge('getTenant')
    await host.bridge('updateTenant', { name: tenant.name, maxIdentities: tenant.maxIdentities ?? 0, defaultPostBack: tenant.defaultPostBack, keepFaceCrops: true })
  })()
  return visitsSetUp
}

for (const { code, words: w, choose, email, name } of visitorLanguages) {
  test(`the visits screens fit every size in ${choose}: enroll's capture, check-in, the badge with Print and Done on screen, check-out, check-in by face`, async () => {
    await setUpVisits()
    const browser = await browserWithClip(tiltedCameraFile)
    try {
      await withKiosk(browser, kioskSizes[0], async (page) => {
        /** Home in this language: a visitor's turn ends in the kiosk's own language, so each turn starts by choosing it. */
        const startTurn = async (tile: string) => {
          await page.getByRole('button', { name: choose, exact: true }).click()
          await heading(page, w.home.welcome)
          await page.locator('.tile', { hasText: tile }).click()
          await heading(page, tile)
        }
        const captureNow = page.getByRole('button', { name: w.capture.captureNow })
        const outcome = page.getByTestId('visit-outcome')
        const badge = page.locator('.print-card-preview').getByTestId('badge')
        /** The badge screen: the greeting, the badge, and both its buttons whole on screen, nothing to scroll. */
        const badgeShown = { buttons: [w.badge.print, w.common.done], inView: [outcome, badge] }

        // Enroll: the e-mail in the capture heading is never cut inside; the photo count stands apart from the guidance.
        await startTurn(w.screens.enroll)
        await page.getByLabel(w.common.email).fill(email)
        await page.getByLabel(w.consent.agree, { exact: true }).check()
        await page.getByRole('button', { name: w.enroll.continue }).click()
        await expect(captureNow).toBeEnabled(untilDone)
        const title = page.locator('.gc-title')
        await checkEverySize(page, `${code}-visit-enroll-capture`, {
          buttons: [w.capture.captureNow, w.common.cancel],
          inView: [page.locator('.gc-stage'), page.getByTestId('capture-guidance'), page.locator('.gc-count')],
          also: async (what) => {
            expect.soft(await linesOf(title, email), `${what}: the e-mail in the heading is cut across lines`).toBe(1)
            const [guidance, count] = await Promise.all([page.getByTestId('capture-guidance').boundingBox(), page.locator('.gc-count').boundingBox()])
            expect.soft(count!.y - (guidance!.y + guidance!.height), `${what}: the photo count is jammed against the guidance`).toBeGreaterThanOrEqual(4)
          },
        })
        for (let taken = 1; taken <= 3; taken++) {
          await expect(captureNow).toBeEnabled(untilDone)
          await captureNow.click()
          if (taken < 3) await expect(page.locator('.gc-thumbs li')).toHaveCount(taken, untilDone)
        }
        await expect(page.getByRole('heading', { name: w.enroll.reviewTitle })).toBeVisible(untilDone)
        await page.getByRole('button', { name: w.enroll.submit.replace('{{email}}', email) }).click()

        // The check-in after enrolling: its form, then the badge (with the face: the tallest) and its buttons.
        const form = page.getByRole('form', { name: w.visit.checkInTitle })
        await expect(form).toBeVisible(untilDone)
        await checkEverySize(page, `${code}-visit-check-in`, { buttons: [w.visit.checkInNow], inView: [form.getByRole('heading')] })
        await form.getByLabel(w.visit.firstName).fill(name)
        await form.getByLabel(w.visit.host).selectOption({ label: 'Grace Hopper' })
        await form.getByLabel(w.visit.badgePhoto).check()
        await form.getByRole('button', { name: w.visit.checkInNow, exact: true }).click()
        await expect(outcome).toBeVisible(untilDone)
        await expect(badge.locator('img.badge-face')).toBeVisible()
        await checkEverySize(page, `${code}-visit-badge`, badgeShown)
        // On paper the badge keeps its own size, whatever the screen made of it.
        await page.emulateMedia({ media: 'print' })
        const printed = await page.locator('.print-only').getByTestId('badge').evaluate((el) => el.getBoundingClientRect().width)
        expect(printed, 'the printed badge is 110 mm wide').toBeCloseTo((110 * 96) / 25.4, 0)
        await page.emulateMedia({ media: 'screen' })
        await page.getByRole('button', { name: w.common.done, exact: true }).click()

        // Check out by face.
        await startTurn(w.screens.checkOut)
        await expect(captureNow).toBeEnabled(untilDone)
        await checkEverySize(page, `${code}-visit-check-out-capture`, { buttons: [w.capture.captureNow, w.common.cancel], inView: [page.locator('.gc-stage'), page.getByTestId('capture-guidance')] })
        await captureNow.click()
        await expect(outcome).toHaveText(w.visit.goodbye.replace('{{name}}', name), untilDone)
        await checkEverySize(page, `${code}-visit-check-out`, { buttons: [w.common.done], inView: [outcome] })
        await page.getByRole('button', { name: w.common.done, exact: true }).click()

        // Back: check in by face, the badge again (the visitor stays on site for the staff screens).
        await startTurn(w.screens.checkIn)
        await checkEverySize(page, `${code}-visit-check-in-face`, { buttons: [w.visit.takePhoto] })
        await page.getByLabel(w.visit.badgePhoto).check()
        await page.getByRole('button', { name: w.visit.takePhoto }).click()
        await expect(captureNow).toBeEnabled(untilDone)
        await captureNow.click()
        await expect(outcome).toHaveText(w.visit.welcomeBack.replace('{{name}}', name), untilDone)
        await expect(badge.locator('img.badge-face')).toBeVisible()
        await checkEverySize(page, `${code}-visit-badge-back`, badgeShown)
        await page.getByRole('button', { name: w.common.done, exact: true }).click()
      })
    } finally {
      await browser.close()
      // Every language's tour shows the same face: the next one enrolls it anew, not as a duplicate awaiting staff.
      await host.bridge('removeVisitor', { userId: email }).catch(() => undefined)
    }
  })
}

test('the staff visits screens fit every size: on site and hosts, the evacuation list on paper, invites with Revoke whole and the new invite in view, watchlist', async ({ browser }) => {
  await setUpVisits()
  // A visitor with a long name and e-mail on site: the printed list's other columns shrink to their narrowest.
  const long = await host.bridge('enrollVisitor', { userId: 'a.visitor.with.a.rather.long.address.for.the.list@subdomain.example.com', samples: [base64('person-d.jpg')], consent: true, consentVersion: CONSENT.version, onExisting: 'add', acceptDuplicates: true })
  const [grace] = await host.bridge<Array<{ id: string }>>('listHosts')
  await host.bridge('checkIn', { personUuid: long.person.uuid, firstName: 'Maximiliane-Alexandrine', hostId: grace!.id })
  await withKiosk(browser, kioskSizes[0], async (page) => {
    await signInAs(page)
    await nav(page, 'Visits')
    await expect(page.getByTestId('hosts')).toContainText('Grace Hopper')
    await checkEverySize(page, 'visits', { mainMayScroll: true, inView: [page.getByRole('heading', { level: 2 }).first()] })

    // Visits → Overview: both charts, their tables open, each chart brought into view at every size.
    const overview = page.getByTestId('visit-overview')
    await expect(overview.getByTestId('overview-hosts')).toContainText('Grace Hopper', untilDone)
    for (const summary of await overview.locator('summary').all()) await summary.click()
    for (const chart of ['overview-arrivals', 'overview-hosts']) {
      const drawing = overview.getByTestId(chart).locator('svg[role=img]')
      for (const size of kioskSizes) {
        await resize(page, size)
        await drawing.scrollIntoViewIfNeeded()
        await check(page, size, `visits-${chart}`, { mainMayScroll: true, inView: [drawing], axe: axeSizes.has(size) })
      }
    }
    await resize(page, kioskSizes[0])

    // The evacuation list as it prints: every column header on one line (a 3em column cut "Safe" into "Saf / e").
    await page.getByTestId('print-evacuation').click()
    await page.emulateMedia({ media: 'print' })
    const list = page.getByTestId('evacuation-list')
    await expect(list).toBeVisible()
    for (const size of [{ name: 'A4', width: Math.floor(((210 - 24) * 96) / 25.4), height: 1000 }, ...kioskSizes]) {
      await page.setViewportSize({ width: size.width, height: size.height })
      for (const header of await list.locator('th').all()) {
        const text = (await header.textContent())!.trim()
        expect.soft(await linesOf(header, text), `${size.name}: the printed list's "${text}" header is cut across lines`).toBe(1)
      }
    }
    await page.emulateMedia({ media: 'screen' })
    await resize(page, kioskSizes[0])

    // Invites: a new invite's card and "Print the invitation" come into view; Revoke is whole in the list, never cut by its scroll.
    await nav(page, 'Invites')
    await expect(page.getByTestId('invites-summary')).toBeVisible()
    for (const size of kioskSizes) {
      await resize(page, size)
      await page.getByLabel('Visitor’s e-mail').fill(`invited.visitor.${size.name}@example.com`)
      await page.getByTestId('invite-host').selectOption({ label: 'Grace Hopper' })
      await page.getByRole('button', { name: 'Create invite' }).click()
      await expect(page.getByRole('heading', { name: `Invite created for invited.visitor.${size.name}@example.com` })).toBeVisible()
      await expectInView(page, `${size.name} invite created`, page.locator('.print-card-preview').getByTestId('invite-card').locator('svg[data-qr]'), page.getByRole('button', { name: 'Print the invitation' }))
    }
    await resize(page, kioskSizes[0])
    const revoke = page.getByRole('button', { name: /^Revoke the invite for / })
    await checkEverySize(page, 'invites-made', {
      mainMayScroll: true,
      buttons: ['Create invite'],
      also: async (what) => {
        for (const button of await revoke.all()) expect.soft(await hiddenPart(button, 'sideways'), `${what}: ${await button.getAttribute('aria-label')}`).toBeNull()
        // Where the screen's content is wider than its area, the innermost boxes that reach past its edge, named.
        const wide = await page.locator('main').evaluate((main) => {
          if (main.scrollWidth <= main.clientWidth + 1) return []
          const edge = main.getBoundingClientRect().left + main.clientLeft + main.clientWidth
          // Inside a table's scroll box only what is placed absolutely can escape it (when the box is not positioned).
          const past = [...main.querySelectorAll<HTMLElement>('*')].filter((el) => el.getBoundingClientRect().right > edge + 1 && !(el.parentElement?.closest('.table-wrap') && getComputedStyle(el).position !== 'absolute'))
          return past
            .filter((el) => !past.some((other) => other !== el && el.contains(other)))
            .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} ${Math.round(el.getBoundingClientRect().right - edge)}px`)
        })
        expect.soft(wide.slice(0, 5), `${what}: boxes spilling sideways`).toEqual([])
      },
    })

    await nav(page, 'Watchlist')
    await expect(page.getByTestId('watchlist-summary')).toBeVisible()
    await checkEverySize(page, 'watchlist', { mainMayScroll: true })
  })
})

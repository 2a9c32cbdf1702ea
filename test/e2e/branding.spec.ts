import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test'
import sharp from 'sharp'
import { untilDone } from '../support/capture'
import { expectFits, expectTouchTargets, kioskSizes, layoutFacts } from '../support/layout'
import { checkScreenAt, expectAccessible } from '../support/screens'
import { signInAs, startWebHost, type TestWebHost } from '../support/web-host'

// The organisation's look, set by an administrator on the Settings screen and seen at once by a
// visitor's screen already open in another tab; the defaults look as the kiosk always has.
test.describe.configure({ timeout: 300_000 })

let host: TestWebHost
/** Open tabs: closed after the test, whatever happens (their event streams would keep the host from stopping). */
const contexts: BrowserContext[] = []
test.beforeAll(async () => {
  host = await startWebHost()
  await expect.poll(async () => (await host.bridge('getEngineStatus')).state, untilDone).toBe('running')
  await host.bridge('saveSettings', { idleTimeoutSeconds: 3600 })
})
test.afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()))
})
test.afterAll(async () => {
  await host.stop()
})

const NAME = 'Stadtbibliothek Musterstadt – Ausleihe'
const WELCOME = 'Willkommen! Borrow, return or ask about your library card here – staff are at the desk to your left if you need a hand.'
const tileColour = (page: Page) => page.locator('.tile').first().evaluate((el) => getComputedStyle(el).backgroundColor)

async function openKiosk(browser: Browser, width: number, height: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height } })
  contexts.push(context)
  const page = await context.newPage()
  await page.goto(host.launchUrl)
  await expect(page.getByTestId('engine-state')).toHaveText('Ready', untilDone)
  return page
}

test('an administrator’s name, welcome line, accent and logo reach an open visitor screen; the defaults look as today', async ({ browser }) => {
  const visitor = await openKiosk(browser, 1366, 768)
  // Today's look: the product's name, no logo, no welcome line, the usual blue.
  await expect(visitor.getByTestId('brand')).toHaveText('Identity Kiosk')
  await expect(visitor.getByTestId('brand').locator('img')).toHaveCount(0)
  await expect(visitor.getByTestId('welcome-line')).toHaveCount(0)
  expect(await tileColour(visitor)).toBe('rgb(11, 92, 173)')
  await expectAccessible(visitor)

  const admin = await openKiosk(browser, 1366, 768)
  await signInAs(admin)
  await admin.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings', exact: true }).click()
  const section = admin.getByRole('group', { name: 'Organisation' })
  await section.getByLabel('Organisation name').fill(NAME)
  await section.getByLabel('Welcome line').fill(WELCOME)
  const accent = section.getByLabel('Accent colour', { exact: true })

  // A light accent: the verdict says so as it is typed, and the services refuse it with the pair and ratio.
  await accent.fill('#ffcc00')
  await expect(section.getByTestId('accent-verdict')).toContainText('Not readable enough')
  await expect(section.getByTestId('accent-verdict')).toContainText('WCAG AA needs 4.5:1')
  await admin.getByRole('button', { name: 'Save settings' }).click()
  await expect(admin.getByRole('alert').filter({ hasText: 'The settings were not saved' })).toBeVisible()
  // The services' refusal, under the field (beside the verdict the page worked out itself).
  await expect(section.locator('p[id$="-error"]')).toHaveText(/^has too little contrast for the accent on grey gauge tracks: 1\.\d\d:1, WCAG AA needs 4\.5:1/)
  await accent.fill('#1E5A2B')
  await expect(section.getByTestId('accent-verdict')).toContainText('Readable')
  await admin.getByRole('button', { name: 'Save settings' }).click()
  await expect(admin.getByText('Settings saved.')).toBeVisible()

  // The logo: an SVG that runs a script is refused with the reason; a PNG is kept and previewed.
  const file = section.getByLabel('Logo', { exact: true })
  await file.setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>') })
  await expect(section.getByText(/the SVG is not safe to use: it has a <script> element/)).toBeVisible()
  const png = await sharp({ create: { width: 240, height: 80, channels: 4, background: '#1e5a2b' } }).png().toBuffer()
  await file.setInputFiles({ name: 'library.png', mimeType: 'image/png', buffer: png })
  await expect(section.getByText('Logo saved from library.png.')).toBeVisible()
  await expect(section.getByRole('img', { name: 'The current logo' })).toBeVisible()
  await section.getByTestId('logo-preview').scrollIntoViewIfNeeded()
  await checkScreenAt(admin, '1366x768', 'settings-organisation')

  // The visitor's tab, never reloaded, shows it all.
  await expect(visitor.getByTestId('brand')).toHaveText(NAME)
  await expect(visitor.getByTestId('brand').locator('img')).toHaveAttribute('src', /^data:image\/png;base64,/)
  await expect(visitor.getByTestId('welcome-line')).toHaveText(WELCOME)
  await expect.poll(() => tileColour(visitor)).toBe('rgb(30, 90, 43)')
  for (const size of kioskSizes) {
    await visitor.setViewportSize({ width: size.width, height: size.height })
    await visitor.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))
    // The brand stays at every width (the navigation wraps below it instead).
    await expect(visitor.getByTestId('brand').locator('img')).toBeVisible()
    const facts = await layoutFacts(visitor, ['Staff sign-in'])
    expect.soft(facts.buttonsOutOfView, `${size.name} home-branded: buttons not on screen`).toEqual([])
    expectFits(facts, `${size.name} home-branded`)
    expectTouchTargets(facts, `${size.name} home-branded`)
    await checkScreenAt(visitor, size.name, 'home-branded')
  }

  // Removed, and back to the defaults: the visitor's screen looks as it did.
  await section.getByRole('button', { name: 'Remove logo' }).click()
  await expect(section.getByText('Logo removed.')).toBeVisible()
  await expect(visitor.getByTestId('brand').locator('img')).toHaveCount(0)
  await host.bridge('saveSettings', { organisationName: 'Identity Kiosk', welcomeLine: '', accentColour: '#0b5cad' })
  await expect(visitor.getByTestId('brand')).toHaveText('Identity Kiosk')
  await expect(visitor.getByTestId('welcome-line')).toHaveCount(0)
  await expect.poll(() => tileColour(visitor)).toBe('rgb(11, 92, 173)')
  expect(await visitor.evaluate(() => document.documentElement.getAttribute('style'))).toBeFalsy()
})

import { expect, test } from '@playwright/test'
import { checkScreen } from '../support/screens'
import { signInAs, startWebHost, type TestWebHost } from '../support/web-host'

// The kiosk as `npm run start:web` runs it: the real host CLI, which starts the embedded engine.
let host: TestWebHost
let launchUrl: string

test.beforeAll(async () => {
  host = await startWebHost()
  launchUrl = host.launchUrl
})

test.afterAll(async () => {
  expect(await host.stop()).toBe(0)
})

test('opens on Home and shows values that came from the Node side through the bridge', async ({ page }) => {
  await page.goto(launchUrl)
  await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible()
  // A visitor reads plain words; the engine's state behind them came through the bridge.
  await expect(page.getByTestId('engine-state')).toHaveText('Ready', { timeout: 0 })
  await expect(page.getByTestId('node-version')).toHaveCount(0)
  // The token left the address bar once read.
  expect(page.url()).not.toContain('token=')
  await checkScreen(page, 'home')
})

test('Home says it is getting ready while the engine starts, with its tasks disabled, then offers them', async ({ page }) => {
  await page.goto(launchUrl)
  const tiles = page.getByRole('main')
  const tile = tiles.getByRole('button', { name: /^Enroll visitor/ })
  const readiness = page.getByTestId('home-readiness')
  await expect(page.getByTestId('engine-state')).toHaveText('Ready')
  await expect(tile).toBeEnabled()
  await expect(readiness).toHaveCount(0)

  // A real start: the engine dies, the supervisor starts a new one, and the page hears each state pushed.
  const { pid } = await host.bridge<{ pid: number }>('getEngineStatus')
  process.kill(pid, 'SIGKILL')
  await expect(readiness).toHaveText('The kiosk is starting. The buttons below work in a moment.')
  await expect(page.getByText('Getting ready…')).toBeVisible()
  await expect(page.getByTestId('engine-state')).toHaveText('Starting…')
  for (const name of ['Enroll visitor', 'Verify identity']) await expect(tiles.getByRole('button', { name })).toBeDisabled()
  // Staff can still sign in to see what is going on.
  await expect(page.getByRole('button', { name: 'Staff sign-in' })).toBeEnabled()
  await checkScreen(page, 'home-starting')

  // The engine's start is the only ceiling here: the page follows its state, whatever it takes.
  await expect.poll(async () => (await host.bridge<{ state: string }>('getEngineStatus')).state, { timeout: 0 }).toBe('running')
  await expect(tile).toBeEnabled()
  await expect(readiness).toHaveCount(0)
  await expect(page.getByTestId('engine-state')).toHaveText('Ready')
})

test('navigates to every screen of the kiosk; staff screens only after a staff sign-in', async ({ page }) => {
  await page.goto(launchUrl)
  const nav = page.getByRole('navigation', { name: 'Main' })
  await expect(nav.getByRole('button', { name: 'Settings' })).toHaveCount(0)
  await signInAs(page)
  // Only Node knows its version: seeing it proves the bridge round trip; staff see the engine's details.
  await expect(page.getByTestId('node-version')).toHaveText(`Node ${process.versions.node}`)
  await expect(page.getByTestId('engine-state')).toHaveText('Engine: running')
  for (const title of ['Enroll visitor', 'Verify identity', 'Who is this?', 'Face match', 'Persons', 'Outbox', 'Audit', 'Invites', 'Admin', 'Settings', 'Accounts', 'Home']) {
    await nav.getByRole('button', { name: title, exact: true }).click()
    await expect(nav.getByRole('button', { name: title, exact: true })).toHaveAttribute('aria-current', 'page')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title === 'Home' ? 'Welcome' : title)
    await page.screenshot({ path: `test-results/screens/${title.toLowerCase().replace(/\W+/g, '-')}.png` })
  }
  await page.getByRole('button', { name: /Face match/ }).first().click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Face match')
  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome')
  await expect(nav.getByRole('button', { name: 'Settings' })).toHaveCount(0)
})

test('a page opened without the launch token is refused by the bridge and says what to do', async ({ page }) => {
  const origin = new URL(launchUrl).origin
  await page.goto(`${origin}/`)
  await expect(page.getByRole('alert')).toContainText('opened without its launch link')
  const status = await page.evaluate(async () => (await fetch('/bridge/getAppInfo', { method: 'POST', body: '{}' })).status)
  expect(status).toBe(401)
})

test('the fake webcam delivers the face fixture to the page', async ({ page }) => {
  await page.goto(launchUrl)
  const track = await page.evaluate(async () => {
    const stream = await navigator.mediaDevices.getUserMedia({ video: true })
    const settings = stream.getVideoTracks()[0]!.getSettings()
    stream.getTracks().forEach((t) => t.stop())
    return { width: settings.width, height: settings.height }
  })
  expect(track).toEqual({ width: 640, height: 480 })
})

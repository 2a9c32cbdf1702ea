import { expect, test, type Page } from '@playwright/test'
import { PIN_ORIGIN } from '../../electron/main/origins'
import { createStaffPinPrompt, PIN_PAGE_CSP, type StaffPinPrompt } from '../../electron/main/staff-pin'
import { KioskError } from '../../electron/shared/errors'

// The administrator prompt is the only way out of kiosk mode, so its page runs here in a real browser:
// Debian's Chromium loads it from https://staff-pin.test, which Playwright routes (https, a secure context like app://) to the very handler
// main gives protocol.handle for app://staff-pin (same bytes, same headers, CSP included).
const HOST = 'https://staff-pin.test'

async function serve(page: Page, prompt: StaffPinPrompt): Promise<string[]> {
  const problems: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text())
  })
  page.on('pageerror', (error) => problems.push(error.message))
  await page.route(`${HOST}/**`, async (route) => {
    const request = route.request()
    const headers = { ...request.headers(), origin: PIN_ORIGIN }
    const body = request.method() === 'POST' ? request.postData() : undefined
    const reply = await prompt.handle(new Request(request.url().replace(HOST, PIN_ORIGIN), { method: request.method(), headers, body }))
    await route.fulfill({ status: reply.status, headers: Object.fromEntries(reply.headers), body: Buffer.from(await reply.arrayBuffer()) })
  })
  return problems
}

const ADMIN = { name: 'Kiosk Admin', secret: 'right-secret' }

/** Stands in for the services' verifyAdmin (the accounts themselves are tested in the services). */
function setup() {
  const events: string[] = []
  let failures = 0
  const verify = async (name: string, secret: string) => {
    if (failures >= 2) throw new KioskError('TOO_MANY_ATTEMPTS', 'Too many failed sign-ins. Try again in 5 seconds.')
    if (name === ADMIN.name && secret === ADMIN.secret) return
    failures += 1
    throw new KioskError('UNAUTHORIZED', 'That name and PIN or password do not match an active staff account.')
  }
  const prompt = createStaffPinPrompt({ verify, onUnlock: () => events.push('unlock'), onCancel: () => events.push('cancel') })
  return { prompt, events }
}

test('an administrator’s sign-in unlocks, a wrong one says so, under the page’s strict CSP', async ({ page }) => {
  const { prompt, events } = setup()
  const problems = await serve(page, prompt)
  const response = await page.goto(prompt.begin().replace(PIN_ORIGIN, HOST))
  expect(response?.headers()['content-security-policy']).toBe(PIN_PAGE_CSP)
  await expect(page.getByRole('heading', { name: 'Leave kiosk mode' })).toBeVisible()
  const name = page.getByLabel('Administrator name')
  const secret = page.getByLabel('PIN or password')
  await expect(name).toBeFocused()
  await name.fill(ADMIN.name)
  await secret.fill('wrong-secret')
  await page.getByRole('button', { name: 'Unlock' }).click()
  await expect(page.getByRole('alert')).toHaveText('That name and PIN or password do not match an active staff account.')
  await page.setViewportSize({ width: 380, height: 400 })
  await page.screenshot({ path: 'test-results/screens/staff-pin.png' })
  // The secret is cleared after each try; the name stays.
  await expect(secret).toHaveValue('')
  await expect(secret).toBeFocused()
  await expect(name).toHaveValue(ADMIN.name)
  await secret.fill(ADMIN.secret)
  await secret.press('Enter')
  await expect(page.getByRole('alert')).toHaveText('Unlocked.')
  expect(events).toEqual(['unlock'])
  expect(problems).toEqual([])
})

test('after repeated failures the prompt says how long to wait', async ({ page }) => {
  const { prompt, events } = setup()
  await serve(page, prompt)
  await page.goto(prompt.begin().replace(PIN_ORIGIN, HOST))
  await page.getByLabel('Administrator name').fill(ADMIN.name)
  for (const attempt of ['wrong-1', 'wrong-2', ADMIN.secret]) {
    await page.getByLabel('PIN or password').fill(attempt)
    await page.getByRole('button', { name: 'Unlock' }).click()
    await expect(page.getByRole('button', { name: 'Unlock' })).toBeEnabled()
  }
  await expect(page.getByRole('alert')).toHaveText('Too many failed sign-ins. Try again in 5 seconds.')
  expect(events).toEqual([])
})

test('Cancel and Escape close the prompt without unlocking', async ({ page }) => {
  const { prompt, events } = setup()
  await serve(page, prompt)
  await page.goto(prompt.begin().replace(PIN_ORIGIN, HOST))
  await page.getByRole('button', { name: 'Cancel' }).click()
  await expect.poll(() => events).toEqual(['cancel'])
  await page.goto(prompt.begin().replace(PIN_ORIGIN, HOST))
  await page.getByLabel('Administrator name').press('Escape')
  await expect.poll(() => events).toEqual(['cancel', 'cancel'])
})

test('a page without the prompt’s session token cannot unlock', async ({ page }) => {
  const { prompt, events } = setup()
  await serve(page, prompt)
  prompt.begin()
  await page.goto(`${HOST}/?s=guessed`)
  await page.getByLabel('Administrator name').fill(ADMIN.name)
  await page.getByLabel('PIN or password').fill(ADMIN.secret)
  await page.getByRole('button', { name: 'Unlock' }).click()
  await expect(page.getByRole('alert')).toContainText('This prompt has expired')
  expect(events).toEqual([])
})

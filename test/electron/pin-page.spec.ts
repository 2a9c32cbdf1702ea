import { expect, test, type Page } from '@playwright/test'
import { PinGate } from '../../electron/main/kiosk-mode'
import { PIN_ORIGIN } from '../../electron/main/origins'
import { createStaffPinPrompt, PIN_PAGE_CSP, type StaffPinPrompt } from '../../electron/main/staff-pin'

// The staff PIN prompt is the only way out of kiosk mode, so its page runs here in a real browser:
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

function setup() {
  const events: string[] = []
  const prompt = createStaffPinPrompt({ gate: new PinGate('2468', { maxAttempts: 3 }), onUnlock: () => events.push('unlock'), onCancel: () => events.push('cancel') })
  return { prompt, events }
}

test('the right PIN unlocks, a wrong one says how many tries are left, under the page’s strict CSP', async ({ page }) => {
  const { prompt, events } = setup()
  const problems = await serve(page, prompt)
  const response = await page.goto(prompt.begin().replace(PIN_ORIGIN, HOST))
  expect(response?.headers()['content-security-policy']).toBe(PIN_PAGE_CSP)
  await expect(page.getByRole('heading', { name: 'Leave kiosk mode' })).toBeVisible()
  const pin = page.getByLabel('Staff PIN')
  await expect(pin).toBeFocused()
  await pin.fill('1357')
  await page.getByRole('button', { name: 'Unlock' }).click()
  await expect(page.getByRole('alert')).toHaveText('Wrong PIN. 2 attempts left before a pause.')
  await page.setViewportSize({ width: 380, height: 290 })
  await page.screenshot({ path: 'test-results/screens/staff-pin.png' })
  await expect(pin).toHaveValue('')
  await pin.fill('2468')
  await pin.press('Enter')
  await expect(page.getByRole('alert')).toHaveText('Unlocked.')
  expect(events).toEqual(['unlock'])
  expect(problems).toEqual([])
})

test('Cancel and Escape close the prompt without unlocking', async ({ page }) => {
  const { prompt, events } = setup()
  await serve(page, prompt)
  await page.goto(prompt.begin().replace(PIN_ORIGIN, HOST))
  await page.getByRole('button', { name: 'Cancel' }).click()
  await expect.poll(() => events).toEqual(['cancel'])
  await page.goto(prompt.begin().replace(PIN_ORIGIN, HOST))
  await page.getByLabel('Staff PIN').press('Escape')
  await expect.poll(() => events).toEqual(['cancel', 'cancel'])
})

test('a page without the prompt’s session token cannot unlock', async ({ page }) => {
  const { prompt, events } = setup()
  await serve(page, prompt)
  prompt.begin()
  await page.goto(`${HOST}/?s=guessed`)
  await page.getByLabel('Staff PIN').fill('2468')
  await page.getByRole('button', { name: 'Unlock' }).click()
  await expect(page.getByRole('alert')).toContainText('This prompt has expired')
  expect(events).toEqual([])
})

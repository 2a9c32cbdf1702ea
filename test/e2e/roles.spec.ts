import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { projectRoot } from '../support/process'
import { untilDone } from '../support/capture'
import { checkScreen } from '../support/screens'
import { signInAs, startWebHost, TEST_ADMIN, type TestWebHost } from '../support/web-host'

// Who may do what, on the kiosk as `npm run start:web` runs it: the services decide every call by
// the tab's session; the UI shows each role only what it may use.
let host: TestWebHost
const fixture = (name: string) => readFileSync(join(projectRoot, 'test/fixtures/generated', name)).toString('base64')
const OPERATOR = { name: 'Olga Operator', secret: '246810' }

test.beforeAll(async () => {
  host = await startWebHost()
})

test.afterAll(async () => {
  expect(await host.stop()).toBe(0)
})

async function open(page: Page, url = host.launchUrl): Promise<void> {
  await page.goto('about:blank') // a fresh load: a new tab session, a visitor's
  await page.goto(url)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome')
}


/** Calls window.kiosk[method] in the page (the tab's own session) and answers its error code, or 'allowed'. */
async function callFromPage(page: Page, method: string, input: unknown = {}): Promise<string> {
  return page.evaluate(
    async ([m, i]) => {
      try {
        await (window as any).kiosk[m as string](i)
        return 'allowed'
      } catch (error) {
        return String((error as { code?: string }).code ?? error)
      }
    },
    [method, input] as const,
  )
}

const navTitles = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('button').allTextContents()

test('first run: the kiosk asks for its first administrator, who is then signed in', async ({ page }) => {
  test.setTimeout(180_000)
  const fresh = await startWebHost({ firstRun: true })
  try {
    await page.goto(fresh.launchUrl)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Set up the kiosk')
    // Nowhere else to go yet.
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0)
    await checkScreen(page, 'first-run-choice')
    // On its own: today's path, the kiosk's own first administrator.
    await page.getByRole('button', { name: /^Set up this kiosk on its own/ }).click()
    await expect(page.getByRole('heading', { level: 2, name: 'Set up this kiosk on its own' })).toBeFocused()
    await checkScreen(page, 'first-run')

    // Mistakes are named under their fields.
    await page.getByLabel('Administrator’s name').fill('A')
    await page.getByLabel('PIN or password', { exact: true }).fill('12345')
    await page.getByRole('button', { name: 'Create administrator' }).click()
    await expect(page.getByLabel('Administrator’s name')).toHaveAccessibleDescription(/The name must use 2–64 letters/)
    await expect(page.getByLabel('PIN or password', { exact: true })).toHaveAccessibleDescription(/must use at least 6 characters/)
    await page.getByLabel('Administrator’s name').fill(TEST_ADMIN.name)
    await page.getByLabel('PIN or password', { exact: true }).fill(TEST_ADMIN.secret)
    await page.getByLabel('Confirm PIN or password').fill(`${TEST_ADMIN.secret}x`)
    await page.getByRole('button', { name: 'Create administrator' }).click()
    await expect(page.getByLabel('Confirm PIN or password')).toHaveAccessibleDescription(/The two entries differ/)
    await checkScreen(page, 'first-run-errors')

    await page.getByLabel('Confirm PIN or password').fill(TEST_ADMIN.secret)
    // The hashing takes seconds: the page says it is working, and a second press does nothing.
    // (The reply is held back until the state is seen, so the check waits on it, not on the clock.)
    let release: () => void = () => undefined
    const held = new Promise<void>((done) => (release = done))
    await page.route('**/bridge/createFirstAdmin', async (route) => {
      await held
      await route.continue()
    })
    const create = page.getByRole('button', { name: 'Create administrator' })
    await create.click()
    await expect(page.getByRole('status').filter({ hasText: 'Creating the administrator…' })).toBeVisible()
    await expect(create).toBeDisabled()
    await expect(page.getByLabel('Administrator’s name')).toBeDisabled()
    await create.click({ force: true })
    release()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Accounts')
    await page.unroute('**/bridge/createFirstAdmin')
    // Creating the first administrator signed them in: that counts as their last sign-in.
    await expect(page.getByTestId('accounts').getByRole('row', { name: new RegExp(`^${TEST_ADMIN.name} \\(you\\)`) })).not.toContainText('Never')
    await expect(page.getByTestId('signed-in-as')).toHaveText(`Signed in as ${TEST_ADMIN.name} (Administrator)`)
    await expect(page.getByTestId('accounts').getByRole('rowheader', { name: `${TEST_ADMIN.name} (you)` })).toBeVisible()
    expect(await navTitles(page)).toEqual(expect.arrayContaining(['Settings', 'Accounts', 'Admin', 'Persons']))

    // A second first administrator is refused by the services, even from the page.
    expect(await callFromPage(page, 'createFirstAdmin', { name: 'Someone Else', secret: 'another-secret' })).toBe('FORBIDDEN')
    // Once set up, a new page is a visitor's Home, not the set-up.
    await open(page, fresh.launchUrl)
    expect(await page.evaluate(() => (window as any).kiosk.getSession({}))).toMatchObject({ role: 'visitor', account: null, firstRun: false })
    await signInAs(page)
    await expect(page.getByTestId('signed-in-as')).toHaveText(`Signed in as ${TEST_ADMIN.name} (Administrator)`)
  } finally {
    // The host closes once no page holds its event stream, and handles SIGTERM once its engine runs.
    await page.goto('about:blank')
    await expect.poll(async () => (await fresh.bridge<{ state: string }>('getEngineStatus')).state, { timeout: 0 }).toBe('running')
    expect(await fresh.stop()).toBe(0)
  }
})

test('a visitor sees no staff screen, and the services refuse staff methods called from the page', async ({ page }) => {
  await open(page)
  expect(await navTitles(page)).toEqual(['Home', 'Enroll visitor', 'Verify identity'])
  await expect(page.locator('.tiles').getByRole('button')).toHaveCount(4)
  await expect(page.getByRole('button', { name: /Who is this\?/ })).toHaveCount(0)
  await expect(page.getByRole('button', { name: /Face match/ })).toHaveCount(0)
  await expect(page.getByTestId('signed-in-as')).toHaveCount(0)

  expect(await callFromPage(page, 'listAccounts')).toBe('FORBIDDEN')
  expect(await callFromPage(page, 'searchPersons', {})).toBe('FORBIDDEN')
  expect(await callFromPage(page, 'identifyVisitor', { sample: fixture('person-a1.jpg') })).toBe('FORBIDDEN')
  expect(await callFromPage(page, 'faceMatch', { image1: fixture('person-a1.jpg'), image2: fixture('person-b.jpg') })).toBe('FORBIDDEN')
  expect(await callFromPage(page, 'getSettings')).toBe('FORBIDDEN')
  expect(await callFromPage(page, 'saveSettings', { idleTimeoutSeconds: 600 })).toBe('FORBIDDEN')
  const message = await page.evaluate(() => (window as any).kiosk.listAccounts({}).catch((e: Error) => e.message))
  expect(message).toBe('Staff must sign in to do this.')
  // What a visitor may read: the session, and the outbox counts without the items.
  expect(await page.evaluate(() => (window as any).kiosk.getSession({}))).toMatchObject({ role: 'visitor', account: null, firstRun: false })
  expect((await page.evaluate(() => (window as any).kiosk.getOutbox({}))).items).toEqual([])
  // The UI still works after the refusals: still a visitor's Home.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome')
})

test('sign-in: after too many failed tries the wait counts down, the form takes no try meanwhile, and it clears when the wait is over', async ({ page }) => {
  await open(page)
  await page.getByRole('button', { name: 'Staff sign-in' }).click()
  const form = page.getByRole('region', { name: 'Staff sign-in' })
  const signIn = form.getByRole('button', { name: 'Sign in' })
  const alert = form.getByRole('alert')
  // A name nobody has: its back-off is the services' own, and no real account is paused.
  const said = async () => ((await alert.count()) > 0 ? ((await alert.textContent()) ?? '') : '')
  for (let tries = 0; tries < 6 && !/Too many/.test(await said()); tries++) {
    await form.getByLabel('Name', { exact: true }).fill('nobody.here')
    await form.getByLabel('PIN or password', { exact: true }).fill('wrong-secret')
    await signIn.click()
    await expect(alert).toBeVisible()
  }
  await expect(alert).toHaveText(/^Too many failed sign-ins\. Try again in \d+ seconds?\.$/)
  await expect(signIn).toBeDisabled()
  const first = Number(/in (\d+)/.exec((await alert.textContent())!)![1])
  // It counts down, one second at a time…
  await expect(alert).toHaveText(`Too many failed sign-ins. Try again in ${first - 1} second${first - 1 === 1 ? '' : 's'}.`, untilDone)
  // …and when the wait is over the message goes and the form takes a try again.
  await expect(alert).toHaveCount(0, untilDone)
  await expect(signIn).toBeEnabled()
})

test('sign-in: a wrong PIN is refused with the services’ words; the form is accessible', async ({ page }) => {
  await open(page)
  await page.getByRole('button', { name: 'Staff sign-in' }).click()
  const form = page.getByRole('region', { name: 'Staff sign-in' })
  await expect(form.getByLabel('Name', { exact: true })).toBeFocused()
  await checkScreen(page, 'sign-in')
  await form.getByRole('button', { name: 'Sign in' }).click()
  await expect(form.getByLabel('Name', { exact: true })).toHaveAccessibleDescription('Enter your name.')
  await form.getByLabel('Name', { exact: true }).fill(TEST_ADMIN.name)
  await form.getByLabel('PIN or password', { exact: true }).fill('not-the-secret')
  await form.getByRole('button', { name: 'Sign in' }).click()
  await expect(form.getByRole('alert')).toHaveText('That name and PIN or password do not match an active staff account.')
  await expect(form.getByLabel('PIN or password', { exact: true })).toHaveValue('')
  await checkScreen(page, 'sign-in-refused')
  await form.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByRole('button', { name: 'Staff sign-in' })).toBeVisible()
  await signInAs(page)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Persons')
  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome')
  await expect(page.getByTestId('signed-in-as')).toHaveCount(0)
  expect(await navTitles(page)).toEqual(['Home', 'Enroll visitor', 'Verify identity'])
  expect(await callFromPage(page, 'searchPersons', {})).toBe('FORBIDDEN')
})

test('an administrator adds an operator, who sees the operator screens only', async ({ page }) => {
  await open(page)
  await signInAs(page)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Accounts', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Accounts')
  const table = page.getByTestId('accounts')
  await expect(table.getByRole('rowheader', { name: `${TEST_ADMIN.name} (you)` })).toBeVisible()
  await checkScreen(page, 'accounts')

  // Too short a PIN: named under its field, nothing sent.
  await page.getByLabel('Name', { exact: true }).fill(OPERATOR.name)
  await page.getByLabel('PIN or password', { exact: true }).fill('123')
  await page.getByRole('button', { name: 'Add account' }).click()
  await expect(page.getByLabel('PIN or password', { exact: true })).toHaveAccessibleDescription(/must use at least 6 characters/)

  await page.getByLabel('PIN or password', { exact: true }).fill(OPERATOR.secret)
  await page.getByLabel('Confirm PIN or password').fill(OPERATOR.secret)
  await expect(page.getByLabel('Role')).toHaveValue('operator')
  await page.getByRole('button', { name: 'Add account' }).click()
  await expect(page.getByText(`${OPERATOR.name} was added as an operator.`)).toBeVisible()
  const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: OPERATOR.name, exact: true }) })
  await expect(row).toContainText('Operator')
  await expect(row).toContainText('Active')
  await expect(row).toContainText('Never')

  // The same name again: the services' own message.
  await page.getByLabel('Name', { exact: true }).fill(OPERATOR.name)
  await page.getByLabel('PIN or password', { exact: true }).fill('another-secret')
  await page.getByLabel('Confirm PIN or password').fill('another-secret')
  await page.getByRole('button', { name: 'Add account' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'The account was not added' })).toContainText(`An account named ${OPERATOR.name} already exists.`)
  await checkScreen(page, 'accounts-error')

  // Disabled, the operator cannot sign in; enabled again, they can.
  await page.getByRole('button', { name: `Disable ${OPERATOR.name}` }).click()
  await expect(row).toContainText('Disabled')
  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome')
  expect(await callFromPage(page, 'signIn', OPERATOR)).toBe('UNAUTHORIZED')
  await signInAs(page)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Accounts', exact: true }).click()
  await page.getByRole('button', { name: `Enable ${OPERATOR.name}` }).click()
  await expect(row).toContainText('Active')
  await page.getByRole('button', { name: 'Sign out' }).click()

  // The operator: persons, outbox, audit, invites, identify and face match; no settings, admin or accounts.
  await signInAs(page, OPERATOR.name, OPERATOR.secret)
  await expect(page.getByTestId('signed-in-as')).toHaveText(`Signed in as ${OPERATOR.name} (Operator)`)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Persons')
  expect(await navTitles(page)).toEqual(['Home', 'Enroll visitor', 'Verify identity', 'Who is this?', 'Face match', 'Persons', 'Outbox', 'Audit', 'Visits', 'Invites', 'Watchlist'])
  for (const title of ['Outbox', 'Audit', 'Visits', 'Invites', 'Watchlist', 'Persons']) {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: title, exact: true }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)
  }
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Home', exact: true }).click()
  await expect(page.locator('.tiles').getByRole('button')).toHaveCount(6)
  expect(await callFromPage(page, 'listAccounts')).toBe('FORBIDDEN')
  expect(await callFromPage(page, 'getSettings')).toBe('allowed')
  expect(await callFromPage(page, 'saveSettings', { idleTimeoutSeconds: 600 })).toBe('FORBIDDEN')
  // Their sign-in is on the Accounts screen now.
  const accounts = await host.bridge<Array<{ name: string; lastSignInAt: number | null }>>('listAccounts', {})
  expect(accounts.find((a) => a.name === OPERATOR.name)?.lastSignInAt).not.toBeNull()
})

test('idle: a staff session ends by itself, and the screen goes back to Home as a visitor', async ({ page }) => {
  test.setTimeout(120_000)
  await host.bridge('saveSettings', { idleTimeoutSeconds: 15 })
  try {
    await open(page)
    await signInAs(page)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Audit', exact: true }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Audit')
    // Nobody touches the screen: back to Home, signed out.
    await expect(page.getByRole('button', { name: 'Staff sign-in' })).toBeVisible({ timeout: 0 })
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome')
    await expect(page.getByTestId('signed-in-as')).toHaveCount(0)
    await expect.poll(() => page.evaluate(() => (window as any).kiosk.getSession({}).then((s: { role: string }) => s.role)), { timeout: 0 }).toBe('visitor')
    expect(await navTitles(page)).toEqual(['Home', 'Enroll visitor', 'Verify identity'])
    expect(await callFromPage(page, 'getAuditLog', {})).toBe('FORBIDDEN')
  } finally {
    // The helper's own session has gone idle too: it signs in again by itself.
    await host.bridge('saveSettings', { idleTimeoutSeconds: 90 })
  }
})

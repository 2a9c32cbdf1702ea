import { randomUUID } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { FRONTDESK_PREFIX } from '../../electron/shared/frontdesk-api'
import type { SyncMutation } from '../../electron/shared/site-sync'
import { expectFits, expectNavShown, expectTouchTargets, kioskSizes, layoutFacts } from '../support/layout'
import { checkScreen, expectAccessible, screensDir } from '../support/screens'
import { startTestEngine, TEST_TENANT, type TestEngine } from '../support/engine'
import { untilDone } from '../support/capture'
import { signInAs, startWebHost, TEST_ADMIN, type TestWebHost } from '../support/web-host'

// Joining a site from the first-run screen, and the Kiosks screen. The site here is one real
// engine (the code every engine of a site runs: /frontdesk/v1 and its pairing route) on its own
// SQLite, in this process, started with a tenant as `npm run site` starts its engines. It is not
// a whole `npm run site` (PostgreSQL, haproxy): test/integration covers the site as it runs.

test.describe.configure({ timeout: 240_000 })

let site: TestEngine

test.beforeAll(async () => {
  site = await startTestEngine([], undefined, { tenant: TEST_TENANT })
})

test.afterAll(async () => {
  await site?.close()
})

const joinForm = (page: Page) => page.locator('form.join-site')

/** A first-run kiosk's page on "Join a site". */
async function openJoin(page: Page, host: TestWebHost): Promise<void> {
  await page.goto(host.launchUrl)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Set up the kiosk')
  await page.getByRole('button', { name: /^Join a site/ }).click()
  await expect(page.getByRole('heading', { level: 2, name: 'Join a site' })).toBeFocused()
}

async function fillJoin(page: Page, url: string, code: string, name = ''): Promise<void> {
  await page.getByLabel('Site address').fill(url)
  await page.getByLabel('Pairing code').fill(code)
  await page.getByLabel('This kiosk’s name (optional)').fill(name)
  await page.getByRole('button', { name: 'Join the site' }).click()
}

/** A joined kiosk's Home opens the site's sign-in: the site's administrator signs in there. */
async function signInOnHome(page: Page): Promise<void> {
  const signIn = page.getByRole('region', { name: 'Staff sign-in' })
  await signIn.getByLabel('Name', { exact: true }).fill(TEST_ADMIN.name)
  await signIn.getByLabel('PIN or password', { exact: true }).fill(TEST_ADMIN.secret)
  await signIn.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByTestId('signed-in-as')).toHaveText(`Signed in as ${TEST_ADMIN.name} (Administrator)`, untilDone)
}

/** The host closes once no page holds its event stream, and handles SIGTERM once its own engine runs (on a site it has none: 'stopped'). */
async function stopHost(page: Page, host: TestWebHost): Promise<void> {
  await page.goto('about:blank')
  await expect.poll(async () => (await host.bridge<{ state: string }>('getEngineStatus')).state, untilDone).toMatch(/^(running|stopped)$/)
  expect(await host.stop()).toBe(0)
}

test('first run, Join a site: a malformed code is named at once, a wrong one is the site’s refusal in place, an unreachable site says so', async ({ page }) => {
  const fresh = await startWebHost({ firstRun: true })
  try {
    await openJoin(page, fresh)
    // What joining does, and where a code comes from, are said before anything is typed.
    await expect(page.getByText(/Joining makes this kiosk one of the site’s kiosks, and its front desk the site’s/)).toBeVisible()
    await expect(page.getByText(/npm run site -- pair/).first()).toBeVisible()
    await checkScreen(page, 'first-run-join')

    // Checked in the page with the contract's own rules: nothing is sent.
    await fillJoin(page, 'site.example.com', 'abc')
    await expect(page.getByLabel('Site address')).toHaveAccessibleDescription(/starting with http:\/\/ or https:\/\//)
    await expect(page.getByLabel('Pairing code')).toHaveAccessibleDescription(/A pairing code has 8 letters and digits; this has 3\./)
    await expect(page.getByLabel('Site address')).toBeFocused()
    await fillJoin(page, site.url, 'ABCD-EFG0')
    await expect(page.getByLabel('Pairing code')).toHaveAccessibleDescription(/no 0, O, 1, I or L/)

    // A code the site never made, typed as people type it (lower case, a dash): the site refuses it.
    await fillJoin(page, site.url, 'abcd-efgh', 'Lobby')
    const refusal = joinForm(page).getByRole('alert')
    await expect(refusal).toContainText('The site refused the pairing code', untilDone)
    await expect(refusal).toContainText('A code works once, for 15 minutes')
    // The site's own words, where the services pass them on to the first-run screen's visitor.
    if ((await page.getByTestId('join-refusal').count()) > 0) await expect(page.getByTestId('join-refusal')).toContainText('This pairing code is wrong')
    // In place: the form as typed, the code field ready to be typed again, still a first run.
    await expect(page.getByLabel('Site address')).toHaveValue(site.url)
    await expect(page.getByLabel('This kiosk’s name (optional)')).toHaveValue('Lobby')
    await expect(page.getByLabel('Pairing code')).toBeFocused()
    await expect(page.getByRole('button', { name: 'Join the site' })).toBeEnabled()
    await checkScreen(page, 'first-run-join-refused')
    expect(await fresh.bridge('getSession')).toMatchObject({ firstRun: true })

    // Nobody answers at this address: said as such, with what to check.
    await fillJoin(page, 'http://127.0.0.1:9', 'abcd-efgh')
    await expect(joinForm(page).getByRole('alert')).toContainText('The site could not be reached', untilDone)
    await expect(page.getByLabel('Site address')).toBeFocused()

    // Back to the choice; the kiosk can still be set up on its own.
    await page.getByRole('button', { name: 'Back' }).click()
    await expect(page.getByRole('button', { name: /^Set up this kiosk on its own/ })).toBeVisible()
  } finally {
    await stopHost(page, fresh)
  }
})

test('Kiosks on a kiosk on its own: not on a site, see Settings; there an administrator joins it to a site, whose staff sign in next', async ({ page }) => {
  const alone = await startWebHost()
  try {
    await page.goto(alone.launchUrl)
    await expect(page.getByTestId('engine-state')).toHaveText('Ready', untilDone)
    await signInAs(page)
    const nav = page.getByRole('navigation', { name: 'Main' })
    // Beside Accounts, for administrators.
    const titles = await nav.getByRole('button').allTextContents()
    expect(titles.indexOf('Kiosks')).toBe(titles.indexOf('Accounts') + 1)
    await nav.getByRole('button', { name: 'Kiosks', exact: true }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Kiosks')
    await expect(page.getByTestId('not-on-site')).toContainText('This kiosk is not on a site')
    await expect(page.getByTestId('not-on-site')).toContainText('open Settings and use “Join a site”')
    // The services say the same to a direct call.
    await expect(alone.bridge('listKiosks')).rejects.toThrow(/NOT_CONFIGURED/)
    await checkScreen(page, 'kiosks-alone')
    await page.getByRole('button', { name: 'Open Settings' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Settings')
    await expect(page.getByRole('radio', { name: 'Embedded engine' })).toBeChecked()

    // An administrator joins it to a site from Settings; the site's staff sign in next.
    if ((await site.engine.ctx.frontDesk.accountCount()) === 0) await site.engine.ctx.frontDesk.createFirstAdmin(TEST_ADMIN.name, TEST_ADMIN.secret, null)
    const join = page.getByRole('region', { name: 'Join a site' })
    await join.getByRole('heading', { name: 'Join a site' }).scrollIntoViewIfNeeded()
    await expect(join).toContainText('Joining makes this kiosk one of the site’s kiosks, and its front desk the site’s')
    await checkScreen(page, 'settings-join-site')
    const { code } = await site.engine.ctx.frontDesk.createPairingCode('e2e')
    await join.getByLabel('Site address').fill(site.url)
    await join.getByLabel('Pairing code').fill(code)
    await join.getByLabel('This kiosk’s name (optional)').fill('Back office')
    await join.getByRole('button', { name: 'Join the site' }).click()
    const signIn = page.getByRole('region', { name: 'Staff sign-in' })
    await expect(signIn.getByTestId('joined-site')).toContainText(`It is Back office on the site at ${site.url}.`, untilDone)
    await expect(page.getByTestId('signed-in-as')).toHaveCount(0)
    expect((await site.engine.ctx.frontDesk.listKiosks()).map((k) => k.name)).toContain('Back office')
  } finally {
    await stopHost(page, alone)
  }
})

/** The screen as it is now at every kiosk size: no page scrolling, 44 px targets, the whole navigation, axe at the smallest and the portrait size; a screenshot each. */
async function tourSizes(page: Page, name: string, buttons: string[]): Promise<void> {
  for (const size of kioskSizes) {
    await page.setViewportSize({ width: size.width, height: size.height })
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))
    const what = `${size.name} ${name}`
    const facts = await layoutFacts(page, buttons)
    expect.soft(facts.buttonsOutOfView, `${what}: buttons not on screen`).toEqual([])
    expectFits(facts, what, { mainMayScroll: true })
    expectTouchTargets(facts, what)
    expectNavShown(facts, what)
    if (size === kioskSizes[0] || size === kioskSizes[kioskSizes.length - 1]) await expectAccessible(page)
    mkdirSync(join(screensDir, size.name), { recursive: true })
    await page.screenshot({ path: join(screensDir, size.name, `${name}.png`) })
  }
  await page.setViewportSize({ width: kioskSizes[0].width, height: kioskSizes[0].height })
}

test('joined with the site’s code: the site’s first administrator, its Kiosks, a pairing code, a kiosk removed, Settings on the site', async ({ page }) => {
  // A site of its own: no staff yet, whatever the other tests made.
  const ownSite = await startTestEngine([], undefined, { tenant: TEST_TENANT })
  const fresh = await startWebHost({ firstRun: true })
  try {
    const { code } = await ownSite.engine.ctx.frontDesk.createPairingCode('e2e')
    await openJoin(page, fresh)
    // Read off a screen in two groups and typed in lower case: the same code.
    await fillJoin(page, ownSite.url, `${code.slice(0, 4).toLowerCase()} ${code.slice(4).toLowerCase()}`, 'Lobby')
    // The site has no staff yet: its first administrator is made here.
    await expect(page.getByRole('heading', { level: 2, name: 'Create the site’s first administrator' })).toBeVisible(untilDone)
    await expect(page.getByText(`This kiosk is on the site at ${ownSite.url}, which has no staff yet.`)).toBeVisible()
    await checkScreen(page, 'first-run-site-admin')
    await page.getByLabel('Administrator’s name').fill(TEST_ADMIN.name)
    await page.getByLabel('PIN or password', { exact: true }).fill(TEST_ADMIN.secret)
    await page.getByLabel('Confirm PIN or password').fill(TEST_ADMIN.secret)
    await page.getByRole('button', { name: 'Create administrator' }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Accounts', untilDone)
    // The account is the site's.
    expect((await ownSite.engine.ctx.frontDesk.listAccounts()).map((a) => a.name)).toEqual([TEST_ADMIN.name])

    const nav = page.getByRole('navigation', { name: 'Main' })
    await nav.getByRole('button', { name: 'Kiosks', exact: true }).click()
    const table = page.getByTestId('kiosks')
    // The kiosk staff stand at is marked: the site knows which kiosk asks.
    await expect(table.getByRole('rowheader', { name: 'Lobby (this kiosk)', exact: true })).toBeVisible()
    await expect(page.getByText('Add a kiosk')).toBeVisible()
    await expect(page.getByText(ownSite.url).first()).toBeVisible()

    // A code for the next kiosk: large, in two groups of four, with when it stops working.
    await page.getByRole('button', { name: 'Make a pairing code' }).click()
    const shown = page.getByTestId('pairing-code')
    await expect(shown).toHaveText(/^[2-9A-HJKMNP-Z]{4} [2-9A-HJKMNP-Z]{4}$/)
    await expect(page.getByTestId('pairing-expiry')).toContainText('Works once, until')
    await tourSizes(page, 'kiosks-site', ['Make a pairing code'])

    // Another kiosk joins with it (as its services would), and an administrator removes it.
    const paired = await fetch(`${ownSite.url}${FRONTDESK_PREFIX}/pair`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: await shown.textContent(), name: 'Side door' }) })
    expect(paired.status).toBe(200)
    await nav.getByRole('button', { name: 'Accounts', exact: true }).click()
    await nav.getByRole('button', { name: 'Kiosks', exact: true }).click()
    await expect(table.getByRole('rowheader', { name: 'Side door', exact: true })).toBeVisible()
    // Each kiosk's copy of the site: this one has pulled since it joined (the pairing just now may put it a change behind); the new one never has.
    await expect(table.getByRole('row', { name: /Lobby \(this kiosk\)/ })).toContainText(/Up to date|1 change behind since/)
    await expect(table.getByRole('row', { name: /Side door/ })).toContainText('Not copied yet')
    // How each is: this kiosk reported on connecting (its version); the new one has not reported.
    await expect(table.getByRole('row', { name: /Lobby \(this kiosk\)/ })).toContainText(/\(version [^)]+\)/)
    await expect(table.getByRole('row', { name: /Side door/ })).toContainText('No report yet')
    await page.getByRole('button', { name: 'Remove Side door' }).click()
    const dialog = page.getByRole('dialog', { name: 'Remove Side door from the site?' })
    await expect(dialog).toContainText('The site refuses Side door at once: every call it makes from now on is turned away')
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused()
    await checkScreen(page, 'kiosks-remove')
    await dialog.getByRole('button', { name: 'Remove kiosk' }).click()
    await expect(page.getByText('Side door was removed: the site refuses it from now on.')).toBeVisible()
    await expect(table.getByRole('rowheader', { name: 'Side door' })).toHaveCount(0)
    expect((await ownSite.engine.ctx.frontDesk.listKiosks()).map((k) => k.name)).toEqual(['Lobby'])

    // Settings: on the site, under the name it joined with; the servers are not typed here.
    await nav.getByRole('button', { name: 'Settings', exact: true }).click()
    await expect(page.getByTestId('site-facts')).toContainText(`On the site ${ownSite.url} as Lobby.`)
    await expect(page.getByTestId('site-facts')).toContainText('the visitor retention are kept by the site')
    await expect(page.getByRole('radio', { name: 'Embedded engine' })).toHaveCount(0)
    await expect(page.getByLabel('Person server address')).toHaveCount(0)
    await expect(page.getByRole('heading', { name: 'Join a site' })).toHaveCount(0)
    // The credentials are the ones pairing gave: not offered for editing on a site.
    await expect(page.getByRole('heading', { name: 'Credentials' })).toHaveCount(0)
    await checkScreen(page, 'settings-site')

    // A new tab (the same URL in this one only changes its hash, staff still signed in): a visitor's
    // Home; the site's administrator signs in there.
    const tab = await page.context().newPage()
    try {
      await tab.goto(fresh.launchUrl)
      await signInAs(tab)
    } finally {
      await tab.close()
    }
  } finally {
    await stopHost(page, fresh)
    await ownSite.close()
  }
})

test('a second kiosk joins a site that has staff: Home opens the site’s sign-in, and the site’s administrator signs in', async ({ page }) => {
  // Run alone (-g), the site has no staff yet: it gets its administrator as a kiosk would make it.
  if ((await site.engine.ctx.frontDesk.accountCount()) === 0) await site.engine.ctx.frontDesk.createFirstAdmin(TEST_ADMIN.name, TEST_ADMIN.secret, null)
  const second = await startWebHost({ firstRun: true })
  try {
    const { code } = await site.engine.ctx.frontDesk.createPairingCode('e2e')
    await openJoin(page, second)
    await fillJoin(page, site.url, code, 'Side entrance')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome', untilDone)
    const signIn = page.getByRole('region', { name: 'Staff sign-in' })
    await expect(signIn.getByTestId('joined-site')).toHaveText(`It is Side entrance on the site at ${site.url}. Its staff are the site’s: sign in with an account of the site.`)
    await expect(signIn.getByLabel('Name', { exact: true })).toBeFocused()
    await checkScreen(page, 'home-joined-sign-in')
    await signInOnHome(page)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Kiosks', exact: true }).click()
    await expect(page.getByTestId('kiosks').getByRole('rowheader', { name: 'Side entrance' })).toBeVisible()
  } finally {
    await stopHost(page, second)
  }
})

test('an invitation code taken at two kiosks while the site was away: staff at a kiosk of the site are alerted at once, naming both, and dismiss it for every kiosk', async ({ page }) => {
  if ((await site.engine.ctx.frontDesk.accountCount()) === 0) await site.engine.ctx.frontDesk.createFirstAdmin(TEST_ADMIN.name, TEST_ADMIN.secret, null)
  const desk = site.engine.ctx.frontDesk
  const reception = await startWebHost({ firstRun: true })
  try {
    await openJoin(page, reception)
    await fillJoin(page, site.url, (await desk.createPairingCode('e2e')).code, 'Reception')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome', untilDone)
    await signInOnHome(page)
    await expect(page.getByTestId('invite-alert')).toHaveCount(0)

    // Two doors, each cut off from the site, let the same invited visitor in with one code.
    const email = `guest-${randomUUID().slice(0, 8)}@example.com`
    const { invite } = await desk.createInvite({ email, hostId: null, date: new Date().toISOString().slice(0, 10), expiresAt: Date.now() + 86_400_000, createdBy: TEST_ADMIN.name })
    const north = await desk.redeemPairingCode((await desk.createPairingCode('e2e')).code, 'North door')
    const south = await desk.redeemPairingCode((await desk.createPairingCode('e2e')).code, 'South door')
    const checkIn = (at: number): SyncMutation => ({
      kind: 'check-in',
      id: randomUUID(),
      seq: 1,
      at,
      args: { person: { personUuid: randomUUID(), email, firstName: 'Gina' }, hostId: null, purpose: null, asLastTime: false, inviteId: invite.id },
    })
    await desk.syncPush(north.id, [checkIn(Date.now() - 120_000)])
    await desk.syncPush(south.id, [checkIn(Date.now() - 60_000)])

    // One alert on the staff screen (the site's event brings it): both doors and the visitor named.
    const alert = page.getByTestId('invite-alert')
    await expect(alert).toHaveCount(1)
    await expect(alert).toContainText(email)
    await expect(alert).toContainText('North door')
    await expect(alert).toContainText('South door')
    await alert.getByRole('button', { name: /^Dismiss/ }).click()
    await expect(alert).toHaveCount(0)
    expect(await desk.inviteAlerts()).toEqual([])
  } finally {
    await stopHost(page, reception)
  }
})

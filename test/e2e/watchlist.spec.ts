import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { CONSENT } from '../../electron/shared/consent'
import en from '../../renderer/src/i18n/locales/en.json' with { type: 'json' }
import { capture, untilDone } from '../support/capture'
import { consentBox } from '../support/consent'
import { projectRoot } from '../support/process'
import { expectAccessible, openStaffScreen } from '../support/screens'
import { signInAs, startWebHost, type TestWebHost } from '../support/web-host'

// A watchlisted face at the kiosk, in Debian Chromium against the web host and the real embedded
// engine. The fake webcam shows test/fixtures/generated/face.png; that face is enrolled and put on
// the watchlist first. Staff and visitor are two tabs of the web host: each tab is its own session,
// as a front desk's staff screen beside the visitors' kiosk would be.
const LISTED = 'listed.person@example.com'
const REASON = 'Banned from the premises after an incident'
const ANOTHER = 'a.new.name@example.com'

test.describe.configure({ mode: 'serial', timeout: 180_000 })

let host: TestWebHost

test.beforeAll(async () => {
  host = await startWebHost()
  await expect.poll(async () => (await host.bridge('getEngineStatus')).state, untilDone).toBe('running')
  const face = readFileSync(join(projectRoot, 'test/fixtures/generated/face.png')).toString('base64')
  await host.bridge('enrollVisitor', { userId: LISTED, samples: [face], consent: true, consentVersion: CONSENT.version })
  await host.bridge('addToWatchlist', { email: LISTED, reason: REASON })
})

test.afterAll(async () => {
  await host.stop()
})

test('a watchlisted face enrolling reads only "Please see the front desk"; a signed-in staff tab is alerted at once', async ({ browser, page: visitor }) => {
  // Staff: signed in, on the Watchlist screen, which lists the person. A context of its own: its
  // clock is stopped below, and a clock is the whole context's.
  const staffContext = await browser.newContext({ viewport: { width: 1024, height: 768 } })
  const staff = await staffContext.newPage()
  await staff.clock.install()
  await openStaffScreen(staff, host.launchUrl, 'Watchlist')
  await expect(staff.getByTestId('watchlist').getByRole('rowheader', { name: LISTED })).toBeVisible()
  // From here the staff tab's timers stand still (no poll can fire): only the pushed event can bring the alert.
  await staff.clock.pauseAt(Date.now() + 1_000)
  await expect(staff.getByTestId('watchlist-alert')).toHaveCount(0)

  // The visitor, in another tab: enrolls the listed face under another e-mail.
  await visitor.goto(host.launchUrl)
  await visitor.locator('.tiles').getByRole('button', { name: /^Enroll visitor/ }).click()
  await visitor.getByLabel('Visitor’s e-mail').fill(ANOTHER)
  await consentBox(visitor).check()
  await visitor.getByRole('button', { name: 'Continue to photos' }).click()
  await capture(visitor.getByRole('heading', { name: 'Check the photos' }))
  await visitor.getByRole('button', { name: `Enroll ${ANOTHER}` }).click()

  // The visitor reads the plain words and nothing else: no reason, no listed e-mail, no alert.
  await expect(visitor.getByTestId('enroll-needs-staff')).toHaveText(en.enroll.seeFrontDesk, untilDone)
  await expect(visitor.getByText(/watchlist/i)).toHaveCount(0)
  await expect(visitor.getByText(REASON)).toHaveCount(0)
  await expect(visitor.getByText(LISTED)).toHaveCount(0)
  await expect(visitor.getByTestId('watchlist-alert')).toHaveCount(0)
  await expectAccessible(visitor)
  await visitor.screenshot({ path: 'test-results/screens/watchlist-visitor.png', fullPage: true })

  // Staff, in their tab: the alert with who, where and why, without anyone reloading.
  const alert = staff.getByTestId('watchlist-alert')
  await expect(alert).toHaveCount(1)
  await expect(alert).toContainText(`${LISTED} was stopped at enrollment`)
  await expect(alert).toContainText(`They gave the e-mail ${ANOTHER}.`)
  await expect(alert).toContainText(REASON)
  // The kiosk by what staff know it as, never its internal id.
  await expect(alert).toContainText('at this kiosk')
  await expect(alert).not.toContainText(/kiosk [0-9a-f]{8}-/)
  // One line: the Visits screen keeps its height at 768 px tall; More shows every word.
  expect((await alert.boundingBox())!.height).toBeLessThanOrEqual(48)
  const words = alert.locator('p')
  const cut = () => words.evaluate((p) => p.scrollWidth > p.clientWidth)
  expect(await cut()).toBe(true)
  const more = alert.getByRole('button', { name: `Show all of the alert about ${LISTED}` })
  await more.click()
  await expect(more).toHaveAttribute('aria-expanded', 'true')
  expect(await cut()).toBe(false)
  await more.click()
  // Time flows again (axe waits on timers).
  await staff.clock.resume()
  await expectAccessible(staff)
  await staff.screenshot({ path: 'test-results/screens/watchlist-alert.png', fullPage: true })

  // Nothing was enrolled; the stop is in the audit trail.
  expect(await host.bridge('findPerson', { userId: ANOTHER })).toMatchObject({ person: null })
  const audit = await host.bridge('getAuditLog', { actions: ['watchlist-hit'] })
  expect(audit.entries).toEqual([expect.objectContaining({ outcome: 'refused', subject: expect.objectContaining({ userId: ANOTHER }) })])

  // Dismissed: gone from the staff tab.
  await alert.getByRole('button', { name: `Dismiss the alert about ${LISTED}` }).click()
  await expect(staff.getByTestId('watchlist-alert')).toHaveCount(0)
  // Its event stream would keep the host from stopping.
  await staffContext.close()
})

test('an administrator takes a person off the watchlist and puts them back from their details; an operator only reads it', async ({ page }) => {
  await openStaffScreen(page, host.launchUrl, 'Persons')
  await page.getByRole('searchbox', { name: 'Find' }).fill(LISTED)
  await page.getByRole('button', { name: 'Search' }).click()
  await page.getByRole('button', { name: `Details of ${LISTED}` }).click()
  const section = page.getByTestId('person-watchlist')
  const status = section.getByTestId('person-watchlist-status')
  await expect(status).toContainText(`(added by Test Admin): ${REASON}`)

  await section.getByRole('button', { name: 'Take off' }).click()
  await expect(status).toHaveText('Not on the watchlist.')
  // No reason: said under the field, nothing sent.
  await section.getByRole('button', { name: 'Put on watchlist' }).click()
  await expect(section.getByText('Give a reason: staff who meet this person read it.')).toBeVisible()
  await section.getByLabel('Reason', { exact: true }).fill('Seen tailgating at the gate')
  await section.getByRole('button', { name: 'Put on watchlist' }).click()
  await expect(status).toContainText('(added by Test Admin): Seen tailgating at the gate')
  await expectAccessible(page)

  const audit = await host.bridge('getAuditLog', { actions: ['watchlist-add', 'watchlist-remove'] })
  expect(audit.entries.filter((e: { outcome: string }) => e.outcome === 'ok').map((e: { action: string; account: string }) => [e.action, e.account])).toEqual([
    ['watchlist-add', 'Test Admin'],
    ['watchlist-remove', 'Test Admin'],
    ['watchlist-add', 'Test Admin'],
  ])

  // An operator at the desk reads the list, and cannot change it.
  await host.bridge('createAccount', { name: 'Desk Operator', role: 'operator', secret: 'desk-operator-1' })
  const operator = await page.context().newPage()
  await operator.goto(host.launchUrl)
  await signInAs(operator, 'Desk Operator', 'desk-operator-1')
  await operator.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Watchlist', exact: true }).click()
  await expect(operator.getByTestId('watchlist').getByRole('row', { name: new RegExp(LISTED.replace(/[.]/g, '\\.')) })).toContainText('Seen tailgating at the gate')
  await expect(operator.getByText('Only an administrator can put persons on the watchlist or take them off.')).toBeVisible()
  await expect(operator.getByRole('button', { name: /Take .* off the watchlist/ })).toHaveCount(0)
})

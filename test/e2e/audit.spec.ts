import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { CONSENT } from '../../electron/shared/consent'
import { appendAsOlderKiosk } from '../support/older-audit-trail'
import { projectRoot } from '../support/process'
import { checkScreen, openStaffScreen } from '../support/screens'
import { startWebHost, TEST_ADMIN, type TestWebHost } from '../support/web-host'

// The audit trail as staff read it, after acts done through the services on the real web host.
let host: TestWebHost
const fixture = (name: string) => readFileSync(join(projectRoot, 'test/fixtures/generated', name)).toString('base64')
const userId = 'e2e-audit@example.com'

test.beforeAll(async () => {
  host = await startWebHost()
  await expect.poll(async () => (await host.bridge<{ state: string }>('getEngineStatus', {})).state, { timeout: 0 }).toBe('running')
  await host.bridge('enrollVisitor', { userId, samples: [fixture('person-a1.jpg')], consent: true, consentVersion: CONSENT.version })
  await host.bridge('faceMatch', { image1: fixture('person-a1.jpg'), image2: fixture('person-b.jpg') })
  await host.bridge('saveSettings', { idleTimeoutSeconds: 95 })
})

test.afterAll(async () => {
  expect(await host.stop()).toBe(0)
})

test('Audit: shows the acts with their outcomes, filters them, verifies the chain and exports', async ({ page }) => {
  await openStaffScreen(page, host.launchUrl, 'Audit')
  await expect(page.getByTestId('audit-verdict')).toContainText('Intact when the kiosk started')
  const table = page.getByTestId('audit-entries')
  await expect(table.getByRole('row', { name: /Face match Done/ })).toHaveCount(1)
  await expect(table.getByRole('row', { name: /Enrollment Started/ })).toHaveCount(1)
  // The seed acts were the test administrator's (the host helper signs in as them).
  await expect(table.getByRole('row', { name: new RegExp(`Enrollment Done ${TEST_ADMIN.name} \\(admin\\) ${userId}`) })).toHaveCount(1)
  await expect(table.getByRole('row', { name: /Settings change Done/ })).toHaveCount(1)

  await checkScreen(page, 'audit')

  await page.getByLabel('Action').selectOption('face-match')
  await page.getByRole('button', { name: 'Show entries' }).click()
  await expect(table.getByRole('row')).toHaveCount(3) // a header, the started entry and its outcome
  await expect(table.getByRole('row', { name: /Settings change/ })).toHaveCount(0)

  await page.getByRole('button', { name: 'Verify now' }).click()
  await expect(page.getByTestId('audit-verdict')).toContainText('verified just now')

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()])
  const csv = readFileSync((await download.path())!, 'utf8')
  expect(csv.split('\r\n')[0]).toContain('action')
  expect(csv).toContain('face-match')
  expect(csv).not.toContain('settings-change')
})

test('Audit: entries an older kiosk wrote verify in the previous format, and the screen says so', async ({ page }) => {
  // A visitor's photo with no e-mail, as a kiosk before the canonical form recorded it (beside this one, sharing the data folder).
  for (const outcome of ['started', 'refused'] as const) {
    appendAsOlderKiosk(host.dataDir, { action: 'verify', outcome, role: 'visitor', account: null, subject: {}, detail: outcome === 'refused' ? 'INVALID_INPUT' : null, correlationId: 'older-kiosk' }, Date.now())
  }
  await openStaffScreen(page, host.launchUrl, 'Audit')
  await page.getByRole('button', { name: 'Verify now' }).click()
  await expect(page.getByTestId('audit-verdict')).toContainText('verified just now')
  await expect(page.getByTestId('audit-verdict')).toContainText('2 older entries verified in the previous format.')
  expect(await host.bridge('verifyAuditLog')).toMatchObject({ ok: true, previousFormat: { entries: 2 } })
})

test("Persons: a person's history lists what was done concerning them", async ({ page }) => {
  await openStaffScreen(page, host.launchUrl, 'Persons')
  await page.getByRole('searchbox', { name: 'Find' }).fill('e2e-audit')
  await page.getByRole('button', { name: 'Search' }).click()
  await page.getByRole('button', { name: `Details of ${userId}` }).click()
  const history = page.getByTestId('person-detail').getByRole('table', { name: `What was done concerning ${userId}, newest first` })
  await expect(history.getByRole('row', { name: /Enrollment Done/ })).toHaveCount(1)
  await expect(history.getByRole('row', { name: /Face match/ })).toHaveCount(0)
})

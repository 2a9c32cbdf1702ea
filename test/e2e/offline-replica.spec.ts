import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { CONSENT } from '../../electron/shared/consent'
import { projectRoot } from '../support/process'
import { expectAccessible } from '../support/screens'
import { startStandin, TEMPLATE_TYPE, type Standin } from '../support/vendor-standin'
import { signInAs, startWebHost, type TestWebHost } from '../support/web-host'

// The offline replica as staff meet it, in Chromium against the web host in remote mode, with the
// vendor stand-in taken offline: a face match decided on this device says so, and the Outbox
// screen shows the replica, syncs it once the servers answer, and wipes it.
const fixture = (name: string) => join(projectRoot, 'test/fixtures/generated', name)
const CREDENTIALS = { clientId: 'kiosk-e2e', clientSecret: 'vendor-secret-e2e-1' }

test.describe.configure({ mode: 'serial', timeout: 120_000 })

let host: TestWebHost
let standin: Standin

test.beforeAll(async () => {
  standin = await startStandin({ ...CREDENTIALS, tenants: ['KIOSK'] })
  host = await startWebHost()
  await host.bridge('saveSettings', { mode: 'remote', personServerUrl: standin.personServerUrl, bioEngineUrl: standin.bioEngineUrl, templateType: TEMPLATE_TYPE, offlineReplica: true })
  await host.bridge('setCredentials', CREDENTIALS)
  const sample = readFileSync(fixture('person-a1.jpg')).toString('base64')
  expect(await host.bridge('enrollVisitor', { userId: 'ana@example.org', samples: [sample], consent: true, consentVersion: CONSENT.version })).toMatchObject({ outcome: 'enrolled' })
  await expect.poll(async () => (await host.bridge('getReplicaStatus')).persons, { timeout: 0 }).toBe(1)
})

test.afterAll(async () => {
  await host?.stop()
  await standin?.close()
})

async function openAsStaff(page: Page, screen: RegExp) {
  await page.goto(host.launchUrl)
  await signInAs(page)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: screen }).click()
}

test('offline, a face match is decided on this device and says so', async ({ page }) => {
  standin.setOnline(false)
  try {
    await openAsStaff(page, /^Face match/)
    await page.getByLabel('Choose a file for image 1').setInputFiles(fixture('person-a1.jpg'))
    await page.getByLabel('Choose a file for image 2').setInputFiles(fixture('person-a2.jpg'))
    await page.getByRole('button', { name: 'Compare' }).click()
    await expect(page.getByText('Same person')).toBeVisible()
    await expect(page.getByText('Checked on this device (offline)')).toBeVisible()
    await expect(page.getByTestId('offline-decision')).toHaveText(/^The servers could not be reached, so this was checked on this device\. Last synced with the servers: never\.$/)
    await expectAccessible(page)
    await page.screenshot({ path: 'test-results/screens/face-match-offline.png', fullPage: true })
  } finally {
    standin.setOnline(true)
  }
})

test('a sync that would remove many persons at once waits for an administrator, who confirms it', async ({ page }) => {
  const people = ['person-b.jpg', 'person-c.jpg', 'person-d.jpg', 'person-e.jpg'].map((name, i) => ({ userId: `many-${i}@example.org`, sample: readFileSync(fixture(name)).toString('base64') }))
  for (const { userId, sample } of people) {
    expect(await host.bridge('enrollVisitor', { userId, samples: [sample], consent: true, consentVersion: CONSENT.version })).toMatchObject({ outcome: 'enrolled' })
  }
  // Ana (enrolled first) and these four.
  await expect.poll(async () => (await host.bridge('getReplicaStatus')).persons, { timeout: 30_000 }).toBe(5)
  // Four of the five are removed on the servers at once (or a server answers wrongly): nothing goes until staff confirm.
  for (const { userId } of people) standin.removePerson(userId)

  await openAsStaff(page, /^Outbox/)
  const replica = page.getByRole('region', { name: 'Offline replica' })
  await replica.getByRole('button', { name: 'Sync now' }).click()
  await expect(replica.getByTestId('replica-message')).toHaveText('Checked 5 local records against the servers: 4 records gone there, but none deleted here until an administrator confirms.')
  await expect(replica.getByTestId('replica-held')).toContainText('found 4 persons of 5 gone from the servers and removed none')
  await expect(replica.getByTestId('replica-status')).toContainText('Persons5')
  await expectAccessible(page)

  await replica.getByRole('button', { name: 'Confirm removals' }).click()
  const dialog = page.getByRole('dialog', { name: 'Remove the persons gone from the servers?' })
  await dialog.getByRole('button', { name: 'Remove them' }).click()
  await expect(replica.getByTestId('replica-message')).toHaveText('Checked 5 local records against the servers: 4 records removed there, so deleted here too.')
  await expect(replica.getByTestId('replica-status')).toContainText('Persons1')
  await expect(replica.getByTestId('replica-held')).toHaveCount(0)
})


test('the Outbox screen shows the replica, syncs it when the servers answer, and an administrator wipes it', async ({ page }) => {
  await openAsStaff(page, /^Outbox/)
  const replica = page.getByRole('region', { name: 'Offline replica' })
  await expect(replica.getByTestId('replica-status')).toContainText('Persons1')

  // Offline, a sync cannot ask the servers: staff are told, and nothing is removed.
  standin.setOnline(false)
  await replica.getByRole('button', { name: 'Sync now' }).click()
  await expect(replica.getByRole('alert')).toContainText(/reach|connect/i)
  standin.setOnline(true)
  // Another desk removed Ana on the servers meanwhile: the sync deletes her local record too.
  standin.removePerson('ana@example.org')
  await replica.getByRole('button', { name: 'Sync now' }).click()
  // The kiosk also syncs by itself when it finds the servers answer again (it asks every 15 s while
  // it believes them offline): when that sync came first, it removed her, and this one has nothing
  // left to check. Either way one sync removed her, and the audit trail says so.
  await expect(replica.getByTestId('replica-message')).toHaveText(
    /^(Checked 1 local record against the servers: 1 record removed there, so deleted here too\.|Checked 0 local records against the servers: all are still there\.)$/,
  )
  await expect(replica.getByTestId('replica-status')).toContainText('Persons0')
  const removed = await host.bridge('getAuditLog', { actions: ['remove'] })
  expect(removed.entries).toContainEqual(expect.objectContaining({ subject: expect.objectContaining({ userId: 'ana@example.org' }) }))
  await expect(replica.getByTestId('replica-status')).not.toContainText('Last syncnever')
  await expectAccessible(page)
  await page.screenshot({ path: 'test-results/screens/outbox-replica.png', fullPage: true })

  await replica.getByRole('button', { name: 'Wipe replica' }).click()
  const dialog = page.getByRole('dialog', { name: 'Wipe the offline replica?' })
  await dialog.getByRole('button', { name: 'Wipe replica' }).click()
  await expect(replica.getByTestId('replica-message')).toHaveText('The offline replica was wiped: nothing is kept on this device now.')
  await expect(replica.getByTestId('replica-status')).toContainText('Size on disk0 bytes')
  await expect(replica.getByRole('button', { name: 'Wipe replica' })).toHaveCount(0)
})

test('Settings offers the replica in remote mode, off by default, with its limits', async ({ page }) => {
  await openAsStaff(page, /^Settings/)
  const box = page.getByLabel('Decide on this device when the servers cannot be reached')
  await expect(box).toBeChecked()
  await expect(page.getByLabel('Replica retention (days)')).toHaveValue('30')
  await expect(page.getByLabel('Replica size (persons)')).toHaveValue('1000')
  await box.uncheck()
  await expect(page.getByLabel('Replica retention (days)')).toHaveCount(0)
  await page.getByRole('button', { name: 'Save settings' }).click()
  await expect(page.getByText('Settings saved. They apply from now on.')).toBeVisible()
  expect((await host.bridge('getSettings')).offlineReplica).toBe(false)
})

import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { CONSENT } from '../../electron/shared/consent'
import { projectRoot } from '../support/process'
import { checkScreen, openStaffScreen, screensDir } from '../support/screens'
import { signInAs, startWebHost, type TestWebHost } from '../support/web-host'

// The staff screens on the kiosk as `npm run start:web` runs it: the real host CLI and embedded engine.
let host: TestWebHost
let launchUrl: string

const fixturePath = (name: string) => join(projectRoot, 'test/fixtures/generated', name)
const fixture = (name: string) => readFileSync(fixturePath(name)).toString('base64')
const bridge = <T = any>(method: string, input: unknown): Promise<T> => host.bridge<T>(method, input)
/** A seed enrollment by staff: another photo of an enrolled e-mail adds a template; a face someone else has is accepted. */
const seed = (userId: string, photo: string) => ({ userId, samples: [fixture(photo)], consent: true, consentVersion: CONSENT.version, onExisting: 'add', acceptDuplicates: true })

test.beforeAll(async () => {
  host = await startWebHost()
  launchUrl = host.launchUrl
  mkdirSync(screensDir, { recursive: true })
  // Every test may run alone (-g): none may find the engine still starting.
  await engineRunning()
})

test.afterAll(async () => {
  expect(await host.stop()).toBe(0)
})

async function engineRunning(): Promise<void> {
  await expect.poll(async () => (await bridge<{ state: string }>('getEngineStatus', {})).state, { timeout: 0 }).toBe('running')
}

async function personUuidOf(userId: string): Promise<string> {
  const found = await bridge<{ person: { uuid: string } | null }>('findPerson', { userId })
  expect(found.person).not.toBeNull()
  return found.person!.uuid
}

/**
 * Signs in again after a reload, which ends the tab's session (the launch token stays in this
 * tab's session storage), and opens the staff screen named `title`.
 */
async function reloadToStaffScreen(page: Page, title: 'Persons' | 'Admin' | 'Outbox' | 'Settings'): Promise<void> {
  await page.reload()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome')
  await expect(page.getByTestId('signed-in-as')).toHaveCount(0)
  await signInAs(page)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: title, exact: true }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)
}


test('Settings: saves and persists, shows field errors, tests the connection, stores credentials write-only', async ({ page }) => {
  await openStaffScreen(page, launchUrl, 'Settings')
  const idle = page.getByLabel('Idle timeout (seconds)')
  await expect(idle).toHaveValue('90')
  await expect(page.getByLabel('Template type')).toHaveValue('Face:HumanFaceRes')
  await expect(page.getByRole('radio', { name: 'Embedded engine' })).toBeChecked()
  await checkScreen(page, 'settings')

  // Save a change; it is there after a reload.
  await idle.fill('300')
  await page.getByLabel('Identify: most candidates shown').fill('7')
  await page.getByRole('button', { name: 'Save settings' }).click()
  await expect(page.getByText('Settings saved.')).toBeVisible()
  await reloadToStaffScreen(page, 'Settings')
  await expect(page.getByLabel('Idle timeout (seconds)')).toHaveValue('300')
  await expect(page.getByLabel('Identify: most candidates shown')).toHaveValue('7')

  // Remote mode shows its addresses; required ones are reported by the services under their fields.
  await page.getByRole('radio', { name: 'Remote servers' }).check()
  await expect(page.getByLabel('Person server address')).toBeVisible()
  await page.getByRole('button', { name: 'Save settings' }).click()
  await expect(page.getByLabel('Person server address')).toHaveAccessibleDescription(/is required in remote mode/)
  await page.getByRole('button', { name: 'Undo changes' }).click()
  await expect(page.getByLabel('Person server address')).toHaveCount(0)

  // An invalid threshold override: the services' INVALID_INPUT message lands under the field.
  const threshold = page.getByLabel('Verify threshold override')
  await threshold.fill('150')
  await page.getByRole('button', { name: 'Save settings' }).click()
  await expect(threshold).toHaveAttribute('aria-invalid', 'true')
  await expect(threshold).toHaveAccessibleDescription(/must be from 0 to 100/)
  await expect(page.getByRole('alert').filter({ hasText: 'The settings were not saved' })).toBeVisible()
  await checkScreen(page, 'settings-field-error')
  await page.getByRole('button', { name: 'Undo changes' }).click()
  // Empty: no override, the server's threshold applies.
  await expect(threshold).toHaveValue('')

  // The connection test: four steps, each OK.
  await page.getByRole('button', { name: 'Test connection' }).click()
  const steps = page.getByTestId('connection-steps').getByRole('listitem')
  await expect(steps).toHaveCount(4, { timeout: 0 })
  for (const step of await steps.all()) await expect(step).toContainText('OK')
  await expect(page.getByText('The connection works.')).toBeVisible()

  // Credentials: write-only. Stored ones say so; the values never appear in the page.
  const clientId = 'e2e-client-id-5b1f9c'
  const clientSecret = 'e2e-client-secret-7d3e0a91'
  const idField = page.getByLabel('Person server client ID', { exact: true })
  const secretField = page.getByLabel('Person server client secret', { exact: true })
  await expect(idField).toHaveAccessibleDescription(/Status: not set\./)
  await idField.fill(clientId)
  await secretField.fill(clientSecret)
  await page.getByRole('button', { name: 'Store credentials' }).click()
  await expect(idField).toHaveAccessibleDescription(/Status: stored\./)
  await expect(secretField).toHaveAccessibleDescription(/Status: stored\./)
  await expect(page.getByLabel('BioEngine token (JWT)', { exact: true })).toHaveAccessibleDescription(/Status: not set\./)
  await expect(idField).toHaveValue('')
  await expect(secretField).toHaveValue('')
  const html = await page.content()
  expect(html).not.toContain(clientId)
  expect(html).not.toContain(clientSecret)
  await checkScreen(page, 'settings-tested')
  // Still stored, still not shown, after a reload.
  await reloadToStaffScreen(page, 'Settings')
  await expect(page.getByLabel('Person server client secret', { exact: true })).toHaveAccessibleDescription(/Status: stored\./)
  await expect(page.getByLabel('Person server client secret', { exact: true })).toHaveValue('')
  expect(await page.content()).not.toContain(clientSecret)
  // Removing one.
  await page.getByRole('button', { name: 'Remove the stored person server client secret' }).click()
  await expect(page.getByLabel('Person server client secret', { exact: true })).toHaveAccessibleDescription(/Status: not set\./)
})

test('Settings: the server’s threshold and its scale beside each override; overrides, timeouts and the Basic encoding round-trip', async ({ page }) => {
  await openStaffScreen(page, launchUrl, 'Settings')
  const verify = page.getByLabel('Verify threshold override')
  const identify = page.getByLabel('Identify threshold override')
  // The embedded engine's Face:HumanFaceRes threshold: 48 on 0–100; no override yet.
  await expect(verify).toHaveValue('')
  await expect(identify).toHaveValue('')
  await expect(verify).toHaveAccessibleDescription(/^Server: 48 on a 0–100 scale\. Leave empty to use it; an override is on the same 0–100 scale\./)
  await expect(identify).toHaveAccessibleDescription(/^Server: 48 on a 0–100 scale\. Leave empty to use it; an override is on the same 0–100 scale\./)
  const connect = page.getByLabel('Connect timeout (seconds)')
  const request = page.getByLabel('Request timeout (seconds)')
  await expect(connect).toHaveValue('5')
  await expect(request).toHaveValue('20')

  // An override and the timeouts, saved and read back.
  await verify.fill('60')
  await connect.fill('7')
  await request.fill('45')
  await page.getByRole('button', { name: 'Save settings' }).click()
  await expect(page.getByText('Settings saved.')).toBeVisible()
  await reloadToStaffScreen(page, 'Settings')
  await expect(page.getByLabel('Verify threshold override')).toHaveValue('60')
  await expect(page.getByLabel('Identify threshold override')).toHaveValue('')
  await expect(page.getByLabel('Connect timeout (seconds)')).toHaveValue('7')
  await expect(page.getByLabel('Request timeout (seconds)')).toHaveValue('45')
  let saved = await bridge<{ verifyThresholdOverride: number | null; identifyThresholdOverride: number | null; connectTimeoutSeconds: number; requestTimeoutSeconds: number }>('getSettings', {})
  expect(saved).toMatchObject({ verifyThresholdOverride: 60, identifyThresholdOverride: null, connectTimeoutSeconds: 7, requestTimeoutSeconds: 45 })
  // A timeout out of range: the services' message under the field.
  await page.getByLabel('Request timeout (seconds)').fill('1')
  await page.getByRole('button', { name: 'Save settings' }).click()
  await expect(page.getByLabel('Request timeout (seconds)')).toHaveAccessibleDescription(/must be from 2 to 300/)
  await page.getByRole('button', { name: 'Undo changes' }).click()

  // Clearing the override goes back to the server's threshold (null).
  await page.getByLabel('Verify threshold override').fill('')
  await page.getByRole('button', { name: 'Save settings' }).click()
  await expect(page.getByText('Settings saved.')).toBeVisible()
  await reloadToStaffScreen(page, 'Settings')
  await expect(page.getByLabel('Verify threshold override')).toHaveValue('')
  saved = await bridge('getSettings', {})
  expect(saved.verifyThresholdOverride).toBeNull()

  // The Basic encoding: a remote-server choice, explained, saved and read back; then back to embedded.
  await page.getByRole('radio', { name: 'Remote servers' }).check()
  const encoding = page.getByLabel('Client ID and secret encoding')
  await expect(encoding).toHaveValue('form-urlencoded')
  await expect(encoding).toHaveAccessibleDescription(/only matters when the ID or the secret contains reserved characters/)
  await checkScreen(page, 'settings-remote')
  await page.getByLabel('Person server address').fill('http://127.0.0.1:9')
  await page.getByLabel('BioEngine address').fill('http://127.0.0.1:9')
  await encoding.selectOption('plain')
  await page.getByRole('button', { name: 'Save settings' }).click()
  await expect(page.getByText('Settings saved.')).toBeVisible()
  await reloadToStaffScreen(page, 'Settings')
  await expect(page.getByLabel('Client ID and secret encoding')).toHaveValue('plain')
  await page.getByRole('radio', { name: 'Embedded engine' }).check()
  await page.getByRole('button', { name: 'Save settings' }).click()
  await expect(page.getByText('Settings saved.')).toBeVisible()
  saved = await bridge('getSettings', {})
  expect(saved).toMatchObject({ mode: 'embedded', basicAuthEncoding: 'plain', verifyThresholdOverride: null })
  await bridge('saveSettings', { connectTimeoutSeconds: 5, requestTimeoutSeconds: 20, basicAuthEncoding: 'form-urlencoded' })
})

test('Admin: tenant, apps, algorithm with licence and liveness, template types, caches, logs', async ({ page }) => {
  await openStaffScreen(page, launchUrl, 'Admin')
  await expect(page.getByRole('heading', { name: 'Tenant KIOSK' })).toBeVisible()
  await expect(page.getByTestId('template-types').getByRole('rowheader', { name: 'Face:HumanFaceRes' })).toBeVisible()
  await checkScreen(page, 'admin')

  // Tenant name, saved and read back.
  await page.getByLabel('Name', { exact: true }).fill('Front desk (e2e)')
  await page.getByRole('button', { name: 'Save tenant' }).click()
  await expect(page.getByText('The tenant was saved.')).toBeVisible()
  await reloadToStaffScreen(page, 'Admin')
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Front desk (e2e)')

  // An app, added and removed.
  await page.getByLabel('App code').fill('E2E_APP')
  await page.getByRole('button', { name: 'Add app' }).click()
  await expect(page.getByTestId('apps').getByRole('rowheader', { name: 'E2E_APP' })).toBeVisible()
  await page.getByRole('button', { name: 'Remove app E2E_APP' }).click()
  await expect(page.getByText('App E2E_APP was removed.')).toBeVisible()
  await expect(page.getByRole('rowheader', { name: 'E2E_APP' })).toHaveCount(0)

  // An algorithm with a licence, and a liveness check on it.
  await page.getByLabel('Algorithm code').fill('FaceApiResNet')
  await page.getByLabel('Licence information').fill('LIC-E2E-42')
  await page.getByLabel('Licence: maximum identities').fill('1000')
  await page.getByLabel('Licence: expires on').fill('2099-12-31')
  await page.getByRole('button', { name: 'Associate algorithm' }).click()
  const card = page.getByTestId('algorithm-FaceApiResNet')
  await expect(card.getByRole('heading', { name: 'FaceApiResNet' })).toBeVisible()
  await expect(card).toContainText('LIC-E2E-42')
  await expect(card).toContainText('1000')
  await expect(card).toContainText('2099')
  const tenant = await bridge<{ algorithms: Array<{ code: string; licenseData: { expireDate: number } }> }>('getTenant', {})
  expect(tenant.algorithms.find((a) => a.code === 'FaceApiResNet')?.licenseData.expireDate).toBe(Date.UTC(2099, 11, 31))
  // Liveness: a choice among the checks the kiosk understands (liveness.spec.ts covers the rest).
  await card.getByRole('radio', { name: 'Passive presentation-attack score' }).check()
  await card.getByRole('button', { name: 'Add liveness' }).click()
  await expect(card.getByTestId('liveness-passive-pad')).toContainText('Passive presentation-attack score')
  await checkScreen(page, 'admin-algorithm')
  await card.getByRole('button', { name: 'Remove liveness passive-pad from FaceApiResNet' }).click()
  await page.getByRole('dialog', { name: 'Remove Passive presentation-attack score from FaceApiResNet?' }).getByRole('button', { name: 'Remove check' }).click()
  await expect(card.getByTestId('liveness-passive-pad')).toHaveCount(0)
  // Removing the algorithm asks first.
  await card.getByRole('button', { name: 'Remove algorithm FaceApiResNet' }).click()
  const dialog = page.getByRole('dialog', { name: 'Remove algorithm FaceApiResNet?' })
  await expect(dialog).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused()
  await dialog.getByRole('button', { name: 'Remove algorithm' }).click()
  await expect(dialog).toHaveCount(0)
  await expect(page.getByTestId('algorithm-FaceApiResNet')).toHaveCount(0)

  // Caches: all, then one plugin.
  await page.getByRole('button', { name: 'Rebuild caches' }).click()
  await expect(page.getByText('Every plugin’s cache was rebuilt from the database.')).toBeVisible({ timeout: 0 })
  await page.getByLabel('Caches to rebuild').selectOption('HumanFaceRes')
  await page.getByRole('button', { name: 'Rebuild caches' }).click()
  await expect(page.getByText('The HumanFaceRes cache was rebuilt from the database.')).toBeVisible({ timeout: 0 })

  // Logs: a zip file download.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download logs' }).click()])
  expect(download.suggestedFilename()).toMatch(/^bioengine-logs-.*\.zip$/)
  const saved = readFileSync((await download.path())!)
  expect(saved.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004')
  await expect(page.getByText(/^Downloaded bioengine-logs-.*\.zip/)).toBeVisible()
})

test('Admin: the tenant’s apps from the server’s app list, each with its details', async ({ page }) => {
  await openStaffScreen(page, launchUrl, 'Admin')
  const section = page.getByRole('region', { name: 'Apps' })
  await expect(section.getByText('The kiosk’s own app, KIOSK, is not among them')).toBeVisible()

  await section.getByLabel('App code').fill('E2E_LIST')
  await section.getByRole('button', { name: 'Add app' }).click()
  await expect(section.getByText('App E2E_LIST was added.')).toBeVisible()
  const row = section.getByTestId('apps').getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'E2E_LIST' }) })
  await expect(row).toHaveCount(1)
  const listed = await bridge<Array<{ code: string; associated: number | null }>>('getTenantApps', {})
  expect(listed.map((a) => a.code)).toContain('E2E_LIST')

  // Details: the app's own record from the server.
  await section.getByRole('button', { name: 'Details of app E2E_LIST' }).click()
  const details = section.getByRole('article', { name: 'App E2E_LIST' })
  await expect(details).toBeVisible()
  await expect(details).toContainText('CodeE2E_LIST')
  await expect(details).toContainText('Not given by this server') // the embedded engine keeps no app names
  await expect(details).not.toContainText('Added to tenant KIOSKNot reported')
  await checkScreen(page, 'admin-apps')

  // Removing it takes it off the list, and its details with it.
  await section.getByRole('button', { name: 'Remove app E2E_LIST' }).click()
  await expect(section.getByText('App E2E_LIST was removed.')).toBeVisible()
  await expect(section.getByRole('rowheader', { name: 'E2E_LIST' })).toHaveCount(0)
  await expect(details).toHaveCount(0)
  expect((await bridge<Array<{ code: string }>>('getTenantApps', {})).map((a) => a.code)).not.toContain('E2E_LIST')
})

test('Admin: Check photo quality reports the quality and the template size, and enrolls nobody', async ({ page }) => {
  const before = (await bridge<{ totalElements: number }>('searchPersons', { pageSize: 100 })).totalElements
  await openStaffScreen(page, launchUrl, 'Admin')
  const check = page.getByTestId('quality-check')
  await expect(check.getByRole('heading', { name: 'Check photo quality' })).toBeVisible()
  await expect(check.getByRole('button', { name: 'Check photo quality' })).toBeDisabled()

  // A file that is not a photo is refused before anything is sent.
  await check.getByLabel('Photo to check').setInputFiles({ name: 'notes.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'binary') })
  await expect(check.getByRole('alert')).toHaveText('notes.gif: The file is not a JPEG or PNG image.')
  await expect(check.getByRole('button', { name: 'Check photo quality' })).toBeDisabled()

  await check.getByLabel('Photo to check').setInputFiles(fixturePath('person-c.jpg'))
  await expect(check.getByRole('img', { name: /^Photo to check: person-c\.jpg/ })).toBeVisible()
  await check.getByRole('button', { name: 'Check photo quality' }).click()
  const result = check.getByTestId('quality-check-result')
  await expect(result).toContainText(/Quality \d{1,3}%/, { timeout: 0 })
  await expect(result).toContainText(/Template type Face:HumanFaceRes; the template is \d+(\.\d)? (bytes|KB)\./)
  await expect(result).toContainText('Nothing was enrolled')
  await checkScreen(page, 'admin-quality-check')

  // Persons shows the same visitors as before.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Persons', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Persons')
  if (before === 0) await expect(page.getByText('No visitors yet.')).toBeVisible()
  else await expect(page.getByTestId('persons-summary')).toHaveText(new RegExp(`· ${before} visitors?$`))
  expect((await bridge<{ totalElements: number }>('searchPersons', { pageSize: 100 })).totalElements).toBe(before)
})

test('Persons: search, sort, page, detail, delete templates, remove a visitor with confirmation', async ({ page }) => {
  test.setTimeout(240_000)
  await engineRunning()
  // Six visitors; alice twice, so she has two templates.
  const seeds: Array<[string, string]> = [
    ['e2e-alice@example.com', 'person-a1.jpg'],
    ['e2e-alice@example.com', 'person-a2.jpg'],
    ['e2e-bob@example.com', 'person-b.jpg'],
    ['e2e-carol@example.com', 'person-c.jpg'],
    ['e2e-dave@example.com', 'person-d.jpg'],
    ['e2e-erin@example.com', 'person-e.jpg'],
    ['e2e-frank@example.com', 'person-a1.jpg'],
  ]
  for (const [userId, photo] of seeds) {
    const result = await bridge<{ outcome: string }>('enrollVisitor', seed(userId, photo))
    expect(result.outcome).toBe('enrolled')
  }

  await openStaffScreen(page, launchUrl, 'Persons')
  const summary = page.getByTestId('persons-summary')
  await expect(summary).toHaveText('Page 1 of 1 · 6 visitors')
  await checkScreen(page, 'persons')

  const table = page.getByRole('table', { name: /Visitors of tenant KIOSK/ })
  const firstUser = table.getByRole('rowheader').first()

  // Search.
  await page.getByRole('searchbox', { name: 'Find' }).fill('carol')
  await page.getByRole('button', { name: 'Search' }).click()
  await expect(summary).toHaveText('Page 1 of 1 · 1 visitor')
  await expect(firstUser).toHaveText('e2e-carol@example.com')
  await page.getByRole('searchbox', { name: 'Find' }).fill('nobody-like-this')
  await page.getByRole('button', { name: 'Search' }).click()
  await expect(page.getByText('No visitor matches “nobody-like-this”.')).toBeVisible()
  await page.getByRole('searchbox', { name: 'Find' }).fill('e2e-')
  await page.getByRole('button', { name: 'Search' }).click()
  await expect(summary).toHaveText('Page 1 of 1 · 6 visitors')

  // Sort.
  await expect(firstUser).toHaveText('e2e-alice@example.com')
  await page.getByLabel('Sort by').selectOption('-userId')
  await expect(firstUser).toHaveText('e2e-frank@example.com')
  await expect(table.getByRole('columnheader', { name: 'User ID' })).toHaveAttribute('aria-sort', 'descending')
  await page.getByLabel('Sort by').selectOption('-created')
  await expect(firstUser).toHaveText('e2e-frank@example.com')
  await page.getByLabel('Sort by').selectOption('+created')
  await expect(firstUser).toHaveText('e2e-alice@example.com')

  // Paging.
  await page.getByLabel('Sort by').selectOption('+userId')
  await page.getByLabel('Per page').selectOption('5')
  await expect(summary).toHaveText('Page 1 of 2 · 6 visitors')
  await expect(table.getByRole('rowheader')).toHaveCount(5)
  await page.getByRole('button', { name: 'Next page' }).click()
  await expect(summary).toHaveText('Page 2 of 2 · 6 visitors')
  await expect(table.getByRole('rowheader')).toHaveText(['e2e-frank@example.com'])
  await expect(page.getByRole('button', { name: 'Next page' })).toBeDisabled()
  await page.getByRole('button', { name: 'Previous page' }).click()
  await expect(summary).toHaveText('Page 1 of 2 · 6 visitors')

  // Detail.
  await page.getByRole('button', { name: 'Details of e2e-alice@example.com' }).click()
  const detail = page.getByTestId('person-detail')
  await expect(detail.getByRole('heading', { name: 'Visitor e2e-alice@example.com' })).toBeFocused()
  await expect(detail.getByTestId('enrollment-status')).toHaveText('Enrolled')
  await expect(detail.getByRole('rowheader', { name: 'KIOSK' })).toBeVisible()
  const templates = detail.getByTestId('templates').getByRole('row')
  await expect(templates).toHaveCount(3) // a header row and two templates
  await expect(detail.getByTestId('templates')).toContainText('Face:HumanFaceRes')
  await checkScreen(page, 'persons-detail')

  // Delete one template: asks first; Escape cancels, nothing is deleted.
  const deleteOne = detail.getByRole('button', { name: /^Delete the Face:HumanFaceRes template / }).first()
  await deleteOne.click()
  const dialog = page.getByRole('dialog', { name: 'Delete this template of e2e-alice@example.com?' })
  await expect(dialog).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused()
  await checkScreen(page, 'persons-confirm')
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  await expect(deleteOne).toBeFocused()
  await expect(templates).toHaveCount(3)
  await deleteOne.click()
  await dialog.getByRole('button', { name: 'Delete template' }).click()
  await expect(detail.getByText(/was deleted\. 1 template left\./)).toBeVisible()
  await expect(templates).toHaveCount(2)

  // Delete all templates.
  await detail.getByRole('button', { name: 'Delete all templates' }).click()
  await page.getByRole('dialog', { name: 'Delete all templates of e2e-alice@example.com?' }).getByRole('button', { name: 'Delete all templates' }).click()
  await expect(detail.getByText('All templates were deleted. 0 templates left.')).toBeVisible()
  await expect(detail.getByTestId('enrollment-status')).toHaveText('Not enrolled')
  await expect(table.getByRole('row').filter({ hasText: 'e2e-alice@example.com' })).toContainText('Not enrolled')

  // Remove the visitor: asks first, then says what happened.
  await detail.getByRole('button', { name: 'Remove visitor' }).click()
  const remove = page.getByRole('dialog', { name: 'Remove e2e-alice@example.com?' })
  await expect(remove).toContainText('No other tenant holds them')
  await remove.getByRole('button', { name: 'Remove visitor' }).click()
  await expect(page.getByText('e2e-alice@example.com was deleted.')).toBeVisible()
  await expect(page.getByTestId('person-detail')).toHaveCount(0)
  await expect(summary).toHaveText('Page 1 of 1 · 5 visitors')
  await expect(table.getByRole('rowheader', { name: 'e2e-alice@example.com' })).toHaveCount(0)
  const gone = await bridge<{ outcome: string }>('removeVisitor', { userId: 'e2e-alice@example.com' })
  expect(gone.outcome).toBe('not-found')
  await checkScreen(page, 'persons-removed')
})

test('Persons: device look-up, templates filtered by type, the three deletes, app user data', async ({ page }) => {
  test.setTimeout(180_000)
  await engineRunning()
  const userId = 'e2e-gina@example.com'
  for (const photo of ['person-a1.jpg', 'person-a2.jpg', 'person-b.jpg']) {
    expect((await bridge<{ outcome: string }>('enrollVisitor', seed(userId, photo))).outcome).toBe('enrolled')
  }
  await openStaffScreen(page, launchUrl, 'Persons')

  // A device nobody has.
  await page.getByRole('searchbox', { name: 'Device ID' }).fill('e2e-no-such-device-42')
  await page.getByRole('button', { name: 'Look up device' }).click()
  await expect(page.getByTestId('device-lookup-result')).toContainText('Nobody has device ID “e2e-no-such-device-42”.')
  await expect(page.getByTestId('person-detail')).toHaveCount(0)

  await page.getByRole('searchbox', { name: 'Find' }).fill('gina')
  await page.getByRole('button', { name: 'Search' }).click()
  await page.getByRole('button', { name: `Details of ${userId}` }).click()
  const detail = page.getByTestId('person-detail')
  await expect(detail.getByRole('heading', { name: `Visitor ${userId}` })).toBeFocused()
  const rows = detail.getByTestId('templates').getByRole('row')
  await expect(rows).toHaveCount(4) // a header row and three templates

  // Filtered by type: the BioEngine's by-type list, and a delete for the whole type.
  const filter = detail.getByLabel('Show templates of type')
  await expect(filter.getByRole('option')).toHaveText(['All types (3)', 'Face:HumanFaceRes (3)'])
  await filter.selectOption('Face:HumanFaceRes')
  await expect(detail.getByRole('table', { name: `Face:HumanFaceRes templates of ${userId}` })).toBeVisible()
  await expect(rows).toHaveCount(4)
  await checkScreen(page, 'persons-templates-filtered')

  // One template, asked first.
  await detail.getByRole('button', { name: /^Delete the Face:HumanFaceRes template / }).first().click()
  const one = page.getByRole('dialog', { name: `Delete this template of ${userId}?` })
  await one.getByRole('button', { name: 'Delete template' }).click()
  await expect(one).toHaveCount(0)
  await expect(detail.getByText(/was deleted\. 2 templates left\./)).toBeVisible()
  await expect(rows).toHaveCount(3)
  await expect(filter).toHaveValue('Face:HumanFaceRes')
  expect(await bridge<unknown[]>('getPersonTemplates', { personUuid: await personUuidOf(userId), templateType: 'Face:HumanFaceRes' })).toHaveLength(2)

  // App user data: the kiosk's app is not associated with the tenant yet, then it is.
  await detail.getByRole('button', { name: 'Show app user data' }).click()
  await expect(detail.getByTestId('app-user')).toContainText(`${userId} is not a user of app KIOSK.`)
  await bridge('associateApp', { appCode: 'KIOSK' })
  try {
    await detail.getByRole('button', { name: 'Show app user data' }).click()
    await expect(detail.getByTestId('app-user')).toContainText(`${userId} is a user of app KIOSK.`)
    await expect(detail.getByTestId('app-user')).toContainText('TenantsKIOSK')
    await checkScreen(page, 'persons-app-user')
    await detail.getByLabel('App code').fill('E2E_OTHER_APP')
    await detail.getByRole('button', { name: 'Show app user data' }).click()
    await expect(detail.getByTestId('app-user')).toContainText(`${userId} is not a user of app E2E_OTHER_APP.`)
  } finally {
    await bridge('disassociateApp', { appCode: 'KIOSK' })
  }

  // All of one type, asked first.
  await detail.getByRole('button', { name: 'Delete all Face:HumanFaceRes templates' }).click()
  const byType = page.getByRole('dialog', { name: `Delete all Face:HumanFaceRes templates of ${userId}?` })
  await expect(byType).toContainText('All 2 Face:HumanFaceRes templates are deleted for good.')
  await byType.getByRole('button', { name: 'Delete all Face:HumanFaceRes templates' }).click()
  await expect(detail.getByText('All Face:HumanFaceRes templates were deleted. 0 templates left.')).toBeVisible()
  await expect(detail.getByTestId('enrollment-status')).toHaveText('Not enrolled')
  await expect(detail.getByTestId('templates')).toHaveCount(0)

  // All of the person's templates: enroll once more, then delete them all.
  await bridge('enrollVisitor', seed(userId, 'person-c.jpg'))
  await detail.getByRole('button', { name: 'Close details' }).click()
  await page.getByRole('button', { name: `Details of ${userId}` }).click()
  await expect(rows).toHaveCount(2)
  await detail.getByRole('button', { name: 'Delete all templates' }).click()
  await page.getByRole('dialog', { name: `Delete all templates of ${userId}?` }).getByRole('button', { name: 'Delete all templates' }).click()
  await expect(detail.getByText('All templates were deleted. 0 templates left.')).toBeVisible()

  await bridge('removeVisitor', { userId })
})

test('Outbox: the empty outbox is explained, with its status and what each state means', async ({ page }) => {
  await openStaffScreen(page, launchUrl, 'Outbox')
  await expect(page.getByText('The outbox is empty.')).toBeVisible()
  await expect(page.getByText(/Every enrollment has reached the server/)).toBeVisible()
  await expect(page.getByTestId('outbox-counts')).toContainText('Waiting0')
  await expect(page.getByTestId('outbox-counts')).toContainText('Needs attention0')
  await expect(page.getByTestId('outbox-connection')).toHaveText(/^(Online: the servers can be reached\.|Connection: not checked yet\.)$/)
  const glossary = page.getByRole('region', { name: 'What the states mean' })
  for (const state of ['Waiting', 'Sending', 'Needs attention', 'Delivered']) {
    await expect(glossary.getByRole('term').filter({ hasText: new RegExp(`^${state}$`) })).toHaveCount(1)
  }
  await checkScreen(page, 'outbox')
})

test('Outbox: a parked enrollment raises a notice on every staff screen, never shown to a visitor; Retry now says what really happened', async ({ page }) => {
  const userId = 'parked.visitor@example.com'
  await page.goto(launchUrl)
  await expect(page.getByTestId('engine-state')).toHaveText('Ready')
  // Taken while the engine is down, so it is queued; at delivery the engine finds no face and it is parked.
  const { pid } = await bridge<{ pid: number }>('getEngineStatus', {})
  process.kill(pid, 'SIGKILL')
  const queued = await bridge<{ outcome: string; outboxId: string }>('enrollVisitor', { userId, samples: [fixture('no-face.jpg')], consent: true, consentVersion: CONSENT.version })
  expect(queued.outcome).toBe('queued')
  // Waits on the outbox's state; the test's own ceiling is the only one.
  await expect.poll(async () => (await bridge<{ counts: { needsAttention: number } }>('getOutbox', {})).counts.needsAttention, { timeout: 0 }).toBe(1)

  // The visitor at the screen: nothing about it, and the services send a visitor counts only.
  await expect(page.getByTestId('engine-state')).toHaveText('Ready')
  await expect(page.getByTestId('attention-notice')).toHaveCount(0)
  await expect(page.getByText(/attention/)).toHaveCount(0)
  const visitorView = await page.evaluate(() => (window as unknown as { kiosk: { getOutbox(i: object): Promise<{ items: unknown[]; counts: { needsAttention: number } }> } }).kiosk.getOutbox({}))
  expect(visitorView).toMatchObject({ items: [], counts: { needsAttention: 1 } })

  await signInAs(page)
  const notice = page.getByTestId('attention-notice')
  const nav = page.getByRole('navigation', { name: 'Main' })
  for (const title of ['Persons', 'Audit', 'Settings', 'Home']) {
    await nav.getByRole('button', { name: title, exact: true }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title === 'Home' ? 'Welcome' : title)
    await expect(notice).toHaveText('1 enrollment needs attention: the servers refused it, and it is not tried again until someone looks.')
  }
  await checkScreen(page, 'attention-notice')
  await page.getByTestId('offline-banner').getByRole('button', { name: 'Open the outbox' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Outbox')
  // The queue's list: its state in the words the host notices use too, its photos, why it was refused.
  const row = page.getByTestId('outbox-items').getByRole('row').filter({ hasText: userId })
  await expect(row.getByRole('cell', { name: 'Needs attention', exact: true })).toBeVisible()
  await expect(row).toContainText(/face/i)
  await checkScreen(page, 'outbox-needs-attention')

  await page.getByRole('button', { name: `Retry the enrollment of ${userId} now` }).click()
  await expect(page.getByTestId('outbox-message')).toHaveText(new RegExp(`^The enrollment of ${userId.replaceAll('.', '\\.')} was tried again and refused\\. The server said: .*face`, 'i'))

  await page.getByRole('button', { name: `Discard the enrollment of ${userId}` }).click()
  await page.getByRole('dialog', { name: `Discard the enrollment of ${userId}?` }).getByRole('button', { name: 'Discard enrollment' }).click()
  await expect(notice).toHaveCount(0)
})

test('each staff screen opens at its top, not where the last one was scrolled to', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 })
  await openStaffScreen(page, launchUrl, 'Settings')
  const main = page.locator('main')
  await main.evaluate((element) => element.scrollTo(0, element.scrollHeight))
  await expect.poll(() => main.evaluate((element) => element.scrollTop)).toBeGreaterThan(0)
  for (const title of ['Admin', 'Persons'] as const) {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: title, exact: true }).click()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)
    expect(await main.evaluate((element) => element.scrollTop), title).toBe(0)
    await main.evaluate((element) => element.scrollTo(0, element.scrollHeight))
  }
})

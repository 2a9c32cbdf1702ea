import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { CONSENT } from '../../electron/shared/consent'
import { projectRoot } from '../support/process'
import { expectControlsBesideLabels, expectWholeWords, kioskSizes, layoutFacts } from '../support/layout'
import { checkScreen, openStaffScreen, screensDir } from '../support/screens'
import { startWebHost, type TestWebHost } from '../support/web-host'

// A template-type change as an administrator meets it: the warning with the count before saving,
// the rebuild from kept face crops, and Persons showing enrollment per template type.
let host: TestWebHost
const A = 'Face:HumanFaceRes'
const B = 'Face:FaceApiResNet'

const fixture = (name: string) => readFileSync(join(projectRoot, 'test/fixtures/generated', name)).toString('base64')
const bridge = <T = any>(method: string, input: unknown = {}): Promise<T> => host.bridge<T>(method, input)
const seed = (userId: string, photo: string) => bridge('enrollVisitor', { userId, samples: [fixture(photo)], consent: true, consentVersion: CONSENT.version, acceptDuplicates: true })

test.beforeAll(async () => {
  host = await startWebHost()
  mkdirSync(screensDir, { recursive: true })
  await expect.poll(async () => (await bridge<{ state: string }>('getEngineStatus')).state, { timeout: 60_000 }).toBe('running')
  // Bob enrolls before the tenant keeps face crops, Ada after: only Ada's template can be rebuilt.
  await seed('bob@types.example', 'person-b.jpg')
  const tenant = await bridge<{ name: string; maxIdentities: number | null; defaultPostBack: string | null; keepFaceCrops: boolean | null }>('getTenant')
  expect(tenant.keepFaceCrops).toBe(false)
  await bridge('updateTenant', { name: tenant.name, maxIdentities: tenant.maxIdentities ?? 0, defaultPostBack: tenant.defaultPostBack, keepFaceCrops: true })
  await seed('ada@types.example', 'person-a1.jpg')
})

test.afterAll(async () => {
  expect(await host.stop()).toBe(0)
})

const enrollmentOf = (page: Page, userId: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: userId }) }).getByRole('list', { name: 'Enrollment per template type' })

test('Settings warns before a template-type change with the count it leaves behind, and rebuilds what kept crops allow', async ({ page }) => {
  await openStaffScreen(page, host.launchUrl, 'Settings')
  const change = page.getByTestId('template-type-change')
  await expect(change).toHaveCount(0)

  // While the BioEngine is being asked for its types the field is a text box; choose once it is a list.
  const typeChoice = page.getByRole('combobox', { name: 'Template type' })
  await expect(typeChoice).toBeVisible({ timeout: 30_000 })
  await typeChoice.selectOption(B)
  await expect(change.getByText(`2 enrolled visitors have no ${B} template`)).toBeVisible()
  await expect(change).toContainText('This tenant keeps face crops')
  // Nothing is saved yet: the warning comes first.
  expect((await bridge<{ templateType: string }>('getSettings')).templateType).toBe(A)
  await checkScreen(page, 'settings-template-type-change')

  await change.getByRole('button', { name: `Rebuild ${B} templates` }).click()
  await expect(change.getByText('1 visitor must enroll again')).toBeVisible()
  await expect(change).toContainText('1 template was rebuilt from kept face crops')
  await expect(change.getByText(`1 enrolled visitor has no ${B} template`)).toBeVisible()
  const audit = await bridge<{ entries: Array<{ action: string; outcome: string; detail: string | null }> }>('getAuditLog', {})
  expect(audit.entries.find((e) => e.action === 'template-migrate' && e.outcome === 'ok')?.detail).toBe(`to ${B}: 1 rebuilt from kept face crops, 1 must enroll again`)

  // The way through for whoever is left: the Persons screen, with enrollment per type.
  await change.getByRole('button', { name: 'See who on the Persons screen' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Persons')
  await expect(enrollmentOf(page, 'ada@types.example')).toContainText(`${B} ✓`)
  await expect(enrollmentOf(page, 'bob@types.example')).toContainText(`${B} ✗`)
})

test('Persons shows enrollment in the kiosk’s own template type; another type only where held, and neutrally', async ({ page }) => {
  await openStaffScreen(page, host.launchUrl, 'Persons')
  // Bob has only the kiosk's type: no orange ✗ for a type this kiosk does not use.
  const bob = enrollmentOf(page, 'bob@types.example')
  await expect(bob.getByRole('listitem')).toHaveText([`${A} ✓: enrolled`])
  // Ada also holds the other type (rebuilt above): listed, marked as not this kiosk's, not as a lack.
  const ada = enrollmentOf(page, 'ada@types.example')
  await expect(ada.getByRole('listitem')).toHaveText([`${A} ✓: enrolled`, `${B} (other type): enrolled, not used by this kiosk`])
  await expect(page.locator('.type-enrollment .lacks-type')).toHaveCount(0)
  await page.getByRole('button', { name: 'Details of bob@types.example' }).click()
  const perType = page.getByTestId('person-detail').getByTestId('enrollment-per-type')
  await expect(perType.getByRole('listitem')).toHaveText([`${A} ✓: enrolled`])
  // A kiosk enrollment's template context in words, not "outbox-<uuid>".
  const templates = page.getByTestId('person-detail').getByTestId('templates')
  await expect(templates).toContainText('Enrolled at a kiosk')
  await expect(templates).not.toContainText(/outbox-[0-9a-f]{8}-/)
  await checkScreen(page, 'persons-per-type')
})

test('a template type’s name wraps only after its colon, never mid-word, at every kiosk size', async ({ page }) => {
  // A long e-mail with nowhere to break takes the table's width: the type column is the one squeezed.
  await seed(`${'l'.repeat(64)}@${'d'.repeat(61)}.${'e'.repeat(61)}.${'f'.repeat(57)}.com`, 'person-c.jpg')
  await openStaffScreen(page, host.launchUrl, 'Persons')
  await page.getByRole('button', { name: 'Details of ada@types.example' }).click()
  await expect(page.getByTestId('person-detail')).toBeVisible()
  for (const size of kioskSizes) {
    await page.setViewportSize({ width: size.width, height: size.height })
    expectWholeWords(await layoutFacts(page), size.name)
  }
})

test('Admin: "Keep face crops" is a check box beside its words, at every kiosk size', async ({ page }) => {
  await openStaffScreen(page, host.launchUrl, 'Admin')
  const keep = page.getByRole('checkbox', { name: /Keep face crops/ })
  await expect(keep).toBeChecked()
  await expect(keep).toHaveAccessibleDescription(/Off by default/)
  for (const size of kioskSizes) {
    await page.setViewportSize({ width: size.width, height: size.height })
    await keep.scrollIntoViewIfNeeded()
    expectControlsBesideLabels(await layoutFacts(page), size.name)
  }
})

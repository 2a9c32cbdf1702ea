import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { CONSENT } from '../../electron/shared/consent'
import { projectRoot } from '../support/process'
import { capture, untilDone } from '../support/capture'
import { checkScreen } from '../support/screens'
import { signInAs, startWebHost, type TestWebHost } from '../support/web-host'
import { consentBox } from '../support/consent'

// Nobody may become someone else, tried at the screen as a visitor and as staff would. The fake
// webcam shows the face in test/fixtures/generated/face.png; the records it collides with are
// planted through the bridge beforehand.
const photo = (name: string) => readFileSync(join(projectRoot, 'test/fixtures/generated', name)).toString('base64')
const enrollment = (userId: string, file: string) => ({ userId, samples: [photo(file)], consent: true, consentVersion: CONSENT.version })
const TAKEN = 'ana.taken@example.com'
const CAMERA_OWNER = 'camera.owner@example.com'
const NEWCOMER = 'camera.newcomer@example.com'

test.describe.configure({ mode: 'serial', timeout: 180_000 })

let host: TestWebHost

test.beforeAll(async () => {
  host = await startWebHost()
  await expect.poll(async () => (await host.bridge<{ state: string }>('getEngineStatus')).state, untilDone).toBe('running')
  // Ana is enrolled with another person's face than the one on the camera.
  expect(await host.bridge('enrollVisitor', enrollment(TAKEN, 'person-d.jpg'))).toMatchObject({ outcome: 'enrolled' })
})

test.afterAll(async () => {
  expect(await host.stop()).toBe(0)
})


/** From a fresh page (a visitor), or signed in as staff, through the enroll form and the camera to the result. */
async function enrollAtScreen(page: Page, userId: string, as: 'visitor' | 'staff'): Promise<void> {
  await page.goto('about:blank')
  await page.goto(host.launchUrl)
  if (as === 'staff') {
    await signInAs(page)
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Home', exact: true }).click()
  }
  await page.locator('.tiles').getByRole('button', { name: /^Enroll visitor/ }).click()
  await page.getByLabel('Visitor’s e-mail').fill(userId)
  await consentBox(page, as).check()
  await page.getByRole('button', { name: 'Continue to photos' }).click()
  await capture(page.getByRole('heading', { name: 'Check the photos' }))
  await page.getByRole('button', { name: `Enroll ${userId}` }).click()
}

const templatesOf = async (userId: string): Promise<number> => {
  const { person } = await host.bridge<{ person: { uuid: string } | null }>('findPerson', { userId })
  return person ? (await host.bridge<unknown[]>('getPersonTemplates', { personUuid: person.uuid })).length : 0
}

test('the takeover is refused: a visitor enrolling an enrolled e-mail with another face is sent to staff', async ({ page }) => {
  await enrollAtScreen(page, TAKEN, 'visitor')
  await expect(page.getByTestId('enroll-needs-staff')).toHaveText('This e-mail is already enrolled — please ask staff. Nothing was saved.', untilDone)
  await checkScreen(page, 'enroll-takeover-refused')
  expect(await templatesOf(TAKEN)).toBe(1)
  // The face on the camera is still not Ana.
  expect(await host.bridge('verifyVisitor', { userId: TAKEN, sample: photo('face.png') })).toMatchObject({ decision: 'no-match' })
})

test('a duplicate face under a new e-mail is stopped for a visitor and shown to the operator with both records', async ({ page }) => {
  expect(await host.bridge('enrollVisitor', enrollment(CAMERA_OWNER, 'face.png'))).toMatchObject({ outcome: 'enrolled' })

  await enrollAtScreen(page, NEWCOMER, 'visitor')
  await expect(page.getByTestId('enroll-needs-staff')).toContainText('please ask staff', untilDone)
  expect((await host.bridge<{ person: unknown }>('findPerson', { userId: NEWCOMER })).person).toBeNull()

  await enrollAtScreen(page, NEWCOMER, 'staff')
  const decision = page.getByTestId('enroll-decision')
  await expect(decision).toBeVisible(untilDone)
  await expect(decision.getByRole('region', { name: 'Matching persons' })).toContainText(CAMERA_OWNER)
  await expect(decision.getByRole('button', { name: 'Enroll anyway' })).toBeVisible()
  await checkScreen(page, 'enroll-duplicate-decision')
  await decision.getByRole('button', { name: 'Cancel' }).click()
  expect((await host.bridge<{ person: unknown }>('findPerson', { userId: NEWCOMER })).person).toBeNull()
})

test('staff see the existing record of an enrolled e-mail and may replace its face', async ({ page }) => {
  await enrollAtScreen(page, TAKEN, 'staff')
  const decision = page.getByTestId('enroll-decision')
  await expect(decision.getByRole('region', { name: 'Existing record' })).toContainText(`${TAKEN} (person`, untilDone)
  await expect(decision.getByRole('region', { name: 'Existing record' })).toContainText('The new photos do not match that face.')
  await expect(decision.getByRole('region', { name: 'Matching persons' })).toContainText(CAMERA_OWNER)
  await decision.getByRole('button', { name: 'Replace the enrolled face' }).click()
  await expect(page.getByText(`${TAKEN} is enrolled`)).toBeVisible(untilDone)
  expect(await templatesOf(TAKEN)).toBe(1)
  expect(await host.bridge('verifyVisitor', { userId: TAKEN, sample: photo('face.png') })).toMatchObject({ decision: 'match' })
})

test('the audit screen shows the refused attempts and the staff decision', async ({ page }) => {
  await page.goto('about:blank')
  await page.goto(host.launchUrl)
  await signInAs(page)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Audit', exact: true }).click()
  const table = page.getByTestId('audit-entries')
  await expect(table.getByRole('row', { name: new RegExp(`Enrollment Refused visitor ${TAKEN}`) })).toHaveCount(1)
  await expect(table.getByRole('row', { name: new RegExp(`Enrollment Refused visitor ${NEWCOMER}`) })).toHaveCount(1)
  await expect(table.getByRole('row', { name: new RegExp(`Enrollment Refused Test Admin \\(admin\\) ${NEWCOMER}`) })).toHaveCount(1)
  // Ana's first enrollment (planted) and the replacement.
  await expect(table.getByRole('row', { name: new RegExp(`Enrollment Done Test Admin \\(admin\\) ${TAKEN}`) })).toHaveCount(2)
  await expect(table).toContainText('existing record: replace')
  // Filtered by who acted (as staff type the name): only the administrator's entries remain.
  await page.getByLabel('Staff account').fill('test admin')
  await page.getByRole('button', { name: 'Show entries' }).click()
  await expect(table.getByRole('row', { name: new RegExp(`Enrollment Refused visitor ${NEWCOMER}`) })).toHaveCount(0)
  await expect(table.getByRole('row', { name: new RegExp(`Enrollment Refused Test Admin \\(admin\\) ${NEWCOMER}`) })).toHaveCount(1)
  await checkScreen(page, 'audit-identity')
})

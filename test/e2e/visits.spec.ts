import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import type { Host, Visit } from '../../electron/shared/visits'
import { untilDone } from '../support/capture'
import { consentBox } from '../support/consent'
import { decodeQr, pdfPage, pdfText } from '../support/pdf'
import { expectAccessible } from '../support/screens'
import { signInAs, startWebHost, type TestWebHost } from '../support/web-host'

// Visits in Debian Chromium against the web host and the real embedded engine, the fake webcam
// showing one face throughout: enroll then check in, check out by face, come back and check in by
// face in one step, then staff see who is on site and end the visit. The badge of the check-in is
// printed to PDF by Chromium and read back as a person and a scanner would.
const VISITOR = 'front.desk@example.com'

test.describe.configure({ mode: 'serial', timeout: 240_000 })

let host: TestWebHost
let grace: Host
let work: string

test.beforeAll(async () => {
  host = await startWebHost()
  work = mkdtempSync(join(tmpdir(), 'kiosk-visits-e2e-'))
  await expect.poll(async () => (await host.bridge('getEngineStatus')).state, untilDone).toBe('running')
  grace = await host.bridge('addHost', { name: 'Grace Hopper', email: 'grace@host.example' })
})

test.afterAll(async () => {
  await host.stop()
  rmSync(work, { recursive: true, force: true })
})

async function fromHome(page: Page, tile: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Home', exact: true }).click()
  await page.locator('.tiles').getByRole('button', { name: new RegExp(`^${tile}`) }).click()
}
const onSite = async (): Promise<Visit[]> => (await host.bridge('listOnSite')).visits

test('enroll then check in and print the badge; check out by face; a returning visitor checks in by face in one step; staff print the evacuation list and end the visit', async ({ page }) => {
  await page.goto(host.launchUrl)
  await page.locator('.tiles').getByRole('button', { name: /^Enroll visitor/ }).click()
  await page.getByLabel('Visitor’s e-mail').fill(VISITOR)
  await consentBox(page).check()
  await page.getByRole('button', { name: 'Continue to photos' }).click()
  await page.getByRole('button', { name: `Enroll ${VISITOR}` }).click({ timeout: 0 })
  await expect(page.getByText(`${VISITOR} is enrolled`)).toBeVisible(untilDone)

  // The check-in step after enrolling: first name, host, reason.
  const checkIn = page.getByRole('form', { name: 'Check in for your visit' })
  await checkIn.getByLabel('Your first name (optional)').fill('Frida')
  await checkIn.getByLabel('Whom are you visiting?').selectOption({ label: 'Grace Hopper' })
  await checkIn.getByLabel('Reason for your visit (optional)').fill('Interview')
  await expectAccessible(page)
  await checkIn.getByRole('button', { name: 'Check in', exact: true }).click()
  await expect(page.getByTestId('visit-outcome')).toHaveText('Welcome, Frida.', untilDone)
  await expect(page.getByText('Grace Hopper will be told you are here.')).toBeVisible()
  const [visit] = await onSite()
  expect(visit).toMatchObject({ email: VISITOR, firstName: 'Frida', hostId: grace.id, purpose: 'Interview', inviteId: null })

  // The badge, on the screen with "Print my badge"; printed (print media, as the print dialog does), only the badge reaches the paper.
  await expect(page.locator('.print-card-preview').getByTestId('badge')).toContainText('Frida')
  await expect(page.getByRole('button', { name: 'Print my badge' })).toBeVisible()
  const pdf = join(work, 'badge.pdf')
  await page.pdf({ path: pdf, printBackground: true })
  const text = pdfText(pdf)
  expect(text).toContain('Frida')
  expect(text).toContain('Grace Hopper')
  expect(text).not.toContain(VISITOR)
  expect(text).not.toContain('You are checked in')
  expect(decodeQr(pdfPage(pdf, mkdtempSync(join(work, 'badge-'))))).toBe(`kiosk-visit:${visit!.id}`)

  // Check out: one photo.
  await fromHome(page, 'Check out')
  await expect(page.getByTestId('visit-outcome')).toHaveText('Goodbye, Frida. Thank you for your visit.', untilDone)
  expect(await onSite()).toEqual([])

  // Back another day: "I've been here before", one photo, the same host and reason as last time.
  await fromHome(page, 'I’ve been here before')
  await expectAccessible(page)
  await page.getByRole('button', { name: 'Take my photo' }).click()
  await expect(page.getByTestId('visit-outcome')).toHaveText('Welcome back, Frida.', untilDone)
  await expectAccessible(page)
  await expect(page.getByText('Grace Hopper will be told you are here.')).toBeVisible()
  const [back] = await onSite()
  expect(back).toMatchObject({ email: VISITOR, hostId: grace.id, purpose: 'Interview', checkedOutAt: null })
  // This visit's badge, by face as after enrolling.
  await expect(page.locator('.print-card-preview').getByTestId('badge').locator('svg[data-qr]')).toHaveAttribute('data-qr', `kiosk-visit:${back!.id}`)

  // Staff: who is on site now, and ending the visit.
  await page.getByRole('button', { name: 'Done' }).click()
  await signInAs(page)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Visits', exact: true }).click()
  const row = page.getByTestId('on-site').getByRole('row', { name: new RegExp(`Frida \\(${VISITOR.replace(/\./g, '\\.')}\\)`) })
  await expect(row).toContainText('Grace Hopper')
  await expectAccessible(page)
  // The evacuation list: printed alone (the app hidden in print), everyone on site on it.
  await page.getByTestId('print-evacuation').click()
  await page.emulateMedia({ media: 'print' })
  await expect(page.getByTestId('evacuation-list')).toBeVisible()
  await expect(page.getByTestId('evacuation-list')).toContainText('1 visitor on site')
  await expect(page.getByTestId('evacuation-list').getByRole('row', { includeHidden: true })).toHaveCount(2)
  await expect(page.getByTestId('evacuation-list')).toContainText(`Frida${VISITOR}Grace Hopper`)
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden()
  await page.emulateMedia({ media: 'screen' })
  await expect(page.getByTestId('evacuation-list')).toBeHidden()
  await row.getByRole('button', { name: 'End visit' }).click()
  await expect(page.getByText('Nobody is checked in.')).toBeVisible()
  await expect(page.getByTestId('visit-log')).toContainText('(by staff)')
  expect(await onSite()).toEqual([])
})

import { createHmac } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import type { Host, Visit } from '../../electron/shared/visits'
import { untilDone } from '../support/capture'
import { consentBox } from '../support/consent'
import { decodeQr, pdfImageCount, pdfPage, pdfText } from '../support/pdf'
import { readMail, startReceiver, startSmtp, type LocalReceiver, type LocalSmtp } from '../support/notice-servers'
import { expectAccessible, openStaffScreen } from '../support/screens'
import { signInAs, startWebHost, type TestWebHost } from '../support/web-host'

// Visits in Debian Chromium against the web host and the real embedded engine, the fake webcam
// showing one face throughout: staff set up the host notifications and a host, a visitor enrolls
// then checks in and the host is told (a real SMTP server and a webhook receiver on 127.0.0.1),
// and the badge is printed to PDF by Chromium and read back as a person and a scanner would;
// the visitor checks out by face, comes back and checks in by face in one step, then staff see who
// is on site and end the visit.
const VISITOR = 'front.desk@example.com'
const SIGNING = 'e2e-arrivals-signing-secret-5b7e1c'

test.describe.configure({ mode: 'serial', timeout: 240_000 })

let host: TestWebHost
let smtp: LocalSmtp
let receiver: LocalReceiver
let work: string

test.beforeAll(async () => {
  smtp = await startSmtp()
  receiver = await startReceiver()
  host = await startWebHost()
  work = mkdtempSync(join(tmpdir(), 'kiosk-visits-e2e-'))
  await expect.poll(async () => (await host.bridge('getEngineStatus')).state, untilDone).toBe('running')
})

test.afterAll(async () => {
  await host.stop()
  await smtp.close()
  await receiver.close()
  rmSync(work, { recursive: true, force: true })
})

async function fromHome(page: Page, tile: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Home', exact: true }).click()
  await page.locator('.tiles').getByRole('button', { name: new RegExp(`^${tile}`) }).click()
}
const onSite = async (): Promise<Visit[]> => (await host.bridge('listOnSite')).visits

/** The webhook POSTs received, each signature checked as a receiver would (HMAC-SHA256 over "<timestamp>.<delivery id>.<body>"), as the visits they announce. */
const announced = () =>
  receiver.posts.map((post) => {
    const timestamp = post.headers['x-kiosk-timestamp'] as string
    expect(Math.abs(Date.now() / 1000 - Number(timestamp))).toBeLessThan(300)
    expect(post.headers['x-kiosk-signature-v2']).toBe(`v2=${createHmac('sha256', SIGNING).update(`${timestamp}.${post.headers['x-kiosk-delivery'] as string}.${post.body}`).digest('hex')}`)
    // The v1 signature a receiver written before v2 checks, still sent.
    expect(post.headers['x-kiosk-signature']).toBe(`v1=${createHmac('sha256', SIGNING).update(`${timestamp}.${post.body}`).digest('hex')}`)
    return (JSON.parse(post.body) as { visitId: string }).visitId
  })

test('staff set up the host notifications and a host; enroll then check in, the host told by e-mail and webhook once, the badge printed; check out by face; a returning visitor checks in by face in one step; staff print the evacuation list and end the visit', async ({ page }) => {
  // Staff: the SMTP server and the webhook signing secret in Settings, the host on Visits.
  await openStaffScreen(page, host.launchUrl, 'Settings')
  const notifications = page.getByRole('region', { name: 'Host notifications' })
  await notifications.getByLabel('SMTP server').fill('127.0.0.1')
  await notifications.getByLabel('Port', { exact: true }).fill(String(smtp.port))
  await notifications.getByLabel('Connection').selectOption('none')
  await notifications.getByLabel('Sender address').fill('front-desk@example.com')
  await notifications.getByRole('button', { name: 'Save e-mail settings' }).click()
  await expect(notifications.getByText('The e-mail settings were saved.')).toBeVisible()
  await notifications.getByLabel('Webhook signing secret', { exact: true }).fill(SIGNING)
  await notifications.getByRole('button', { name: 'Store secrets' }).click()
  await expect(notifications.getByText('Stored in the computer’s keychain.')).toBeVisible()
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Visits', exact: true }).click()
  const addHost = page.getByRole('form', { name: 'Add a host' })
  await addHost.getByLabel('Name', { exact: true }).fill('Grace Hopper')
  await addHost.getByLabel('E-mail', { exact: true }).fill('grace@host.example')
  await addHost.getByLabel('Webhook', { exact: true }).fill(receiver.url)
  await addHost.getByRole('button', { name: 'Add host' }).click()
  await expect(page.getByTestId('hosts')).toContainText('grace@host.example')
  const [grace] = (await host.bridge<Host[]>('listHosts')) as [Host]
  await page.getByRole('button', { name: 'Sign out' }).click()
  // The tenant keeps face crops: a visitor may have their photo on their badge.
  const tenant = await host.bridge('getTenant')
  await host.bridge('updateTenant', { name: tenant.name, maxIdentities: tenant.maxIdentities ?? 0, defaultPostBack: tenant.defaultPostBack, keepFaceCrops: true })

  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Home', exact: true }).click()
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
  // Offered, and left unticked: no photo on this badge.
  await expect(checkIn.getByLabel('Put my photo on my badge')).not.toBeChecked()
  await expectAccessible(page)
  await checkIn.getByRole('button', { name: 'Check in', exact: true }).click()
  await expect(page.getByTestId('visit-outcome')).toHaveText('Welcome, Frida.', untilDone)
  await expect(page.getByText('Grace Hopper will be told you are here.')).toBeVisible()
  const [first] = await onSite()
  expect(first).toMatchObject({ email: VISITOR, firstName: 'Frida', hostId: grace.id, purpose: 'Interview', inviteId: null })
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
  expect(pdfImageCount(pdf)).toBe(0)
  expect(decodeQr(pdfPage(pdf, mkdtempSync(join(work, 'badge-'))))).toBe(`kiosk-visit:${first!.id}`)
  // The host is told: one e-mail at the SMTP server, one signed webhook.
  await expect.poll(() => smtp.mails.length, { timeout: 30_000 }).toBe(1)
  expect(smtp.mails[0]).toMatchObject({ from: 'front-desk@example.com', to: ['grace@host.example'] })
  expect(readMail(smtp.mails[0]!.raw).subject).toBe('Frida has arrived')
  await expect.poll(() => receiver.posts.length, { timeout: 30_000 }).toBe(1)
  expect(announced()).toEqual([first!.id])

  // Check out: one photo.
  await fromHome(page, 'Check out')
  await expect(page.getByTestId('visit-outcome')).toHaveText('Goodbye, Frida. Thank you for your visit.', untilDone)
  expect(await onSite()).toEqual([])

  // Back another day: "I've been here before", one photo, the same host and reason as last time.
  await fromHome(page, 'I’ve been here before')
  await expectAccessible(page)
  await page.getByLabel('Put my photo on my badge').check()
  await page.getByRole('button', { name: 'Take my photo' }).click()
  await expect(page.getByTestId('visit-outcome')).toHaveText('Welcome back, Frida.', untilDone)
  await expectAccessible(page)
  await expect(page.getByText('Grace Hopper will be told you are here.')).toBeVisible()
  const [back] = await onSite()
  expect(back).toMatchObject({ email: VISITOR, hostId: grace.id, purpose: 'Interview', checkedOutAt: null })
  // This visit's badge, by face as after enrolling.
  await expect(page.locator('.print-card-preview').getByTestId('badge').locator('svg[data-qr]')).toHaveAttribute('data-qr', `kiosk-visit:${back!.id}`)
  // With the visitor's leave, the badge shows their face, cut from this photo: it is Frida's (the engine says so), and it is printed.
  const face = page.locator('.print-card-preview').getByRole('img', { name: 'Photo of Frida' })
  await expect(face).toBeVisible()
  const crop = (await face.getAttribute('src'))!
  expect(crop).toMatch(/^data:image\/jpeg;base64,/)
  expect(await host.bridge('verifyVisitor', { userId: VISITOR, sample: crop.slice(crop.indexOf(',') + 1) })).toMatchObject({ decision: 'match' })
  const withPhoto = join(work, 'badge-photo.pdf')
  await page.pdf({ path: withPhoto, printBackground: true })
  expect(pdfImageCount(withPhoto)).toBe(1)

  // Staff: who is on site now, and ending the visit.
  await page.getByRole('button', { name: 'Done' }).click()
  await signInAs(page)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Visits', exact: true }).click()
  const row = page.getByTestId('on-site').getByRole('row', { name: new RegExp(`Frida \\(${VISITOR.replace(/\./g, '\\.')}\\)`) })
  await expect(row).toContainText('Grace Hopper')
  // The Overview: both of today's check-ins, one of them still here, the first one's stay, their host.
  const overview = page.getByTestId('visit-overview')
  await expect(overview.getByTestId('overview-arrivals').locator('desc')).toHaveText(/^2 check-ins today, the most in the hour from /)
  await expect(overview.getByTestId('overview-on-site')).toHaveText('1')
  await expect(overview.getByTestId('overview-visits')).toHaveText('2')
  await expect(overview.getByTestId('overview-stay')).toHaveText(/^\d+ min$/)
  await overview.getByTestId('overview-hosts').getByText('The numbers as a table').click()
  await expect(overview.getByTestId('overview-hosts-table').getByRole('row', { name: 'Grace Hopper' })).toContainText('2')
  await overview.getByTestId('overview-arrivals').getByText('The numbers as a table').click()
  const hours = overview.getByTestId('overview-arrivals-table').locator('tbody tr')
  await expect(hours).toHaveCount(24)
  expect((await hours.evaluateAll((rows) => rows.map((tr) => Number(tr.children[1]!.textContent)))).reduce((a, b) => a + b)).toBe(2)
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
  await expect(overview.getByTestId('overview-on-site')).toHaveText('0')
  await expect(page.getByTestId('visit-log')).toContainText('(by staff)')
  expect(await onSite()).toEqual([])
  // Each arrival told its host exactly once: the first visit and the return, nothing more.
  await expect.poll(() => receiver.posts.length).toBe(2)
  expect(smtp.mails.map((mail) => mail.to)).toEqual([['grace@host.example'], ['grace@host.example']])
  expect(announced()).toEqual([first!.id, back!.id])
})

test('removing a host is asked first: Cancel keeps them, Remove host takes them out of the directory', async ({ page }) => {
  await openStaffScreen(page, host.launchUrl, 'Visits')
  const addHost = page.getByRole('form', { name: 'Add a host' })
  await addHost.getByLabel('Name', { exact: true }).fill('Ada Lovelace')
  await addHost.getByRole('button', { name: 'Add host' }).click()
  const hosts = page.getByTestId('hosts')
  await expect(hosts.getByRole('rowheader', { name: 'Ada Lovelace' })).toBeVisible()

  await hosts.getByRole('button', { name: 'Remove Ada Lovelace' }).click()
  const asked = page.getByRole('dialog', { name: 'Remove Ada Lovelace?' })
  await expect(asked).toBeVisible()
  // The safe choice has the focus; nothing is removed until the question is answered.
  await expect(asked.getByRole('button', { name: 'Cancel' })).toBeFocused()
  expect((await host.bridge<Host[]>('listHosts')).map((h) => h.name)).toContain('Ada Lovelace')
  await asked.getByRole('button', { name: 'Cancel' }).click()
  await expect(asked).toHaveCount(0)
  await expect(hosts.getByRole('rowheader', { name: 'Ada Lovelace' })).toBeVisible()

  await hosts.getByRole('button', { name: 'Remove Ada Lovelace' }).click()
  await expectAccessible(page)
  await page.getByRole('dialog', { name: 'Remove Ada Lovelace?' }).getByRole('button', { name: 'Remove host' }).click()
  await expect(page.getByRole('rowheader', { name: 'Ada Lovelace' })).toHaveCount(0)
  expect((await host.bridge<Host[]>('listHosts')).map((h) => h.name)).not.toContain('Ada Lovelace')
})

test('a visitor checking in by face while already on site reads that they were checked in already, and is not promised their host again', async ({ page }) => {
  await page.goto(host.launchUrl)
  await expect(page.getByTestId('engine-state')).toHaveText('Ready', { timeout: 0 })
  // A new visit: the host's channels are set up, so the visitor is told their host will hear.
  await fromHome(page, 'I’ve been here before')
  await page.getByRole('button', { name: 'Take my photo' }).click()
  await expect(page.getByTestId('visit-outcome')).toHaveText('Welcome back, Frida.', untilDone)
  await expect(page.getByText('Grace Hopper will be told you are here.')).toBeVisible()
  const [visit] = await onSite()
  await expect.poll(() => announced().filter((id) => id === visit!.id).length, { timeout: 30_000 }).toBe(1)

  // Again while on site: the open visit given back, and nobody told twice, so nothing promised.
  await page.getByRole('button', { name: 'Done' }).click()
  await fromHome(page, 'I’ve been here before')
  await page.getByRole('button', { name: 'Take my photo' }).click()
  await expect(page.getByTestId('visit-outcome')).toHaveText('Welcome back, Frida. You were already checked in.', untilDone)
  await expect(page.getByText('will be told you are here')).toHaveCount(0)
  expect((await onSite()).map((v) => v.id)).toEqual([visit!.id])
  await new Promise((resolve) => setTimeout(resolve, 1_500))
  expect(announced().filter((id) => id === visit!.id)).toHaveLength(1)
})

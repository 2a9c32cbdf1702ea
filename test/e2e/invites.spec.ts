import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Browser, type Page } from '@playwright/test'
import QRCode from 'qrcode'
import { fakeCameraFile } from '../../playwright.config'
import type { Host } from '../../electron/shared/visits'
import { formatVisitDay } from '../../renderer/src/i18n/dates'
import es from '../../renderer/src/i18n/locales/es.json' with { type: 'json' }
import { browserWithClip, untilDone } from '../support/capture'
import { consentBox } from '../support/consent'
import { decodeQr, pdfPage, pdfText } from '../support/pdf'
import { checkScreen, openStaffScreen } from '../support/screens'
import { startWebHost, type TestWebHost } from '../support/web-host'

// Invites end to end on the kiosk as `npm run start:web` runs it: staff create an invite and print
// it (Chromium's PDF, read back with poppler and jsQR); that printed page, turned into the fake
// webcam's clip, is held up to a visitor's kiosk, and the form fills itself; once revoked, the same
// code is refused in plain words. Then a visitor holds up an invitation beside their face, enrolls
// and checks in: the visit is linked to the invite, its host is told, and the code is used up.

const VISITOR = 'invited.visitor@example.com'
let host: TestWebHost
let work: string

test.beforeAll(async () => {
  host = await startWebHost()
  work = mkdtempSync(join(tmpdir(), 'kiosk-invite-e2e-'))
  await expect.poll(async () => (await host.bridge('getEngineStatus')).state, untilDone).toBe('running')
})

test.afterAll(async () => {
  await host.stop()
  rmSync(work, { recursive: true, force: true })
})

/** The printed invitation as the fake webcam's clip: the top of the page (where the card is), one frame that Chromium loops. */
function clipOf(ppm: string): string {
  const clip = join(work, 'invite.y4m')
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', ppm, '-vf', 'crop=960:720:0:0', '-frames:v', '1', '-pix_fmt', 'yuv420p', clip])
  return clip
}

async function holdUpInvite(kiosk: Page): Promise<void> {
  await kiosk.goto(host.launchUrl)
  await kiosk.locator('.tiles').getByRole('button', { name: /^Enroll visitor/ }).click()
  await kiosk.getByRole('button', { name: 'I have an invitation' }).click()
}

test('staff print an invite; its QR code shown to the kiosk’s camera fills the form; revoked, it is refused', async ({ page }) => {
  await openStaffScreen(page, host.launchUrl, 'Invites')
  await page.getByLabel('Visitor’s e-mail').fill(VISITOR)
  await page.getByRole('button', { name: 'Create invite' }).click()
  // On the screen (the copy that prints sits under <body>, hidden until printed).
  const card = page.locator('.print-card-preview').getByTestId('invite-card')
  await expect(card).toBeVisible()
  const token = await card.locator('svg[data-qr]').getAttribute('data-qr')
  expect(token).toMatch(/^KI1\./)
  await expect(page.getByTestId('invites')).toContainText(VISITOR)
  await checkScreen(page, 'invites')

  // Printed: only the invitation reaches the paper, with the e-mail and a code that decodes to the token.
  const pdf = join(work, 'invite.pdf')
  await page.pdf({ path: pdf, printBackground: true })
  const text = pdfText(pdf)
  expect(text).toContain(VISITOR)
  expect(text).toMatch(/invitation/i)
  expect(text).not.toContain('Invite a visitor')
  expect(text).not.toContain('Staff sign-in')
  const printed = pdfPage(pdf, work)
  expect(decodeQr(printed)).toBe(token)

  let browser: Browser | null = await browserWithClip(clipOf(printed.file))
  try {
    const kiosk = await (await browser.newContext()).newPage()
    await holdUpInvite(kiosk)
    await expect(kiosk.getByLabel('Visitor’s e-mail')).toHaveValue(VISITOR, untilDone)
    await expect(kiosk.getByLabel('Visitor’s e-mail')).toBeFocused()
    await expect(kiosk.getByTestId('invite-read')).toContainText('Your e-mail is filled in from your invitation')
    await checkScreen(kiosk, 'enroll-invite-read')

    // Staff revoke it: the same code is now refused, in the visitor's words, and the form stays empty.
    await page.getByRole('button', { name: `Revoke the invite for ${VISITOR}` }).click()
    await expect(page.getByText(`The invite for ${VISITOR} is revoked`)).toBeVisible()
    await kiosk.goto('about:blank')
    await holdUpInvite(kiosk)
    await expect(kiosk.getByTestId('invite-refused')).toHaveText('This invitation was cancelled. Please see the front desk.', untilDone)
    await kiosk.getByRole('button', { name: 'Cancel' }).click()
    await expect(kiosk.getByLabel('Visitor’s e-mail')).toHaveValue('')
  } finally {
    await browser.close()
    browser = null
  }
})

test('an invitation held up before enrolling goes with the check-in: its host, the visit linked to it, the code used up', async () => {
  const GUEST = 'arriving.guest@example.com'
  const grace: Host = await host.bridge('addHost', { name: 'Grace Hopper' })
  const { invite, token } = await host.bridge('createInvite', { email: GUEST, hostId: grace.id, date: new Date().toLocaleDateString('sv') })
  // One frame the fake webcam loops: the visitor's face, their invitation's QR code in the corner.
  const qr = join(work, 'guest-qr.png')
  await QRCode.toFile(qr, token, { width: 200, margin: 4 })
  const clip = join(work, 'face-and-invite.y4m')
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-i', fakeCameraFile, '-i', qr, '-filter_complex', '[0:v][1:v]overlay=0:H-h,format=yuv420p', '-frames:v', '1', clip])

  const browser = await browserWithClip(clip)
  try {
    const kiosk = await (await browser.newContext()).newPage()
    await holdUpInvite(kiosk)
    await expect(kiosk.getByLabel('Visitor’s e-mail')).toHaveValue(GUEST, untilDone)
    await consentBox(kiosk).check()
    await kiosk.getByRole('button', { name: 'Continue to photos' }).click()
    await kiosk.getByRole('button', { name: `Enroll ${GUEST}` }).click({ timeout: 0 })
    await expect(kiosk.getByText(`${GUEST} is enrolled`)).toBeVisible(untilDone)

    // No host chosen: the invitation's, and the visitor is told whom that is.
    const checkIn = kiosk.getByRole('form', { name: 'Check in for your visit' })
    await expect(checkIn.getByLabel('Whom are you visiting?').locator('option:checked')).toHaveText('The host on my invitation (Grace Hopper)')
    await checkIn.getByRole('button', { name: 'Check in', exact: true }).click()
    await expect(kiosk.getByTestId('visit-outcome')).toHaveText(`Welcome, ${GUEST}.`, untilDone)
    // The visit is the invitation's host's; no notice channel is set up here, so nothing is promised.
    await expect(kiosk.getByText('will be told you are here')).toHaveCount(0)
    const [visit] = (await host.bridge('listOnSite')).visits
    expect(visit).toMatchObject({ email: GUEST, hostId: grace.id, inviteId: invite.id })
    const used = (await host.bridge('listInvites', {})).invites.find((i: { id: string }) => i.id === invite.id)
    expect(used).toMatchObject({ state: 'used', visitId: visit.id })

    // The same code again: refused in plain words.
    await kiosk.getByRole('button', { name: 'Done' }).click()
    await holdUpInvite(kiosk)
    await expect(kiosk.getByTestId('invite-refused')).toHaveText('This invitation has already been used. Please see the front desk.', untilDone)
  } finally {
    await browser.close()
  }
})

test('the invitation card is printed in the language chosen for it, its date written the way that language writes dates', async ({ page }) => {
  const GUEST = 'lectora@example.com'
  await openStaffScreen(page, host.launchUrl, 'Invites')
  await page.getByLabel('Visitor’s e-mail').fill(GUEST)
  // The kiosk's own language until staff choose another.
  await expect(page.getByLabel('Language of the invitation')).toHaveValue('en')
  await page.getByLabel('Language of the invitation').selectOption({ label: 'Español' })
  const day = await page.getByLabel('Visit date').inputValue()
  await page.getByRole('button', { name: 'Create invite' }).click()
  const card = page.locator('.print-card-preview').getByTestId('invite-card')
  await expect(card).toHaveAttribute('lang', 'es')
  await expect(card).toContainText(es.invite.cardHowTo)
  await expect(card).toContainText(formatVisitDay(day, 'es'))
  await expect(card).toContainText(es.badge.frontDesk)
  await expect(card).not.toContainText('On the day')
  // The staff screen around it stays in English, its list in the English way of writing the day.
  await expect(page.getByTestId('invites').getByRole('row', { name: new RegExp(GUEST) })).toContainText(formatVisitDay(day, 'en'))
})

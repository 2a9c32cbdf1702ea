import { expect, test } from '@playwright/test'
import { untilDone } from '../support/capture'
import { consentBox } from '../support/consent'
import { checkScreen, openStaffScreen } from '../support/screens'
import { signInAs, startWebHost, type TestWebHost } from '../support/web-host'

// Host notifications on the staff screens, on the kiosk as `npm run start:web` runs it: an
// administrator sets the SMTP server and the secrets in Settings; staff see the queue on Outbox.
// (Arrivals themselves come from check-in, the visits feature's; the queue's deliveries are tested
// against real servers in test/keychain/host-notices.test.ts.)
let host: TestWebHost

test.beforeAll(async () => {
  host = await startWebHost()
})

test.afterAll(async () => {
  expect(await host.stop()).toBe(0)
})

test('Settings: an administrator sets the SMTP server (field errors under their fields) and stores the secrets write-only', async ({ page }) => {
  await openStaffScreen(page, host.launchUrl, 'Settings')
  const section = page.getByRole('region', { name: 'Host notifications' })
  await expect(section.getByText('E-mail is not set up')).toBeVisible()

  // Refused before sending: each field says what it needs.
  await section.getByLabel('SMTP server').fill('smtp.example.com')
  await section.getByLabel('Port', { exact: true }).fill('70000')
  await section.getByLabel('Sender address').fill('front-desk')
  await section.getByRole('button', { name: 'Save e-mail settings' }).click()
  await expect(section.getByLabel('Port', { exact: true })).toHaveAttribute('aria-invalid', 'true')
  await expect(section.getByLabel('Sender address')).toHaveAccessibleDescription(/one @/)

  await section.getByLabel('Port', { exact: true }).fill('587')
  await section.getByLabel('Sender address').fill('front-desk@example.com')
  await section.getByLabel('SMTP user').fill('kiosk')
  await section.getByRole('button', { name: 'Save e-mail settings' }).click()
  await expect(section.getByText('The e-mail settings were saved.')).toBeVisible()
  expect(await host.bridge('getHostNoticeSettings')).toMatchObject({
    smtp: { host: 'smtp.example.com', port: 587, security: 'starttls', from: 'front-desk@example.com', user: 'kiosk' },
    secrets: { smtpPassword: false, webhookSecret: false },
  })

  // Secrets: a short signing secret is refused; stored ones say so and never appear in the page.
  const password = 'e2e-smtp-password-4c2a'
  const signing = 'e2e-webhook-signing-secret-91f0d7'
  const secret = section.getByLabel('Webhook signing secret', { exact: true })
  await secret.fill('short')
  await section.getByRole('button', { name: 'Store secrets' }).click()
  await expect(section.getByRole('alert').filter({ hasText: 'The secrets were not changed' })).toBeVisible()
  await section.getByLabel('SMTP password', { exact: true }).fill(password)
  await secret.fill(signing)
  await section.getByRole('button', { name: 'Store secrets' }).click()
  await expect(section.getByText('Stored in the computer’s keychain.')).toBeVisible()
  await expect(section.getByLabel('SMTP password', { exact: true })).toHaveAccessibleDescription(/Status: stored\./)
  await expect(secret).toHaveAccessibleDescription(/Status: stored\./)
  await expect(secret).toHaveValue('')
  expect(await page.content()).not.toContain(password)
  expect(await page.content()).not.toContain(signing)
  await checkScreen(page, 'settings-host-notices')

  await section.getByRole('button', { name: 'Remove the stored smtp password' }).click()
  await expect(section.getByLabel('SMTP password', { exact: true })).toHaveAccessibleDescription(/Status: not set\./)
  await section.getByRole('button', { name: 'Turn e-mail off' }).click()
  await expect(section.getByText('E-mail is off')).toBeVisible()
  expect((await host.bridge<{ smtp: unknown }>('getHostNoticeSettings')).smtp).toBeNull()
})

test('Outbox: staff see the host notices, empty until a visitor checks in', async ({ page }) => {
  await openStaffScreen(page, host.launchUrl, 'Outbox')
  const section = page.getByRole('region', { name: 'Hosts told of arrivals' })
  await expect(section.getByText('No host notices yet.')).toBeVisible()
  // One queue, two kinds: the notices count their states in the same words as the enrollments (a notice refused for good needs attention).
  const counts = section.getByTestId('host-notice-counts')
  await expect(counts.getByRole('term')).toHaveText(['Waiting', 'Sending', 'Needs attention', 'Delivered (last week)'])
  await expect(page.getByTestId('outbox-counts').getByRole('term')).toHaveText(['Waiting', 'Sending', 'Needs attention', 'Delivered (last day)'])
  await expect(counts).toContainText(/Needs attention\s*0/)
  await checkScreen(page, 'outbox-host-notices')
})

test('with e-mail off, a visitor who checks in is not promised their host will hear; the notice waits on Outbox, needing attention', async ({ page }) => {
  test.setTimeout(240_000)
  // E-mail was turned off above; this host can be told by e-mail only.
  await host.bridge('addHost', { name: 'Grace Hopper', email: 'grace@host.example' })
  await page.goto(host.launchUrl)
  await expect(page.getByTestId('engine-state')).toHaveText('Ready', { timeout: 0 })
  await page.locator('.tiles').getByRole('button', { name: /^Enroll visitor/ }).click()
  await page.getByLabel('Visitor’s e-mail').fill('unannounced@example.com')
  await consentBox(page).check()
  await page.getByRole('button', { name: 'Continue to photos' }).click()
  await page.getByRole('button', { name: 'Enroll unannounced@example.com' }).click({ timeout: 0 })
  await expect(page.getByText('unannounced@example.com is enrolled')).toBeVisible(untilDone)
  const checkIn = page.getByRole('form', { name: 'Check in for your visit' })
  await checkIn.getByLabel('Your first name (optional)').fill('Hedy')
  await checkIn.getByLabel('Whom are you visiting?').selectOption({ label: 'Grace Hopper' })
  await checkIn.getByRole('button', { name: 'Check in', exact: true }).click()
  await expect(page.getByTestId('visit-outcome')).toHaveText('Welcome, Hedy.', untilDone)
  await expect(page.getByText('will be told you are here')).toHaveCount(0)

  // Staff see the notice that could not be sent, and why, rather than it being tried again and again.
  await page.getByRole('button', { name: 'Done' }).click()
  await signInAs(page)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Outbox', exact: true }).click()
  const section = page.getByRole('region', { name: 'Hosts told of arrivals' })
  await expect(section.getByTestId('host-notice-counts')).toContainText(/Needs attention\s*1/)
  const row = section.getByTestId('host-notices').getByRole('row', { name: /Grace Hopper/ })
  await expect(row).toContainText('Needs attention')
  await expect(row).toContainText('E-mail is not set up')
  await expect(row).toContainText('NOT_CONFIGURED')
})

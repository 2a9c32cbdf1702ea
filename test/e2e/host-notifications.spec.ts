import { expect, test } from '@playwright/test'
import { checkScreen, openStaffScreen } from '../support/screens'
import { startWebHost, type TestWebHost } from '../support/web-host'

// Host notifications on the staff screens, on the kiosk as `npm run start:web` runs it: an
// administrator sets the SMTP server and the secrets in Settings; staff see the queue on Outbox.
// (Arrivals themselves come from check-in, the visits feature's; the queue's deliveries are tested
// against real servers in test/keychain/host-notifications.test.ts.)
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
  expect(await host.bridge('getNotificationSettings')).toMatchObject({
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
  await checkScreen(page, 'settings-host-notifications')

  await section.getByRole('button', { name: 'Remove the stored smtp password' }).click()
  await expect(section.getByLabel('SMTP password', { exact: true })).toHaveAccessibleDescription(/Status: not set\./)
  await section.getByRole('button', { name: 'Turn e-mail off' }).click()
  await expect(section.getByText('E-mail is off')).toBeVisible()
  expect((await host.bridge<{ smtp: unknown }>('getNotificationSettings')).smtp).toBeNull()
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

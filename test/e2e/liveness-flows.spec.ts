import { expect, test, type Page } from '@playwright/test'
import { tiltedCameraFile } from '../../playwright.config'
import { browserWithClip, untilDone } from '../support/capture'
import { signInAs, startWebHost, type TestWebHost } from '../support/web-host'
import { consentBox } from '../support/consent'

// The liveness step in the kiosk's own flows, on the web host with the real services and embedded
// engine. The fake webcam plays a still photo (tilted, so photos are taken with "Capture now"): it
// never blinks or turns. The attack and bona fide streams are test/e2e/liveness.spec.ts's.

let host: TestWebHost
const ALG = 'HumanFaceRes'

test.beforeAll(async () => {
  host = await startWebHost()
  await expect.poll(async () => (await host.bridge('getEngineStatus')).state, untilDone).toBe('running')
  await host.bridge('associateAlgorithm', { algCode: ALG })
})

test.afterAll(async () => {
  await host.stop()
})

async function withPage(use: (page: Page) => Promise<void>) {
  const browser = await browserWithClip(tiltedCameraFile)
  try {
    const page = await browser.newPage()
    await page.goto(host.launchUrl)
    await expect(page.getByTestId('engine-state')).toHaveText('Ready', untilDone)
    await use(page)
  } finally {
    await browser.close()
  }
}

async function captureNow(page: Page) {
  const button = page.getByRole('button', { name: 'Capture now' })
  await expect(button).toBeEnabled(untilDone)
  await button.click()
}

test('without a liveness association: no challenge, and the result says nothing about liveness', async () => {
  await withPage(async (page) => {
    await page.locator('.tile', { hasText: 'Verify identity' }).click()
    await page.getByLabel('Visitor’s e-mail').fill('nobody.plain@example.com')
    await page.getByRole('button', { name: 'Continue to photo' }).click()
    await captureNow(page)
    await expect(page.getByTestId('verify-decision')).toBeVisible(untilDone)
    await expect(page.getByTestId('liveness-check')).toHaveCount(0)
    await expect(page.getByTestId('liveness-result')).toHaveCount(0)
    await expect(page.locator('main')).not.toContainText(/liveness/i)
  })
})

test('with the active challenge: a visitor has no way around it, a still photo is refused in plain words with "Try again"; staff may go on with a reason', async () => {
  await host.bridge('associateLiveness', { algCode: ALG, livenessCode: 'active-challenge' })
  await host.bridge('saveSettings', { livenessStepSeconds: 3 })
  try {
    await withPage(async (page) => {
      // Visitor, Verify: the challenge, no override; its first step runs out on a still photo, the burst is judged and refused.
      await page.locator('.tile', { hasText: 'Verify identity' }).click()
      await page.getByLabel('Visitor’s e-mail').fill('nobody.live@example.com')
      await page.getByRole('button', { name: 'Continue to photo' }).click()
      await captureNow(page)
      await expect(page.getByTestId('liveness-prompt')).toHaveText(/^(Blink your eyes|Turn your head to your (left|right))$/, untilDone)
      await expect(page.getByRole('button', { name: 'Continue without liveness check' })).toHaveCount(0)
      await expect(page.getByTestId('liveness-error')).toBeVisible(untilDone)
      await expect(page.getByText('The liveness check did not pass')).toBeVisible()
      await expect(page.getByTestId('liveness-not-seen')).toHaveText(/^The kiosk did not see you (blink|turn your head to your (left|right)) in time\.$/)
      await expect(page.getByTestId('verify-decision')).toHaveCount(0)
      // "Try again" is a new capture, with a new challenge.
      await page.getByRole('button', { name: 'Try again' }).click()
      await expect(page.getByRole('button', { name: 'Capture now' })).toBeVisible()
      await page.getByRole('button', { name: 'Cancel' }).click()

      // Visitor, Enroll: a step not seen in time is said at once, the burst judged (and audited) by the
      // services without a tap on Enroll; the only way on is "Try again".
      const visitorEmail = 'nobody.enroll.live@example.com'
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Enroll visitor', exact: true }).click()
      await page.getByLabel('Visitor’s e-mail').fill(visitorEmail)
      await consentBox(page).check()
      await page.getByRole('button', { name: 'Continue to photos' }).click()
      for (let photo = 0; photo < 3; photo++) await captureNow(page)
      await expect(page.getByTestId('liveness-not-seen')).toHaveText(/^The kiosk did not see you (blink|turn your head to your (left|right)) in time\.$/, untilDone)
      await expect(page.getByText('The liveness check did not pass')).toBeVisible()
      await expect(page.getByRole('button', { name: `Enroll ${visitorEmail}` })).toHaveCount(0)
      await expect(page.getByRole('button', { name: 'Retake photos' })).toHaveCount(0)
      const audit = await host.bridge<{ entries: Array<{ action: string; detail?: string | null }> }>('getAuditLog', { userId: visitorEmail, limit: 1 })
      expect(audit.entries[0]?.detail).toMatch(/^liveness failed: .*not seen/)
      await page.getByRole('button', { name: 'Try again' }).click()
      await expect(page.getByRole('button', { name: 'Capture now' })).toBeVisible()
      await page.getByRole('button', { name: 'Cancel' }).click()

      // Staff, Enroll: the override asks for a reason; the result says so.
      await host.bridge('saveSettings', { livenessStepSeconds: 30 })
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Home', exact: true }).click()
      await signInAs(page)
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Enroll visitor', exact: true }).click()
      const email = 'override.live@example.com'
      await page.getByLabel('Visitor’s e-mail').fill(email)
      await consentBox(page, 'staff').check()
      await page.getByRole('button', { name: 'Continue to photos' }).click()
      for (let photo = 0; photo < 3; photo++) await captureNow(page)
      await expect(page.getByTestId('liveness-prompt')).toHaveText(/\S/, untilDone)
      await page.getByRole('button', { name: 'Continue without liveness check' }).click()
      const dialog = page.getByRole('dialog', { name: 'Continue without liveness check?' })
      await dialog.getByLabel('Reason').fill('Cannot turn their head')
      await dialog.getByRole('button', { name: 'Continue without liveness check' }).click()
      await page.getByRole('button', { name: `Enroll ${email}` }).click()
      await expect(page.getByText(`${email} is enrolled`)).toBeVisible(untilDone)
      await expect(page.getByTestId('liveness-result')).toHaveText('Liveness: overridden by staff — Cannot turn their head.')

      // Staff, Identify: a refusal stands alone (no new capture under it) and names the control that goes on without the check.
      await host.bridge('saveSettings', { livenessStepSeconds: 3 })
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Who is this?', exact: true }).click()
      await captureNow(page)
      await expect(page.getByTestId('liveness-error')).toBeVisible(untilDone)
      await expect(page.getByTestId('liveness-not-seen')).toBeVisible()
      await expect(page.getByText(/press “Continue without liveness check” during the check/)).toBeVisible()
      await expect(page.getByRole('button', { name: 'Capture now' })).toHaveCount(0)
      await page.getByRole('button', { name: 'Try again' }).click()
      await expect(page.getByRole('button', { name: 'Capture now' })).toBeVisible()
    })
  } finally {
    await host.bridge('disassociateLiveness', { algCode: ALG, livenessCode: 'active-challenge' })
  }
})

import { expect, test, type Page } from '@playwright/test'
import type { Visit } from '../../electron/shared/visits'
import ar from '../../renderer/src/i18n/locales/ar.json' with { type: 'json' }
import fr from '../../renderer/src/i18n/locales/fr.json' with { type: 'json' }
import { untilDone } from '../support/capture'
import { expectAccessible } from '../support/screens'
import { startWebHost, type TestWebHost } from '../support/web-host'

// A visitor's way on and off the visit screens, in Debian Chromium against the web host and the real
// embedded engine, the fake webcam showing one face: a check-in or check-out by face that fails
// (the servers cannot be reached) offers Try again and Cancel; the end of a visitor's flow (Done,
// Cancel, leaving the check-in form) brings Home back in the kiosk's own language; and leaving the
// check-in form after enrolling is a quiet link that asks first. Each test stands alone (-g).

// Guided captures and an enrollment each: on a busy machine they outlast the default cap. Every step waits on a state.
test.describe.configure({ mode: 'serial', timeout: 240_000 })

/** Servers nobody answers at (the discard port on loopback): every call to them fails as unreachable, at once. */
const UNREACHABLE = { mode: 'remote', personServerUrl: 'http://127.0.0.1:9', bioEngineUrl: 'http://127.0.0.1:9' } as const

let host: TestWebHost

test.beforeAll(async () => {
  host = await startWebHost()
  await engineRunning()
  // No "Still there?" in the middle of a capture on a slow machine.
  await host.bridge('saveSettings', { idleTimeoutSeconds: 3600 })
})

test.afterAll(async () => {
  await host.stop()
})

async function engineRunning(): Promise<void> {
  await expect.poll(async () => (await host.bridge<{ state: string }>('getEngineStatus')).state, untilDone).toBe('running')
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** A fresh load of Home, in `language` (its own name on the language buttons). */
async function homeIn(page: Page, language: 'Français' | 'العربية', lang: 'fr' | 'ar') {
  await page.goto('about:blank')
  await page.goto(host.launchUrl)
  await page.getByRole('button', { name: language }).click()
  await expect(page.locator('html')).toHaveAttribute('lang', lang)
}

/** Home as the next visitor finds it: the kiosk's own language (English), left to right. */
async function expectHomeInEnglish(page: Page) {
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome')
  await expect(page.locator('.tiles')).toBeVisible()
  await expect(page.locator('html')).toHaveAttribute('lang', 'en')
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr')
  await expect(page.getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'true')
}

/** Enrolls the camera's face as `email` through the French screens, up to the check-in form that follows. */
async function enrollInFrench(page: Page, email: string) {
  await homeIn(page, 'Français', 'fr')
  await page.locator('.tiles').getByRole('button', { name: new RegExp(`^${escaped(fr.screens.enroll)}`) }).click()
  await page.getByLabel(fr.common.email).fill(email)
  await page.getByLabel(fr.consent.agree, { exact: true }).check()
  await page.getByRole('button', { name: fr.enroll.continue }).click()
  await page.getByRole('button', { name: fr.enroll.submit.replace('{{email}}', email) }).click(untilDone)
  await expect(page.getByText(fr.enroll.enrolled.replace('{{email}}', email))).toBeVisible(untilDone)
  const form = page.getByRole('form', { name: fr.visit.checkInTitle })
  await expect(form).toBeVisible()
  return form
}

test('a check-out or check-in by face that fails offers Try again, back to the camera, and Cancel, Home; the visitor’s language goes with them', async ({ page }) => {
  // The tenant's liveness policy read while the servers answer, as a kiosk in use has it, so the
  // failure below is the servers', not a liveness check the kiosk cannot ask about.
  expect(await host.bridge('startLivenessChallenge', { purpose: 'verify' })).toMatchObject({ required: false })
  // A real failure, not an intercepted request: the kiosk is pointed at servers that cannot be reached.
  await host.bridge('saveSettings', UNREACHABLE)
  await host.bridge('setCredentials', { clientId: 'kiosk-e2e', clientSecret: 'nobody-answers-1' })
  try {
    // Check-out, in Arabic: the photo is taken, the servers do not answer.
    await homeIn(page, 'العربية', 'ar')
    await page.locator('.tiles').getByRole('button', { name: new RegExp(`^${escaped(ar.screens.checkOut)}`) }).click()
    const checkOutFailed = page.getByRole('alert').filter({ hasText: ar.visit.checkOutFailedTitle })
    await expect(checkOutFailed).toBeVisible(untilDone)
    await expect(checkOutFailed).toContainText(ar.errors.UNREACHABLE)
    await expect(checkOutFailed.getByRole('button', { name: ar.common.tryAgain })).toBeVisible()
    await expect(checkOutFailed.getByRole('button', { name: ar.common.cancel })).toBeVisible()
    await expectAccessible(page)
    // Cancel: the visitor gives up; Home, ready for the next visitor in the kiosk's language.
    await checkOutFailed.getByRole('button', { name: ar.common.cancel }).click()
    await expectHomeInEnglish(page)

    // Check-in by face, in French: the same failure, the same way on.
    await homeIn(page, 'Français', 'fr')
    await page.locator('.tiles').getByRole('button', { name: new RegExp(`^${escaped(fr.screens.checkIn)}`) }).click()
    await page.getByRole('button', { name: fr.visit.takePhoto }).click()
    const checkInFailed = page.getByRole('alert').filter({ hasText: fr.visit.checkInFailedTitle })
    await expect(checkInFailed).toBeVisible(untilDone)
    await expect(checkInFailed).toContainText(fr.errors.UNREACHABLE)
    await expect(checkInFailed.getByRole('button', { name: fr.common.tryAgain })).toBeVisible()
    await expect(checkInFailed.getByRole('button', { name: fr.common.cancel })).toBeVisible()
    await expectAccessible(page)
  } finally {
    await host.bridge('saveSettings', { mode: 'embedded' })
    await host.bridge('clearCredentials', {})
  }
  await engineRunning()

  // The servers are back: Try again takes the photo again, in French, and this time the check-in has its answer.
  await page.getByRole('button', { name: fr.common.tryAgain }).click()
  await expect(page.getByRole('alert').filter({ hasText: fr.visit.checkInFailedTitle })).toHaveCount(0)
  await expect(page.getByTestId('visit-outcome')).toBeVisible(untilDone)
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr')
  // Done ends this visitor's turn: the next one finds Home in the kiosk's language, not in French.
  await page.getByRole('button', { name: fr.common.done }).click()
  await expectHomeInEnglish(page)
})

test('after enrolling, leaving without checking in is a quiet link that asks first; leaving brings Home back in the kiosk’s language', async ({ page }) => {
  const email = 'leaves.early@example.com'
  try {
    const form = await enrollInFrench(page, email)
    // Check in is the one main action: no "Done" beside it at the same weight.
    await expect(form.getByRole('button', { name: fr.visit.checkInNow, exact: true })).toHaveClass(/btn-primary/)
    await expect(form.getByRole('button', { name: fr.common.done })).toHaveCount(0)
    const leave = form.getByRole('button', { name: fr.visit.leaveWithout })
    await expect(leave).toHaveClass(/\blink\b/)

    // One tap asks; Escape (or "Check in") keeps the visitor on the form.
    await leave.click()
    const asked = page.getByRole('dialog', { name: fr.visit.leaveTitle })
    await expect(asked).toBeVisible()
    await expect(asked).toContainText(fr.visit.leaveBody)
    await expect(asked.getByRole('button', { name: fr.visit.checkInNow, exact: true })).toBeFocused()
    await expect(asked.getByRole('button', { name: fr.visit.leave, exact: true })).toBeVisible()
    await expectAccessible(page)
    await page.keyboard.press('Escape')
    await expect(asked).toHaveCount(0)
    await expect(form).toBeVisible()

    // Asked again, and confirmed: Home, in the kiosk's language; nobody was checked in.
    await leave.click()
    await asked.getByRole('button', { name: fr.visit.leave, exact: true }).click()
    await expectHomeInEnglish(page)
    expect(((await host.bridge<{ visits: Visit[] }>('listOnSite')).visits)).toEqual([])
  } finally {
    await host.bridge('removeVisitor', { userId: email })
  }
})

test('after enrolling, “Check in” in the question checks the visitor in; Done brings Home back in the kiosk’s language', async ({ page }) => {
  const email = 'stays.after.all@example.com'
  try {
    const form = await enrollInFrench(page, email)
    await form.getByLabel(fr.visit.firstName).fill('Aïcha')
    await form.getByRole('button', { name: fr.visit.leaveWithout }).click()
    const asked = page.getByRole('dialog', { name: fr.visit.leaveTitle })
    await asked.getByRole('button', { name: fr.visit.checkInNow, exact: true }).click()
    await expect(asked).toHaveCount(0)
    await expect(page.getByTestId('visit-outcome')).toHaveText(fr.visit.welcome.replace('{{name}}', 'Aïcha'), untilDone)
    expect((await host.bridge<{ visits: Visit[] }>('listOnSite')).visits).toMatchObject([{ email, firstName: 'Aïcha' }])
    await page.getByRole('button', { name: fr.common.done }).click()
    await expectHomeInEnglish(page)
  } finally {
    for (const visit of (await host.bridge<{ visits: Visit[] }>('listOnSite')).visits) await host.bridge('endVisit', { id: visit.id })
    await host.bridge('removeVisitor', { userId: email })
  }
})

import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { loadFacePlugins } from '../../electron/engine/face'
import fr from '../../renderer/src/i18n/locales/fr.json' with { type: 'json' }
import { untilDone } from '../support/capture'
import { startTestEngine, TEST_TENANT, type TestEngine } from '../support/engine'
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy'
import { expectAccessible } from '../support/screens'
import { startWebHost, TEST_ADMIN, type TestWebHost } from '../support/web-host'

// A kiosk of a site while the link to its site is down, in Debian Chromium against the web host,
// the fake webcam showing one face: the site is one real engine with face recognition (SQLite, in
// this process) behind the fault proxy, which drops every connection while the link is "down".
// A new visitor enrolls and checks in, in French: the kiosk keeps both, and the visitor reads, in
// their language, that their check-in is saved here and reaches the front desk when the kiosk is
// back. When it is back, the site has the person and the visit, once.

test.describe.configure({ timeout: 300_000 })

let site: TestEngine
let proxy: FaultProxy
let kiosk: TestWebHost
const siteFolder = mkdtempSync(join(tmpdir(), 'kiosk-e2e-site-'))

test.beforeAll(async () => {
  site = await startTestEngine(await loadFacePlugins({ threads: 2, log: () => {} }), siteFolder, { tenant: TEST_TENANT })
  proxy = await startFaultProxy(site.url)
  const desk = site.engine.ctx.frontDesk
  await desk.createFirstAdmin(TEST_ADMIN.name, TEST_ADMIN.secret, null)
  kiosk = await startWebHost({ firstRun: true })
  const { code } = await desk.createPairingCode('e2e')
  await kiosk.bridge('joinSite', { url: proxy.url, code, name: 'Lobby' })
  // No "Still there?" in the middle of a capture on a slow machine.
  await kiosk.bridge('saveSettings', { idleTimeoutSeconds: 3600 })
})

test.afterAll(async () => {
  await kiosk?.stop()
  await proxy?.close()
  await site?.close()
  rmSync(siteFolder, { recursive: true, force: true })
})

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Home, its visitor choosing French. */
async function homeInFrench(page: Page): Promise<void> {
  await page.goto(kiosk.launchUrl)
  await page.getByRole('button', { name: 'Français' }).click()
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr')
}

test('the site away: a new visitor enrolls and checks in, told in French that it is saved here and reaches the front desk later; back, the site has the visit once', async ({ page }) => {
  const email = `hors.ligne-${randomUUID().slice(0, 8)}@example.com`
  const desk = site.engine.ctx.frontDesk
  // The tenant's liveness policy read while the site answers, as a kiosk in use has it (never read,
  // every check is required offline: a still camera clip would be refused for that).
  expect(await kiosk.bridge('startLivenessChallenge', { purpose: 'enroll' })).toMatchObject({ required: false })
  // The link goes down: every connection to the site dropped, as a cut switch does.
  proxy.setUpstream(null)

  await homeInFrench(page)
  await page.locator('.tiles').getByRole('button', { name: new RegExp(`^${escaped(fr.screens.enroll)}`) }).click()
  await page.getByLabel(fr.common.email).fill(email)
  await page.getByLabel(fr.consent.agree, { exact: true }).check()
  await page.getByRole('button', { name: fr.enroll.continue }).click()
  await page.getByRole('button', { name: fr.enroll.submit.replace('{{email}}', email) }).click(untilDone)
  // Kept in the outbox, screened against the kiosk's copy of the watchlist: the visitor may check in now.
  await expect(page.getByText(fr.enroll.queuedTitle)).toBeVisible(untilDone)
  await expect(page.getByText(fr.enroll.queuedCheckIn)).toBeVisible()
  const form = page.getByRole('form', { name: fr.visit.checkInTitle })
  await form.getByLabel(fr.visit.firstName).fill('Odile')
  await form.getByRole('button', { name: fr.visit.checkInNow, exact: true }).click()
  await expect(page.getByTestId('visit-outcome')).toBeVisible(untilDone)
  // In the visitor's language: saved here, reaches the front desk later; never that anyone was told.
  await expect(page.getByTestId('visit-offline')).toHaveText(fr.visit.offlineCheckedIn)
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr')
  await expectAccessible(page)
  expect(await desk.onSite()).not.toContainEqual(expect.objectContaining({ email }))

  // The link is back: the enrollment, then the check-in, reach the site once.
  proxy.setUpstream(site.url)
  await expect.poll(async () => (await desk.onSite()).filter((visit) => visit.email === email).length, untilDone).toBe(1)
  const [visit] = (await desk.onSite()).filter((v) => v.email === email)
  expect(visit).toMatchObject({ firstName: 'Odile', kioskName: 'Lobby' })
  await expect.poll(async () => (await kiosk.bridge<{ waitingActs: number }>('getSiteSync')).waitingActs, untilDone).toBe(0)
  expect((await desk.onSite()).filter((v) => v.email === email)).toHaveLength(1)
  // The camera that opened is in the kiosk's health report to the site (said while away, sent within a report's interval).
  await expect.poll(async () => (await desk.listKiosks()).find((k) => k.name === 'Lobby')?.health?.camera, untilDone).toBe('found')
})

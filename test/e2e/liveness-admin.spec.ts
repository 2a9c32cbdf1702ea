import { expect, test, type Page } from '@playwright/test'
import { LIVENESS_LIMITS, livenessChecks } from '../../electron/shared/liveness'
import { checkScreen } from '../support/screens'
import { startStandin, TEMPLATE_TYPE, type Standin } from '../support/vendor-standin'
import { signInAs, startWebHost, type TestWebHost } from '../support/web-host'

// Admin's liveness choice on the kiosk as `npm run start:web` runs it. The kiosk points at a vendor
// stand-in (remote mode): a vendor's server accepts liveness codes of its own, which this kiosk does
// not understand, and Admin must say that such a code is not checked here.

let host: TestWebHost
let standin: Standin
const credentials = { clientId: 'kiosk-remote', clientSecret: 'vendor-secret-0123' }

test.beforeAll(async () => {
  standin = await startStandin({ ...credentials, tenants: ['KIOSK'], basicEncoding: 'form-urlencoded' })
  host = await startWebHost()
  await host.bridge('saveSettings', {
    mode: 'remote',
    personServerUrl: standin.personServerUrl,
    bioEngineUrl: standin.bioEngineUrl,
    tenantCode: 'KIOSK',
    appCode: 'KIOSK',
    templateType: TEMPLATE_TYPE,
    basicAuthEncoding: 'form-urlencoded',
  })
  await host.bridge('setCredentials', credentials)
  await host.bridge('associateAlgorithm', { algCode: 'VendorAlg' })
  // A code of the vendor's own, associated by the vendor's tools.
  await host.bridge('associateLiveness', { algCode: 'VendorAlg', livenessCode: 'VENDOR-3D-DEPTH' })
})

test.afterAll(async () => {
  await host.stop()
  await standin.close()
})

async function openAdmin(page: Page) {
  await page.goto(host.launchUrl)
  await signInAs(page)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Admin', exact: true }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin')
}

test('Admin: liveness is a choice among the named checks, with their limits; a vendor’s code is listed as not checked here', async ({ page }) => {
  await openAdmin(page)
  const card = page.getByTestId('algorithm-VendorAlg')
  await expect(card.getByRole('heading', { name: 'VendorAlg' })).toBeVisible()
  // The vendor's code: listed, and said plainly to give no protection at this kiosk.
  await expect(card.getByTestId('liveness-VENDOR-3D-DEPTH')).toContainText('VENDOR-3D-DEPTH')
  await expect(card.getByTestId('liveness-VENDOR-3D-DEPTH')).toContainText('Not understood by this kiosk — not checked here')
  // No free text: the checks this kiosk understands, each with its description, and the honest label.
  await expect(card.getByRole('textbox')).toHaveCount(0)
  const choice = card.getByRole('group', { name: 'Add a liveness check to VendorAlg' })
  for (const check of Object.values(livenessChecks)) {
    await expect(choice.getByRole('radio', { name: check.title })).toHaveAccessibleDescription(check.description)
  }
  await expect(card.getByTestId('liveness-limits')).toHaveText(LIVENESS_LIMITS)
  await checkScreen(page, 'admin-liveness')

  // Choosing nothing says so; choosing one associates it and shows its title.
  await card.getByRole('button', { name: 'Add liveness' }).click()
  await expect(choice).toContainText('Choose a liveness check to add.')
  await choice.getByRole('radio', { name: livenessChecks['active-challenge'].title }).check()
  await card.getByRole('button', { name: 'Add liveness' }).click()
  await expect(card.getByTestId('liveness-active-challenge')).toContainText(livenessChecks['active-challenge'].title)
  await expect(card.getByTestId('liveness-active-challenge')).not.toContainText('Not understood')
  await expect(choice.getByRole('radio', { name: livenessChecks['active-challenge'].title })).toHaveCount(0)
  const tenant = await host.bridge<{ algorithms: Array<{ code: string; liveness: string[] }> }>('getTenant', {})
  expect(tenant.algorithms.find((a) => a.code === 'VendorAlg')?.liveness.sort()).toEqual(['VENDOR-3D-DEPTH', 'active-challenge'])

  // Removed again: the choice offers it once more.
  await card.getByRole('button', { name: 'Remove liveness active-challenge from VendorAlg' }).click()
  await expect(card.getByTestId('liveness-active-challenge')).toHaveCount(0)
  await expect(choice.getByRole('radio', { name: livenessChecks['active-challenge'].title })).toBeVisible()
})

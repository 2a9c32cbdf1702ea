import { expect, test, type Page } from '@playwright/test'
import { LIVENESS_LIMITS, livenessChecks } from '../../electron/shared/liveness'
import { kioskSizes } from '../support/layout'
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

  // Removing asks first: Cancel keeps the check.
  await card.getByRole('button', { name: 'Remove liveness active-challenge from VendorAlg' }).click()
  const confirm = page.getByRole('dialog', { name: `Remove ${livenessChecks['active-challenge'].title} from VendorAlg?` })
  await expect(confirm).toBeVisible()
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused()
  await confirm.getByRole('button', { name: 'Cancel' }).click()
  await expect(confirm).toHaveCount(0)
  await expect(card.getByTestId('liveness-active-challenge')).toBeVisible()
  // Removed again: the choice offers it once more.
  await card.getByRole('button', { name: 'Remove liveness active-challenge from VendorAlg' }).click()
  await confirm.getByRole('button', { name: 'Remove check' }).click()
  await expect(confirm).toHaveCount(0)
  await expect(card.getByTestId('liveness-active-challenge')).toHaveCount(0)
  await expect(choice.getByRole('radio', { name: livenessChecks['active-challenge'].title })).toBeVisible()
})

test('Admin: a liveness check reads as a row, its Remove on one line, each radio beside its label, at every kiosk size', async ({ page }) => {
  await openAdmin(page)
  const card = page.getByTestId('algorithm-VendorAlg')
  const check = card.getByTestId('liveness-VENDOR-3D-DEPTH')
  const remove = card.getByRole('button', { name: 'Remove liveness VENDOR-3D-DEPTH from VendorAlg' })
  const choice = card.getByRole('group', { name: 'Add a liveness check to VendorAlg' })
  for (const size of kioskSizes) {
    await page.setViewportSize({ width: size.width, height: size.height })
    await check.scrollIntoViewIfNeeded()
    // "Remove" on one line (it was squeezed into a column of single letters), and the row not a pill.
    const button = (await remove.boundingBox())!
    expect.soft(button.height, `${size.name}: Remove is one line`).toBeLessThan(60)
    expect.soft(button.width, `${size.name}: Remove is wider than tall`).toBeGreaterThan(button.height)
    const radius = await check.evaluate((li) => parseFloat(getComputedStyle(li).borderTopLeftRadius))
    expect.soft(radius, `${size.name}: the check is not drawn in an oval`).toBeLessThanOrEqual(12)
    // Each radio on the line of its label, just before it.
    for (const option of Object.values(livenessChecks)) {
      const radio = choice.getByRole('radio', { name: option.title })
      if ((await radio.count()) === 0) continue
      const r = (await radio.boundingBox())!
      const label = (await choice.locator('label', { hasText: option.title }).boundingBox())!
      const middle = r.y + r.height / 2
      expect.soft(middle > label.y && middle < label.y + label.height, `${size.name}: the radio "${option.title}" is beside its label`).toBe(true)
      expect.soft(label.x - (r.x + r.width), `${size.name}: the label "${option.title}" follows its radio`).toBeLessThan(24)
    }
  }
  await checkScreen(page, 'admin-liveness-portrait')
})

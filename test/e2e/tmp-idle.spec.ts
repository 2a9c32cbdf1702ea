import { expect, test } from '@playwright/test'
import { untilDone } from '../support/capture'
import { startWebHost, type TestWebHost } from '../support/web-host'
let host: TestWebHost
test.beforeAll(async () => { host = await startWebHost(); await expect.poll(async () => (await host.bridge('getEngineStatus')).state, untilDone).toBe('running') })
test.afterAll(async () => { await host.stop() })
test('idle probe', async ({ page }) => {
  await host.bridge('saveSettings', { idleTimeoutSeconds: 15 })
  page.on('request', (r) => { if (!r.url().includes('getSession')) console.log('REQ', r.url().slice(-60)) })
  await page.clock.install()
  await page.goto(host.launchUrl)
  await expect(page.locator('.tiles')).toBeVisible()
  const dialog = page.getByRole('alertdialog')
  for (const step of [8000, 3000]) {
    await page.clock.fastForward(step)
    await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))))
    console.log('now', await page.evaluate(() => performance.now()), 'dialog', await dialog.count())
  }
})

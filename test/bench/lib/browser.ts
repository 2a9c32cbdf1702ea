import { chromium, type Browser } from 'playwright'
import config from '../../../playwright.config'

/**
 * Headless Chromium exactly as the e2e tests launch it (playwright.config.ts: Debian's Chromium,
 * the fake webcam playing test/fixtures/generated/cam.y4m), so benchmarks and tests see one browser.
 */
export function launchBrowser(): Promise<Browser> {
  const launch = config.use?.launchOptions ?? {}
  return chromium.launch({ ...launch, headless: true })
}

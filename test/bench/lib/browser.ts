import { chromium, type Browser } from 'playwright'
import config from '../../../playwright.config'

/**
 * Headless Chromium exactly as the e2e tests launch it (playwright.config.ts: Debian's Chromium,
 * the fake webcam playing test/fixtures/generated/cam.y4m, the face upright), so benchmarks and
 * tests see one browser. `clip` plays another fake webcam file instead (e.g. the tilted one).
 */
export function launchBrowser(clip?: string): Promise<Browser> {
  const launch = config.use?.launchOptions ?? {}
  const flag = '--use-file-for-fake-video-capture='
  const args = clip ? (launch.args ?? []).map((arg) => (arg.startsWith(flag) ? `${flag}${clip}` : arg)) : launch.args
  return chromium.launch({ ...launch, args, headless: true })
}

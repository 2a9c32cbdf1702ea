import { chromium, expect, type Browser, type LaunchOptions, type Locator } from '@playwright/test'
import config from '../../playwright.config'

/**
 * For a wait on work whose speed depends on the machine (the engine, the camera, a sign-in): no
 * budget of its own, only the test's timeout bounds it. A step's own "30 s" is a guess about speed
 * that fails on a loaded machine while the result is on its way.
 */
export const untilDone = { timeout: 0 } as const

/**
 * The guided capture takes its photos by itself (the default webcam clip is upright): waits until
 * `done` shows. No "Capture now" clicks, no time budget: the state decides.
 */
export async function capture(done: Locator): Promise<void> {
  await expect(done).toBeVisible(untilDone)
}

/** The e2e config's launch options with the fake webcam playing `clip` instead of the default one. */
export function cameraClip(clip: string): LaunchOptions {
  const launch = config.use?.launchOptions ?? {}
  const flag = '--use-file-for-fake-video-capture='
  return { ...launch, args: (launch.args ?? []).map((arg) => (arg.startsWith(flag) ? `${flag}${clip}` : arg)) }
}

/** A browser launched as the e2e config does, its fake webcam playing `clip` (a clip is a launch flag). */
export function browserWithClip(clip: string): Promise<Browser> {
  return chromium.launch(cameraClip(clip))
}

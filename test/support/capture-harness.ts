import { join } from 'node:path'
import { test } from '@playwright/test'
import { createWebHost, type WebHost } from '../../electron/host/server'
import { projectRoot } from './process'

export interface CaptureHarness {
  /** Where the harness is served, once the file's tests run: open `${origin}/capture-harness.html?...`. */
  readonly origin: string
}

/**
 * Serves GuidedCapture on its own page (renderer/capture-harness.html, built by `electron-vite
 * build`) for the tests of the calling spec file: started before them, closed after. The real web
 * host serves it (the same static serving and Content-Security-Policy header as `npm run
 * start:web`) with no services behind the bridge: the capture needs none.
 */
export function serveCaptureHarness(): CaptureHarness {
  let host: WebHost | undefined
  const served = { origin: '' }
  test.beforeAll(async () => {
    host = createWebHost({
      dispatch: async () => ({ ok: false, error: { code: 'INTERNAL', message: 'The capture harness has no kiosk services.' } }),
      rendererDir: join(projectRoot, 'out/renderer'),
    })
    served.origin = (await host.listen(0)).origin
  })
  test.afterAll(async () => {
    await host?.close()
  })
  return served
}

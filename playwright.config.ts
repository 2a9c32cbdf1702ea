import { resolve } from 'node:path'
import { defineConfig } from '@playwright/test'

/** The fake webcam stream made by `npm run fixtures` from a real face photo shipped in an npm package: the face upright. */
export const fakeCameraFile = resolve(import.meta.dirname, 'test/fixtures/generated/cam.y4m')
/** The same photo with the head tilted ~45°, for the guidance tests (auto-capture never fires on it). */
export const tiltedCameraFile = resolve(import.meta.dirname, 'test/fixtures/generated/cam-tilted.y4m')

/** Screens that never open the camera: light enough to share the machine with the liveness files. */
const NO_CAMERA = ['audit', 'branding', 'host-notices', 'liveness-admin', 'offline-replica', 'roles', 'site-join', 'staff', 'template-types'].map((name) => new RegExp(`/${name}\\.spec\\.ts$`))

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/e2e-artifacts',
  // Ceilings for a busy CI machine (scrypt sign-ins, face models loading on demand), not budgets:
  // every step waits on a state and passes as soon as it holds. A step that waits on slow work (the
  // engine starting, face models, scrypt) passes `timeout: 0`: it waits for its state up to the
  // test's own ceiling, never on a budget of its own (scripts/with-cpu-hog.sh shows it under load).
  timeout: 120_000,
  expect: { timeout: 15_000 },
  // Two files at a time (each starts its own host, engine and browser), except the liveness files:
  // their verdicts rest on the camera's frame rate, so they run one at a time, beside only the
  // screens that never open a camera (`npm run test:e2e` runs 'liveness' with 'no-camera', then the rest).
  workers: 2,
  // The capture flows (whose timing is most exposed to a busy machine) run once, beside a busy
  // loop on each core (`npm run test:loaded`): passing there, they pass on a quiet machine too.
  projects: [
    { name: 'liveness', testMatch: /liveness[\w-]*\.spec\.ts/, testIgnore: NO_CAMERA, workers: 1 },
    { name: 'capture', testMatch: /capture\.spec\.ts/, workers: 1 },
    { name: 'no-camera', testMatch: NO_CAMERA },
    { name: 'screens', testIgnore: [/liveness[\w-]*\.spec\.ts/, /capture\.spec\.ts/, ...NO_CAMERA] },
  ],
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    browserName: 'chromium',
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      // Debian's Chromium; Playwright never downloads a browser here.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-video-capture=${fakeCameraFile}`,
      ],
    },
  },
})

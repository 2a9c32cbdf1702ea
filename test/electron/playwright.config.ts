import { resolve } from 'node:path'
import { defineConfig } from '@playwright/test'

// npm run test:electron (test/electron/run.sh). Two projects:
// - electron: the desktop app itself through Playwright's _electron (skips, saying why, where the
//   Electron binary cannot be had);
// - pin-page: the staff PIN prompt page that main serves, in Debian's Chromium (runs everywhere).
const root = resolve(import.meta.dirname, '../..')

export default defineConfig({
  testDir: import.meta.dirname,
  outputDir: resolve(root, 'test-results/electron-artifacts'),
  globalSetup: resolve(import.meta.dirname, 'global-setup.ts'),
  timeout: 120_000,
  workers: 1,
  reporter: [['list'], ['json', { outputFile: resolve(root, 'test-results/electron-e2e.json') }]],
  projects: [
    { name: 'electron', testMatch: /shell\.spec\.ts$/ },
    {
      name: 'pin-page',
      testMatch: /pin-page\.spec\.ts$/,
      use: {
        browserName: 'chromium',
        launchOptions: {
          // Debian's Chromium; Playwright never downloads a browser here.
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
        },
      },
    },
  ],
})

import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test'
import { CONSENT } from '../../electron/shared/consent'
import { CONTENT_SECURITY_POLICY } from '../../electron/shared/web-security'
import { projectRoot } from '../support/process'
import { TEST_ADMIN } from '../support/staff'
import { findElectronBinary } from './electron-binary'

// The desktop app itself, as `npm start` runs it (the built out/ folder), through Playwright's
// _electron. Runs only where the Electron binary exists; elsewhere every test here is skipped with
// the reason (global-setup.ts prints it once). The page code below runs in the renderer, which has
// no Node types in this tsconfig: it reaches browser globals through `globalThis as any`.
const binary = findElectronBinary()
const fixture = (name: string) => join(projectRoot, 'test/fixtures/generated', name)

/**
 * The first administrator in `dataDir`, made before the app starts (as an unattended install would)
 * with `npm run create-admin`, run by Electron's own Node (ELECTRON_RUN_AS_NODE) so the native
 * modules load with the ABI the app itself uses. The secret goes in on stdin, as the CLI requires.
 */
function createAdmin(electronPath: string, dataDir: string): void {
  const run = spawnSync(electronPath, ['--import', 'tsx', 'electron/services/staff/create-admin-cli.ts', '--data', dataDir, '--name', TEST_ADMIN.name], {
    cwd: projectRoot,
    input: `${TEST_ADMIN.secret}\n`,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
  })
  if (run.status !== 0) throw new Error(`create-admin failed (${run.status}): ${run.stderr}`)
}

/** The app as `npm start` runs it, on its own data folder; `env` adds to a clean copy of ours. */
function launch(electronPath: string, dataDir: string, env: Record<string, string> = {}): Promise<ElectronApplication> {
  const base: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && key !== 'ELECTRON_RENDERER_URL' && key !== 'KIOSK_MODE') base[key] = value
  return electron.launch({
    executablePath: electronPath,
    cwd: projectRoot,
    env: { ...base, KIOSK_DATA_DIR: dataDir, ...env },
    args: [
      // Chromium refuses to run as root with its OS sandbox (CI runs as root); the renderer's
      // sandbox: true is Electron's and stays on.
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${fixture('cam.y4m')}`,
      projectRoot,
    ],
    timeout: 60_000,
  })
}

test.describe.configure({ mode: 'serial' })

test.describe('Electron shell', () => {
  test.skip('reason' in binary, 'reason' in binary ? `Electron binary unavailable: ${binary.reason}` : '')

  let app: ElectronApplication
  let page: Page
  let dataDir: string
  let stranger: Server
  let strangerUrl: string

  test.beforeAll(async () => {
    if (!('path' in binary)) return
    dataDir = mkdtempSync(join(tmpdir(), 'kiosk-electron-e2e-'))
    // Past the first run: the app opens on Home, not on the screen that creates the first administrator.
    createAdmin(binary.path, dataDir)
    app = await launch(binary.path, dataDir)
    page = await app.firstWindow()
    // A page of another origin, for the permission checks.
    stranger = createServer((_req, res) => res.end('<!doctype html><title>stranger</title>'))
    await new Promise<void>((resolve) => stranger.listen(0, '127.0.0.1', resolve))
    strangerUrl = `http://127.0.0.1:${(stranger.address() as AddressInfo).port}/`
  })

  test.afterAll(async () => {
    await app?.close()
    stranger?.close()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })

  test('opens on Home from app://kiosk, talking to the services through the preload', async () => {
    expect(page.url()).toBe('app://kiosk/index.html')
    await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible()
    // A visitor reads plain words; the engine's state behind them came through the preload.
    await expect(page.getByTestId('engine-state')).toHaveText('Ready', { timeout: 90_000 })
    const bridge = await page.evaluate(() => {
      const g = globalThis as any
      return { frozen: Object.isFrozen(g.kiosk), require: typeof g.require, process: typeof g.process, ipcRenderer: typeof g.kiosk?.invoke }
    })
    expect(bridge).toEqual({ frozen: true, require: 'undefined', process: 'undefined', ipcRenderer: 'undefined' })
    await page.screenshot({ path: 'test-results/screens/electron-home.png' })
  })

  test('the window is locked down: CSP header, no traversal, no navigation, no new windows', async () => {
    const served = await page.evaluate(async () => {
      const index = await fetch('/index.html')
      const escape = await fetch('/..%2f..%2fpackage.json')
      return { csp: index.headers.get('content-security-policy'), escape: escape.status }
    })
    expect(served.csp).toBe(CONTENT_SECURITY_POLICY)
    expect(served.escape).not.toBe(200)
    const opened = await page.evaluate(() => (globalThis as any).open('https://example.com/') === null)
    expect(opened).toBe(true)
    await page.evaluate(() => {
      ;(globalThis as any).location.href = 'https://example.com/'
    })
    await page.waitForTimeout(1000)
    expect(page.url()).toBe('app://kiosk/index.html')
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(1)
  })

  test('the camera is granted to the app, the microphone is not, and another origin gets nothing', async () => {
    const own = await page.evaluate(async () => {
      const media = (globalThis as any).navigator.mediaDevices
      const stream = await media.getUserMedia({ video: true })
      const tracks = stream.getVideoTracks().length
      stream.getTracks().forEach((t: any) => t.stop())
      const audio = await media.getUserMedia({ audio: true }).then(
        () => 'granted',
        (e: Error) => e.name,
      )
      return { tracks, audio }
    })
    expect(own).toEqual({ tracks: 1, audio: 'NotAllowedError' })
    const other = await app.evaluate(async ({ BrowserWindow }, url) => {
      const w = new BrowserWindow({ show: false, webPreferences: { sandbox: true, contextIsolation: true } })
      try {
        await w.loadURL(url)
        return await w.webContents.executeJavaScript("navigator.mediaDevices.getUserMedia({ video: true }).then(() => 'granted', (e) => e.name)")
      } finally {
        w.destroy()
      }
    }, strangerUrl)
    expect(other).toBe('NotAllowedError')
  })

  test('an enrollment runs end to end through IPC and the embedded engine', async () => {
    const sample = readFileSync(fixture('person-a1.jpg')).toString('base64')
    const result = await page.evaluate(
      async ({ samples, consentVersion }) => (globalThis as any).kiosk.enrollVisitor({ userId: 'electron.visitor@example.com', samples, consent: true, consentVersion }),
      { samples: [sample], consentVersion: CONSENT.version },
    )
    expect(result).toMatchObject({ outcome: 'enrolled', created: true })
    // Searching is staff's: the window signs in as the administrator made before launch.
    const again = await page.evaluate(async (admin) => {
      const kiosk = (globalThis as any).kiosk
      await kiosk.signIn(admin)
      return kiosk.searchPersons({ find: 'electron.visitor@example.com' }).catch((e: Error) => e.message)
    }, TEST_ADMIN)
    expect(JSON.stringify(again)).toContain('electron.visitor@example.com')
  })
})

test.describe('Electron kiosk mode', () => {
  test.skip('reason' in binary, 'reason' in binary ? `Electron binary unavailable: ${binary.reason}` : '')

  let app: ElectronApplication | undefined
  let dataDir: string

  test.beforeAll(() => {
    if (!('path' in binary)) return
    dataDir = mkdtempSync(join(tmpdir(), 'kiosk-electron-kiosk-'))
    createAdmin(binary.path, dataDir)
  })

  test.afterAll(async () => {
    await app?.close().catch(() => {})
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })

  test("needs only KIOSK_MODE=1; closing asks for an administrator's sign-in, which leaves kiosk mode", async () => {
    if (!('path' in binary)) return
    app = await launch(binary.path, dataDir, { KIOSK_MODE: '1' })
    await app.firstWindow()
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.isKiosk())).toBe(true)
    // A close attempt (Alt+F4 and the like) is refused and opens the prompt instead.
    const prompted = app.waitForEvent('window')
    await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.close())
    const prompt = await prompted
    expect(prompt.url()).toMatch(/^app:\/\/staff-pin\/\?s=/)
    await prompt.getByLabel('Administrator name').fill(TEST_ADMIN.name)
    await prompt.getByLabel('PIN or password').fill('not-the-secret')
    await prompt.getByRole('button', { name: 'Unlock' }).click()
    await expect(prompt.getByRole('alert')).toHaveText('That name and PIN or password do not match an active staff account.')
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)).toBe(2)
    const closed = app.waitForEvent('close')
    await prompt.getByLabel('PIN or password').fill(TEST_ADMIN.secret)
    await prompt.getByRole('button', { name: 'Unlock' }).click()
    await closed
    app = undefined
  })
})

import { join, resolve } from 'node:path'
import { app, BrowserWindow, protocol, session, utilityProcess } from 'electron'
import { defaultDataDir } from '../services/data-dir'
import { createKioskServices } from '../services/kiosk-services'
import { EVENT_CHANNEL } from '../shared/events'
import { CONTENT_SECURITY_POLICY } from '../shared/web-security'
import { serveRendererRequest } from './app-protocol'
import { applyDevServerCsp, applySessionPolicy, hardenAllWebContents } from './hardening'
import { bindIpc, sessionKeyOf } from './ipc'
import { bindPrint } from './print'
import { readKioskConfig } from './kiosk-mode'
import { APP_ENTRY_URL, APP_ORIGIN, APP_SCHEME, PIN_ORIGIN, devRendererUrl, originOf, type TrustedOrigins } from './origins'
import { isTrustedSenderUrl } from './sender-guard'
import { createStaffPinPrompt } from './staff-pin'
import { createMainWindow, openPinPrompt, removeApplicationMenu } from './windows'

// The Electron shell: window, guards, IPC binding and the embedded engine's utilityProcess. What
// each security measure is and where it lives: electron/main/README.md.

const here = import.meta.dirname
const rendererRoot = join(here, '../renderer')
const log = (line: string) => console.error(`shell: ${line}`)

// Before `ready`: the app:// scheme is standard (relative URLs, origin, storage) and secure (a
// secure context, so getUserMedia works) and may be fetched; it does not bypass CSP.
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } }])
// One data folder for the desktop app and the web host (KIOSK_DATA_DIR, or the per-user default).
app.setPath('userData', resolve(defaultDataDir()))
app.enableSandbox()

if (!app.requestSingleInstanceLock()) {
  // A second instance hands over to the first (which focuses its window) and leaves.
  app.quit()
} else {
  startShell()
}

function startShell(): void {
  const kiosk = readKioskConfig(process.env)
  const devUrl = devRendererUrl(process.env.ELECTRON_RENDERER_URL, app.isPackaged)
  const devOrigin = devUrl ? (originOf(devUrl) ?? undefined) : undefined
  const trusted: TrustedOrigins = { app: APP_ORIGIN, dev: devOrigin }

  // The engine is a separate process so face inference never blocks this one.
  const services = createKioskServices({
    shell: 'electron',
    version: app.getVersion(),
    dataDir: app.getPath('userData'),
    launchEngine: ({ argv, env }) =>
      utilityProcess.fork(join(here, 'engine.js'), argv, { stdio: 'pipe', serviceName: 'Identity Kiosk engine', env: { ...process.env, ...env } }),
  })

  let mainWindow: BrowserWindow | null = null
  let pinWindow: BrowserWindow | null = null
  let quitting = false
  let unlocked = false

  // Leaving kiosk mode is an administrator's sign-in (audited by the services). With no account yet
  // the kiosk still starts: its first-run screen creates the first administrator.
  const prompt = kiosk.kioskMode
    ? createStaffPinPrompt({
        verify: (name, secret) => services.verifyAdmin(name, secret),
        onUnlock: () => {
          log('administrator signed in: leaving kiosk mode')
          unlocked = true
          pinWindow?.destroy()
          app.quit()
        },
        onCancel: () => pinWindow?.close(),
      })
    : null

  const requestExit = () => {
    if (!prompt || !mainWindow || mainWindow.isDestroyed()) return
    pinWindow = openPinPrompt(mainWindow, prompt, pinWindow)
    pinWindow.once('closed', () => (pinWindow = null))
  }

  const openMainWindow = (): BrowserWindow => {
    const window = createMainWindow({
      preloadPath: join(here, '../preload/index.cjs'),
      url: devUrl ?? APP_ENTRY_URL,
      kioskMode: kiosk.kioskMode,
      devTools: !kiosk.kioskMode && !app.isPackaged,
      userDataDir: app.getPath('userData'),
      onExitRequest: requestExit,
      mayClose: () => unlocked || quitting,
      log,
    })
    const key = sessionKeyOf(window.webContents.id)
    const stopEvents = services.onEvent(key, (event) => window.webContents.send(EVENT_CHANNEL, event))
    // A staff session belongs to one page: a reload or any other main-frame navigation ends it.
    window.webContents.on('did-start-navigation', (details) => {
      if (details.isMainFrame && !details.isSameDocument) services.endSession(key, 'page reloaded')
    })
    window.on('closed', () => {
      stopEvents()
      services.endSession(key, 'window closed')
      if (mainWindow === window) mainWindow = null
    })
    window.webContents.on('render-process-gone', (_event, details) => log(`renderer gone: ${details.reason}`))
    return window
  }

  app.on('second-instance', () => {
    if (!mainWindow) return
    if (mainWindow.isMinimized()) mainWindow.restore()
    mainWindow.focus()
  })
  hardenAllWebContents(trusted, log)

  void app.whenReady().then(() => {
    protocol.handle(APP_SCHEME, (request) => {
      if (prompt && originOf(request.url) === PIN_ORIGIN) return prompt.handle(request)
      return serveRendererRequest(request, rendererRoot, CONTENT_SECURITY_POLICY)
    })
    applySessionPolicy(session.defaultSession, trusted, log)
    if (devOrigin) applyDevServerCsp(session.defaultSession, devOrigin, CONTENT_SECURITY_POLICY)
    if (kiosk.kioskMode) removeApplicationMenu()
    // IPC only from the top frame of a kiosk page; the services' dispatch then validates the input.
    const kioskTopFrame = (frame: Electron.WebFrameMain | null) => frame !== null && frame.parent === null && isTrustedSenderUrl(frame.url, { appUrl: APP_ENTRY_URL, devOrigin })
    bindIpc(services.dispatch, kioskTopFrame)
    // The badge and invitations print through the window's own print dialog.
    bindPrint(kioskTopFrame)
    void services.start()
    mainWindow = openMainWindow()
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) mainWindow = openMainWindow()
    })
  })

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin' || kiosk.kioskMode) app.quit()
  })

  app.on('before-quit', (event) => {
    if (quitting) return
    quitting = true
    event.preventDefault()
    void services.stop().finally(() => app.quit())
  })
}

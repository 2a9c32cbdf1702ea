import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { app, BrowserWindow, session, utilityProcess } from 'electron'
import { createKioskServices } from '../services/kiosk-services'
import { EVENT_CHANNEL } from '../shared/events'
import { CONTENT_SECURITY_POLICY } from '../shared/web-security'
import { bindIpc } from './ipc'
import { isTrustedSenderUrl } from './sender-guard'

const here = import.meta.dirname
const rendererIndex = join(here, '../renderer/index.html')
const devOrigin = process.env.ELECTRON_RENDERER_URL
const trusted = { devOrigin, appUrl: pathToFileURL(rendererIndex).href }

// The engine is a separate process so face inference never blocks this one.
const services = createKioskServices({
  shell: 'electron',
  version: app.getVersion(),
  dataDir: app.getPath('userData'),
  launchEngine: ({ argv, env }) =>
    utilityProcess.fork(join(here, 'engine.js'), argv, { stdio: 'pipe', serviceName: 'Identity Kiosk engine', env: { ...process.env, ...env } }),
})

function createWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 860,
    show: false,
    title: 'Identity Kiosk',
    webPreferences: {
      preload: join(here, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  })
  window.once('ready-to-show', () => window.show())
  const stopEvents = services.onEvent((event) => window.webContents.send(EVENT_CHANNEL, event))
  window.on('closed', stopEvents)
  if (devOrigin) void window.loadURL(devOrigin)
  else void window.loadFile(rendererIndex)
  return window
}

void app.whenReady().then(() => {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } })
  })
  bindIpc(services.dispatch, (frame) => isTrustedSenderUrl(frame?.url, trusted))
  void services.start()
  createWindow()
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow()
  })
})

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})

let quitting = false
app.on('before-quit', (event) => {
  if (quitting) return
  quitting = true
  event.preventDefault()
  void services.stop().finally(() => app.quit())
})

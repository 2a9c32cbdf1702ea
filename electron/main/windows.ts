import { join } from 'node:path'
import { BrowserWindow, Menu, screen } from 'electron'
import { isExitShortcut } from './kiosk-mode'
import type { StaffPinPrompt } from './staff-pin'
import { loadWindowState, restoreBounds, saveWindowState, WINDOW_STATE_FILE } from './window-state'

/**
 * The kiosk's windows: the main window (kiosk mode or a normal, restored window) and the small
 * administrator prompt that leaves kiosk mode. Both are sandboxed, context-isolated, without Node; only the main one has a preload.
 */

// Every window's webPreferences are spelled out as literals (Electron's secure defaults, made
// explicit) so that a reviewer and the electronegativity scan see them where the window is made.

export interface MainWindowOptions {
  preloadPath: string
  url: string
  kioskMode: boolean
  /** Developer tools: never in kiosk mode or a packaged app. */
  devTools: boolean
  userDataDir: string
  /** Kiosk mode: a close attempt or Ctrl+Shift+Q asks for an administrator's sign-in instead. */
  onExitRequest: () => void
  /** Whether the window may close now (an administrator signed in, or the app is quitting). */
  mayClose: () => boolean
  log: (line: string) => void
}

export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const stateFile = join(options.userDataDir, WINDOW_STATE_FILE)
  const primary = screen.getPrimaryDisplay()
  const workAreas = [primary, ...screen.getAllDisplays().filter((display) => display.id !== primary.id)].map((display) => display.workArea)
  const restored = options.kioskMode ? null : restoreBounds(loadWindowState(stateFile), workAreas, { width: 1280, height: 860 })

  const window = new BrowserWindow({
    ...(restored?.bounds ?? {}),
    minWidth: 800,
    minHeight: 600,
    show: false,
    title: 'Identity Kiosk',
    backgroundColor: '#ffffff',
    kiosk: options.kioskMode,
    fullscreen: options.kioskMode,
    autoHideMenuBar: options.kioskMode,
    webPreferences: {
      preload: options.preloadPath, /* eng-disable PRELOAD_JS_CHECK */ // justified: the preload exposes one frozen window.kiosk object of named contract methods via contextBridge, never ipcRenderer
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      devTools: options.devTools,
      // Middle clicks (auxclick) must not open anything either.
      disableBlinkFeatures: 'Auxclick',
    },
  })
  if (options.kioskMode) window.setMenu(null)
  if (restored?.maximized) window.maximize()
  window.once('ready-to-show', () => window.show())

  window.webContents.on('before-input-event', (event, input) => {
    if (options.kioskMode && isExitShortcut(input)) {
      event.preventDefault()
      options.onExitRequest()
    }
  })
  window.on('close', (event) => {
    if (options.kioskMode) {
      if (!options.mayClose()) {
        event.preventDefault()
        options.onExitRequest()
      }
      return
    }
    try {
      const bounds = window.getNormalBounds()
      saveWindowState(stateFile, { ...bounds, maximized: window.isMaximized() })
    } catch (error) {
      options.log(`window state not saved: ${error instanceof Error ? error.message : String(error)}`)
    }
  })
  void window.loadURL(options.url)
  return window
}

/** Kiosk mode has no application menu at all (no reload, zoom or devtools accelerators). */
export function removeApplicationMenu(): void {
  Menu.setApplicationMenu(null)
}

/**
 * The prompt that leaves kiosk mode: a small modal window over the kiosk, served by main on
 * app://staff-pin (see staff-pin.ts). No preload, so the page can do nothing but POST an
 * administrator's name and PIN or password back to main.
 */
export function openPinPrompt(parent: BrowserWindow, prompt: StaffPinPrompt, existing: BrowserWindow | null): BrowserWindow {
  if (existing && !existing.isDestroyed()) {
    existing.focus()
    return existing
  }
  const window = new BrowserWindow({
    parent,
    modal: true,
    width: 380,
    height: 400,
    resizable: false,
    minimizable: false,
    maximizable: false,
    fullscreenable: false,
    alwaysOnTop: true,
    show: false,
    title: 'Leave kiosk mode',
    webPreferences: {
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      devTools: false,
      disableBlinkFeatures: 'Auxclick',
    },
  })
  window.setMenu(null)
  // The prompt never navigates anywhere (its form posts with fetch).
  window.webContents.on('will-navigate', (details) => details.preventDefault())
  window.once('ready-to-show', () => window.show())
  window.on('closed', () => prompt.end())
  void window.loadURL(prompt.begin())
  return window
}

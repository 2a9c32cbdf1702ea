import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

// electron/main/index.ts wired to a recording stand-in for the 'electron' module (the real one only
// loads inside Electron, whose binary this machine cannot download). The guards themselves are
// tested in electron-guards.test.ts; this checks that main puts them where Electron will call them.

type Handler = (...args: any[]) => any

function fakeElectron() {
  const calls: { privileged: any[]; protocolHandlers: Map<string, Handler>; ipc: Map<string, Handler>; windows: any[]; appEvents: Map<string, Handler[]>; session: Record<string, Handler>; errorBox: string[]; exit: number[]; quit: number; menu: unknown[] } = {
    privileged: [],
    protocolHandlers: new Map(),
    ipc: new Map(),
    windows: [],
    appEvents: new Map(),
    session: {},
    errorBox: [],
    exit: [],
    quit: 0,
    menu: [],
  }
  let ready = false
  let lock = true
  const emitter = () => {
    const events = new Map<string, Handler[]>()
    return {
      events,
      on(name: string, fn: Handler) {
        events.set(name, [...(events.get(name) ?? []), fn])
        return this
      },
      once(name: string, fn: Handler) {
        return this.on(name, fn)
      },
    }
  }
  class BrowserWindow {
    static getAllWindows = () => calls.windows
    options: any
    webContents = { ...emitter(), send: vi.fn(), setWindowOpenHandler: vi.fn(), getURL: () => 'app://kiosk/index.html' }
    private ee = emitter()
    on = this.ee.on.bind(this.ee)
    once = this.ee.once.bind(this.ee)
    events = this.ee.events
    constructor(options: any) {
      this.options = options
      calls.windows.push(this)
    }
    loadURL = vi.fn(async (url: string) => {
      this.url = url
    })
    url = ''
    setMenu = vi.fn()
    maximize = vi.fn()
    isDestroyed = () => false
    destroy = vi.fn()
    close = vi.fn()
    isMinimized = () => false
    focus = vi.fn()
    show = vi.fn()
    getNormalBounds = () => ({ x: 0, y: 0, width: 1280, height: 860 })
    isMaximized = () => false
  }
  const paths: Record<string, string> = {}
  const module = {
    app: {
      isPackaged: false,
      setPath: (name: string, value: string) => {
        if (ready) throw new Error('setPath after ready')
        paths[name] = value
      },
      getPath: (name: string) => paths[name] ?? '/nonexistent',
      getVersion: () => '0.1.0',
      enableSandbox: () => {
        if (ready) throw new Error('enableSandbox after ready')
      },
      requestSingleInstanceLock: () => lock,
      quit: () => calls.quit++,
      exit: (code: number) => calls.exit.push(code),
      on: (name: string, fn: Handler) => calls.appEvents.set(name, [...(calls.appEvents.get(name) ?? []), fn]),
      whenReady: () => {
        ready = true
        return Promise.resolve()
      },
    },
    BrowserWindow,
    Menu: { setApplicationMenu: (menu: unknown) => calls.menu.push(menu) },
    dialog: { showErrorBox: (_title: string, text: string) => calls.errorBox.push(text) },
    ipcMain: { handle: (channel: string, fn: Handler) => calls.ipc.set(channel, fn) },
    protocol: {
      registerSchemesAsPrivileged: (schemes: any[]) => {
        if (ready) throw new Error('registerSchemesAsPrivileged after ready')
        calls.privileged.push(...schemes)
      },
      handle: (scheme: string, fn: Handler) => calls.protocolHandlers.set(scheme, fn),
    },
    screen: { getPrimaryDisplay: () => ({ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1040 } }), getAllDisplays: () => [{ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1040 } }] },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (fn: Handler) => (calls.session.request = fn),
        setPermissionCheckHandler: (fn: Handler) => (calls.session.check = fn),
        setDevicePermissionHandler: (fn: Handler) => (calls.session.device = fn),
        setDisplayMediaRequestHandler: (fn: Handler) => (calls.session.display = fn),
        on: (name: string, fn: Handler) => (calls.session[name] = fn),
        webRequest: { onHeadersReceived: (fn: Handler) => (calls.session.headers = fn) },
      },
    },
    shell: { openExternal: vi.fn() },
    utilityProcess: { fork: vi.fn() },
  }
  return { module, calls, setLock: (value: boolean) => (lock = value) }
}

let fake: ReturnType<typeof fakeElectron>
let dataDir: string
const saved = { ...process.env }
/** The services' verifyAdmin, as main calls it: one administrator, 'Kiosk Admin'. */
const verifyAdmin = vi.fn(async (name: string, secret: string) => {
  const { KioskError } = await import('../../electron/shared/errors')
  if (name !== 'Kiosk Admin' || secret !== 'right-secret') throw new KioskError('UNAUTHORIZED', 'That name and PIN or password do not match an active staff account.')
})

beforeEach(() => {
  vi.resetModules()
  verifyAdmin.mockClear()
  fake = fakeElectron()
  dataDir = mkdtempSync(join(tmpdir(), 'kiosk-main-'))
  process.env.KIOSK_DATA_DIR = dataDir
  delete process.env.KIOSK_MODE
  delete process.env.ELECTRON_RENDERER_URL
  vi.doMock('electron', () => fake.module)
  vi.doMock('../../electron/services/kiosk-services', () => ({
    createKioskServices: () => ({ dispatch: async (method: string) => ({ ok: true, value: method }), onEvent: () => () => {}, endSession: () => {}, verifyAdmin, start: async () => {}, stop: async () => {} }),
  }))
})

afterEach(() => {
  process.env = { ...saved }
  rmSync(dataDir, { recursive: true, force: true })
})

async function startMain() {
  await import('../../electron/main/index')
  await new Promise((resolve) => setTimeout(resolve, 0))
  return fake.calls
}

describe('electron/main/index.ts wiring', () => {
  it('registers app:// as a privileged scheme before ready, and serves it once ready', async () => {
    const calls = await startMain()
    expect(calls.privileged).toEqual([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true } }])
    expect(calls.privileged[0].privileges.bypassCSP).toBeUndefined()
    const response: Response = await calls.protocolHandlers.get('app')!(new Request('app://kiosk/../../package.json'))
    expect(response.status).not.toBe(200)
  })

  it('opens one hardened window on app://kiosk with the preload, and no kiosk options outside kiosk mode', async () => {
    const calls = await startMain()
    expect(calls.windows).toHaveLength(1)
    const [window] = calls.windows
    expect(window.url).toBe('app://kiosk/index.html')
    expect(window.options.kiosk).toBe(false)
    expect(window.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false, devTools: true })
    expect(window.options.webPreferences.preload).toMatch(/preload[/\\]index\.cjs$/)
    expect(calls.menu).toEqual([])
  })

  it('binds every IPC channel behind the sender check: top frame of app://kiosk only', async () => {
    const calls = await startMain()
    expect(calls.ipc.size).toBeGreaterThan(10)
    const handler = calls.ipc.get('kiosk:getAppInfo')!
    expect(await handler({ senderFrame: { url: 'app://kiosk/index.html', parent: null }, sender: { id: 7 } }, {})).toEqual({ ok: true, value: 'getAppInfo' })
    for (const frame of [null, { url: 'app://kiosk/index.html', parent: {} }, { url: 'https://example.com/', parent: null }, { url: 'app://staff-pin/', parent: null }, { url: 'file:///x/index.html', parent: null }]) {
      expect(await handler({ senderFrame: frame, sender: { id: 7 } }, {}), JSON.stringify(frame)).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } })
    }
  })

  it('prints the asking window through its print dialog (webContents.print), for the kiosk’s top frame only', async () => {
    const calls = await startMain()
    const handler = calls.ipc.get('kiosk-shell:print')!
    const kioskFrame = { url: 'app://kiosk/index.html', parent: null }
    const printer = (success: boolean, reason = '') => ({ id: 7, print: vi.fn((_options: object, done: (success: boolean, reason: string) => void) => done(success, reason)) })
    const printed = printer(true)
    expect(await handler({ senderFrame: kioskFrame, sender: printed })).toEqual({ ok: true, reason: null })
    // The dialog, never a silent print: the person at the kiosk chooses the printer.
    expect(printed.print).toHaveBeenCalledWith({ silent: false, printBackground: true }, expect.any(Function))
    const cancelled = printer(false, 'cancelled')
    expect(await handler({ senderFrame: kioskFrame, sender: cancelled })).toEqual({ ok: false, reason: 'cancelled' })
    for (const frame of [null, { url: 'app://kiosk/index.html', parent: {} }, { url: 'https://example.com/', parent: null }, { url: 'app://staff-pin/', parent: null }]) {
      const refused = printer(true)
      expect(await handler({ senderFrame: frame, sender: refused }), JSON.stringify(frame)).toMatchObject({ ok: false })
      expect(refused.print).not.toHaveBeenCalled()
    }
  })

  it('installs the permission, device, display-capture and download policies on the session', async () => {
    const calls = await startMain()
    const granted = (permission: string, details: object) =>
      new Promise((resolve) => calls.session.request!({ getURL: () => 'app://kiosk/index.html' }, permission, resolve, { isMainFrame: true, requestingUrl: 'app://kiosk/index.html', ...details }))
    expect(await granted('media', { mediaTypes: ['video'] })).toBe(true)
    expect(await granted('media', { mediaTypes: ['audio'] })).toBe(false)
    expect(await granted('notifications', {})).toBe(false)
    expect(calls.session.check!(null, 'media', 'app://kiosk', { isMainFrame: true, mediaType: 'video' })).toBe(true)
    expect(calls.session.check!(null, 'media', 'https://example.com', { isMainFrame: true, mediaType: 'video' })).toBe(false)
    expect(calls.session.device!({})).toBe(false)
    const display = vi.fn()
    calls.session.display!({}, display)
    expect(display).toHaveBeenCalledWith(null)
    const download = { preventDefault: vi.fn() }
    calls.session['will-download']!(download)
    expect(download.preventDefault).toHaveBeenCalled()
  })

  it('guards navigation, redirects, window.open and <webview> of every webContents', async () => {
    const calls = await startMain()
    const contents = fakeContents()
    for (const fn of calls.appEvents.get('web-contents-created') ?? []) fn({}, contents)
    const navigate = (event: string, url: string) => {
      const details = { url, preventDefault: vi.fn() }
      for (const fn of contents.events.get(event) ?? []) fn(details)
      return details.preventDefault.mock.calls.length > 0
    }
    for (const event of ['will-navigate', 'will-frame-navigate', 'will-redirect']) {
      expect(navigate(event, 'https://example.com/'), event).toBe(true)
      expect(navigate(event, 'app://kiosk/index.html'), event).toBe(false)
    }
    expect(contents.openHandler!({ url: 'https://example.com/' })).toEqual({ action: 'deny' })
    expect(fake.module.shell.openExternal).not.toHaveBeenCalled()
    const webview = { preventDefault: vi.fn() }
    for (const fn of contents.events.get('will-attach-webview') ?? []) fn(webview)
    expect(webview.preventDefault).toHaveBeenCalled()
  })

  it("kiosk mode: fullscreen kiosk window without menu or devtools; a close asks for an administrator's sign-in, which the app:// handler serves", async () => {
    process.env.KIOSK_MODE = '1'
    const calls = await startMain()
    expect(calls.errorBox).toEqual([])
    const [window] = calls.windows
    expect(window.options).toMatchObject({ kiosk: true, fullscreen: true })
    expect(window.options.webPreferences.devTools).toBe(false)
    expect(calls.menu).toEqual([null])
    const close = { preventDefault: vi.fn() }
    for (const fn of window.events.get('close') ?? []) fn(close)
    expect(close.preventDefault).toHaveBeenCalled()
    expect(calls.windows).toHaveLength(2)
    const prompt = calls.windows[1]
    expect(prompt.options).toMatchObject({ modal: true, parent: window })
    expect(prompt.options.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false, devTools: false })
    expect(prompt.options.webPreferences.preload).toBeUndefined()
    expect(prompt.url).toMatch(/^app:\/\/staff-pin\/\?s=/)
    const page: Response = await calls.protocolHandlers.get('app')!(new Request(prompt.url))
    expect(await page.text()).toContain('Leave kiosk mode')
    // Ctrl+Shift+Q asks again (the prompt window is focused, not duplicated).
    const key = { preventDefault: vi.fn() }
    for (const fn of window.webContents.events.get('before-input-event') ?? []) fn(key, { type: 'keyDown', key: 'Q', control: true, shift: true, alt: false, meta: false })
    expect(key.preventDefault).toHaveBeenCalled()
    expect(calls.windows).toHaveLength(2)
    // An administrator's sign-in, posted by the prompt's page and checked by the services' verifyAdmin,
    // quits; after that the window may close.
    const session = new URL(prompt.url).searchParams.get('s')
    const unlock = (name: string, secret: string) =>
      calls.protocolHandlers.get('app')!(
        new Request('app://staff-pin/unlock', { method: 'POST', headers: { 'content-type': 'application/json', origin: 'app://staff-pin' }, body: JSON.stringify({ session, name, secret }) }),
      )
    expect(await (await unlock('Kiosk Admin', 'wrong-secret')).json()).toEqual({ ok: false, message: 'That name and PIN or password do not match an active staff account.' })
    expect(calls.quit).toBe(0)
    expect(await (await unlock('Kiosk Admin', 'right-secret')).json()).toEqual({ ok: true })
    expect(verifyAdmin.mock.calls).toEqual([
      ['Kiosk Admin', 'wrong-secret'],
      ['Kiosk Admin', 'right-secret'],
    ])
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(calls.quit).toBe(1)
    expect(prompt.destroy).toHaveBeenCalled()
    const closeAgain = { preventDefault: vi.fn() }
    for (const fn of window.events.get('close') ?? []) fn(closeAgain)
    expect(closeAgain.preventDefault).not.toHaveBeenCalled()
  })

  it('kiosk mode needs no PIN in the environment: an old KIOSK_STAFF_PIN is ignored and unlocks nothing', async () => {
    process.env.KIOSK_MODE = '1'
    process.env.KIOSK_STAFF_PIN = '2468'
    const calls = await startMain()
    expect(calls.errorBox).toEqual([])
    expect(calls.exit).toEqual([])
    const [window] = calls.windows
    expect(window.options.kiosk).toBe(true)
    for (const fn of window.events.get('close') ?? []) fn({ preventDefault: vi.fn() })
    const prompt = calls.windows[1]
    const session = new URL(prompt.url).searchParams.get('s')
    const post = (body: object) =>
      calls.protocolHandlers.get('app')!(new Request('app://staff-pin/unlock', { method: 'POST', headers: { 'content-type': 'application/json', origin: 'app://staff-pin' }, body: JSON.stringify({ session, ...body }) }))
    expect(await (await post({ pin: '2468' })).json()).toMatchObject({ ok: false })
    expect(await (await post({ name: 'Kiosk Admin', secret: '2468' })).json()).toMatchObject({ ok: false })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(calls.quit).toBe(0)
  })

  it('outside kiosk mode there is no prompt: app://staff-pin serves nothing', async () => {
    const calls = await startMain()
    expect((await calls.protocolHandlers.get('app')!(new Request('app://staff-pin/'))).status).toBe(404)
    expect(verifyAdmin).not.toHaveBeenCalled()
  })

  it('a second instance hands over and quits without opening anything', async () => {
    fake.setLock(false)
    const calls = await startMain()
    expect(calls.quit).toBe(1)
    expect(calls.windows).toHaveLength(0)
    expect(calls.ipc.size).toBe(0)
  })

  it('uses KIOSK_DATA_DIR as userData, and ignores a dev URL that is not loopback', async () => {
    process.env.ELECTRON_RENDERER_URL = 'http://evil.example:5173/'
    const calls = await startMain()
    expect(fake.module.app.getPath('userData')).toBe(dataDir)
    expect(calls.windows[0].url).toBe('app://kiosk/index.html')
  })
})

function fakeContents() {
  const events = new Map<string, Handler[]>()
  const contents = {
    events,
    openHandler: null as Handler | null,
    on(name: string, fn: Handler) {
      events.set(name, [...(events.get(name) ?? []), fn])
      return contents
    },
    setWindowOpenHandler(fn: Handler) {
      contents.openHandler = fn
    },
  }
  return contents
}

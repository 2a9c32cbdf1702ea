import { describe, expect, it } from 'vitest'
import { decideWindowOpen, isAllowedExternalUrl, isNavigationAllowed, EXTERNAL_ORIGIN_ALLOW_LIST } from '../../electron/main/navigation-guard'
import { APP_ENTRY_URL, APP_ORIGIN, devRendererUrl, isTrustedUrl, originOf, PIN_ORIGIN } from '../../electron/main/origins'
import { isPermissionCheckAllowed, isPermissionRequestAllowed, type PermissionRequestFacts } from '../../electron/main/permission-guard'
import { isTrustedSenderUrl } from '../../electron/main/sender-guard'

// The Electron shell's guards are plain functions: these tests are the policy, without Electron.
const packaged = { app: APP_ORIGIN }
const dev = { app: APP_ORIGIN, dev: 'http://localhost:5173' }

/** Pages that are not the kiosk, look-alikes included. */
const STRANGERS = [
  'https://example.com/',
  'http://localhost:5173.evil.example/',
  'http://localhost:5174/',
  'app://kiosk.evil/',
  'app://evil/index.html',
  'app://kiosk:8080/index.html',
  'app://user:pass@kiosk/index.html',
  PIN_ORIGIN + '/',
  'file:///opt/kiosk/out/renderer/index.html',
  'data:text/html,<h1>hi</h1>',
  'blob:app://kiosk/1234',
  'javascript:alert(1)',
  'about:blank',
  'not a url',
  '',
]

describe('origins', () => {
  it('serializes the app scheme as Chromium does, and gives nothing for opaque origins', () => {
    expect(originOf(APP_ENTRY_URL)).toBe('app://kiosk')
    expect(originOf('app://kiosk/assets/index.js?x=1#y')).toBe('app://kiosk')
    expect(originOf('APP://KIOSK/index.html')).toBe('app://kiosk')
    expect(originOf('http://localhost:5173/src/main.tsx')).toBe('http://localhost:5173')
    for (const url of ['file:///etc/passwd', 'data:text/html,x', 'about:blank', 'javascript:1', 'app://kiosk:1/', 'app://u@kiosk/', '', undefined, null]) {
      expect(originOf(url)).toBeNull()
    }
  })

  it('trusts only the exact app origin, and the dev server when there is one', () => {
    expect(isTrustedUrl('app://kiosk/index.html', packaged)).toBe(true)
    expect(isTrustedUrl('http://localhost:5173/', packaged)).toBe(false)
    expect(isTrustedUrl('http://localhost:5173/', dev)).toBe(true)
    for (const url of STRANGERS) expect(isTrustedUrl(url, dev), url).toBe(false)
  })

  it('loads the dev server only from loopback http, and never in a packaged app', () => {
    expect(devRendererUrl('http://localhost:5173', false)).toBe('http://localhost:5173/')
    expect(devRendererUrl('http://127.0.0.1:5173/', false)).toBe('http://127.0.0.1:5173/')
    expect(devRendererUrl('http://localhost:5173', true)).toBeUndefined()
    for (const value of ['https://localhost:5173', 'http://example.com:5173', 'http://user:pw@localhost:5173', 'file:///tmp/x.html', 'nonsense', '', undefined]) {
      expect(devRendererUrl(value, false), String(value)).toBeUndefined()
    }
  })
})

describe('IPC sender guard', () => {
  const trusted = { appUrl: APP_ENTRY_URL, devOrigin: undefined }
  it("accepts every page of the app's own origin", () => {
    expect(isTrustedSenderUrl('app://kiosk/index.html', trusted)).toBe(true)
    expect(isTrustedSenderUrl('app://kiosk/index.html#/enroll', trusted)).toBe(true)
    expect(isTrustedSenderUrl('http://localhost:5173/', { ...trusted, devOrigin: 'http://localhost:5173' })).toBe(true)
  })

  it('refuses every other frame, the staff PIN prompt and look-alikes included', () => {
    for (const url of [...STRANGERS, undefined]) expect(isTrustedSenderUrl(url, trusted), String(url)).toBe(false)
    expect(isTrustedSenderUrl('http://localhost:5173/', trusted)).toBe(false)
  })
})

describe('navigation guard', () => {
  it('allows navigation within the app only', () => {
    expect(isNavigationAllowed('app://kiosk/index.html', packaged)).toBe(true)
    expect(isNavigationAllowed('app://kiosk/other.html', packaged)).toBe(true)
    expect(isNavigationAllowed('http://localhost:5173/', dev)).toBe(true)
    for (const url of STRANGERS) expect(isNavigationAllowed(url, dev), url).toBe(false)
  })
})

describe('window-open guard and openExternal allow-list', () => {
  it('never opens a window in the app; the allow-list is empty, so nothing opens outside either', () => {
    expect(EXTERNAL_ORIGIN_ALLOW_LIST).toEqual([])
    for (const url of [...STRANGERS, 'app://kiosk/index.html', 'https://www.example.com/help']) {
      expect(decideWindowOpen(url), url).toEqual({ action: 'deny', openExternally: false })
    }
  })

  it('hands only https URLs of an allow-listed origin to the OS browser', () => {
    const allow = ['https://help.example.com']
    expect(isAllowedExternalUrl('https://help.example.com/kiosk?x=1', allow)).toBe(true)
    expect(decideWindowOpen('https://help.example.com/a', allow)).toEqual({ action: 'deny', openExternally: true })
    for (const url of [
      'http://help.example.com/',
      'https://help.example.com.evil.example/',
      'https://evil.example/?https://help.example.com',
      'https://user@help.example.com/',
      'https://help.example.com:444/',
      'file:///etc/passwd',
      'smb://help.example.com/share',
      'javascript:alert(1)',
      'not a url',
    ]) {
      expect(isAllowedExternalUrl(url, allow), url).toBe(false)
    }
  })
})

describe('permission request guard', () => {
  const camera: PermissionRequestFacts = {
    permission: 'media',
    pageUrl: 'app://kiosk/index.html',
    requestingUrl: 'app://kiosk/index.html',
    isMainFrame: true,
    mediaTypes: ['video'],
    securityOrigin: 'app://kiosk',
  }

  it('grants the camera to the kiosk page', () => {
    expect(isPermissionRequestAllowed(camera, packaged)).toBe(true)
    expect(isPermissionRequestAllowed({ ...camera, securityOrigin: undefined }, packaged)).toBe(true)
    const devCamera = { ...camera, pageUrl: 'http://localhost:5173/', requestingUrl: 'http://localhost:5173/', securityOrigin: 'http://localhost:5173/' }
    expect(isPermissionRequestAllowed(devCamera, dev)).toBe(true)
    expect(isPermissionRequestAllowed(devCamera, packaged)).toBe(false)
  })

  it('refuses the microphone, camera+microphone and an unspecified media request', () => {
    expect(isPermissionRequestAllowed({ ...camera, mediaTypes: ['audio'] }, packaged)).toBe(false)
    expect(isPermissionRequestAllowed({ ...camera, mediaTypes: ['video', 'audio'] }, packaged)).toBe(false)
    expect(isPermissionRequestAllowed({ ...camera, mediaTypes: [] }, packaged)).toBe(false)
    expect(isPermissionRequestAllowed({ ...camera, mediaTypes: undefined }, packaged)).toBe(false)
  })

  it('refuses the camera to any other page, a sub frame, or a foreign security origin', () => {
    for (const url of STRANGERS) {
      expect(isPermissionRequestAllowed({ ...camera, requestingUrl: url }, dev), url).toBe(false)
      expect(isPermissionRequestAllowed({ ...camera, pageUrl: url }, dev), url).toBe(false)
    }
    expect(isPermissionRequestAllowed({ ...camera, isMainFrame: false }, packaged)).toBe(false)
    expect(isPermissionRequestAllowed({ ...camera, securityOrigin: 'https://example.com' }, packaged)).toBe(false)
  })

  it('refuses every other permission, even to the kiosk page', () => {
    for (const permission of ['display-capture', 'geolocation', 'notifications', 'clipboard-read', 'clipboard-sanitized-write', 'fullscreen', 'pointerLock', 'openExternal', 'midi', 'midiSysex', 'hid', 'serial', 'usb', 'fileSystem', 'idle-detection', 'window-management', 'unknown']) {
      expect(isPermissionRequestAllowed({ ...camera, permission }, packaged), permission).toBe(false)
    }
    // Screen capture carries mediaTypes too; it is not the camera.
    expect(isPermissionRequestAllowed({ ...camera, permission: 'display-capture', mediaTypes: ['video'] }, packaged)).toBe(false)
  })
})

describe('permission check guard', () => {
  const check = { permission: 'media', requestingOrigin: 'app://kiosk', pageUrl: 'app://kiosk/index.html', isMainFrame: true, mediaType: 'video', securityOrigin: 'app://kiosk' }

  it('answers yes only for the camera, asked by the kiosk page', () => {
    expect(isPermissionCheckAllowed(check, packaged)).toBe(true)
    expect(isPermissionCheckAllowed({ ...check, pageUrl: undefined, securityOrigin: undefined }, packaged)).toBe(true)
    expect(isPermissionCheckAllowed({ ...check, mediaType: 'audio' }, packaged)).toBe(false)
    expect(isPermissionCheckAllowed({ ...check, mediaType: 'unknown' }, packaged)).toBe(false)
    expect(isPermissionCheckAllowed({ ...check, mediaType: undefined }, packaged)).toBe(false)
    expect(isPermissionCheckAllowed({ ...check, permission: 'clipboard-read' }, packaged)).toBe(false)
    expect(isPermissionCheckAllowed({ ...check, isMainFrame: false }, packaged)).toBe(false)
    expect(isPermissionCheckAllowed({ ...check, embeddingOrigin: 'app://kiosk' }, packaged)).toBe(false)
    for (const origin of STRANGERS) {
      expect(isPermissionCheckAllowed({ ...check, requestingOrigin: origin }, dev), origin).toBe(false)
      expect(isPermissionCheckAllowed({ ...check, pageUrl: origin }, dev), origin).toBe(false)
    }
  })
})

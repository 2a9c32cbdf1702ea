import { app, shell, type Session, type WebContents } from 'electron'
import { decideWindowOpen, isAllowedExternalUrl, isNavigationAllowed } from './navigation-guard'
import { originOf, type TrustedOrigins } from './origins'
import { isPermissionCheckAllowed, isPermissionRequestAllowed } from './permission-guard'

/**
 * Electron glue for the guards in navigation-guard.ts and permission-guard.ts (the decisions live
 * there, as plain tested functions; this file only wires them to Electron's hooks).
 */

/** The one way the kiosk may open anything outside itself: allow-listed https origins only. */
export function openExternalSafely(url: string): boolean {
  if (!isAllowedExternalUrl(url)) return false
  void shell.openExternal(url) /* eng-disable OPEN_EXTERNAL_JS_CHECK */ // justified: url passed isAllowedExternalUrl (https + exact allow-listed origin) on the line above
  return true
}

/** Navigation, redirects, new windows and <webview> for every webContents the app ever creates. */
export function hardenAllWebContents(trusted: TrustedOrigins, log: (line: string) => void): void {
  app.on('web-contents-created', (_event, contents: WebContents) => {
    contents.on('will-navigate', (details) => {
      if (!isNavigationAllowed(details.url, trusted)) {
        details.preventDefault()
        log(`navigation refused: ${originOf(details.url) ?? 'opaque origin'}`)
      }
    })
    contents.on('will-frame-navigate', (details) => {
      if (!isNavigationAllowed(details.url, trusted)) details.preventDefault()
    })
    contents.on('will-redirect', (details) => {
      if (!isNavigationAllowed(details.url, trusted)) details.preventDefault()
    })
    contents.setWindowOpenHandler(({ url }) => {
      const decision = decideWindowOpen(url)
      if (decision.openExternally) openExternalSafely(url)
      else log(`window.open refused: ${originOf(url) ?? 'opaque origin'}`)
      return { action: decision.action }
    })
    // The kiosk uses no <webview>; refuse every attempt to attach one.
    contents.on('will-attach-webview', (event) => event.preventDefault())
  })
}

/**
 * Permissions for a session: the camera for the kiosk's own page, nothing for anyone else; no
 * devices (HID, serial, USB), no screen capture, no downloads.
 */
export function applySessionPolicy(session: Session, trusted: TrustedOrigins, log: (line: string) => void): void {
  session.setPermissionRequestHandler((webContents, permission, callback, details) => {
    const granted = isPermissionRequestAllowed(
      {
        permission,
        pageUrl: webContents.getURL(),
        requestingUrl: details.requestingUrl,
        isMainFrame: details.isMainFrame,
        mediaTypes: 'mediaTypes' in details ? details.mediaTypes : undefined,
        securityOrigin: 'securityOrigin' in details ? details.securityOrigin : undefined,
      },
      trusted,
    )
    if (!granted) log(`permission refused: ${permission} for ${originOf(details.requestingUrl) ?? 'opaque origin'}`)
    callback(granted)
  })
  session.setPermissionCheckHandler((webContents, permission, requestingOrigin, details) =>
    isPermissionCheckAllowed(
      {
        permission,
        requestingOrigin,
        pageUrl: webContents?.getURL(),
        isMainFrame: details.isMainFrame,
        mediaType: details.mediaType,
        securityOrigin: details.securityOrigin,
        embeddingOrigin: details.embeddingOrigin,
      },
      trusted,
    ),
  )
  session.setDevicePermissionHandler(() => false)
  session.setDisplayMediaRequestHandler((_request, callback) => callback(null))
  session.on('will-download', (event) => event.preventDefault())
}

/**
 * The dev server's responses get the same CSP header the app:// handler sends. Only responses from
 * the dev origin are touched; nothing else is loaded in development anyway.
 */
export function applyDevServerCsp(session: Session, devOrigin: string, contentSecurityPolicy: string): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    if (originOf(details.url) !== devOrigin) return callback({})
    const headers = Object.fromEntries(Object.entries(details.responseHeaders ?? {}).filter(([name]) => name.toLowerCase() !== 'content-security-policy'))
    callback({ responseHeaders: { ...headers, 'Content-Security-Policy': [contentSecurityPolicy] } })
  })
}

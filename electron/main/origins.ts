/**
 * The kiosk's own origins. Plain functions, no 'electron' import: unit-tested in Node.
 *
 * The packaged renderer is served by main through the custom scheme `app://kiosk/…` (registered as
 * standard + secure), never through file://. The prompt that leaves kiosk mode is served by main
 * too, on its own origin `app://staff-pin`, so the kiosk's page cannot reach it (its CSP allows
 * 'self' only).
 */
export const APP_SCHEME = 'app'
export const APP_HOST = 'kiosk'
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`
export const PIN_HOST = 'staff-pin'
export const PIN_ORIGIN = `${APP_SCHEME}://${PIN_HOST}`

/** The origins whose pages are the kiosk: the app's own, and the vite dev server in development. */
export interface TrustedOrigins {
  app: string
  dev?: string | undefined
}

const WEB_SCHEMES = new Set(['http:', 'https:', 'ws:', 'wss:'])

/**
 * The serialized origin of a URL, or null when it has none we could trust (file:, data:, blob:,
 * about:, javascript:, unparsable input). Node's URL gives "null" as the origin of every non-special
 * scheme, so the app scheme (standard in Chromium) is serialized here as Chromium does.
 */
export function originOf(url: string | undefined | null): string | null {
  if (!url) return null
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return null
  }
  if (parsed.username || parsed.password) return null
  if (WEB_SCHEMES.has(parsed.protocol)) return parsed.origin
  if (parsed.protocol === `${APP_SCHEME}:`) {
    // A standard scheme has a host (lower-cased by Chromium, not by Node for this scheme) and here
    // no port; anything else is not one of ours.
    const host = parsed.hostname.toLowerCase()
    if (!host || parsed.port || !/^[a-z0-9-]+$/.test(host)) return null
    return `${APP_SCHEME}://${host}`
  }
  return null
}

/** Whether `url` belongs to one of the kiosk's trusted origins (exact origin match, never a prefix). */
export function isTrustedUrl(url: string | undefined | null, trusted: TrustedOrigins): boolean {
  const origin = originOf(url)
  if (origin === null) return false
  return origin === trusted.app || (trusted.dev !== undefined && origin === trusted.dev)
}

/**
 * The dev server to load instead of the packaged renderer, from ELECTRON_RENDERER_URL (set by
 * `electron-vite dev`). Ignored in a packaged app, and only a loopback http URL is accepted, so an
 * environment variable can never point the kiosk's privileged window at a remote page.
 */
export function devRendererUrl(value: string | undefined, isPackaged: boolean): string | undefined {
  if (isPackaged || !value) return undefined
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return undefined
  }
  const loopback = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]'
  if (url.protocol !== 'http:' || !loopback || url.username || url.password) return undefined
  return url.href
}

import { originOf } from './origins'

/**
 * Whether an IPC message comes from the kiosk's own renderer, judged by the sender frame's URL.
 * Compares serialized origins (never prefixes), so http://localhost:5173.evil.example cannot pass
 * for the dev server and app://kiosk.evil cannot pass for app://kiosk. `appUrl` is the renderer's
 * entry page: `app://kiosk/index.html` in the shell (any page of that origin is trusted). A file://
 * entry is matched by exact path, for callers that still load from disk (the shell does not).
 */
export function isTrustedSenderUrl(frameUrl: string | undefined, trusted: { devOrigin?: string | undefined; appUrl: string }): boolean {
  if (!frameUrl) return false
  let url: URL
  try {
    url = new URL(frameUrl)
  } catch {
    return false
  }
  const origin = originOf(frameUrl)
  if (trusted.devOrigin && origin !== null && origin === originOf(trusted.devOrigin)) return true
  const app = new URL(trusted.appUrl)
  if (app.protocol === 'file:') return url.protocol === 'file:' && url.pathname === app.pathname
  const appOrigin = originOf(trusted.appUrl)
  return appOrigin !== null && origin === appOrigin
}

/**
 * Whether an IPC message comes from the kiosk's own renderer. Compares origins (never prefixes),
 * so http://127.0.0.1:5173.evil.example cannot pass for the dev server.
 */
export function isTrustedSenderUrl(frameUrl: string | undefined, trusted: { devOrigin?: string | undefined; appUrl: string }): boolean {
  if (!frameUrl) return false
  let url: URL
  try {
    url = new URL(frameUrl)
  } catch {
    return false
  }
  if (trusted.devOrigin && url.origin === new URL(trusted.devOrigin).origin) return true
  const app = new URL(trusted.appUrl)
  if (app.protocol === 'file:') return url.protocol === 'file:' && url.pathname === app.pathname
  return url.origin === app.origin
}

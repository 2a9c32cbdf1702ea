/** Where the web host's bridge lives and how a call carries the per-launch token. */
export const BRIDGE_PATH = '/bridge'
export const BRIDGE_TOKEN_HEADER = 'x-kiosk-token'
/** The tab's session id, issued by the host (POST /bridge/session) and kept in the page's memory only. */
export const BRIDGE_SESSION_HEADER = 'x-kiosk-session'
/** The host's answer to a session id it no longer knows (it restarted): the page asks for a new one. */
export const SESSION_GONE_STATUS = 409

/**
 * The renderer's Content-Security-Policy, sent by the web host and set by the Electron shell.
 * wasm-unsafe-eval is for in-browser face detection; media and blob for the camera preview.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob: mediastream:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

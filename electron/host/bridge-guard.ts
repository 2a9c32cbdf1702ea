import { timingSafeEqual } from 'node:crypto'

export type BridgeVerdict = { ok: true } | { ok: false; status: 401 | 403; message: string }

export interface BridgeRequest {
  host: string | undefined
  origin: string | undefined
  token: string | undefined
}

/**
 * Decides whether a bridge call may reach the handlers. Only this host's own loopback origin may
 * call (a foreign Origin or Host — DNS rebinding — gets 403), and only with the per-launch token (401).
 */
export function checkBridgeRequest(request: BridgeRequest, port: number, token: string): BridgeVerdict {
  const allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`]
  if (!request.host || !allowedHosts.includes(request.host.toLowerCase())) {
    return { ok: false, status: 403, message: 'This host only answers on its own loopback address.' }
  }
  if (request.origin !== undefined && !allowedHosts.some((h) => request.origin === `http://${h}`)) {
    return { ok: false, status: 403, message: 'Calls from another origin are refused.' }
  }
  if (!request.token || !sameSecret(request.token, token)) {
    return { ok: false, status: 401, message: 'A valid kiosk launch token is required.' }
  }
  return { ok: true }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

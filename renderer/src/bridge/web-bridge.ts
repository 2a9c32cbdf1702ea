import { KioskError } from '../../../electron/shared/errors'
import { createKioskApi, type KioskApi } from '../../../electron/shared/kiosk-api'
import { BRIDGE_PATH, BRIDGE_TOKEN_HEADER } from '../../../electron/shared/web-security'

const TOKEN_KEY = 'kiosk-launch-token'

/**
 * The launch token arrives in the URL fragment (never sent to a server or logged); it is kept for
 * this tab only and removed from the address bar.
 */
export function takeLaunchToken(): string | null {
  const fromHash = new URLSearchParams(window.location.hash.slice(1)).get('token')
  if (fromHash) {
    sessionStorage.setItem(TOKEN_KEY, fromHash)
    history.replaceState(null, '', window.location.pathname + window.location.search)
  }
  return sessionStorage.getItem(TOKEN_KEY)
}

/** The kiosk API over the web host's loopback bridge. */
export function createWebBridge(token: string | null): KioskApi {
  return createKioskApi(async (method, input) => {
    let response: Response
    try {
      response = await fetch(`${BRIDGE_PATH}/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [BRIDGE_TOKEN_HEADER]: token ?? '' },
        body: JSON.stringify(input),
      })
    } catch {
      throw new KioskError('ENGINE_UNAVAILABLE', 'The kiosk host is not answering. Is `npm run start:web` still running?')
    }
    if (response.status === 401 || response.status === 403) {
      throw new KioskError('UNAUTHORIZED', 'This page was opened without its launch link. Open the URL the kiosk printed when it started.')
    }
    if (!response.ok) throw new KioskError('INTERNAL', `The kiosk host answered ${response.status}.`)
    return response.json()
  })
}

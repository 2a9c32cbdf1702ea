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
  }, (listener) => streamEvents(token, listener))
}

/**
 * Reads the host's server-sent events with fetch (EventSource cannot send the token header) and
 * reconnects with a growing delay while the host is away. Returns the function that stops it.
 */
function streamEvents(token: string | null, listener: (raw: unknown) => void): () => void {
  const controller = new AbortController()
  let delay = 500
  const run = async () => {
    while (!controller.signal.aborted) {
      try {
        const response = await fetch(`${BRIDGE_PATH}/events`, { headers: { [BRIDGE_TOKEN_HEADER]: token ?? '' }, signal: controller.signal })
        if (response.status === 401 || response.status === 403) return
        const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
        let buffer = ''
        delay = 500
        for (;;) {
          const { value, done } = await reader.read()
          if (done) break
          buffer += value
          let end: number
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, end)
            buffer = buffer.slice(end + 2)
            const data = frame.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)).join('\n')
            if (data) {
              try {
                listener(JSON.parse(data))
              } catch {
                // a malformed frame is skipped, not fatal
              }
            }
          }
        }
      } catch {
        if (controller.signal.aborted) return
      }
      await new Promise((resolve) => setTimeout(resolve, delay))
      delay = Math.min(delay * 2, 10_000)
    }
  }
  void run()
  return () => controller.abort()
}

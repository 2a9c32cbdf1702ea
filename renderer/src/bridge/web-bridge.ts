import { KioskError } from '@shared/errors'
import { createKioskApi, type KioskApi } from '@shared/kiosk-api'
import { BRIDGE_PATH, BRIDGE_SESSION_HEADER, BRIDGE_TOKEN_HEADER, SESSION_GONE_STATUS } from '@shared/web-security'

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

const unreachable = () => new KioskError('ENGINE_UNAVAILABLE', 'The kiosk host is not answering. Is `npm run start:web` still running?')
const unauthorized = () => new KioskError('UNAUTHORIZED', 'This page was opened without its launch link. Open the URL the kiosk printed when it started.')

/**
 * This tab's session id, issued by the host. It lives in this page's memory only: a reload or a
 * new tab gets a new one, so a staff sign-in never outlives its page.
 */
function tabSession(token: string | null) {
  let current: Promise<string> | null = null
  const request = async (): Promise<string> => {
    let response: Response
    try {
      response = await fetch(`${BRIDGE_PATH}/session`, { method: 'POST', headers: { [BRIDGE_TOKEN_HEADER]: token ?? '' } })
    } catch {
      throw unreachable()
    }
    if (response.status === 401 || response.status === 403) throw unauthorized()
    if (!response.ok) throw new KioskError('INTERNAL', `The kiosk host answered ${response.status}.`)
    return ((await response.json()) as { session: string }).session
  }
  return {
    get: (): Promise<string> => {
      current ??= request().catch((error: unknown) => {
        current = null
        throw error
      })
      return current
    },
    /** The host no longer knows this id (it restarted): the next call asks for a new one. */
    renew: () => {
      current = null
    },
  }
}

/** The kiosk API over the web host's loopback bridge. */
export function createWebBridge(token: string | null): KioskApi {
  const session = tabSession(token)
  const headers = async () => ({ 'content-type': 'application/json', [BRIDGE_TOKEN_HEADER]: token ?? '', [BRIDGE_SESSION_HEADER]: await session.get() })
  return createKioskApi(async (method, input) => {
    let response: Response
    for (let attempt = 0; ; attempt++) {
      // Outside the try: a refused session request (no launch token) must stay UNAUTHORIZED.
      const sent = await headers()
      try {
        response = await fetch(`${BRIDGE_PATH}/${method}`, { method: 'POST', headers: sent, body: JSON.stringify(input) })
      } catch {
        throw unreachable()
      }
      if (response.status !== SESSION_GONE_STATUS || attempt > 0) break
      session.renew()
    }
    if (response.status === 401 || response.status === 403) throw unauthorized()
    if (!response.ok) throw new KioskError('INTERNAL', `The kiosk host answered ${response.status}.`)
    return response.json()
  }, (listener) => streamEvents(headers, session.renew, listener))
}

/**
 * Reads the host's server-sent events with fetch (EventSource cannot send the token header) and
 * reconnects with a growing delay while the host is away. Returns the function that stops it.
 */
function streamEvents(headers: () => Promise<Record<string, string>>, renew: () => void, listener: (raw: unknown) => void): () => void {
  const controller = new AbortController()
  let delay = 500
  const run = async () => {
    while (!controller.signal.aborted) {
      try {
        const response = await fetch(`${BRIDGE_PATH}/events`, { headers: await headers(), signal: controller.signal })
        if (response.status === 401 || response.status === 403) return
        if (response.status === SESSION_GONE_STATUS) {
          renew()
          throw new Error('session renewed')
        }
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

import { siteEventSchema, type SiteEvent } from '../../shared/frontdesk-api'
import type { KioskSettings } from '../../shared/settings'
import { HttpClient } from '../clients/http-client'
import type { TokenProvider } from '../clients/token-provider'
import { routePath, siteError } from './site-http'

export interface SiteEventsDeps {
  settings: () => Promise<KioskSettings>
  /** The token the site's calls carry (the kiosk's client from pairing). */
  tokens: () => Promise<TokenProvider>
  onEvent: (event: SiteEvent) => void
  /** Each time the stream is (re)connected: events sent while it was away are not replayed, so what they would have said is read again. */
  onConnected?: () => void
  log: (line: string) => void
  /** Reconnection back-off: the first wait, and the longest. */
  firstDelayMs?: number
  maxDelayMs?: number
}

export interface SiteEvents {
  /** Follows the settings: listens while the kiosk is on a site (again, after a change), and not otherwise. */
  refresh(): void
  stop(): Promise<void>
}

/** The site says something at least every 15 s (a comment line); three missed say the connection is gone. */
const SILENCE_MS = 45_000

/**
 * The site's events (GET /frontdesk/v1/events, text/event-stream): one connection while the kiosk
 * is on a site, made again with a growing pause whenever it drops, so an alert raised at any kiosk
 * reaches staff here at once. Its own connection pool: a stream that never ends must not hold up
 * the closing of the clients that make ordinary calls.
 */
export function siteEvents(deps: SiteEventsDeps): SiteEvents {
  const firstDelayMs = deps.firstDelayMs ?? 1_000
  const maxDelayMs = deps.maxDelayMs ?? 30_000
  let running: { abort: AbortController; done: Promise<void> } | null = null
  let stopped = false

  async function listen(settings: KioskSettings, signal: AbortSignal): Promise<void> {
    const tokens = await deps.tokens()
    const token = await tokens.get()
    const http = new HttpClient({ baseUrl: settings.personServerUrl, name: 'The site', connectTimeoutMs: settings.connectTimeoutSeconds * 1000, requestTimeoutMs: settings.requestTimeoutSeconds * 1000, connections: 1 })
    try {
      const call = "the site's events"
      const reply = await http.stream(call, { method: 'GET', path: routePath('events'), headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` }, signal }, SILENCE_MS)
      if (!reply.ok) {
        const refused = siteError(http, call, reply.reply)
        // An expired token (or a site that restarted) is asked for again on the next try.
        if (refused.tokenRefused) tokens.invalidate(token)
        throw refused
      }
      if (!String(reply.headers['content-type'] ?? '').includes('text/event-stream')) {
        reply.body.destroy()
        throw new Error(`${call} came back as ${String(reply.headers['content-type'] ?? 'no content type')}, not an event stream`)
      }
      deps.log('site: listening to the site’s events')
      deps.onConnected?.()
      await readEvents(reply.body, deps.onEvent, deps.log)
    } finally {
      await http.close().catch(() => undefined)
    }
  }

  async function follow(signal: AbortSignal): Promise<void> {
    let delay = firstDelayMs
    while (!signal.aborted) {
      const settings = await deps.settings()
      if (settings.mode !== 'site') return
      const began = Date.now()
      try {
        await listen(settings, signal)
        if (!signal.aborted) deps.log('site: the site’s event stream ended; connecting again')
      } catch (error) {
        if (signal.aborted) return
        deps.log(`site: no event stream from the site: ${error instanceof Error ? error.message : String(error)}`)
      }
      // A stream that ran a while was a good connection: start the back-off over.
      if (Date.now() - began > SILENCE_MS) delay = firstDelayMs
      await pause(delay, signal)
      delay = Math.min(delay * 2, maxDelayMs)
    }
  }

  async function halt(): Promise<void> {
    const current = running
    running = null
    current?.abort.abort()
    await current?.done
  }

  return {
    refresh() {
      if (stopped) return
      const previous = halt()
      const abort = new AbortController()
      const done = previous.then(() => follow(abort.signal)).catch((error: unknown) => deps.log(`site: events stopped: ${error instanceof Error ? error.message : String(error)}`))
      running = { abort, done }
    },
    async stop() {
      stopped = true
      await halt()
    },
  }
}

/** Reads `data:` lines up to each blank line as one event (comments and other fields are skipped). */
async function readEvents(body: AsyncIterable<unknown>, onEvent: (event: SiteEvent) => void, log: (line: string) => void): Promise<void> {
  let pending = ''
  let data: string[] = []
  for await (const chunk of body) {
    pending += Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk)
    let end: number
    while ((end = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, end).replace(/\r$/, '')
      pending = pending.slice(end + 1)
      if (line === '') {
        if (data.length > 0) deliver(data.join('\n'), onEvent, log)
        data = []
      } else if (line.startsWith('data:')) {
        data.push(line.slice(5).replace(/^ /, ''))
      }
    }
    if (pending.length > 64 * 1024) throw new Error('the site sent an event line longer than 64 KB')
  }
}

function deliver(text: string, onEvent: (event: SiteEvent) => void, log: (line: string) => void): void {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    log('site: an event from the site was not JSON; skipped')
    return
  }
  const parsed = siteEventSchema.safeParse(value)
  // A newer site may announce more kinds: what this kiosk does not know it leaves alone.
  if (parsed.success) onEvent(parsed.data)
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
  })
}

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { HttpClient } from '../../electron/services/clients/http-client'
import { TokenProvider } from '../../electron/services/clients/token-provider'
import { siteDesk } from '../../electron/services/site/site-desk'
import { siteEvents } from '../../electron/services/site/site-events'
import { defaultSettings } from '../../electron/shared/settings'
import type { SiteEvent } from '../../electron/shared/frontdesk-api'

// The kiosk's side of the site's front-desk API against a stand-in HTTP server: replies parsed with
// the shared schemas, refusals passed on in the site's words, the token renewed only when the site
// blames it, each staff call with its own session, and the event stream followed and stopped.

const ALERT = '7d4b9c1e-2f3a-4b5c-8d6e-9f0a1b2c3d4e'
type Handler = (request: IncomingMessage, response: ServerResponse) => void

let server: Server | null = null
afterEach(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined))
  server = null
})

async function site(handler: Handler): Promise<string> {
  server = createServer(handler)
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}
const json = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  response.writeHead(status, { 'content-type': 'application/json', ...headers })
  response.end(JSON.stringify(body))
}
/** Tokens t1, t2, … : how many were issued tells whether the kiosk asked for a new one. */
function tokens() {
  let issued = 0
  const provider = new TokenProvider(async () => ({ token: `t${++issued}`, expiresInSeconds: 3600 }))
  return { provider, issued: () => issued }
}
const deskAt = (url: string, provider: TokenProvider) => {
  const http = new HttpClient({ baseUrl: url, name: 'The site', connectTimeoutMs: 1000, requestTimeoutMs: 2000 })
  return siteDesk(`site|${url}`, async () => ({ http, tokens: provider }))
}

describe('the site client', () => {
  it('sends each staff call with its own session only, and parses the reply with the route’s schema', async () => {
    const seen: Array<{ path: string; session: string | undefined; auth: string | undefined }> = []
    const url = await site((request, response) => {
      seen.push({ path: request.url!, session: request.headers['x-staff-session'] as string | undefined, auth: request.headers.authorization })
      if (request.url === '/frontdesk/v1/staff/status') return json(response, 200, { accounts: 2 })
      if (request.url === '/frontdesk/v1/kiosks') return json(response, 200, [{ id: ALERT, name: 'Lobby', joinedAt: 1, lastSeenAt: null, thisKiosk: true }])
      return json(response, 200, { not: 'the api' })
    })
    const { provider } = tokens()
    const desk = deskAt(url, provider)
    expect(await desk.accountCount()).toBe(2)
    const [ada, otto] = [desk.as({ token: 'ada-session', account: 'Ada' }), desk.as({ token: 'otto-session', account: 'Otto' })]
    for (const staff of [ada, otto, ada]) await staff.listKiosks()
    expect(seen.map((s) => s.session)).toEqual([undefined, 'ada-session', 'otto-session', 'ada-session'])
    expect(new Set(seen.map((s) => s.auth))).toEqual(new Set(['Bearer t1']))
    await expect(ada.listAccounts()).rejects.toMatchObject({ code: 'BAD_REPLY' })
  })

  it('passes the site’s refusals on with its code and words, and its wait', async () => {
    const url = await site((request, response) => {
      if (request.url === '/frontdesk/v1/staff/sign-in') return json(response, 429, { status: 429, message: 'Too many failed sign-ins. Try again in 9 seconds.', code: 'TOO_MANY_ATTEMPTS' }, { 'retry-after': '9' })
      if (request.url?.startsWith('/frontdesk/v1/watchlist/')) return json(response, 404, { status: 404, message: 'Nobody listed.', code: 'NOT_FOUND' })
      if (request.url === '/frontdesk/v1/accounts/set-disabled') return json(response, 409, { status: 409, message: 'This is the last active administrator.', code: 'REJECTED' })
      return json(response, 503, { status: 503, message: 'The database cannot be reached.' })
    })
    const desk = deskAt(url, tokens().provider)
    await expect(desk.signIn('Ada', 'secret')).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS', message: 'Too many failed sign-ins. Try again in 9 seconds.', retryAfterSeconds: 9 })
    const staff = desk.as({ token: 's', account: 'Ada' })
    // "There was none" is an answer, not a failure.
    expect(await staff.removeFromWatchlist(ALERT)).toBe(false)
    await expect(staff.setAccountDisabled('Ada', true)).rejects.toMatchObject({ code: 'REJECTED', message: 'This is the last active administrator.' })
    // A 5xx stays "try again later" (the outbox queues on it).
    await expect(staff.listWatchlist()).rejects.toMatchObject({ code: 'SERVER_ERROR', retryable: true })
  })

  it('renews a token the site refuses once, and never repeats a refused sign-in', async () => {
    let signIns = 0
    const url = await site((request, response) => {
      if (request.url === '/frontdesk/v1/staff/sign-in') {
        signIns++
        return json(response, 401, { status: 401, message: 'That name and PIN or password do not match an active staff account.', code: 'UNAUTHORIZED' }, { 'www-authenticate': 'StaffSession realm="frontdesk"' })
      }
      if (request.headers.authorization === 'Bearer t1') return json(response, 401, { status: 401, message: 'The token has expired.' }, { 'www-authenticate': 'Bearer' })
      return json(response, 200, { accounts: 1 })
    })
    const { provider, issued } = tokens()
    const desk = deskAt(url, provider)
    expect(await desk.accountCount()).toBe(1)
    expect(issued()).toBe(2)
    await expect(desk.signIn('Ada', 'wrong')).rejects.toMatchObject({ code: 'UNAUTHORIZED', message: expect.stringMatching(/do not match/) })
    expect(signIns).toBe(1)
    expect(issued()).toBe(2)
  })

  it('says UNREACHABLE when nothing answers at the site’s address', async () => {
    const url = await site(() => {})
    server!.close()
    await new Promise((resolve) => setTimeout(resolve, 50))
    await expect(deskAt(url, tokens().provider).accountCount()).rejects.toMatchObject({ code: 'UNREACHABLE' })
  })
})

describe('the site’s events', () => {
  it('passes each event on, connects again when the stream drops, and stops on stop()', async () => {
    let connections = 0
    const open = new Set<ServerResponse>()
    const url = await site((request, response) => {
      expect(request.url).toBe('/frontdesk/v1/events')
      connections++
      response.writeHead(200, { 'content-type': 'text/event-stream' })
      response.write(': connected\n\n')
      open.add(response)
      // The first stream: an event split over two writes and a comment; then it drops.
      if (connections === 1) {
        response.write(`data: {"type":"watchlist-alert",`)
        setTimeout(() => {
          response.write(`"alertId":"${ALERT}"}\n\n: keep-alive\n\ndata: {"type":"something-new"}\n\n`)
          response.end()
        }, 20)
      } else {
        response.write(`data: ${JSON.stringify({ type: 'watchlist-alert-dismissed', alertId: ALERT })}\r\n\r\n`)
      }
    })
    const got: SiteEvent[] = []
    const lines: string[] = []
    const events = siteEvents({
      settings: async () => ({ ...defaultSettings, mode: 'site', personServerUrl: url, bioEngineUrl: `${url}/bioengine` }),
      tokens: async () => tokens().provider,
      onEvent: (event) => got.push(event),
      log: (line) => lines.push(line),
      firstDelayMs: 10,
    })
    events.refresh()
    await expect.poll(() => got.length, { timeout: 5000 }).toBe(2)
    expect(got).toEqual([
      { type: 'watchlist-alert', alertId: ALERT },
      { type: 'watchlist-alert-dismissed', alertId: ALERT },
    ])
    expect(connections).toBe(2)
    await events.stop()
    // Stopped: the stream is closed and nothing connects again.
    await expect.poll(() => [...open].every((response) => response.closed || response.destroyed), { timeout: 5000 }).toBe(true)
    events.refresh()
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(connections).toBe(2)
  })

  it('does not listen while the kiosk is not on a site', async () => {
    let connections = 0
    const url = await site((_request, response) => {
      connections++
      response.end()
    })
    const events = siteEvents({ settings: async () => ({ ...defaultSettings, mode: 'remote', personServerUrl: url, bioEngineUrl: url }), tokens: async () => tokens().provider, onEvent: () => {}, log: () => {} })
    events.refresh()
    await new Promise((resolve) => setTimeout(resolve, 100))
    await events.stop()
    expect(connections).toBe(0)
  })
})

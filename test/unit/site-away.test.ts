import { createServer, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KioskError } from '../../electron/shared/errors'
import { ApiError } from '../../electron/services/clients/api-error'
import { HttpClient } from '../../electron/services/clients/http-client'
import { TokenProvider } from '../../electron/services/clients/token-provider'
import { createDispatch, type Call, type Handlers, type ResolveActor } from '../../electron/services/dispatch'
import { dispatchWhileAway } from '../../electron/services/site/away-sessions'
import { siteAway } from '../../electron/services/site/site-away'
import { siteCall } from '../../electron/services/site/site-http'

// Which failures of a call to the site mean "the site is away" (a kiosk answers from its copy) and
// which are the site's own refusals (they stand): told by real replies from a stand-in server.

type Reply = (response: ServerResponse) => void
const json = (status: number, body: unknown): Reply => (response) => {
  response.writeHead(status, { 'content-type': 'application/json' })
  response.end(JSON.stringify(body))
}
const page = (status: number): Reply => (response) => {
  response.writeHead(status, { 'content-type': 'text/html' })
  response.end('<!DOCTYPE html><html><body><h1>Not Found</h1></body></html>')
}

const replies: Record<string, Reply> = {
  'site-400': json(400, { code: 'INVALID_INPUT', message: 'Give an e-mail.' }),
  'site-401': json(401, { code: 'UNAUTHORIZED', message: 'Staff must sign in.' }),
  'site-403': json(403, { code: 'FORBIDDEN', message: 'Administrators only.' }),
  'site-404': json(404, { code: 'NOT_FOUND', message: 'No such visit.' }),
  'site-409': json(409, { code: 'REJECTED', message: 'Already used.' }),
  'site-429': json(429, { code: 'SERVER_ERROR', message: 'Slow down.' }),
  'site-500': json(500, { code: 'INTERNAL', message: 'The site failed.' }),
  'gateway-502': page(502),
  'site-503': json(503, { code: 'SERVER_ERROR', message: 'The store is unavailable.' }),
  'proxy-404': page(404),
  'portal-200': page(200),
  'redirect-302': (response) => {
    response.writeHead(302, { location: 'http://portal.invalid/' })
    response.end()
  },
  'not-json-200': (response) => {
    response.writeHead(200, { 'content-type': 'application/json' })
    response.end('{"screening": "cle')
  },
  'wrong-shape-200': json(200, { screening: 'maybe' }),
  'reset': (response) => response.socket?.destroy(),
  'hang': () => {},
}

let server: Server
let url: string
/** What the stand-in answers now (tests here run one at a time). */
let current = 'site-500'
beforeAll(async () => {
  server = createServer((request, response) => {
    const reply = replies[current]!
    request.resume()
    request.on('end', () => reply(response))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

/** The error a screen call gets when the site (or what stands in front of it) answers `name`. */
async function failureOf(name: string): Promise<unknown> {
  const http = new HttpClient({ baseUrl: url, name: 'The site', connectTimeoutMs: 500, requestTimeoutMs: 300 })
  current = name
  try {
    await siteCall({ http, tokens: new TokenProvider(async () => ({ token: 't', expiresInSeconds: 3600 })) }, 'screen', { body: { personUuids: [], givenEmail: null, place: 'check-in' } })
    return null
  } catch (error) {
    return error
  } finally {
    await http.close()
  }
}

describe('siteAway', () => {
  it.each(['site-500', 'gateway-502', 'site-503', 'proxy-404', 'portal-200', 'redirect-302', 'not-json-200', 'wrong-shape-200', 'reset', 'hang'])('%s: the site is away', async (name) => {
    const error = await failureOf(name)
    expect(error).toBeInstanceOf(ApiError)
    expect(siteAway(error)).toBe(true)
  })

  it.each(['site-400', 'site-401', 'site-403', 'site-404', 'site-409', 'site-429'])('%s: the site refused in its own words', async (name) => {
    const error = await failureOf(name)
    expect(error).toBeInstanceOf(ApiError)
    expect(siteAway(error)).toBe(false)
  })

  it('a port nobody listens on is away; errors that are not transport failures are not', async () => {
    const http = new HttpClient({ baseUrl: 'http://127.0.0.1:9', name: 'The site', connectTimeoutMs: 500, requestTimeoutMs: 500 })
    const refused = await siteCall({ http, tokens: new TokenProvider(async () => ({ token: 't', expiresInSeconds: 3600 })) }, 'look').catch((error: unknown) => error)
    await http.close()
    expect(refused).toMatchObject({ code: 'UNREACHABLE' })
    expect(siteAway(refused)).toBe(true)
    expect(siteAway(new KioskError('TIMEOUT', 'rethrown'))).toBe(true)
    expect(siteAway(new KioskError('NOT_CONFIGURED', 'no credentials'))).toBe(false)
    expect(siteAway(new KioskError('KEYCHAIN_LOCKED', 'locked'))).toBe(false)
    expect(siteAway(new TypeError('a bug'))).toBe(false)
    expect(siteAway(null)).toBe(false)
  })
})

describe('a held staff session while the site is away', () => {
  const away = new ApiError('UNREACHABLE', 'The site could not be reached.', null)
  const handlers = {
    listOnSite: async () => ({ visits: [], at: new Date(0).toISOString(), offline: { asOf: null, unheardKiosks: ['Annex'] } }),
    getWatchlistAlerts: async () => [],
    getInviteAlerts: async () => [],
    visitLog: async () => ({ visits: [], total: 0, pageNo: 0, pageSize: 10 }),
    listAccounts: async () => [],
    getSession: async (_input: unknown, call: Call) => ({ ...call.actor, firstRun: false, idleTimeoutSeconds: 90, templateType: 'Face:Test' }),
  } as unknown as Handlers
  const sessions = { actor: (key: string | null) => (key === 'window-1' ? ({ role: 'operator', account: 'Olga' } as const) : ({ role: 'visitor', account: null } as const)) }
  const dispatchWith = (resolve: ResolveActor) => dispatchWhileAway((r) => createDispatch(handlers, r, () => {}), resolve, sessions)

  it('reads the evacuation list and the alerts with the role last known, and nothing else', async () => {
    const dispatch = dispatchWith(async () => {
      throw away
    })
    expect(await dispatch('listOnSite', {}, 'window-1')).toMatchObject({ ok: true, value: { offline: { unheardKiosks: ['Annex'] } } })
    expect(await dispatch('getWatchlistAlerts', {}, 'window-1')).toEqual({ ok: true, value: [] })
    expect(await dispatch('getInviteAlerts', {}, 'window-1')).toEqual({ ok: true, value: [] })
    // Its screen stays a staff screen, so staff can reach the list.
    expect(await dispatch('getSession', {}, 'window-1')).toMatchObject({ ok: true, value: { role: 'operator', account: 'Olga' } })
    expect(await dispatch('visitLog', {}, 'window-1')).toMatchObject({ ok: false })
    expect(await dispatch('listAccounts', {}, 'window-1')).toMatchObject({ ok: false })
    // A window without a session is a visitor, away or not.
    expect(await dispatch('listOnSite', {}, 'window-2')).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } })
  })

  it('keeps the site’s word when it gave one: a session it ended reads nothing', async () => {
    const dispatch = dispatchWith(async () => {
      throw new KioskError('UNAUTHORIZED', 'The session ended.')
    })
    expect(await dispatch('listOnSite', {}, 'window-1')).toMatchObject({ ok: false })
    const online = dispatchWith(async () => ({ role: 'visitor', account: null }))
    expect(await online('listOnSite', {}, 'window-1')).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } })
  })
})

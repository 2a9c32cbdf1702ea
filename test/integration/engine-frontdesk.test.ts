import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { request, type Dispatcher } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SCOPE_TENANT_ADMIN } from '../../electron/shared/api-requests'
import {
  FRONTDESK_PREFIX,
  frontDeskRoutes,
  PAIRING_ALPHABET,
  PAIRING_CODE_LENGTH,
  pairResult,
  SCOPE_FRONTDESK_KIOSK,
  STAFF_SESSION_HEADER,
  type SiteEvent,
} from '../../electron/shared/frontdesk-api'
import { FRONTDESK_AUTH } from '../../electron/engine/auth/front-desk-auth'
import { BACKENDS, startBackend, type BackendHandle } from '../support/backends'
import { basic, startTestEngine, TEST_TENANT, type TestEngine } from '../support/engine'
import { replyOf, type SiteReply } from '../support/site'

/**
 * Issue 43: the site's front desk, served by the engine on /frontdesk/v1, over real HTTP, on SQLite
 * (one engine) and on PostgreSQL (two engines on one database, as a site's). Kiosks are paired as
 * a kiosk pairs: a code, then its own client at the token endpoint.
 */

/** Every engine here believes X-Forwarded-For from loopback, so a test can be several peers. */
const PROXY = '127.0.0.1'
const KEEP_ALIVE_MS = 200
const MAX_STREAMS = 3

type Reply = SiteReply

interface Kiosk {
  kioskId: string
  clientId: string
  clientSecret: string
  token: string
}

/** One call, as a kiosk makes it: its bearer token, a staff session, a peer address. */
async function call(
  engine: TestEngine,
  method: string,
  path: string,
  options: { token?: string; session?: string; body?: unknown; raw?: string; peer?: string; contentType?: string } = {},
): Promise<Reply> {
  const headers: Record<string, string> = {}
  if (options.token) headers.authorization = `Bearer ${options.token}`
  if (options.session) headers[STAFF_SESSION_HEADER] = options.session
  if (options.peer) headers['x-forwarded-for'] = options.peer
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body))
  if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json'
  return replyOf(await request(`${engine.url}${path}`, { method: method as Dispatcher.HttpMethod, headers, body }))
}

const fd = (path: string) => `${FRONTDESK_PREFIX}${path}`

async function clientToken(engine: TestEngine, clientId: string, secret: string, scope = `${SCOPE_TENANT_ADMIN} ${SCOPE_FRONTDESK_KIOSK}`): Promise<Reply> {
  const reply = await request(`${engine.url}/v2/oauth2/oauth/token?grant_type=client_credentials&scope=${encodeURIComponent(scope)}`, {
    method: 'POST',
    headers: { authorization: basic(clientId, secret), 'content-type': 'application/x-www-form-urlencoded' },
  })
  return { status: reply.statusCode, headers: reply.headers, body: await reply.body.json() }
}

/** An open event stream: every SiteEvent and comment it has sent so far. */
interface EventStream {
  status: number
  headers: Record<string, string | string[] | undefined>
  events: SiteEvent[]
  comments: string[]
  ended: Promise<void>
  /** Resolves with the first event (from the start) that matches, within `timeoutMs`. */
  next(match: (event: SiteEvent) => boolean, timeoutMs?: number): Promise<SiteEvent>
  close(): void
}

/**
 * Opens a stream; while the engine is full (503: streams a test closed are let go when the engine
 * sees their sockets close), tries again, up to 5 s, unless `once`.
 */
async function openStream(engine: TestEngine, token: string, once = false): Promise<EventStream> {
  const deadline = Date.now() + 5000
  let reply = await request(`${engine.url}${fd('/events')}`, { headers: { authorization: `Bearer ${token}` } })
  while (reply.statusCode === 503 && !once && Date.now() < deadline) {
    await reply.body.dump()
    await new Promise((resolve) => setTimeout(resolve, 50))
    reply = await request(`${engine.url}${fd('/events')}`, { headers: { authorization: `Bearer ${token}` } })
  }
  const events: SiteEvent[] = []
  const comments: string[] = []
  let buffered = ''
  reply.body.setEncoding('utf8')
  reply.body.on('data', (chunk: string) => {
    buffered += chunk
    let end: number
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const message = buffered.slice(0, end)
      buffered = buffered.slice(end + 2)
      if (message.startsWith('data: ')) events.push(JSON.parse(message.slice(6)) as SiteEvent)
      else if (message.startsWith(':')) comments.push(message.slice(1).trim())
    }
  })
  const ended = new Promise<void>((resolve) => {
    reply.body.once('end', resolve)
    reply.body.once('close', resolve)
    reply.body.once('error', () => resolve())
  })
  return {
    status: reply.statusCode,
    headers: reply.headers,
    events,
    comments,
    ended,
    async next(match, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const found = events.find(match)
        if (found) return found
        if (Date.now() > deadline) throw new Error(`no such event within ${timeoutMs} ms; had ${JSON.stringify(events)}`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    },
    close: () => reply.body.destroy(),
  }
}

/** A code in the pairing alphabet that no one made (one in 31^8 it is one). */
function randomCode(): string {
  return Array.from(randomBytes(PAIRING_CODE_LENGTH), (byte) => PAIRING_ALPHABET[byte % PAIRING_ALPHABET.length]).join('')
}

/** Waits until `check` is true, up to `timeoutMs`. */
async function until(check: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** Resolves true once `promise` settles within `ms`, false otherwise. */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined
  const result = await Promise.race([promise.then(() => true), new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)))])
  clearTimeout(timer)
  return result
}

describe.each(BACKENDS)("the site's front desk on %s", (backend) => {
  let handle: BackendHandle
  const folders: string[] = []
  const engines: TestEngine[] = []
  /** The engine kiosks call first, and the one they call next (the other engine of the site on PostgreSQL). */
  let a: TestEngine
  let b: TestEngine
  /** Added to the front desk's clock (both engines'): codes expire without waiting 15 minutes. */
  let skew = 0
  let peers = 0
  /** A new peer address, so a test's wrong codes do not pause another's. */
  const peer = () => `10.43.0.${++peers}`

  beforeAll(async () => {
    handle = await startBackend(backend)
    const start = async () => {
      const folder = mkdtempSync(join(tmpdir(), 'kiosk-frontdesk-'))
      folders.push(folder)
      const engine = await startTestEngine([], folder, {
        ...handle.options,
        tenant: TEST_TENANT,
        trustedProxy: PROXY,
        limits: { eventKeepAliveMs: KEEP_ALIVE_MS, maxEventStreams: MAX_STREAMS },
        frontDesk: { now: () => Date.now() + skew },
      })
      engines.push(engine)
      return engine
    }
    a = await start()
    b = backend === 'postgres' ? await start() : a
  })
  afterAll(async () => {
    // Every engine, then the database, even when a test or a start failed.
    for (const engine of engines) await engine.close().catch(() => {})
    await handle?.close()
    for (const folder of folders) rmSync(folder, { recursive: true, force: true })
  })

  const newCode = async () => (await a.engine.ctx.frontDesk.createPairingCode('test')).code
  const pair = (engine: TestEngine, code: string, name: string, from = peer()) => call(engine, 'POST', fd('/pair'), { body: { code, name }, peer: from })
  /** A kiosk paired through `engine`, with a token for both its scopes. */
  const pairKiosk = async (name: string, engine = a): Promise<Kiosk> => {
    const paired = await pair(engine, await newCode(), name)
    expect(paired.status, JSON.stringify(paired.body)).toBe(200)
    const token = await clientToken(engine, paired.body.clientId, paired.body.clientSecret)
    expect(token.status).toBe(200)
    return { ...paired.body, token: token.body.access_token }
  }

  let lobby: Kiosk
  let admin: string
  const ADMIN = 'Ada Admin'
  const OPERATOR = 'Olga Operator'

  it('pairs a kiosk with a good code: its own client then gets a token that works on the front desk, the person server and the BioEngine', async () => {
    const code = await newCode()
    const paired = await pair(a, code.toLowerCase().replace(/^(....)/, '$1-'), 'Lobby')
    expect(paired.status, JSON.stringify(paired.body)).toBe(200)
    expect(pairResult.parse(paired.body)).toMatchObject({ name: 'Lobby', tenantCode: TEST_TENANT, clientId: `kiosk-${paired.body.kioskId}` })
    expect(paired.headers['cache-control']).toBe('no-store')
    expect(paired.body.clientSecret.length).toBeGreaterThanOrEqual(43)

    // At the other engine too: the client is in the site's database.
    const token = await clientToken(b, paired.body.clientId, paired.body.clientSecret)
    expect(token.status, JSON.stringify(token.body)).toBe(200)
    lobby = { ...paired.body, token: token.body.access_token }
    expect((await call(b, 'GET', fd('/staff/status'), { token: lobby.token })).body).toEqual({ accounts: 0 })
    expect((await call(b, 'GET', `/v2/gmiserver/tenant/${TEST_TENANT}`, { token: lobby.token })).status).toBe(200)
    expect((await call(b, 'GET', '/bioengine/template-types', { token: lobby.token })).status).toBe(200)
    const listed = await a.engine.ctx.frontDesk.listKiosks()
    expect(listed.map((k) => k.id)).toContain(lobby.kioskId)

    // The site makes the first administrator through a kiosk, then signs them in.
    const first = await call(a, 'POST', fd('/staff/first-admin'), { token: lobby.token, body: { name: ADMIN, secret: 'admin-secret-1' } })
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    expect(first.body.account).toMatchObject({ name: ADMIN, role: 'admin' })
    admin = first.body.session
  })

  it('refuses a used, an expired and a wrong code, each saying which, and pauses a peer after repeated wrong codes', async () => {
    const used = await pair(a, (await a.engine.ctx.frontDesk.createPairingCode('test')).code, 'Side door')
    expect(used.status).toBe(200)
    const usedCode = await newCode()
    expect((await pair(a, usedCode, 'Once')).status).toBe(200)
    const again = await pair(b, usedCode, 'Twice')

    const expiring = await newCode()
    skew = 16 * 60_000
    let expired: Reply
    try {
      expired = await pair(b, expiring, 'Too late')
    } finally {
      skew = 0
    }
    const wrong = await pair(a, randomCode(), 'Guess')

    for (const refused of [again, expired, wrong]) {
      expect(refused.status, JSON.stringify(refused.body)).toBe(409)
      expect(refused.body).toMatchObject({ status: 409, code: 'REJECTED', path: fd('/pair') })
    }
    expect(new Set([again.body.message, expired.body.message, wrong.body.message]).size).toBe(3)
    // A refused code made no client.
    expect((await a.engine.ctx.frontDesk.listKiosks()).map((k) => k.name)).not.toContain('Too late')

    // One peer guessing: a few wrong codes are only refused, then it is paused, even with a good code.
    const guesser = peer()
    const good = await newCode()
    const answers: Reply[] = []
    for (let i = 0; i < 7; i++) answers.push(await pair(a, randomCode(), 'Guess', guesser))
    expect(answers.slice(0, 5).map((r) => r.status)).toEqual([409, 409, 409, 409, 409])
    const paused = answers.at(-1)!
    expect(paused.status).toBe(429)
    expect(paused.body.code).toBe('TOO_MANY_ATTEMPTS')
    expect(Number(paused.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    expect((await pair(a, good, 'Paused', guesser)).status).toBe(429)
    // ... and only that peer: another still pairs with the code, which was not used up.
    expect((await pair(a, good, 'Elsewhere')).status).toBe(200)
  })

  it('lets a kiosk token with no staff session screen and sign in, and nothing an operator or administrator may do', async () => {
    const token = lobby.token
    const denied = [
      await call(a, 'GET', fd('/accounts'), { token }),
      await call(a, 'POST', fd('/watchlist'), { token, body: { personUuid: randomUUID(), email: 'x@example.com', reason: 'forged' } }),
      await call(a, 'POST', fd('/pairing-codes'), { token }),
      await call(a, 'GET', fd('/kiosks'), { token }),
      await call(a, 'DELETE', fd(`/kiosks/${lobby.kioskId}`), { token }),
      await call(a, 'GET', fd('/watchlist/alerts'), { token }),
      // A session the site never issued is no session.
      await call(b, 'GET', fd('/accounts'), { token, session: 'forged-session-token' }),
      await call(b, 'POST', fd('/pairing-codes'), { token, session: 'x'.repeat(300) }),
    ]
    for (const reply of denied) {
      expect(reply.status, JSON.stringify(reply.body)).toBe(401)
      expect(reply.body.code).toBe('UNAUTHORIZED')
      // Not the token's fault: a client must not fetch a new token and try again.
      expect(reply.headers['www-authenticate']).not.toMatch(/^Bearer/)
    }
    // The kiosk was not removed by its own try.
    expect((await call(a, 'GET', fd('/staff/status'), { token })).status).toBe(200)

    const screened = await call(b, 'POST', fd('/watchlist/screen'), { token, body: { personUuids: [randomUUID()], givenEmail: 'visitor@example.com', place: 'enrollment' } })
    expect(screened.status, JSON.stringify(screened.body)).toBe(200)
    expect(screened.body).toEqual({ screening: 'clear' })
    const signedIn = await call(b, 'POST', fd('/staff/sign-in'), { token, body: { name: ADMIN, secret: 'admin-secret-1' } })
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200)
    expect(signedIn.headers['cache-control']).toBe('no-store')
    expect((await call(a, 'GET', fd('/staff/session'), { token, session: signedIn.body.session })).body).toEqual({ account: ADMIN, role: 'admin' })
    const wrongPin = await call(a, 'POST', fd('/staff/sign-in'), { token, body: { name: ADMIN, secret: 'not-the-secret' } })
    expect(wrongPin.status).toBe(401)
    expect(wrongPin.body.code).toBe('UNAUTHORIZED')
    expect(wrongPin.headers['www-authenticate']).not.toMatch(/^Bearer/)
  })

  it('takes front-desk calls only from a paired kiosk with the front-desk scope', async () => {
    // The test client (kiosk-test: the prefix, but no kiosk of the site) still reaches the person server ...
    expect((await a.call('GET', `/v2/gmiserver/tenant/${TEST_TENANT}`)).status).toBe(200)
    // ... and not the front desk.
    const notKiosk = await call(a, 'GET', fd('/staff/status'), { token: await a.token() })
    expect(notKiosk.status).toBe(403)
    expect(notKiosk.body.code).toBe('FORBIDDEN')
    const tenantOnly = await clientToken(a, lobby.clientId, lobby.clientSecret, SCOPE_TENANT_ADMIN)
    expect((await call(a, 'GET', fd('/staff/status'), { token: tenantOnly.body.access_token })).status).toBe(403)
    const none = await call(a, 'GET', fd('/staff/status'))
    expect(none.status).toBe(401)
    expect(none.headers['www-authenticate']).toBe('Bearer')
    expect(none.body).toMatchObject({ status: 401, code: 'UNAUTHORIZED', path: fd('/staff/status') })
  })

  it('enforces staff roles at the site: an operator may not add to the watchlist, an administrator may, as themself', async () => {
    const token = lobby.token
    const made = await call(a, 'POST', fd('/accounts'), { token, session: admin, body: { name: OPERATOR, role: 'operator', secret: 'operator-secret-1' } })
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    const operator = (await call(b, 'POST', fd('/staff/sign-in'), { token, body: { name: OPERATOR, secret: 'operator-secret-1' } })).body.session as string
    expect(operator).toBeTruthy()

    const entry = { personUuid: randomUUID(), email: 'listed@example.com', reason: 'Banned from site' }
    const byOperator = await call(b, 'POST', fd('/watchlist'), { token, session: operator, body: entry })
    expect(byOperator.status).toBe(403)
    expect(byOperator.body.code).toBe('FORBIDDEN')
    for (const path of ['/accounts', '/kiosks']) expect((await call(b, 'GET', fd(path), { token, session: operator })).status).toBe(403)
    expect((await call(b, 'POST', fd('/pairing-codes'), { token, session: operator })).status).toBe(403)
    expect((await call(b, 'GET', fd('/watchlist'), { token, session: operator })).body).toEqual([])

    // A name in the body is not taken: the entry is the session's account's.
    const forged = await call(a, 'POST', fd('/watchlist'), { token, session: admin, body: { ...entry, addedBy: 'Someone Else' } })
    expect(forged.status).toBe(400)
    const added = await call(a, 'POST', fd('/watchlist'), { token, session: admin, body: entry })
    expect(added.status, JSON.stringify(added.body)).toBe(200)
    expect(added.body).toMatchObject({ personUuid: entry.personUuid, addedBy: ADMIN })
    expect((await call(b, 'GET', fd('/watchlist'), { token, session: operator })).body).toHaveLength(1)

    const code = await call(a, 'POST', fd('/pairing-codes'), { token, session: admin })
    expect(code.status).toBe(200)
    expect(code.body.code).toMatch(/^[2-9A-HJKMNP-Z]{8}$/)
    expect(Date.parse(code.body.expiresAt) - Date.now()).toBeGreaterThan(14 * 60_000)
    expect((await call(a, 'GET', fd('/accounts'), { token, session: admin })).body.map((x: { name: string }) => x.name).sort()).toEqual([ADMIN, OPERATOR])
  })

  it("keeps the organisation's look: any paired kiosk reads it, only an administrator sets it, and every engine announces it", async () => {
    const token = lobby.token
    const operator = (await call(a, 'POST', fd('/staff/sign-in'), { token, body: { name: OPERATOR, secret: 'operator-secret-1' } })).body.session as string
    // Nothing set yet: the kiosk's defaults.
    const initial = await call(b, 'GET', fd('/look'), { token })
    expect(initial.status, JSON.stringify(initial.body)).toBe(200)
    expect(initial.body).toEqual({ organisationName: 'Identity Kiosk', welcomeLine: '', accentColour: '#0b5cad', logo: null, visitorRetentionDays: null })

    const look = { organisationName: 'Harbour Offices', welcomeLine: 'Welcome to the harbour', accentColour: '#1F5F3A', visitorRetentionDays: 30 }
    // A kiosk's own token, or an operator's session, is not an administrator's.
    expect((await call(a, 'PUT', fd('/look'), { token, body: look })).status).toBe(401)
    const byOperator = await call(a, 'PUT', fd('/look'), { token, session: operator, body: look })
    expect(byOperator.status).toBe(403)
    expect(byOperator.body.code).toBe('FORBIDDEN')
    expect((await call(a, 'GET', fd('/look'), { token })).body).toEqual(initial.body)

    const stream = await openStream(b, token)
    try {
      const set = await call(a, 'PUT', fd('/look'), { token, session: admin, body: look })
      expect(set.status, JSON.stringify(set.body)).toBe(200)
      // The accent as the settings keep it: lower case.
      expect(set.body).toEqual({ ...look, accentColour: '#1f5f3a', logo: null })
      await stream.next((event) => event.type === 'look')
    } finally {
      stream.close()
    }
    // A patch changes only what it carries; the logo is the services' re-encoded PNG, as base64.
    const png = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#1f5f3a' } }).png().toBuffer()
    const withLogo = await call(b, 'PUT', fd('/look'), { token, session: admin, body: { logo: png.toString('base64'), welcomeLine: '' } })
    expect(withLogo.status, JSON.stringify(withLogo.body)).toBe(200)
    expect(withLogo.body).toEqual({ ...look, accentColour: '#1f5f3a', welcomeLine: '', logo: png.toString('base64') })
    expect((await call(a, 'GET', fd('/look'), { token })).body).toEqual(withLogo.body)

    const tooBig = await sharp({ create: { width: 600, height: 20, channels: 3, background: '#000000' } }).png().toBuffer()
    for (const body of [
      { organisationName: '' },
      { organisationName: 'Two\nlines' },
      { accentColour: 'green' },
      // An accent that would leave the buttons' text unreadable.
      { accentColour: '#ffff00' },
      { visitorRetentionDays: 0 },
      { visitorRetentionDays: 1.5 },
      { logo: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64') },
      { logo: 'not base64!' },
      { logo: tooBig.toString('base64') },
      { kioskName: 'Not the site’s' },
      { idleTimeoutSeconds: 60 },
    ]) {
      const refused = await call(a, 'PUT', fd('/look'), { token, session: admin, body })
      expect(refused.status, `${JSON.stringify(body).slice(0, 80)}: ${JSON.stringify(refused.body)}`).toBe(400)
      expect(refused.body).toMatchObject({ status: 400, code: 'INVALID_INPUT' })
    }
    expect((await call(b, 'GET', fd('/look'), { token })).body).toEqual(withLogo.body)
    // Removing the logo.
    expect((await call(a, 'PUT', fd('/look'), { token, session: admin, body: { logo: null } })).body.logo).toBeNull()
  })

  it("refuses a disabled account's session on its next call, at any engine", async () => {
    const token = lobby.token
    const operator = (await call(a, 'POST', fd('/staff/sign-in'), { token, body: { name: OPERATOR, secret: 'operator-secret-1' } })).body.session as string
    expect((await call(b, 'GET', fd('/staff/session'), { token, session: operator })).status).toBe(200)
    const disabled = await call(a, 'POST', fd('/accounts/set-disabled'), { token, session: admin, body: { name: OPERATOR, disabled: true } })
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(200)
    expect(disabled.body.disabled).toBe(true)
    for (const path of ['/staff/session', '/watchlist']) {
      const refused = await call(b, 'GET', fd(path), { token, session: operator })
      expect(refused.status).toBe(401)
      expect(refused.body.code).toBe('UNAUTHORIZED')
    }
    expect((await call(b, 'POST', fd('/staff/sign-in'), { token, body: { name: OPERATOR, secret: 'operator-secret-1' } })).status).toBe(401)
  })

  it('sends an alert raised through one engine to the event streams of every engine, and its dismissal', async () => {
    const stream = await openStream(b, lobby.token)
    const local = await openStream(a, lobby.token)
    try {
      expect(stream.status).toBe(200)
      expect(stream.headers['content-type']).toMatch(/^text\/event-stream/)
      const listed = (await call(a, 'GET', fd('/watchlist'), { token: lobby.token, session: admin })).body[0] as { personUuid: string }
      const screened = await call(a, 'POST', fd('/watchlist/screen'), {
        token: lobby.token,
        body: { personUuids: [randomUUID(), listed.personUuid], givenEmail: null, place: 'check-in' },
      })
      expect(screened.status, JSON.stringify(screened.body)).toBe(200)
      expect(screened.body).toMatchObject({ screening: 'watchlisted', personUuid: listed.personUuid })
      const alertId = screened.body.alertId as string
      await stream.next((event) => event.type === 'watchlist-alert' && event.alertId === alertId)
      await local.next((event) => event.type === 'watchlist-alert' && event.alertId === alertId)
      const alerts = await call(b, 'GET', fd('/watchlist/alerts'), { token: lobby.token, session: admin })
      expect(alerts.body.map((alert: { id: string }) => alert.id)).toContain(alertId)

      expect((await call(b, 'POST', fd(`/watchlist/alerts/${alertId}/dismiss`), { token: lobby.token, session: admin })).status).toBe(204)
      await local.next((event) => event.type === 'watchlist-alert-dismissed' && event.alertId === alertId)
      await stream.next((event) => event.type === 'watchlist-alert-dismissed' && event.alertId === alertId)
      // Once for all kiosks: a second dismissal finds no open alert.
      expect((await call(a, 'POST', fd(`/watchlist/alerts/${alertId}/dismiss`), { token: lobby.token, session: admin })).status).toBe(404)
      // Each engine delivered each event once.
      expect(stream.events.filter((event) => 'alertId' in event && event.alertId === alertId)).toHaveLength(2)
      await until(() => stream.comments.includes('keep-alive'), 'a keep-alive comment')
    } finally {
      stream.close()
      local.close()
    }
  })

  it('holds at most its limit of event streams, and takes none without a paired kiosk', async () => {
    expect((await call(a, 'GET', fd('/events'), { token: await a.token() })).status).toBe(403)
    const streams: EventStream[] = []
    try {
      for (let i = 0; i < MAX_STREAMS; i++) streams.push(await openStream(a, lobby.token))
      expect(streams.map((s) => s.status)).toEqual(Array(MAX_STREAMS).fill(200))
      const refused = await openStream(a, lobby.token, true)
      streams.push(refused)
      expect(refused.status).toBe(503)
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1)
    } finally {
      for (const stream of streams) stream.close()
    }
    // Closed streams are let go: there is room again.
    const again = await openStream(a, lobby.token)
    expect(again.status).toBe(200)
    again.close()
  })

  it("refuses a removed kiosk's token at once on the front desk, the person server and the BioEngine, and ends its stream", async () => {
    const door = await pairKiosk('Side entrance', b)
    const routes = [fd('/staff/status'), `/v2/gmiserver/tenant/${TEST_TENANT}`, '/bioengine/template-types']
    for (const path of routes) expect((await call(a, 'GET', path, { token: door.token })).status).toBe(200)
    const stream = await openStream(a, door.token)
    expect(stream.status).toBe(200)

    const removed = await call(b, 'DELETE', fd(`/kiosks/${door.kioskId}`), { token: lobby.token, session: admin })
    expect(removed.status, JSON.stringify(removed.body)).toBe(204)
    for (const engine of [a, b]) {
      for (const path of routes) {
        const refused = await call(engine, 'GET', path, { token: door.token })
        expect(refused.status, `${path}: ${JSON.stringify(refused.body)}`).toBe(401)
      }
    }
    expect((await call(a, 'GET', fd('/staff/status'), { token: door.token })).body.code).toBe('UNAUTHORIZED')
    // No new token either: its client went with it.
    expect((await clientToken(a, door.clientId, door.clientSecret)).status).toBe(401)
    expect((await a.engine.ctx.frontDesk.listKiosks()).map((k) => k.id)).not.toContain(door.kioskId)
    expect(await within(stream.ended, 20 * KEEP_ALIVE_MS), 'the removed kiosk’s stream ended').toBe(true)
    // The other kiosk is untouched; removing the removed one again is a 404.
    expect((await call(a, 'GET', fd('/staff/status'), { token: lobby.token })).status).toBe(200)
    expect((await call(a, 'DELETE', fd(`/kiosks/${door.kioskId}`), { token: lobby.token, session: admin })).body.code).toBe('NOT_FOUND')
  })

  it('answers malformed bodies and parameters 400 with INVALID_INPUT, never 500', async () => {
    const token = lobby.token
    const cases: Array<[string, string, Parameters<typeof call>[3]]> = [
      ['POST', fd('/pair'), { raw: '{"code": "ABCD', peer: peer() }],
      ['POST', fd('/pair'), { body: { code: 'ABCD2345' }, peer: peer() }],
      ['POST', fd('/pair'), { body: { code: 'ABCD0O1I', name: 'Bad letters' }, peer: peer() }],
      ['POST', fd('/pair'), { body: { code: 'ABCD2345', name: 'Two\nlines' }, peer: peer() }],
      ['POST', fd('/pair'), { body: { code: 'ABCD2345', name: 'Extra', clientId: 'kiosk-mine' }, peer: peer() }],
      ['POST', fd('/pair'), { body: [1, 2, 3], peer: peer() }],
      ['POST', fd('/staff/sign-in'), { token, body: { name: 1, secret: 2 } }],
      ['POST', fd('/staff/first-admin'), { token, body: { name: 'A', secret: 'short' } }],
      ['POST', fd('/watchlist/screen'), { token, body: { personUuids: ['not-a-uuid'], givenEmail: null, place: 'enrollment' } }],
      ['POST', fd('/watchlist/screen'), { token, body: { personUuids: [], givenEmail: null, place: 'lobby' } }],
      ['POST', fd('/watchlist/screen'), { token, raw: '{"__proto__": {"polluted": true}, "personUuids": []}' }],
      ['POST', fd('/watchlist'), { token, session: admin, body: { personUuid: 'x', email: 'a@example.com', reason: 'r' } }],
      ['POST', fd('/watchlist'), { token, session: admin, body: { personUuid: randomUUID(), email: 'a@example.com', reason: '   ' } }],
      ['DELETE', fd('/watchlist/not-a-uuid'), { token, session: admin }],
      ['POST', fd('/watchlist/alerts/not-a-uuid/dismiss'), { token, session: admin }],
      ['DELETE', fd('/kiosks/not-a-uuid'), { token, session: admin }],
      ['POST', fd('/accounts'), { token, session: admin, body: { name: 'New One', role: 'root', secret: 'secret-123' } }],
      ['POST', fd('/accounts/set-disabled'), { token, session: admin, body: { name: OPERATOR, disabled: 'yes' } }],
    ]
    for (const [method, path, options] of cases) {
      const reply = await call(a, method, path, options)
      expect(reply.status, `${method} ${path} ${JSON.stringify(options)}: ${JSON.stringify(reply.body)}`).toBe(400)
      expect(reply.body).toMatchObject({ status: 400, code: 'INVALID_INPUT', path })
    }
  })

  it('declares every route of the shared table with its auth', () => {
    for (const [name, route] of Object.entries(frontDeskRoutes)) {
      const declared = a.engine.routes.find((r) => r.method === route.method && r.url === `${FRONTDESK_PREFIX}${route.path}`)
      expect(declared, name).toBeDefined()
      expect(declared!.auth, name).toBe(FRONTDESK_AUTH[route.auth])
    }
  })
})

describe('an engine with event streams open', () => {
  it('ends them when it closes, without waiting on them', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'kiosk-frontdesk-close-'))
    const engine = await startTestEngine([], folder, { tenant: TEST_TENANT })
    let closed = false
    const streams: EventStream[] = []
    try {
      const paired = await call(engine, 'POST', fd('/pair'), { body: { code: (await engine.engine.ctx.frontDesk.createPairingCode('test')).code, name: 'Closing' } })
      const token = (await clientToken(engine, paired.body.clientId, paired.body.clientSecret)).body.access_token as string
      streams.push(await openStream(engine, token), await openStream(engine, token))
      expect(streams.map((s) => s.status)).toEqual([200, 200])
      expect(await within(engine.close(), 5000), 'engine.close() returned').toBe(true)
      closed = true
      for (const stream of streams) expect(await within(stream.ended, 1000)).toBe(true)
    } finally {
      // The client's side first, so a close that waits on streams still returns.
      for (const stream of streams) stream.close()
      if (!closed) await engine.close()
      rmSync(folder, { recursive: true, force: true })
    }
  })
})

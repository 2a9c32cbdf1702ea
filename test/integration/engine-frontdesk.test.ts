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
  PAIR_PLAIN_BODY_LIMIT,
  PAIRING_CODE_HEADER,
  SCOPE_FRONTDESK_KIOSK,
  STAFF_SESSION_HEADER,
  type SiteEvent,
} from '../../electron/shared/frontdesk-api'
import { FRONTDESK_AUTH } from '../../electron/engine/auth/front-desk-auth'
import { createEngine } from '../../electron/engine/server'
import { HttpClient } from '../../electron/services/clients/http-client'
import { TokenProvider } from '../../electron/services/clients/token-provider'
import { ownDesk } from '../../electron/services/front-desk/own-desk'
import { siteDesk } from '../../electron/services/site/site-desk'
import { BACKENDS, startBackend, type BackendHandle } from '../support/backends'
import { basic, startTestEngine, TEST_TENANT, type TestEngine } from '../support/engine'
import { readEventStream } from '../support/event-stream'
import { replyOf, type SiteReply } from '../support/site'

/**
 * The site's front desk, served by the engine on /frontdesk/v1, over real HTTP, on SQLite
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
  options: { token?: string; session?: string; body?: unknown; raw?: string; peer?: string; contentType?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers }
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
  const { events, comments } = readEventStream(reply.body)
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
async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
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

  it('reads a pairing body larger than a plain pairing only for a code that would pair now, named in its header', async () => {
    const large = (code: string) => ({ code, name: 'Brings records', records: { padding: 'x'.repeat(PAIR_PLAIN_BODY_LIMIT) } })
    const good = await newCode()
    const bare = await call(a, 'POST', fd('/pair'), { body: large(good), peer: peer() })
    expect(bare.status).toBe(400)
    expect(bare.body.message).toContain(PAIRING_CODE_HEADER)
    const wrong = randomCode()
    const guessed = await call(a, 'POST', fd('/pair'), { body: large(wrong), peer: peer(), headers: { [PAIRING_CODE_HEADER]: wrong } })
    expect(guessed.status).toBe(400)
    // With the code named, the body is read (and here refused by its schema): the code is not used up.
    const named = await call(a, 'POST', fd('/pair'), { body: large(good), peer: peer(), headers: { [PAIRING_CODE_HEADER]: good } })
    expect(named.status).toBe(400)
    expect(named.body.message).not.toContain(PAIRING_CODE_HEADER)
    expect((await call(a, 'POST', fd('/pair'), { body: { code: good, name: 'Plain' }, peer: peer(), headers: { [PAIRING_CODE_HEADER]: randomCode() } })).status).toBe(400)
    expect((await pair(a, good, 'Plain')).status).toBe(200)
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

  it('keeps one hosts directory: operators keep it, a kiosk alone sees only whom a visitor can pick', async () => {
    const token = lobby.token
    const operator = (await call(a, 'POST', fd('/staff/sign-in'), { token, body: { name: OPERATOR, secret: 'operator-secret-1' } })).body.session as string
    const fields = { name: 'Harriet Host', email: 'harriet@example.com', webhookUrl: 'https://hooks.example.com/arrivals' }

    // A kiosk's token alone is no staff member: 401, and not the token's fault.
    const someId = 'no-such-host'
    for (const [method, path, body] of [
      ['GET', '/hosts', undefined],
      ['POST', '/hosts', fields],
      ['PUT', `/hosts/${someId}`, fields],
      ['DELETE', `/hosts/${someId}`, undefined],
    ] as const) {
      const refused = await call(a, method, fd(path), { token, body })
      expect(refused.status, `${method} ${path}`).toBe(401)
      expect(refused.body.code).toBe('UNAUTHORIZED')
      expect(refused.headers['www-authenticate']).not.toMatch(/^Bearer/)
    }

    const added = await call(a, 'POST', fd('/hosts'), { token, session: operator, body: fields })
    expect(added.status, JSON.stringify(added.body)).toBe(200)
    expect(added.body).toMatchObject(fields)
    const hostId = added.body.id as string
    // Contacts optional: none.
    const bare = await call(b, 'POST', fd('/hosts'), { token, session: admin, body: { name: 'Front Desk' } })
    expect(bare.body).toMatchObject({ name: 'Front Desk', email: null, webhookUrl: null })

    // The other engine reads the same directory; a visitor sees ids and names only.
    expect((await call(b, 'GET', fd('/hosts'), { token, session: operator })).body).toEqual(expect.arrayContaining([added.body, bare.body]))
    const names = await call(b, 'GET', fd('/hosts/names'), { token })
    expect(names.status).toBe(200)
    expect(names.body).toEqual(expect.arrayContaining([{ id: hostId, name: fields.name }]))
    for (const name of names.body) expect(Object.keys(name).sort()).toEqual(['id', 'name'])

    const updated = await call(b, 'PUT', fd(`/hosts/${hostId}`), { token, session: operator, body: { ...fields, name: 'Harriet Hostess' } })
    expect(updated.status, JSON.stringify(updated.body)).toBe(200)
    expect(updated.body).toEqual({ ...fields, id: hostId, name: 'Harriet Hostess' })
    for (const [method, body] of [['PUT', fields], ['DELETE', undefined]] as const) {
      const missing = await call(a, method, fd(`/hosts/${someId}`), { token, session: operator, body })
      expect(missing.status, method).toBe(404)
      expect(missing.body.code).toBe('NOT_FOUND')
    }
    expect((await call(a, 'DELETE', fd(`/hosts/${bare.body.id}`), { token, session: operator })).status).toBe(204)
    expect((await call(b, 'DELETE', fd(`/hosts/${bare.body.id}`), { token, session: operator })).status).toBe(404)
    expect((await call(a, 'GET', fd('/hosts/names'), { token })).body.map((h: { id: string }) => h.id)).not.toContain(bare.body.id)
  })

  it('checks a visitor in at one kiosk, names that kiosk on the evacuation list, and lets staff at any engine end the visit', async () => {
    const token = lobby.token
    const garden = await pairKiosk('Garden door', b)
    const operator = (await call(a, 'POST', fd('/staff/sign-in'), { token, body: { name: OPERATOR, secret: 'operator-secret-1' } })).body.session as string
    const host = (await call(a, 'POST', fd('/hosts'), { token, session: operator, body: { name: 'Vera Visited', email: 'vera@example.com' } })).body as { id: string }
    const person = { personUuid: randomUUID(), email: 'walter.visitor@example.com', firstName: 'Walter' }
    const checkIn = { person, hostId: host.id, purpose: 'Interview', inviteToken: null, asLastTime: false }

    // The kiosk is the token's: a body cannot name another.
    expect((await call(a, 'POST', fd('/visits/check-in'), { token, body: { ...checkIn, kioskId: garden.kioskId } })).status).toBe(400)
    const first = await call(a, 'POST', fd('/visits/check-in'), { token, body: checkIn })
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    expect(first.body).toMatchObject({
      outcome: 'checked-in',
      alreadyOnSite: false,
      // Nobody for the kiosk to tell: the site queued the host's notice with the visit.
      host: null,
      visit: { personUuid: person.personUuid, email: person.email, firstName: 'Walter', hostId: host.id, hostName: 'Vera Visited', purpose: 'Interview', kioskId: lobby.kioskId, kioskName: 'Lobby', checkedOutAt: null },
    })
    const visitId = first.body.visit.id as string

    // At the other door, through the other engine: the open visit, no second one, nobody told again.
    const again = await call(b, 'POST', fd('/visits/check-in'), { token: garden.token, body: { ...checkIn, hostId: null, purpose: null } })
    expect(again.status, JSON.stringify(again.body)).toBe(200)
    expect(again.body).toMatchObject({ outcome: 'checked-in', alreadyOnSite: true, host: null, visit: { id: visitId, kioskId: lobby.kioskId } })
    expect((await call(b, 'GET', fd(`/visits/last/${person.personUuid}`), { token: garden.token })).body.visit).toMatchObject({ id: visitId })
    expect((await call(b, 'GET', fd(`/visits/last/${randomUUID()}`), { token: garden.token })).body).toEqual({ visit: null })

    // Staff only: a kiosk's token alone reads no list and ends no visit.
    for (const [method, path, body] of [
      ['GET', '/visits/on-site', undefined],
      ['POST', '/visits/log', {}],
      ['POST', '/visits/export', {}],
      ['POST', `/visits/${visitId}/end`, undefined],
      ['POST', '/visits/forget', { personUuid: person.personUuid }],
    ] as const) {
      const refused = await call(b, method, fd(path), { token: garden.token, body })
      expect(refused.status, `${method} ${path}`).toBe(401)
      expect(refused.body.code).toBe('UNAUTHORIZED')
    }

    const onSite = await call(b, 'GET', fd('/visits/on-site'), { token: garden.token, session: operator })
    expect(onSite.status, JSON.stringify(onSite.body)).toBe(200)
    expect(onSite.body.find((v: { id: string }) => v.id === visitId)).toMatchObject({ kioskName: 'Lobby', hostName: 'Vera Visited' })
    const log = await call(a, 'POST', fd('/visits/log'), { token, session: operator, body: { search: 'walter.visitor', pageNo: 0, pageSize: 10 } })
    expect(log.status, JSON.stringify(log.body)).toBe(200)
    expect(log.body.total).toBe(1)
    expect(log.body.visits.map((v: { id: string }) => v.id)).toEqual([visitId])
    const exported = await call(a, 'POST', fd('/visits/export'), { token, session: operator, body: { hostId: host.id } })
    expect(exported.status, JSON.stringify(exported.body)).toBe(200)
    expect(exported.body.map((v: { id: string }) => v.id)).toEqual([visitId])

    // Begun at the lobby, ended by staff at the garden door's engine.
    const ended = await call(b, 'POST', fd(`/visits/${visitId}/end`), { token: garden.token, session: operator })
    expect(ended.status, JSON.stringify(ended.body)).toBe(200)
    expect(ended.body).toMatchObject({ id: visitId, checkedOutBy: 'staff', kioskName: 'Lobby' })
    expect(ended.body.checkedOutAt).not.toBeNull()
    const twice = await call(a, 'POST', fd(`/visits/${visitId}/end`), { token, session: operator })
    expect(twice.status).toBe(400)
    expect(twice.body.code).toBe('INVALID_INPUT')
    expect((await call(a, 'POST', fd('/visits/no-such-visit/end'), { token, session: operator })).body.code).toBe('NOT_FOUND')
    expect((await call(a, 'GET', fd('/visits/on-site'), { token, session: operator })).body.map((v: { id: string }) => v.id)).not.toContain(visitId)
    // Not on site any more: checking out at a kiosk finds nothing.
    expect((await call(a, 'POST', fd(`/visits/check-out/${person.personUuid}`), { token })).body).toEqual({ visit: null })

    // A returning visitor as last time: the same host and purpose; they check out at the other door.
    const back = await call(b, 'POST', fd('/visits/check-in'), { token: garden.token, body: { ...checkIn, hostId: null, purpose: null, asLastTime: true } })
    expect(back.body).toMatchObject({ outcome: 'checked-in', alreadyOnSite: false, visit: { hostId: host.id, purpose: 'Interview', kioskName: 'Garden door' } })
    const out = await call(a, 'POST', fd(`/visits/check-out/${person.personUuid}`), { token })
    expect(out.status, JSON.stringify(out.body)).toBe(200)
    expect(out.body.visit).toMatchObject({ id: back.body.visit.id, checkedOutBy: 'visitor' })

    // A host removed meanwhile is refused in the visitor's words.
    const gone = (await call(a, 'POST', fd('/hosts'), { token, session: operator, body: { name: 'Gone Soon' } })).body as { id: string }
    expect((await call(a, 'DELETE', fd(`/hosts/${gone.id}`), { token, session: operator })).status).toBe(204)
    const refused = await call(a, 'POST', fd('/visits/check-in'), { token, body: { ...checkIn, person: { ...person, personUuid: randomUUID() }, hostId: gone.id } })
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ code: 'INVALID_INPUT', message: 'That host is not in the directory any more: choose another.' })

    // One person at two doors at once: one open visit.
    const racer = { ...checkIn, person: { ...person, personUuid: randomUUID(), email: 'racer@example.com' } }
    const raced = await Promise.all([call(a, 'POST', fd('/visits/check-in'), { token, body: racer }), call(b, 'POST', fd('/visits/check-in'), { token: garden.token, body: racer })])
    for (const reply of raced) expect(reply.status, JSON.stringify(reply.body)).toBe(200)
    expect(new Set(raced.map((reply) => reply.body.visit.id)).size).toBe(1)
    expect(raced.map((reply) => reply.body.alreadyOnSite).sort()).toEqual([false, true])

    // Forgotten by staff: their visits go.
    const forgot = await call(b, 'POST', fd('/visits/forget'), { token: garden.token, session: operator, body: { userId: person.email.toUpperCase(), personUuid: person.personUuid } })
    expect(forgot.status, JSON.stringify(forgot.body)).toBe(200)
    expect(forgot.body.visitIds).toEqual(expect.arrayContaining([visitId, back.body.visit.id]))
    expect((await call(a, 'GET', fd(`/visits/last/${person.personUuid}`), { token })).body).toEqual({ visit: null })
    expect((await call(a, 'POST', fd('/visits/forget'), { token, session: operator, body: {} })).body.code).toBe('INVALID_INPUT')
  })

  it('makes an invite at one engine, checks it at any kiosk, uses it up with the check-in, then refuses it as used', async () => {
    const token = lobby.token
    const operator = (await call(a, 'POST', fd('/staff/sign-in'), { token, body: { name: OPERATOR, secret: 'operator-secret-1' } })).body.session as string
    const host = (await call(a, 'POST', fd('/hosts'), { token, session: operator, body: { name: 'Ines Inviter' } })).body as { id: string }
    const date = new Date().toISOString().slice(0, 10)
    const invite = { email: 'invited.guest@example.com', hostId: host.id, date, expiresAt: Date.now() + 24 * 3600_000 }

    const byKiosk = await call(a, 'POST', fd('/invites'), { token, body: invite })
    expect(byKiosk.status).toBe(401)
    expect((await call(a, 'GET', fd('/invites'), { token })).status).toBe(401)
    // Who made it is the session's account, never the body's.
    expect((await call(a, 'POST', fd('/invites'), { token, session: operator, body: { ...invite, createdBy: ADMIN } })).status).toBe(400)
    const made = await call(a, 'POST', fd('/invites'), { token, session: operator, body: invite })
    expect(made.status, JSON.stringify(made.body)).toBe(200)
    expect(made.headers['cache-control']).toBe('no-store')
    expect(made.body.invite).toMatchObject({ email: invite.email, hostId: host.id, hostName: 'Ines Inviter', date, createdBy: OPERATOR, state: 'open', usedAt: null })
    expect(made.body.token).toMatch(/^KI1\./)
    const inviteId = made.body.invite.id as string
    const code = made.body.token as string

    const listed = await call(b, 'GET', `${fd('/invites')}?state=open`, { token, session: operator })
    expect(listed.status, JSON.stringify(listed.body)).toBe(200)
    expect(listed.body.invites.map((i: { id: string }) => i.id)).toContain(inviteId)
    expect((await call(b, 'GET', `${fd('/invites')}?state=used`, { token, session: operator })).body.invites.map((i: { id: string }) => i.id)).not.toContain(inviteId)
    expect((await call(b, 'GET', `${fd('/invites')}?state=lost`, { token, session: operator })).body.code).toBe('INVALID_INPUT')

    // Any kiosk checks it: what the form needs, nothing more; checking uses nothing up.
    for (let i = 0; i < 2; i++) {
      const checked = await call(b, 'POST', fd('/invites/check'), { token, body: { token: code } })
      expect(checked.status, JSON.stringify(checked.body)).toBe(200)
      expect(checked.body).toEqual({ status: 'valid', email: invite.email, hostId: host.id, hostName: 'Ines Inviter', date })
    }
    expect((await call(b, 'POST', fd('/invites/check'), { token, body: { token: `${code.slice(0, -2)}xx` } })).body).toEqual({ status: 'refused', reason: 'invalid' })

    // Someone else's code: refused, and not used up.
    const stranger = { personUuid: randomUUID(), email: 'stranger@example.com', firstName: null }
    const other = await call(a, 'POST', fd('/visits/check-in'), { token, body: { person: stranger, hostId: null, purpose: null, inviteToken: code, asLastTime: false } })
    expect(other.body).toEqual({ outcome: 'invite-refused', reason: 'other-email' })

    // The guest (their e-mail in another case) checks in with it: the visit names the invite and its host.
    const guest = { personUuid: randomUUID(), email: 'Invited.Guest@example.com', firstName: 'Gail' }
    const used = await call(b, 'POST', fd('/visits/check-in'), { token, body: { person: guest, hostId: null, purpose: null, inviteToken: code, asLastTime: false } })
    expect(used.status, JSON.stringify(used.body)).toBe(200)
    // The invitation's host, told by the site (the kiosk is given no host to tell).
    expect(used.body).toMatchObject({ outcome: 'checked-in', alreadyOnSite: false, visit: { inviteId, hostId: host.id, kioskName: 'Lobby' }, host: null })
    expect((await call(a, 'POST', fd('/invites/check'), { token, body: { token: code } })).body).toEqual({ status: 'refused', reason: 'used' })
    expect((await call(a, 'GET', `${fd('/invites')}?state=used`, { token, session: operator })).body.invites.find((i: { id: string }) => i.id === inviteId)).toMatchObject({
      state: 'used',
      visitId: used.body.visit.id,
    })

    // Out, and in again with the same code: refused as used, and no visit made.
    expect((await call(a, 'POST', fd(`/visits/check-out/${guest.personUuid}`), { token })).body.visit).toMatchObject({ id: used.body.visit.id })
    const reused = await call(a, 'POST', fd('/visits/check-in'), { token, body: { person: guest, hostId: null, purpose: null, inviteToken: code, asLastTime: false } })
    expect(reused.status, JSON.stringify(reused.body)).toBe(200)
    expect(reused.body).toEqual({ outcome: 'invite-refused', reason: 'used' })
    expect((await call(a, 'GET', fd(`/visits/last/${guest.personUuid}`), { token })).body.visit).toMatchObject({ id: used.body.visit.id })
    // A used invite has nothing to revoke; an open one is revoked, then refused as such.
    expect((await call(b, 'POST', fd(`/invites/${inviteId}/revoke`), { token, session: operator })).body.code).toBe('INVALID_INPUT')
    expect((await call(b, 'POST', fd('/invites/no-such-invite/revoke'), { token, session: operator })).body.code).toBe('NOT_FOUND')
    const second = await call(a, 'POST', fd('/invites'), { token, session: admin, body: { ...invite, hostId: null } })
    expect(second.body.invite.createdBy).toBe(ADMIN)
    const revoked = await call(b, 'POST', fd(`/invites/${second.body.invite.id}/revoke`), { token, session: operator })
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200)
    expect(revoked.body).toMatchObject({ id: second.body.invite.id, state: 'revoked' })
    expect((await call(a, 'POST', fd('/invites/check'), { token, body: { token: second.body.token } })).body).toEqual({ status: 'refused', reason: 'revoked' })
    // Past, or too far ahead, or to a host the directory lacks: refused in staff's words.
    for (const body of [
      { ...invite, expiresAt: Date.now() - 1000 },
      { ...invite, expiresAt: Date.now() + 400 * 24 * 3600_000 },
    ]) {
      expect((await call(a, 'POST', fd('/invites'), { token, session: operator, body })).body.code).toBe('INVALID_INPUT')
    }
    expect((await call(a, 'POST', fd('/invites'), { token, session: operator, body: { ...invite, hostId: 'no-such-host' } })).body.code).toBe('NOT_FOUND')
  })

  it("answers the kiosk's desk alike over the wire (siteDesk) and in-process (ownDesk), visitor and staff calls", async () => {
    const http = new HttpClient({ baseUrl: b.url, name: 'The site', connectTimeoutMs: 2000, requestTimeoutMs: 5000 })
    const tokens = new TokenProvider(async () => {
      const issued = await clientToken(b, lobby.clientId, lobby.clientSecret)
      return { token: issued.body.access_token as string, expiresInSeconds: 3600 }
    })
    const own = ownDesk(async () => ({ frontDesk: a.engine.ctx.frontDesk, close: async () => {} }), () => lobby.kioskId)
    const operator = (await call(a, 'POST', fd('/staff/sign-in'), { token: lobby.token, body: { name: OPERATOR, secret: 'operator-secret-1' } })).body.session as string
    try {
      for (const [label, desk] of [
        ['site', siteDesk(`site|${b.url}`, async () => ({ http, tokens }))],
        ['own', own.desk],
      ] as const) {
        const staff = desk.as({ token: operator, account: OPERATOR })
        const host = await staff.addHost({ name: `Desk Host ${label}`, email: null, webhookUrl: null })
        expect((await desk.listHostNames()).find((h) => h.id === host.id), label).toEqual({ id: host.id, name: host.name })
        expect(await staff.updateHost(host.id, { ...host, name: `Desk Host ${label} 2` })).toMatchObject({ name: `Desk Host ${label} 2` })
        await expect(staff.updateHost('no-such-host', host)).rejects.toMatchObject({ code: 'NOT_FOUND' })

        const email = `desk-${label}@example.com`
        const made = await staff.createInvite({ email, hostId: host.id, date: new Date().toISOString().slice(0, 10), expiresAt: Date.now() + 3600_000 })
        expect(made.invite.createdBy, label).toBe(OPERATOR)
        expect((await staff.listInvites('open')).invites.map((i) => i.id)).toContain(made.invite.id)
        expect((await staff.listInvites('used')).invites.map((i) => i.id)).not.toContain(made.invite.id)
        expect(await desk.checkInvite(made.token)).toMatchObject({ status: 'valid', email })

        const person = { personUuid: randomUUID(), email, firstName: null }
        const outcome = await desk.checkIn({ person, hostId: null, purpose: null, inviteToken: made.token, asLastTime: false })
        // Both reach the engine's front desk, which tells hosts itself: no host for the kiosk to tell.
        expect(outcome, label).toMatchObject({ outcome: 'checked-in', visit: { kioskId: lobby.kioskId, kioskName: 'Lobby', inviteId: made.invite.id, hostId: host.id }, host: null })
        const visitId = outcome.outcome === 'checked-in' ? outcome.visit.id : ''
        expect((await staff.listInvites('used')).invites.map((i) => i.id)).toContain(made.invite.id)
        expect((await staff.onSite()).visits.map((v) => v.id)).toContain(visitId)
        expect((await staff.visitLog({ search: email }, 0, 10)).total).toBe(1)
        // The Overview's counts: this hour's check-in, under its host's name now.
        const counted = await staff.visitOverview({ from: new Date(Date.now() - 3600_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString() })
        expect(counted.busiestHosts, label).toContainEqual({ hostId: host.id, name: `Desk Host ${label} 2`, visits: 1 })
        expect(counted.onSiteNow, label).toBeGreaterThanOrEqual(1)
        // The site refuses a range that ends before it starts (in-process, the services' contract does).
        if (label === 'site') await expect(staff.visitOverview({ from: new Date(Date.now()).toISOString(), to: new Date(Date.now() - 1).toISOString() })).rejects.toMatchObject({ code: 'INVALID_INPUT' })
        expect((await staff.exportVisits({ search: email })).map((v) => v.id)).toEqual([visitId])
        expect((await desk.lastVisitOf(person.personUuid))?.id).toBe(visitId)
        expect(await desk.checkOut(person)).toMatchObject({ id: visitId, checkedOutBy: 'visitor' })
        expect(await desk.checkOut(person)).toBeNull()
        await expect(staff.endVisit(visitId)).rejects.toMatchObject({ code: 'INVALID_INPUT' })
        expect(await staff.forgetPerson({ userId: email })).toMatchObject({ visitIds: [visitId], invites: 1 })
        expect(await desk.lastVisitOf(person.personUuid)).toBeNull()

        const revoked = await staff.revokeInvite((await staff.createInvite({ email, hostId: null, date: new Date().toISOString().slice(0, 10), expiresAt: Date.now() + 3600_000 })).invite.id)
        expect(revoked.state).toBe('revoked')
        expect(await staff.removeHost(host.id)).toBe(true)
        expect(await staff.removeHost(host.id)).toBe(false)
        expect((await staff.listHosts()).map((h) => h.id)).not.toContain(host.id)
      }
    } finally {
      await http.close()
    }
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
      ['POST', fd('/hosts'), { token, session: admin, body: { name: 'Plain http', webhookUrl: 'http://hooks.example.com/' } }],
      ['POST', fd('/hosts'), { token, session: admin, body: { name: '  ' } }],
      ['PUT', fd('/hosts/not.an.id'), { token, session: admin, body: { name: 'Someone' } }],
      ['POST', fd('/visits/check-in'), { token, body: { person: { personUuid: 'x', email: 'a@example.com', firstName: null }, hostId: null, purpose: null, inviteToken: null, asLastTime: false } }],
      ['POST', fd('/visits/check-in'), { token, body: { person: { personUuid: randomUUID(), email: 'a@example.com', firstName: null }, hostId: null, purpose: null, inviteToken: null } }],
      ['POST', fd('/visits/check-out/not-a-uuid'), { token }],
      ['GET', fd('/visits/last/not-a-uuid'), { token }],
      ['POST', fd('/visits/log'), { token, session: admin, body: { pageSize: 1000 } }],
      ['POST', fd('/visits/export'), { token, session: admin, body: { from: 'yesterday' } }],
      ['POST', fd('/visits/forget'), { token, session: admin, body: { personUuid: 'x' } }],
      ['POST', fd('/invites'), { token, session: admin, body: { email: 'a@example.com', hostId: null, date: 'tomorrow', expiresAt: Date.now() + 3600_000 } }],
      ['POST', fd('/invites'), { token, session: admin, body: { email: 'a@example.com', hostId: null, date: '2030-01-01' } }],
      ['GET', `${fd('/invites')}?state=everything`, { token, session: admin }],
      ['POST', fd('/invites/check'), { token, body: { token: 'x'.repeat(300) } }],
    ]
    for (const [method, path, options] of cases) {
      const reply = await call(a, method, path, options)
      expect(reply.status, `${method} ${path} ${JSON.stringify(options)}: ${JSON.stringify(reply.body)}`).toBe(400)
      expect(reply.body).toMatchObject({ status: 400, code: 'INVALID_INPUT', path: path.split('?')[0] })
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

describe("a site's retention, applied by the engine on its own", () => {
  it('removes visits older than the look says, and invites ended a month ago, while keeping the rest', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'kiosk-frontdesk-retention-'))
    let skew = 0
    const DAY = 24 * 3600_000
    // No HTTP: the engine's own timer is what is tested.
    const engine = await createEngine({ dataDir: folder, plugins: [], frontDesk: { now: () => Date.now() + skew }, retention: { firstMs: 50, everyMs: 100 } })
    try {
      const desk = engine.ctx.frontDesk
      const visitor = (name: string) => ({ person: { personUuid: randomUUID(), email: `${name}@example.com`, firstName: null }, hostId: null, purpose: null, inviteToken: null, asLastTime: false, kioskId: null })
      // Forty days ago: a visit, and an invite for that day.
      skew = -40 * DAY
      const old = visitor('old')
      const oldVisit = await desk.checkIn(old)
      expect(oldVisit.outcome).toBe('checked-in')
      await desk.checkOut(old.person.personUuid)
      const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10)
      const oldInvite = await desk.createInvite({ email: 'old-guest@example.com', hostId: null, date: dayOf(Date.now() + skew), expiresAt: Date.now() + skew + DAY, createdBy: 'test' })
      skew = 0
      const recent = visitor('recent')
      await desk.checkIn(recent)
      const openInvite = await desk.createInvite({ email: 'new-guest@example.com', hostId: null, date: dayOf(Date.now()), expiresAt: Date.now() + DAY, createdBy: 'test' })

      // No retention set: visits are kept, however old (the ended invite goes all the same).
      const invitesNow = async () => (await desk.listInvites()).invites.map((invite) => invite.id)
      await until(async () => !(await invitesNow()).includes(oldInvite.invite.id), 'the ended invite removed')
      expect(await invitesNow()).toContain(openInvite.invite.id)
      expect(await desk.lastVisitOf(old.person.personUuid)).not.toBeNull()

      await desk.setLook({ visitorRetentionDays: 30 })
      await until(async () => (await desk.lastVisitOf(old.person.personUuid)) === null, 'the old visit removed')
      expect(await desk.lastVisitOf(recent.person.personUuid)).not.toBeNull()
    } finally {
      await engine.close()
      rmSync(folder, { recursive: true, force: true })
    }
  })
})

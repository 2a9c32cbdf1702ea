import { randomUUID } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { request, type Dispatcher } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeTemplate } from '../../electron/engine/bio/template-codec'
import { loadFacePlugins } from '../../electron/engine/face'
import { HUMAN_FACERES } from '../../electron/engine/face/specs'
import { frontDeskRoutes, STAFF_SESSION_HEADER } from '../../electron/shared/frontdesk-api'
import { prng, unitVector } from '../bench/lib/seed'
import { routesOf } from '../fuzz/route-table'
import { startTestEngine, TEST_CLIENT, TEST_TENANT, type TestEngine } from '../support/engine'
import { fd, pair, type PairedKiosk } from '../support/paired-kiosk'

/**
 * The engine's logs (JSON lines, <data>/logs) name requests by id, route pattern, status and
 * kiosk, never by what a person gave: every route is called with recognisable values in its path,
 * query, body and headers, and the front desk's workflows are run with them; no log line holds one.
 */
const TYPE = `Face:${HUMAN_FACERES.name}`
const CANARY = {
  email: 'zelda.canary.4917@example.com',
  name: 'Zeldacanary',
  staff: 'Ottoline Canarystaff',
  secret: 'canary-pin-4917-secret',
  host: 'Hermione Canaryhost',
  hostEmail: 'hermione.canaryhost@example.com',
  kiosk: 'Canarydoor Lobby',
  context: 'canary-context-4917',
  purpose: 'Canarypurpose meeting',
}
const random = prng(4917)
const template = encodeTemplate({ plugin: HUMAN_FACERES.name, modelVersion: HUMAN_FACERES.modelVersion, quality: 0.9, vector: unitVector(HUMAN_FACERES.dimensions, random) }).toString('base64')

interface Reply {
  status: number
  body: any
  requestId: string | undefined
}

async function send(url: string, method: string, path: string, options: { token?: string; session?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers }
  if (options.token) headers.authorization = `Bearer ${options.token}`
  if (options.session) headers[STAFF_SESSION_HEADER] = options.session
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  const reply = await request(`${url}${path}`, { method: method as Dispatcher.HttpMethod, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) })
  const text = await reply.body.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // not JSON
  }
  return { status: reply.statusCode, body, requestId: reply.headers['x-request-id'] as string | undefined }
}

describe('the engine’s logs', () => {
  let t: TestEngine
  let kiosk: PairedKiosk
  let adminToken: string
  let logText: () => string
  let lines: () => Array<Record<string, unknown>>

  beforeAll(async () => {
    t = await startTestEngine(await loadFacePlugins({ threads: 1, log: () => {} }, [HUMAN_FACERES]), undefined, { tenant: TEST_TENANT })
    const dir = t.engine.ctx.log.dir
    logText = () =>
      readdirSync(dir)
        .map((name) => readFileSync(join(dir, name), 'utf8'))
        .join('\n')
    lines = () =>
      readFileSync(join(dir, 'engine.log'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>)
    kiosk = await pair(t, CANARY.kiosk)
    adminToken = await t.token()
  })
  afterAll(() => t?.close())

  it('are JSON lines: each request with its id (the caller’s when well-formed, sent back), the kiosk, the route pattern, status and time', async () => {
    const given = `kiosk-${randomUUID()}`
    const named = await send(t.url, 'GET', fd('/hosts/names'), { token: kiosk.token, headers: { 'x-request-id': given } })
    expect(named.status).toBe(200)
    expect(named.requestId).toBe(given)
    // A value that is no id (an e-mail here) is not taken: the engine makes one.
    const hostile = await send(t.url, 'GET', fd('/hosts/names'), { token: kiosk.token, headers: { 'x-request-id': CANARY.email } })
    expect(hostile.requestId).toMatch(/^[0-9a-f-]{36}$/)
    const person = await send(t.url, 'GET', `/v2/gmiserver/person/${encodeURIComponent(CANARY.email)}`, { token: adminToken })
    expect(person.status).toBeGreaterThanOrEqual(400)

    const logged = lines()
    expect(logged.find((line) => line.reqId === given)).toMatchObject({ level: 30, msg: 'request', kiosk: kiosk.kioskId, method: 'GET', route: fd('/hosts/names'), status: 200, ms: expect.any(Number), time: expect.any(String) })
    expect(logged.find((line) => line.reqId === hostile.requestId)).toMatchObject({ route: fd('/hosts/names'), status: 200 })
    // The route as registered, not the path with its value.
    expect(logged.find((line) => line.reqId === person.requestId)).toMatchObject({ route: '/v2/gmiserver/person/:uuid', status: person.status, client: TEST_CLIENT.id })
  })

  it('hold no e-mail, name, template, token or secret, after every route is called with them and the front desk’s workflows run', async () => {
    // The workflows, with the values a person and staff would give.
    const created = await send(t.url, 'POST', `/v2/gmiserver/tenant/${TEST_TENANT}/person`, { token: adminToken, body: { userId: CANARY.email } })
    expect(created.status, JSON.stringify(created.body)).toBeLessThan(300)
    const uuid = created.body.uuid as string
    expect((await send(t.url, 'POST', `/bioengine/persons/${uuid}/biometrics`, { token: adminToken, body: { templateType: TYPE, templateContext: CANARY.context, template } })).status).toBe(201)
    expect((await send(t.url, 'POST', '/bioengine/identify', { token: adminToken, body: { identifyInputs: [{ templateType: TYPE, template }] } })).status).toBe(200)
    expect((await send(t.url, 'POST', `/bioengine/persons/${uuid}/verify`, { token: adminToken, body: { verifyInputs: [{ templateType: TYPE, template }] } })).status).toBe(200)
    const admin = await send(t.url, 'POST', fd('/staff/first-admin'), { token: kiosk.token, body: { name: CANARY.staff, secret: CANARY.secret } })
    expect(admin.status, JSON.stringify(admin.body)).toBe(200)
    const session = admin.body.session as string
    expect((await send(t.url, 'POST', fd('/staff/sign-in'), { token: kiosk.token, body: { name: CANARY.staff, secret: `${CANARY.secret}-wrong` } })).status).toBe(401)
    const host = await send(t.url, 'POST', fd('/hosts'), { token: kiosk.token, session, body: { name: CANARY.host, email: CANARY.hostEmail } })
    expect(host.status, JSON.stringify(host.body)).toBe(200)
    const visitor = { personUuid: uuid, email: CANARY.email, firstName: CANARY.name }
    const visit = await send(t.url, 'POST', fd('/visits/check-in'), { token: kiosk.token, body: { person: visitor, hostId: host.body.id, purpose: CANARY.purpose, inviteToken: null, asLastTime: false } })
    expect(visit.status, JSON.stringify(visit.body)).toBe(200)
    expect((await send(t.url, 'POST', fd(`/visits/check-out/${uuid}`), { token: kiosk.token })).status).toBe(200)
    const listed = await send(t.url, 'POST', fd('/watchlist'), { token: kiosk.token, session, body: { personUuid: uuid, email: CANARY.email, reason: `${CANARY.name} came with a forged pass` } })
    expect(listed.status, JSON.stringify(listed.body)).toBe(200)

    // Every route, with the values in its path, query, body and headers: most are refused, and a refusal is logged too.
    const secrets = [adminToken, kiosk.token, session, TEST_CLIENT.secret, CANARY.secret]
    // All but the event stream, which stays open.
    for (const route of routesOf(t.engine).filter((r) => r.url !== fd(frontDeskRoutes.events.path))) {
      const path = route.url.replace(/:(\w+)/g, () => encodeURIComponent(CANARY.email))
      const query = `?userId=${encodeURIComponent(CANARY.email)}&name=${encodeURIComponent(CANARY.name)}`
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : { userId: CANARY.email, name: CANARY.staff, secret: CANARY.secret, firstName: CANARY.name, template, templateContext: CANARY.context }
      const reply = await send(t.url, route.method, `${path}${query}`, { token: route.auth === 'none' ? undefined : kiosk.token, session, body, headers: { 'x-request-id': CANARY.email, 'user-agent': CANARY.name } })
      expect(reply.status, `${route.method} ${route.url}`).toBeLessThan(500)
    }

    const text = logText()
    expect(text.length).toBeGreaterThan(0)
    for (const value of [...Object.values(CANARY), template.slice(40, 80), ...secrets]) {
      expect(text.includes(value), `a log line holds "${value.slice(0, 24)}…"`).toBe(false)
    }
  })
})

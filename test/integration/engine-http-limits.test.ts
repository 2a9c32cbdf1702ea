import { connect, type Socket } from 'node:net'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonShapeProblem, MAX_JSON_DEPTH, MAX_JSON_VALUES } from '../../electron/engine/http/json-body'
import { screenFacesBodyLimit } from '../../electron/engine/routes/bioengine'
import { PAIR_BODY_LIMIT } from '../../electron/engine/routes/frontdesk-pairing'
import { SYNC_PUSH_BODY_LIMIT } from '../../electron/engine/routes/frontdesk-sync'
import { FRONTDESK_PREFIX } from '../../electron/shared/frontdesk-api'
import { basic, startTestEngine, TEST_CLIENT, TEST_TENANT, type TestEngine } from '../support/engine'
import { until } from '../support/until'

const MB = 1024 * 1024

/** A raw connection, to send requests the way a slow or hostile caller does. */
function rawSocket(url: string): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname)
    let data = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => (data += chunk))
    const closed = new Promise<void>((done) => socket.on('close', () => done()))
    socket.once('connect', () => resolve({ socket, received: () => data, closed }))
    socket.once('error', reject)
  })
}

describe('engine HTTP layer under hostile input', () => {
  let t: TestEngine
  let token: string
  beforeAll(async () => {
    t = await startTestEngine([], undefined, { limits: { requestTimeoutMs: 1500, headersTimeoutMs: 1000, maxInFlightPerCaller: 2, maxConnections: 40, tarpitMs: 600_000, maxTarpitted: 1 } })
    token = await t.token()
  })
  afterAll(() => t.close())

  it('refuses an unauthenticated 32 MB body with 401 before reading it', async () => {
    for (const path of ['/bioengine/identify', `/v2/gmiserver/tenant/${TEST_TENANT}/person`]) {
      const { socket, received, closed } = await rawSocket(t.url)
      socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${32 * MB - 1}\r\n\r\n`)
      socket.write('['.repeat(64 * 1024)) // the first 64 KB of a deeply nested array; the rest never comes
      await until(() => received().includes('\r\n\r\n'), 20)
      expect(received()).toMatch(/^HTTP\/1\.1 401 /)
      expect(received()).toMatch(/\r\nconnection: close\r\n/i)
      await closed // closed by the engine: the rest of the body is never read
    }
  })

  it('closes the connection after refusing a multipart body part-way, so its rest is not read as the next request', async () => {
    const { socket, received, closed } = await rawSocket(t.url)
    const part = '--b\r\nContent-Disposition: form-data; name="Image3"; filename="x.jpg"\r\nContent-Type: image/jpeg\r\n\r\n'
    socket.write(`POST /bioengine/match HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: ${MB}\r\n\r\n${part}`)
    socket.write('GET /v2/gmiserver/person HTTP/1.1\r\n\r\n'.padEnd(64 * 1024, 'x'))
    await closed
    expect(received()).toMatch(/^HTTP\/1\.1 400 /)
    expect(received()).toMatch(/Unexpected file field Image3/)
    expect(received()).toMatch(/\r\nconnection: close\r\n/i)
  })

  it('sizes body limits to the call: a few KB for person-server calls, 32 MB where samples go', async () => {
    const big = JSON.stringify({ userId: `${'a'.repeat(20 * 1024)}@example.com` })
    const person = await t.call('POST', `/v2/gmiserver/tenant/${TEST_TENANT}/person`, big)
    expect(person.status).toBe(413)
    expect(person.body.message).toMatch(/16 KB/)
    const identify = await t.call('POST', '/bioengine/identify', JSON.stringify({ identifyInputs: [{ templateType: 'Face:Nope', template: 'A'.repeat(60_000) }], pad: 'x'.repeat(MB) }))
    expect(identify.status).toBe(200) // a 1 MB body is fine where samples go
    expect(identify.body.allIdentifyResults[0].identifyResults[0].errorCode).toBeDefined()
  })

  it('refuses deep nesting and bodies of millions of values before parsing them', async () => {
    const deep = await t.call('POST', '/bioengine/identify', `{"identifyInputs":${'['.repeat(100_000)}${']'.repeat(100_000)}}`)
    expect(deep.status).toBe(400)
    expect(deep.body.message).toMatch(/nested deeper than/)
    const wide = await t.call('POST', '/bioengine/identify', `{"identifyInputs":[${Array(1_000_000).fill('{}').join(',')}]}`)
    expect(wide.status).toBe(400)
    expect(wide.body.message).toMatch(/more than 10000 values/)
    const bigString = await t.call('POST', '/bioengine/identify', JSON.stringify({ identifyInputs: [{ templateType: 'Face:Nope', sample: 'A'.repeat(4 * MB) }] }))
    expect(bigString.status).toBe(200) // long strings are not structure
  })

  it('counts structure outside strings only, escapes included', () => {
    expect(jsonShapeProblem(`"${'['.repeat(100)}"`)).toBeNull()
    expect(jsonShapeProblem(`["\\"${'['.repeat(100)}"]`)).toBeNull()
    expect(jsonShapeProblem(`["\\\\"${'['.repeat(MAX_JSON_DEPTH)}`)).toMatch(/nested/)
    expect(jsonShapeProblem('['.repeat(MAX_JSON_DEPTH))).toBeNull()
    expect(jsonShapeProblem(`[${Array(MAX_JSON_VALUES).fill('1').join(',')}]`)).toBeNull()
    expect(jsonShapeProblem(`[${Array(MAX_JSON_VALUES + 1).fill('1').join(',')}]`)).toMatch(/values/)
  })

  it('answers sort and notEmpty naming an Object prototype key with 400, not 500', async () => {
    for (const key of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
      for (const path of ['/v2/gmiserver/person', `/v2/gmiserver/tenant/${TEST_TENANT}/person`]) {
        const sorted = await t.call('GET', `${path}?sort=${key}`)
        expect(sorted.status, `${path} sort=${key}`).toBe(400)
        const notEmpty = await t.call('GET', `${path}?notEmpty=${key}`)
        expect(notEmpty.status, `${path} notEmpty=${key}`).toBe(400)
      }
    }
    expect((await t.call('GET', '/v2/gmiserver/person?sort=-created&notEmpty=tenants')).status).toBe(200)
  })

  it('answers a repeated scope or grant_type with 400, in the query or the form body', async () => {
    const auth = { authorization: basic(TEST_CLIENT.id, TEST_CLIENT.secret) }
    const inQuery = await request(`${t.url}/v2/oauth2/oauth/token?grant_type=client_credentials&scope=SCOPE_TENANT_ADMIN&scope=SCOPE_TENANT_ADMIN`, { method: 'POST', headers: auth })
    expect(inQuery.statusCode).toBe(400)
    expect(await inQuery.body.json()).toMatchObject({ error: 'invalid_request', error_description: expect.stringMatching(/scope/) })
    const inForm = await request(`${t.url}/v2/oauth2/oauth/token`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&grant_type=client_credentials',
    })
    expect(inForm.statusCode).toBe(400)
    await inForm.body.dump()
  })

  it('answers token calls from a caller in back-off slowly, one at a time; the rest at once, closing their connections', async () => {
    const peer = new Agent({ localAddress: '127.0.0.50' })
    const tokenCall = () =>
      request(`${t.url}/v2/oauth2/oauth/token?grant_type=client_credentials`, { method: 'POST', dispatcher: peer, headers: { authorization: basic(TEST_CLIENT.id, 'wrong') } })
    for (let i = 0; i < 3; i++) expect((await tokenCall()).statusCode).toBe(401) // the free failures
    // Two paused calls at once: one waits in the tarpit, the other is refused at once, its connection closed.
    const calls = [tokenCall(), tokenCall()]
    const first = await Promise.race(calls.map((call, i) => call.then((reply) => ({ reply, i }))))
    expect(first.reply.statusCode).toBe(429)
    expect(first.reply.headers.connection).toBe('close')
    expect(await first.reply.body.json()).toMatchObject({ error: 'slow_down' })
    const other = calls[1 - first.i]!
    const pending = await Promise.race([other.then(() => false, () => false), new Promise<boolean>((r) => setImmediate(() => r(true)))])
    expect(pending).toBe(true)
    await peer.destroy()
    await other.catch(() => {})
  })

  it('cuts off a request whose body trickles in, and keeps serving others meanwhile', async () => {
    const { socket, received, closed } = await rawSocket(t.url)
    socket.write(`POST /v2/gmiserver/tenant/${TEST_TENANT}/person HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`)
    const trickle = setInterval(() => socket.writable && socket.write(' '), 100)
    expect((await t.call('GET', `/v2/gmiserver/tenant/${TEST_TENANT}`)).status).toBe(200)
    await closed
    clearInterval(trickle)
    expect(received()).toMatch(/^HTTP\/1\.1 408 |^$/)
  })

  it('cuts off a connection whose headers never finish', async () => {
    const { socket, closed } = await rawSocket(t.url)
    socket.write('GET /bioengine/template-types HTTP/1.1\r\nHost: x\r\n')
    const trickle = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 100)
    await closed
    clearInterval(trickle)
  })

  it('answers 503 with Retry-After past the requests one caller may have in flight, and admits it again after', async () => {
    const held = await Promise.all(
      [1, 2].map(async () => {
        const raw = await rawSocket(t.url)
        raw.socket.write(`PUT /v1/tenant/${TEST_TENANT} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{`)
        return raw
      }),
    )
    // Both are admitted once their headers are read; poll until the third is refused.
    let third = await t.call('GET', `/v2/gmiserver/tenant/${TEST_TENANT}`)
    while (third.status === 200) third = await t.call('GET', `/v2/gmiserver/tenant/${TEST_TENANT}`)
    expect(third.status).toBe(503)
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0)
    expect(third.body.message).toMatch(/in progress/)
    for (const raw of held) raw.socket.destroy()
    await Promise.all(held.map((raw) => raw.closed))
    let after = await t.call('GET', `/v2/gmiserver/tenant/${TEST_TENANT}`)
    while (after.status === 503) after = await t.call('GET', `/v2/gmiserver/tenant/${TEST_TENANT}`)
    expect(after.status).toBe(200)
  })

  it('closes connections beyond the cap as they arrive', async () => {
    const open = await Promise.all(Array.from({ length: 40 }, () => rawSocket(t.url)))
    const extra = await rawSocket(t.url)
    await extra.closed
    expect(extra.received()).toBe('')
    for (const raw of open) raw.socket.destroy()
  })

  it('declares who may call every route, its schemas, and a body limit', () => {
    expect(t.engine.routes.length).toBeGreaterThanOrEqual(30)
    for (const route of t.engine.routes) {
      const where = `${route.method} ${route.url}`
      if (route.url.includes('/:')) expect(route.schema.params, where).toBeDefined()
      // The log zip, the front desk's event stream and the metrics are no JSON.
      if (route.method === 'GET' && !route.url.endsWith('/logs') && route.url !== `${FRONTDESK_PREFIX}/events` && route.url !== '/metrics') expect(route.schema.response?.[200], where).toBeDefined()
      // Samples are large; the site's look carries a logo (a PNG of at most 512 KB, in base64); a pairing
      // may bring a kiosk's records, read only for a good code named in its header (engine-frontdesk.test.ts); a kiosk's push
      // carries up to PUSH_MAX_MUTATIONS acts (site-sync.test.ts); screening faces, samples and a gallery of
      // templates (engine-screen-faces.test.ts); the rest is small.
      const largest = route.schema.body && /identify|verify|biometrics$|^\/bioengine\/liveness$/.test(route.url)
        ? 32 * MB
        : route.url === '/bioengine/screen-faces'
          ? screenFacesBodyLimit(t.engine.ctx.bio.plugins)
          : route.url === `${FRONTDESK_PREFIX}/look`
            ? MB
            : route.url === `${FRONTDESK_PREFIX}/pair`
              ? PAIR_BODY_LIMIT
              : route.url === `${FRONTDESK_PREFIX}/sync/push`
                ? SYNC_PUSH_BODY_LIMIT
                : 16 * 1024
      expect(route.bodyLimit, where).toBeLessThanOrEqual(largest)
      // The metrics check their caller themselves (this machine, or their own token: engine-metrics.test.ts).
      const open = route.url.endsWith('/match') || route.url.startsWith('/health/') || route.url === '/metrics'
      // The front desk's routes declare theirs in the shared table (engine-frontdesk.test.ts checks each).
      if (route.url.startsWith(`${FRONTDESK_PREFIX}/`)) continue
      expect(route.auth, where).toBe(open ? 'none' : route.url.includes('oauth') ? 'basic' : route.url.startsWith('/bioengine') ? 'bearer' : 'tenant-admin')
    }
  })
})

import { createHmac, randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request, type Dispatcher } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkWebhook, WEBHOOK_HEADERS } from '../../electron/records/frontdesk/notices/signature'
import { SCOPE_TENANT_ADMIN } from '../../electron/shared/api-requests'
import { FRONTDESK_PREFIX, SCOPE_FRONTDESK_KIOSK, STAFF_SESSION_HEADER } from '../../electron/shared/frontdesk-api'
import type { HostNotice, HostNoticeQueue } from '../../electron/shared/host-notices'
import { startBackend, type BackendHandle } from '../support/backends'
import { createEngine, type Engine } from '../../electron/engine/server'
import { HttpClient } from '../../electron/services/clients/http-client'
import { TokenProvider } from '../../electron/services/clients/token-provider'
import type { Call } from '../../electron/services/dispatch'
import { openLocalFrontDesk } from '../../electron/records/frontdesk/local'
import { hostNotices } from '../../electron/services/features/host-notices'
import { ownDesk } from '../../electron/services/front-desk/own-desk'
import { siteDesk } from '../../electron/services/site/site-desk'
import { basic, TEST_TENANT } from '../support/engine'
import { readMail, startSmtp, type LocalSmtp } from '../support/notice-servers'
import { replyOf, type SiteReply } from '../support/site'
import { eventually } from '../support/until'

/**
 * The site tells hosts of arrivals: two engines on one PostgreSQL database, as a site's, a real
 * SMTP server (smtp-server) and a real webhook receiver (node:http) on 127.0.0.1. The check-in
 * queues the notices in its transaction; whichever engine claims a notice sends it, once.
 */

const fd = (path: string) => `${FRONTDESK_PREFIX}${path}`
/**
 * A claim far shorter than a slow receiver takes: only the renewal keeps a second engine from sending
 * it too. Renewed every third of it, so a busy machine may stall this process for up to 1 s without a
 * claim running out (at 300 ms, a CI machine's stall let a second engine take a notice over).
 */
const CLAIM_MS = 1500
const SLOW_RECEIVER_MS = 3 * CLAIM_MS

interface TestEngine {
  engine: Engine
  url: string
}

/** One engine of the site in this process, with a short claim and a quick poll and backoff. */
async function startEngine(dataDir: string, databaseUrl: string | undefined): Promise<TestEngine> {
  const engine = await createEngine({
    dataDir,
    plugins: [],
    databaseUrl,
    tenant: TEST_TENANT,
    notices: { claimMs: CLAIM_MS, pollMs: 100, backoff: { baseMs: 20, capMs: 200 }, stopGraceMs: 2000 },
  })
  await engine.ctx.store.tenants.upsert(TEST_TENANT, { name: 'Front desk', maxIdentities: 0, defaultPostBack: null })
  await engine.app.listen({ host: '127.0.0.1', port: 0 })
  const address = engine.app.server.address()
  return { engine, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` }
}

async function call(engine: TestEngine, method: string, path: string, options: { token?: string; session?: string; body?: unknown } = {}): Promise<SiteReply> {
  const headers: Record<string, string> = {}
  if (options.token) headers.authorization = `Bearer ${options.token}`
  if (options.session) headers[STAFF_SESSION_HEADER] = options.session
  const body = options.body === undefined ? undefined : JSON.stringify(options.body)
  if (body !== undefined) headers['content-type'] = 'application/json'
  return replyOf(await request(`${engine.url}${path}`, { method: method as Dispatcher.HttpMethod, headers, body }))
}

interface Post {
  headers: IncomingHttpHeaders
  body: string
}

/** A webhook receiver that takes `delayMs` to answer each POST, with the statuses it is given (then 204). */
async function startSlowReceiver(): Promise<{ url: string; posts: Post[]; delayMs: number; statuses: number[]; close(): Promise<void> }> {
  const state = { url: '', posts: [] as Post[], delayMs: 0, statuses: [] as number[], close: async () => {} }
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      state.posts.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
      const status = state.statuses.shift() ?? 204
      setTimeout(() => {
        res.statusCode = status
        res.end()
      }, state.delayMs)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/arrivals`
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return state
}

describe("the site's host notices on PostgreSQL (two engines)", () => {
  let handle: BackendHandle
  const engines: TestEngine[] = []
  const folders: string[] = []
  let a: TestEngine
  let b: TestEngine
  let smtp: LocalSmtp
  let receiver: Awaited<ReturnType<typeof startSlowReceiver>>
  const templateKeyBefore = process.env.ENGINE_TEMPLATE_KEY
  const secret = `whsec-${randomBytes(18).toString('base64url')}`
  const smtpPassword = `smtp-${randomBytes(12).toString('base64url')}`

  let kioskToken: string
  let kioskId: string
  let admin: string
  let operator: string

  beforeAll(async () => {
    // The site's engines share one template key: the notice secrets one engine sealed, another opens.
    process.env.ENGINE_TEMPLATE_KEY = randomBytes(32).toString('base64')
    handle = await startBackend('postgres')
    smtp = await startSmtp()
    receiver = await startSlowReceiver()
    const start = async () => {
      const folder = mkdtempSync(join(tmpdir(), 'kiosk-notices-site-'))
      folders.push(folder)
      const engine = await startEngine(folder, handle.options.databaseUrl)
      engines.push(engine)
      return engine
    }
    a = await start()
    b = await start()
  })
  afterAll(async () => {
    for (const { engine } of engines) await engine.close().catch(() => {})
    await handle?.close()
    await smtp?.close()
    await receiver?.close()
    for (const folder of folders) rmSync(folder, { recursive: true, force: true })
    if (templateKeyBefore === undefined) delete process.env.ENGINE_TEMPLATE_KEY
    else process.env.ENGINE_TEMPLATE_KEY = templateKeyBefore
  })

  const notices = async (): Promise<HostNoticeQueue> => (await call(a, 'GET', fd('/host-notices'), { token: kioskToken, session: operator })).body as HostNoticeQueue
  const noticesOf = async (visitId: string): Promise<HostNotice[]> => (await notices()).items.filter((n) => n.visitId === visitId)
  const checkIn = (engine: TestEngine, hostId: string, person = { personUuid: randomUUID(), email: `v-${randomBytes(4).toString('hex')}@example.com`, firstName: 'Walter' }) =>
    call(engine, 'POST', fd('/visits/check-in'), { token: kioskToken, body: { person, hostId, purpose: 'Interview', inviteToken: null, asLastTime: false } })
  const addHost = async (body: { name: string; email?: string; webhookUrl?: string }) => (await call(a, 'POST', fd('/hosts'), { token: kioskToken, session: operator, body })).body as { id: string }
  const postsOf = (visitId: string) => receiver.posts.filter((p) => (JSON.parse(p.body) as { visitId: string }).visitId === visitId)

  it('pairs a kiosk, keeps the secrets sealed and write-only, and takes the SMTP settings', async () => {
    const code = (await a.engine.ctx.frontDesk.createPairingCode('test')).code
    const paired = await call(a, 'POST', fd('/pair'), { body: { code, name: 'Lobby' } })
    expect(paired.status, JSON.stringify(paired.body)).toBe(200)
    kioskId = paired.body.kioskId
    const token = await request(`${a.url}/v2/oauth2/oauth/token?grant_type=client_credentials&scope=${encodeURIComponent(`${SCOPE_TENANT_ADMIN} ${SCOPE_FRONTDESK_KIOSK}`)}`, {
      method: 'POST',
      headers: { authorization: basic(paired.body.clientId, paired.body.clientSecret), 'content-type': 'application/x-www-form-urlencoded' },
    })
    kioskToken = ((await token.body.json()) as { access_token: string }).access_token
    admin = (await call(a, 'POST', fd('/staff/first-admin'), { token: kioskToken, body: { name: 'Ada Admin', secret: 'admin-secret-1' } })).body.session
    await call(a, 'POST', fd('/accounts'), { token: kioskToken, session: admin, body: { name: 'Olga Operator', role: 'operator', secret: 'operator-secret-1' } })
    operator = (await call(b, 'POST', fd('/staff/sign-in'), { token: kioskToken, body: { name: 'Olga Operator', secret: 'operator-secret-1' } })).body.session

    // Administrators only.
    expect((await call(a, 'GET', fd('/notification-settings'), { token: kioskToken, session: operator })).status).toBe(403)
    expect((await call(a, 'PUT', fd('/notification-settings/secrets'), { token: kioskToken, body: { webhookSecret: secret } })).status).toBe(401)

    const stored = await call(a, 'PUT', fd('/notification-settings/secrets'), { token: kioskToken, session: admin, body: { webhookSecret: secret, smtpPassword } })
    expect(stored.status, JSON.stringify(stored.body)).toBe(200)
    expect(stored.body).toEqual({ smtpPassword: true, webhookSecret: true })
    // The password is not needed by this SMTP server (no login): cleared, the other left as it was.
    expect((await call(b, 'PUT', fd('/notification-settings/secrets'), { token: kioskToken, session: admin, body: { smtpPassword: null } })).body).toEqual({ smtpPassword: false, webhookSecret: true })
    const smtpSettings = { host: '127.0.0.1', port: smtp.port, security: 'none', from: 'front-desk@example.com', user: null }
    const saved = await call(b, 'PUT', fd('/notification-settings'), { token: kioskToken, session: admin, body: { smtp: smtpSettings } })
    expect(saved.status, JSON.stringify(saved.body)).toBe(200)
    const read = await call(a, 'GET', fd('/notification-settings'), { token: kioskToken, session: admin })
    expect(read.body).toEqual({ smtp: smtpSettings, secrets: { smtpPassword: false, webhookSecret: true } })

    // Never given back, never plain in the database, never in the site's trail.
    for (const reply of [stored, saved, read]) expect(JSON.stringify(reply.body)).not.toContain(secret)
    const row = await a.engine.ctx.store.db.get<{ webhook_secret: Buffer }>('SELECT webhook_secret FROM notice_settings WHERE id = 1')
    expect(row!.webhook_secret.includes(Buffer.from(secret))).toBe(false)
    const trail = await a.engine.ctx.store.db.all<{ detail: string }>("SELECT detail FROM site_audit WHERE action IN ('credentials-change', 'settings-change')")
    expect(trail.map((e) => e.detail).join('\n')).not.toContain(secret)
    expect(trail.map((e) => e.detail)).toContain('setHostNoticeSecrets: SMTP password stored; webhook signing secret stored')
  })

  it('sends one notice per arrival and channel when two kiosks check the same visitors in through both engines at once', async () => {
    const host = await addHost({ name: 'Vera Visited', email: 'vera@example.com', webhookUrl: receiver.url })
    const persons = Array.from({ length: 8 }, (_, i) => ({ personUuid: randomUUID(), email: `racer-${i}-${randomBytes(3).toString('hex')}@example.com`, firstName: `Racer${i}` }))
    const replies = await Promise.all(persons.flatMap((person) => [checkIn(a, host.id, person), checkIn(b, host.id, person)]))
    for (const reply of replies) {
      expect(reply.status, JSON.stringify(reply.body)).toBe(200)
      // Nobody for the kiosk to tell: the site does.
      expect(reply.body.host).toBeNull()
      // Both channels are set up on the site: the new visit's host will hear; the one given back was told already.
      expect(reply.body.hostNotified).toBe(!reply.body.alreadyOnSite)
    }
    const visitIds = [...new Set(replies.map((r) => r.body.visit.id as string))]
    expect(visitIds).toHaveLength(persons.length)

    await eventually('every notice delivered', async () => {
      const queue = await notices()
      const ours = queue.items.filter((n) => visitIds.includes(n.visitId))
      return ours.length === 2 * persons.length && ours.every((n) => n.state === 'delivered')
    })
    // Past several polls of both engines: nothing sent twice.
    await new Promise((resolve) => setTimeout(resolve, 2 * CLAIM_MS))
    for (const visitId of visitIds) {
      expect(postsOf(visitId)).toHaveLength(1)
      expect((await noticesOf(visitId)).map((n) => [n.channel, n.attempts]).sort()).toEqual([
        ['email', 1],
        ['webhook', 1],
      ])
    }
    const mails = smtp.mails.filter((m) => m.to.includes('vera@example.com'))
    expect(mails).toHaveLength(persons.length)
    const subjects = mails.map((m) => readMail(m.raw).subject).sort()
    expect(subjects).toEqual(persons.map((p) => `${p.firstName} has arrived`).sort())
    // Delivered: the visitor's name is no longer kept in the queue.
    const payloads = await a.engine.ctx.store.db.all<{ payload: Buffer | null }>(`SELECT payload FROM jobs WHERE kind = 'host-notice' AND subject IN (${visitIds.map(() => '?').join(', ')})`, visitIds)
    expect(payloads).toHaveLength(2 * persons.length)
    expect(payloads.every((p) => p.payload === null)).toBe(true)
  })

  it('signs the delivery id: the receiver checks the header with the body and the timestamp', async () => {
    const host = await addHost({ name: 'Wendy Webhook', webhookUrl: receiver.url })
    const visitId = (await checkIn(b, host.id)).body.visit.id as string
    await eventually('delivered', async () => (await noticesOf(visitId))[0]?.state === 'delivered')
    const [post] = postsOf(visitId)
    const [notice] = await noticesOf(visitId)
    const headers = { timestamp: post!.headers[WEBHOOK_HEADERS.timestamp] as string, signature: post!.headers[WEBHOOK_HEADERS.signature] as string, delivery: post!.headers[WEBHOOK_HEADERS.delivery] as string }
    expect(headers.delivery).toBe(notice!.id)
    expect(JSON.parse(post!.body)).toMatchObject({ type: 'visitor.arrived', id: notice!.id, visitId, host: { id: host.id, name: 'Wendy Webhook' }, visitor: { name: 'Walter' }, kioskId })
    expect(checkWebhook(secret, headers, post!.body)).toBeNull()
    // A receiver written before v2 still finds its v1 signature (timestamp and body only).
    expect(post!.headers[WEBHOOK_HEADERS.signatureV1]).toBe(`v1=${createHmac('sha256', secret).update(`${headers.timestamp}.${post!.body}`).digest('hex')}`)
    // The same body and signature passed off as another delivery, to get past a receiver's repeat check: refused.
    expect(checkWebhook(secret, { ...headers, delivery: randomUUID() }, post!.body)).toBe('bad-signature')
    expect(checkWebhook(secret, { ...headers, delivery: undefined }, post!.body)).toBe('unsigned')
  })

  it('sends a notice once although its receiver takes far longer than a claim lasts: the engine sending it holds its claim', async () => {
    const host = await addHost({ name: 'Sam Slow', webhookUrl: receiver.url })
    receiver.delayMs = SLOW_RECEIVER_MS
    try {
      // Each engine's claim lasts CLAIM_MS (startEngine): three times over before the receiver answers.
      const visitId = (await checkIn(a, host.id)).body.visit.id as string
      await eventually('delivered', async () => (await noticesOf(visitId))[0]?.state === 'delivered')
      await new Promise((resolve) => setTimeout(resolve, 2 * CLAIM_MS))
      expect(postsOf(visitId)).toHaveLength(1)
      expect((await noticesOf(visitId))[0]!.attempts).toBe(1)
    } finally {
      receiver.delayMs = 0
    }
  })

  it('parks a notice its receiver refuses (needs attention), shows it to operators, and sends it again when one retries it', async () => {
    const host = await addHost({ name: 'Rita Refused', webhookUrl: receiver.url })
    receiver.statuses = [400]
    const visitId = (await checkIn(b, host.id)).body.visit.id as string
    const failed = await eventually('needs attention', async () => {
      const [notice] = await noticesOf(visitId)
      return notice?.state === 'needs-attention' ? notice : undefined
    })
    expect(failed.lastError).toMatchObject({ code: 'REJECTED', message: expect.stringMatching(/HTTP 400/) })
    const queue = await notices()
    expect(queue.running).toBe(true)
    expect(queue.counts.needsAttention).toBeGreaterThanOrEqual(1)
    // What needs attention first.
    expect(queue.items[0]!.state).toBe('needs-attention')

    // A kiosk's token alone retries nothing.
    expect((await call(a, 'POST', fd(`/host-notices/${failed.id}/retry`), { token: kioskToken })).status).toBe(401)
    const retried = await call(a, 'POST', fd(`/host-notices/${failed.id}/retry`), { token: kioskToken, session: operator })
    expect(retried.status, JSON.stringify(retried.body)).toBe(200)
    expect(retried.body).toMatchObject({ id: failed.id, state: 'queued', attempts: 0 })
    await eventually('delivered after the retry', async () => (await noticesOf(visitId))[0]?.state === 'delivered')
    expect(postsOf(visitId)).toHaveLength(2)

    // Delivered is never sent again; an unknown id is not found.
    const again = await call(b, 'POST', fd(`/host-notices/${failed.id}/retry`), { token: kioskToken, session: operator })
    expect(again.status).toBe(400)
    expect(again.body.code).toBe('INVALID_INPUT')
    expect((await call(b, 'POST', fd(`/host-notices/${randomUUID()}/retry`), { token: kioskToken, session: operator })).status).toBe(404)
    const trail = await a.engine.ctx.store.db.all<{ detail: string }>("SELECT detail FROM site_audit WHERE action = 'host-notice-retry'")
    expect(trail.map((e) => e.detail)).toContain(`retryHostNotice: notice ${failed.id}`)
  })

  it("gives a kiosk on the site the site's queue and settings through its staff handlers; a kiosk on its own keeps its own", async () => {
    const http = new HttpClient({ baseUrl: b.url, name: 'The site', connectTimeoutMs: 2000, requestTimeoutMs: 5000 })
    const tokens = new TokenProvider(async () => ({ token: kioskToken, expiresInSeconds: 3600 }))
    const desk = siteDesk(`site|${b.url}`, async () => ({ http, tokens }))
    const folder = mkdtempSync(join(tmpdir(), 'kiosk-notices-feature-'))
    folders.push(folder)
    const kept = new Map<string, string>()
    const keychain = { get: async (key: string) => kept.get(key) ?? null, set: async (key: string, value: string) => void kept.set(key, value), delete: async (key: string) => kept.delete(key) }
    const adminCall: Call = { actor: { role: 'admin', account: 'Ada Admin' }, key: 'window-1' }
    const sessions: Record<string, string> = { 'window-1': admin }
    const ownRecords = await openLocalFrontDesk({ dataDir: folder })
    const feature = hostNotices({ database: async () => ownRecords.database, keychain, log: () => {}, site: { desk: async () => desk, staffDesk: async (call) => desk.as({ token: sessions[call.key!]!, account: call.actor.account ?? '' }) } })
    try {
      const queue = await feature.handlers.getHostNotices!({}, adminCall)
      expect(queue.running).toBe(true)
      expect(queue.counts.delivered).toBeGreaterThanOrEqual(1)
      // The site's word that the host will hear reaches the kiosk through its client.
      const kim = await addHost({ name: 'Kim Kiosk', webhookUrl: receiver.url })
      const person = { personUuid: randomUUID(), email: `k-${randomBytes(4).toString('hex')}@example.com`, firstName: 'Kay' }
      expect(await desk.checkIn({ person, hostId: kim.id, purpose: null, inviteToken: null, asLastTime: false })).toMatchObject({ outcome: 'checked-in', alreadyOnSite: false, hostNotified: true })
      expect(await desk.checkIn({ person, hostId: kim.id, purpose: null, inviteToken: null, asLastTime: false })).toMatchObject({ outcome: 'checked-in', alreadyOnSite: true, hostNotified: false })
      expect(await feature.handlers.getHostNoticeSettings!({}, adminCall)).toMatchObject({ smtp: { host: '127.0.0.1', port: smtp.port }, secrets: { webhookSecret: true } })
      expect(await feature.handlers.setHostNoticeSecrets!({ smtpPassword: 'not-needed-here' }, adminCall)).toEqual({ smtpPassword: true, webhookSecret: true })
      // The site's, not the kiosk's keychain.
      expect(kept.size).toBe(0)
      // A delivered notice is the site's to refuse again.
      const deliveredId = queue.items.find((n) => n.state === 'delivered')!.id
      await expect(feature.handlers.retryHostNotice!({ id: deliveredId }, adminCall)).rejects.toMatchObject({ code: 'INVALID_INPUT' })
      // The kiosk's own queue is not what staff see on a site.
      expect(await (await feature.service()).list()).toEqual([])
    } finally {
      await feature.stop()
      await ownRecords.close()
    }
    // On its own: the site's calls are not the kiosk's to make.
    const own = ownDesk(async () => ({ frontDesk: a.engine.ctx.frontDesk, close: async () => {} }), () => kioskId)
    await expect(own.desk.as({ token: admin, account: 'Ada Admin' }).hostNotices()).rejects.toMatchObject({ code: 'NOT_CONFIGURED' })
  })
})

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request, type Dispatcher } from 'undici'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { SiteAuditRow } from '../../electron/records/frontdesk/audit-repository'
import type { SiteAuditInput, SiteAuditTrail } from '../../electron/records/frontdesk/audit-trail'
import { siteAuditTrail } from '../../electron/records/frontdesk/audit-trail'
import { frontDeskMigrations } from '../../electron/records/frontdesk/migrations'
import { migrate } from '../../electron/records/sql/migrate'
import type { Database } from '../../electron/records/sql/types'
import { SCOPE_TENANT_ADMIN } from '../../electron/shared/api-requests'
import { auditQueryParams, auditQueryRecord, type AuditEntryView } from '../../electron/shared/audit'
import { FRONTDESK_PREFIX, SCOPE_FRONTDESK_KIOSK, STAFF_SESSION_HEADER } from '../../electron/shared/frontdesk-api'
import { HttpClient } from '../../electron/services/clients/http-client'
import { TokenProvider } from '../../electron/services/clients/token-provider'
import type { KioskDesk } from '../../electron/services/front-desk/desk'
import { siteAuditFor } from '../../electron/services/site/site-audit'
import { BACKENDS, startBackend, type BackendHandle } from '../support/backends'
import { basic, startTestEngine, TEST_TENANT, type TestEngine } from '../support/engine'
import { useSqlBackend } from '../support/sql-backend'

/**
 * The site's audit trail: one append-only, hash-chained line of what the site answered its
 * kiosks, on a kiosk's SQLite and on real PostgreSQL (two engines appending to one chain).
 */
const KIOSK_A = '11111111-1111-4111-8111-111111111111'
const KIOSK_B = '22222222-2222-4222-8222-222222222222'
const PERSON = '5b0f7c2e-8a41-4b8e-9a57-3f2f0d6c1a11'

const entry = (over: Partial<SiteAuditInput> = {}): SiteAuditInput => ({
  kioskId: KIOSK_A,
  action: 'check-in',
  outcome: 'ok',
  role: 'visitor',
  account: null,
  personUuid: PERSON,
  detail: 'checkIn: visit v1',
  ...over,
})

describe.each(['sqlite', 'postgres'] as const)("the site's audit records on %s", (backend) => {
  const sql = useSqlBackend(backend, 'site-audit-')
  const { connect } = sql
  let clock: { now: number }

  beforeEach(() => {
    clock = { now: Date.UTC(2026, 10, 1) }
  })

  async function open(db?: Database): Promise<{ trail: SiteAuditTrail; db: Database }> {
    const database = db ?? (await connect())
    await migrate(database, frontDeskMigrations)
    return { trail: siteAuditTrail(database, { now: () => clock.now }), db: database }
  }
  /** Another engine: its own pool on PostgreSQL; on SQLite the process's one connection. */
  const peer = async (db: Database) => (sql.cluster ? open(await connect()) : open(db))

  /** Changes a stored row behind the trail's back, as someone with the database's password could. */
  async function tamper(db: Database, sql: string): Promise<void> {
    if (db.dialect === 'postgres') {
      await db.exec(`ALTER TABLE site_audit DISABLE TRIGGER site_audit_no_change; ${sql}; ALTER TABLE site_audit ENABLE TRIGGER site_audit_no_change`)
    } else {
      await db.exec(
        `DROP TRIGGER site_audit_no_update; ${sql}; CREATE TRIGGER site_audit_no_update BEFORE UPDATE ON site_audit BEGIN SELECT RAISE(ABORT, 'audit entries are append-only'); END`,
      )
    }
  }

  it('chains each entry to the one before, names the kiosk, and verifies', async () => {
    const { trail, db } = await open()
    await db.run('INSERT INTO kiosks (id, name, joined_at) VALUES (?, ?, ?)', [KIOSK_A, 'Lobby', clock.now])
    const first = await trail.append(entry())
    clock.now += 1000
    const second = await trail.append(entry({ kioskId: null, action: 'kiosk-pair', outcome: 'refused', personUuid: null, detail: 'pair: REJECTED' }))
    expect(first).toMatchObject({ seq: 1, at: Date.UTC(2026, 10, 1), kioskId: KIOSK_A, kioskName: 'Lobby', subject: { personUuid: PERSON }, prevHash: '0'.repeat(64) })
    expect(second).toMatchObject({ seq: 2, kioskId: '', kioskName: null, subject: null, prevHash: first.hash })
    expect(await trail.query({})).toEqual([second, first])
    expect(await trail.verify()).toEqual({ ok: true, entries: 2, firstBadSeq: null, reason: null, previousFormat: { entries: 0, seqs: [] } })
  })

  it('keeps one chain when two engines append at once', async () => {
    const a = await open()
    const b = await peer(a.db)
    const appends = Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).trail.append(entry({ kioskId: i % 2 ? KIOSK_A : KIOSK_B, detail: `call ${i}` })))
    const written = await Promise.all(appends)
    expect(written.map((e) => e.seq).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1))
    expect(new Set(written.map((e) => e.detail)).size).toBe(40)
    expect(await b.trail.verify()).toMatchObject({ ok: true, entries: 40 })
  })

  it('refuses to change or remove an entry, and names the first entry changed behind its back', async () => {
    const { trail, db } = await open()
    for (let i = 0; i < 5; i++) await trail.append(entry({ detail: `call ${i}` }))
    await expect(db.run('UPDATE site_audit SET detail = ? WHERE seq = 3', ['nothing happened'])).rejects.toThrow(/append-only/)
    await expect(db.run('DELETE FROM site_audit WHERE seq = 5')).rejects.toThrow(/append-only/)
    expect(await trail.verify()).toMatchObject({ ok: true, entries: 5 })

    await tamper(db, "UPDATE site_audit SET outcome = 'refused' WHERE seq = 3")
    expect(await trail.verify()).toEqual({ ok: false, entries: 2, firstBadSeq: 3, reason: 'entry 3 was changed after it was written', previousFormat: { entries: 0, seqs: [] } })
  })

  it('finds a removed entry: the next one no longer follows', async () => {
    const { trail, db } = await open()
    for (let i = 0; i < 4; i++) await trail.append(entry({ detail: `call ${i}` }))
    if (db.dialect === 'postgres') await db.exec('ALTER TABLE site_audit DISABLE TRIGGER site_audit_no_change; DELETE FROM site_audit WHERE seq = 2; ALTER TABLE site_audit ENABLE TRIGGER site_audit_no_change')
    else await db.exec("DROP TRIGGER site_audit_no_delete; DELETE FROM site_audit WHERE seq = 2; CREATE TRIGGER site_audit_no_delete BEFORE DELETE ON site_audit BEGIN SELECT RAISE(ABORT, 'audit entries are append-only'); END")
    expect(await trail.verify()).toMatchObject({ ok: false, entries: 1, firstBadSeq: 3, reason: 'entry 3 does not follow entry 1' })
  })

  it('filters by kiosk, action, person, account, time and page', async () => {
    const { trail } = await open()
    await trail.append(entry({ kioskId: KIOSK_A }))
    clock.now += 1000
    await trail.append(entry({ kioskId: KIOSK_B, action: 'sign-in', role: 'admin', account: 'Ada', personUuid: null }))
    clock.now += 1000
    await trail.append(entry({ kioskId: KIOSK_B.toUpperCase() }))
    const seqs = async (query: Parameters<SiteAuditTrail['query']>[0]) => (await trail.query(query)).map((e) => e.seq)
    expect(await seqs({ kioskId: KIOSK_B })).toEqual([3, 2])
    expect(await seqs({ kioskId: KIOSK_A })).toEqual([1])
    expect(await seqs({ actions: ['sign-in'] })).toEqual([2])
    expect(await seqs({ personUuid: PERSON.toUpperCase() })).toEqual([3, 1])
    expect(await seqs({ account: 'ADA' })).toEqual([2])
    expect(await seqs({ from: Date.UTC(2026, 10, 1) + 500, to: Date.UTC(2026, 10, 1) + 1500 })).toEqual([2])
    expect(await seqs({ beforeSeq: 3, limit: 1 })).toEqual([2])
    // The site keeps no e-mails: a filter by one finds nothing.
    expect(await seqs({ userId: 'someone@example.com' })).toEqual([])
    expect((await trail.exportRows({ kioskId: KIOSK_B })).map((e) => e.seq)).toEqual([3, 2])
  })
})

describe('the audit query as a query string', () => {
  it('reads back what the kiosk writes', () => {
    const query = { from: 1.5, to: 2000.2, actions: ['sign-in' as const, 'check-in' as const], personUuid: PERSON, account: 'Ada', limit: 50, beforeSeq: 9, kioskId: KIOSK_A }
    const params = Object.fromEntries(new URLSearchParams(auditQueryRecord(query)))
    expect(auditQueryParams.parse(params)).toEqual({ ...query, from: 1, to: 2001 })
    expect(auditQueryParams.parse({ actions: ['sign-in', 'check-out'] })).toEqual({ actions: ['sign-in', 'check-out'] })
    expect(auditQueryParams.safeParse({ actions: 'sign-in,nothing' }).success).toBe(false)
    expect(auditQueryParams.safeParse({ limit: '0' }).success).toBe(false)
  })
})

// ---------------------------------------------------------------------------------------------

interface Reply {
  status: number
  body: any
}

async function call(engine: TestEngine, method: string, path: string, options: { token?: string; session?: string; body?: unknown } = {}): Promise<Reply> {
  const headers: Record<string, string> = {}
  if (options.token) headers.authorization = `Bearer ${options.token}`
  if (options.session) headers[STAFF_SESSION_HEADER] = options.session
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  const reply = await request(`${engine.url}${FRONTDESK_PREFIX}${path}`, {
    method: method as Dispatcher.HttpMethod,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  })
  const text = await reply.body.text()
  return { status: reply.statusCode, body: text ? JSON.parse(text) : undefined }
}

describe.each(BACKENDS)("the site's audit trail served on %s", (backend) => {
  let handle: BackendHandle
  const folders: string[] = []
  const engines: TestEngine[] = []
  let a: TestEngine
  let b: TestEngine

  beforeAll(async () => {
    handle = await startBackend(backend)
    const start = async () => {
      const folder = mkdtempSync(join(tmpdir(), 'site-audit-engine-'))
      folders.push(folder)
      const engine = await startTestEngine([], folder, { ...handle.options, tenant: TEST_TENANT })
      engines.push(engine)
      return engine
    }
    a = await start()
    b = backend === 'postgres' ? await start() : a
  })
  afterAll(async () => {
    for (const engine of engines) await engine.close().catch(() => {})
    await handle?.close()
    for (const folder of folders) rmSync(folder, { recursive: true, force: true })
  })

  /** A kiosk paired through `engine`: the pairing code, its client's secret and its token are secrets the trail must never hold. */
  async function pairKiosk(engine: TestEngine, name: string) {
    const code = (await engine.engine.ctx.frontDesk.createPairingCode('test')).code
    const paired = await call(engine, 'POST', '/pair', { body: { code, name } })
    expect(paired.status, JSON.stringify(paired.body)).toBe(200)
    const scope = `${SCOPE_TENANT_ADMIN} ${SCOPE_FRONTDESK_KIOSK}`
    const token = await request(`${engine.url}/v2/oauth2/oauth/token?grant_type=client_credentials&scope=${encodeURIComponent(scope)}`, {
      method: 'POST',
      headers: { authorization: basic(paired.body.clientId, paired.body.clientSecret), 'content-type': 'application/x-www-form-urlencoded' },
    })
    const { access_token } = (await token.body.json()) as { access_token: string }
    return {
      kioskId: paired.body.kioskId as string,
      clientId: paired.body.clientId as string,
      clientSecret: paired.body.clientSecret as string,
      token: access_token,
      secrets: [code, paired.body.clientSecret as string, access_token],
    }
  }

  const rows = async () => (await a.engine.ctx.store.db.all<SiteAuditRow>('SELECT * FROM site_audit ORDER BY seq')).map((row) => ({ ...row, seq: Number(row.seq) }))

  it('records what the site did for each kiosk, filterable by kiosk, with no e-mail, name, PIN, code or token in any entry', async () => {
    const secrets: string[] = []
    const lobby = await pairKiosk(a, 'Lobby')
    const gate = await pairKiosk(b, 'Gate')
    secrets.push(...lobby.secrets, ...gate.secrets)

    const first = await call(a, 'POST', '/staff/first-admin', { token: lobby.token, body: { name: 'Ada Admin', secret: 'admin-pin-4821' } })
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    const admin = first.body.session as string
    secrets.push('admin-pin-4821', admin)
    expect((await call(b, 'POST', '/accounts', { token: gate.token, session: admin, body: { name: 'Olga Operator', role: 'operator', secret: 'operator-pin-7312' } })).status).toBe(200)
    const wrong = await call(b, 'POST', '/staff/sign-in', { token: gate.token, body: { name: 'Olga Operator', secret: 'guessed-pin-0000' } })
    expect(wrong.status).toBe(401)
    const signedIn = await call(b, 'POST', '/staff/sign-in', { token: gate.token, body: { name: 'Olga Operator', secret: 'operator-pin-7312' } })
    expect(signedIn.status).toBe(200)
    const operator = signedIn.body.session as string
    secrets.push('operator-pin-7312', 'guessed-pin-0000', operator)

    const host = await call(a, 'POST', '/hosts', { token: lobby.token, session: operator, body: { name: 'Hank Hostname', email: 'hank.host@example.com' } })
    expect(host.status, JSON.stringify(host.body)).toBe(200)
    const screened = await call(b, 'POST', '/watchlist/screen', { token: gate.token, body: { personUuids: [PERSON], givenEmail: 'vera.visitor@example.com', place: 'check-in' } })
    expect(screened.status).toBe(200)
    const checkedIn = await call(b, 'POST', '/visits/check-in', {
      token: gate.token,
      body: { person: { personUuid: PERSON, email: 'vera.visitor@example.com', firstName: 'Veronika' }, hostId: host.body.id, purpose: 'Quarterly review', inviteToken: null, asLastTime: false },
    })
    expect(checkedIn.status, JSON.stringify(checkedIn.body)).toBe(200)
    const visitDay = new Date(Date.now() + 2 * 86_400_000)
    const invite = await call(a, 'POST', '/invites', {
      token: lobby.token,
      session: admin,
      body: { email: 'ivan.invitee@example.com', hostId: host.body.id, date: visitDay.toISOString().slice(0, 10), expiresAt: visitDay.getTime() },
    })
    expect(invite.status, JSON.stringify(invite.body)).toBe(200)
    secrets.push(invite.body.token)
    expect((await call(b, 'POST', '/invites/check', { token: gate.token, body: { token: invite.body.token } })).body).toMatchObject({ status: 'valid' })
    const bogus = `${invite.body.token.slice(0, -4)}AAAA`
    expect((await call(b, 'POST', '/invites/check', { token: gate.token, body: { token: bogus } })).body).toMatchObject({ status: 'refused' })
    secrets.push(bogus)
    // A wrong pairing code is on record (no kiosk yet); a malformed one checked nothing and is not.
    expect((await call(a, 'POST', '/pair', { body: { code: 'ZZZZZZZZ', name: 'Intruder' } })).status).toBe(409)
    expect((await call(a, 'POST', '/pair', { body: { code: '!', name: 'Intruder' } })).status).toBe(400)
    // Reads are not recorded.
    expect((await call(a, 'GET', '/hosts', { token: lobby.token, session: operator })).status).toBe(200)

    // Recorded before each reply went out.
    const all = await rows()
    expect(all.map((r) => `${r.action} ${r.outcome}`)).toEqual([
      'kiosk-pair ok',
      'kiosk-pair ok',
      'account-change ok',
      'account-change ok',
      'sign-in refused',
      'sign-in ok',
      'host-change ok',
      'watchlist-screen ok',
      'check-in ok',
      'invite-create ok',
      'invite-check ok',
      'invite-check refused',
      'kiosk-pair refused',
    ])
    expect(all.at(-1)).toMatchObject({ kiosk_id: null, kiosk_name: null, role: 'visitor', detail: 'pair: REJECTED' })
    expect(all.find((r) => r.action === 'sign-in' && r.outcome === 'refused')).toMatchObject({ kiosk_id: gate.kioskId, kiosk_name: 'Gate', account: 'Olga Operator', role: 'visitor' })
    expect(all.find((r) => r.action === 'check-in')).toMatchObject({ kiosk_id: gate.kioskId, kiosk_name: 'Gate', person_uuid: PERSON, role: 'visitor' })
    expect(all.find((r) => r.action === 'invite-create')).toMatchObject({ kiosk_id: lobby.kioskId, role: 'admin', account: 'Ada Admin' })
    expect(all.find((r) => r.action === 'host-change')).toMatchObject({ role: 'operator', account: 'Olga Operator' })

    const stored = JSON.stringify(all).toLowerCase()
    for (const word of ['@example.com', 'veronika', 'hank hostname', 'quarterly review', 'intruder', 'zzzzzzzz', ...secrets.map((s) => s.toLowerCase())]) expect(stored).not.toContain(word)

    // Staff read it by kiosk, at either engine; a kiosk's token alone may not.
    expect((await call(a, 'GET', '/audit', { token: lobby.token })).status).toBe(401)
    const byGate = await call(a, 'GET', `/audit?${new URLSearchParams(auditQueryRecord({ kioskId: gate.kioskId }))}`, { token: lobby.token, session: operator })
    expect(byGate.status, JSON.stringify(byGate.body)).toBe(200)
    const gateEntries = byGate.body.entries as AuditEntryView[]
    expect(gateEntries.length).toBeGreaterThan(0)
    expect(gateEntries.every((e) => e.kioskId === gate.kioskId && e.kioskName === 'Gate')).toBe(true)
    expect(gateEntries.map((e) => e.seq)).toEqual(all.filter((r) => r.kiosk_id === gate.kioskId).map((r) => r.seq).reverse())
    expect(byGate.body.verdict).toMatchObject({ ok: true })
    const signIns = await call(b, 'GET', '/audit?actions=sign-in&limit=1', { token: gate.token, session: operator })
    expect(signIns.body.entries).toHaveLength(1)
    expect(signIns.body.entries[0]).toMatchObject({ action: 'sign-in', outcome: 'ok', account: 'Olga Operator' })

    const verified = await call(b, 'GET', '/audit/verify', { token: gate.token, session: operator })
    expect(verified.body).toMatchObject({ ok: true, firstBadSeq: null })
    expect(verified.body.entries).toBeGreaterThanOrEqual(all.length)

    // Exports are an administrator's, and are recorded.
    expect((await call(a, 'POST', '/audit/export', { token: lobby.token, session: operator, body: { format: 'csv' } })).status).toBe(403)
    const exported = await call(a, 'POST', '/audit/export', { token: lobby.token, session: admin, body: { format: 'csv', kioskId: lobby.kioskId } })
    expect(exported.status).toBe(200)
    expect(exported.body.fileName).toMatch(/^site-audit-.*\.csv$/)
    expect(exported.body.content.split('\r\n')[0]).toBe('seq,time,kioskId,kioskName,action,outcome,role,account,personUuid,detail,prevHash,hash')
    // Up to the refused export before it (recorded as its reply went out).
    expect(exported.body.entries).toBe((await rows()).filter((r) => r.kiosk_id === lobby.kioskId && r.action !== 'audit-export').length + 1)
    // The refused export is on record too.
    expect((await rows()).filter((r) => r.action === 'audit-export').map((r) => r.outcome)).toEqual(['refused', 'ok'])
  })

  it("is what staff at a kiosk on the site read (with their own session), by kiosk, and a kiosk on its own reads its own", async () => {
    const hall = await pairKiosk(a, 'Hall')
    const signedIn = await call(b, 'POST', '/staff/sign-in', { token: hall.token, body: { name: 'Ada Admin', secret: 'admin-pin-4821' } })
    expect(signedIn.status).toBe(200)
    const session = signedIn.body.session as string
    const http = new HttpClient({ baseUrl: b.url, name: 'The site', connectTimeoutMs: 2000, requestTimeoutMs: 5000 })
    const tokens = new TokenProvider(async () => ({ token: hall.token, expiresInSeconds: 3600 }))
    const deskId = `site|${b.url}`
    let onSite = true
    const held = new Map([['window-1', { token: session, desk: deskId }]])
    const reader = siteAuditFor({
      desk: async () => ({ id: onSite ? deskId : 'own', onSite }) as KioskDesk,
      held: (key) => (key === null ? null : (held.get(key) ?? null)),
      connection: async () => ({ http, tokens }),
    })
    const staff = { actor: { role: 'admin' as const, account: 'Ada Admin' }, key: 'window-1' }

    const site = (await reader(staff))!
    const page = await site.log({ kioskId: hall.kioskId, actions: ['kiosk-pair', 'sign-in'], limit: 10 })
    expect(page.entries.map((e) => `${e.kioskName} ${e.action} ${e.outcome}`)).toEqual(['Hall sign-in ok', 'Hall kiosk-pair ok'])
    expect(page.verdict.ok).toBe(true)
    expect(await site.verify()).toMatchObject({ ok: true, firstBadSeq: null })
    const file = await site.export({ format: 'json', kioskId: hall.kioskId, trail: 'site' })
    expect(file.fileName).toMatch(/^site-audit-.*\.json$/)
    expect((JSON.parse(file.content) as AuditEntryView[]).every((e) => e.kioskId === hall.kioskId)).toBe(true)

    // A window without a session the site issued is refused; a kiosk on its own reads its own trail.
    await expect(reader({ ...staff, key: 'window-2' })).rejects.toMatchObject({ code: 'FORBIDDEN' })
    // On a site, staff may still read the kiosk's own trail.
    expect(await reader(staff, 'kiosk')).toBeNull()
    onSite = false
    expect(await reader(staff)).toBeNull()
  })
})

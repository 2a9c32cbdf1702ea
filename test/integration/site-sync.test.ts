import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request, type Dispatcher } from 'undici'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createFrontDesk } from '../../electron/records/frontdesk/create-front-desk'
import type { FrontDesk, PullAsked } from '../../electron/records/frontdesk/front-desk'
import { readInviteToken } from '../../electron/records/frontdesk/invite-tokens'
import { frontDeskMigrations } from '../../electron/records/frontdesk/migrations'
import type { CheckInOutcome } from '../../electron/records/frontdesk/visit-types'
import { migrate } from '../../electron/records/sql/migrate'
import type { Database } from '../../electron/records/sql/types'
import { SCOPE_TENANT_ADMIN } from '../../electron/shared/api-requests'
import type { Invite } from '../../electron/shared/invites'
import { inviteAlertSchema } from '../../electron/shared/invite-alerts'
import { FRONTDESK_PREFIX, SCOPE_FRONTDESK_KIOSK, STAFF_SESSION_HEADER, type SiteEvent } from '../../electron/shared/frontdesk-api'
import { PULL_PAGE_ROWS, PUSH_MAX_MUTATIONS, pullResult, type CopiedAccount, type CopiedInviteKey, type PullOp, type PullResult, type SyncMutation } from '../../electron/shared/site-sync'
import { startBackend, type BackendHandle } from '../support/backends'
import { createEngine, type Engine } from '../../electron/engine/server'
import { basic, startTestEngine, TEST_TENANT, type TestEngine } from '../support/engine'
import { postgresClient } from '../support/postgres'
import { readEventStream } from '../support/event-stream'
import { replyOf, type SiteReply } from '../support/site'
import { useSqlBackend } from '../support/sql-backend'
import { eventually } from '../support/until'

/**
 * The site's side of its kiosks' copies (electron/shared/site-sync.ts): the change log the
 * database's triggers fill, pulls that send each changed row as it is now (or everything, when the
 * log no longer reaches the kiosk's cookie), and pushes applied once. On SQLite and on PostgreSQL,
 * then through two engines of one site over HTTP.
 */

const DAY = 86_400_000

describe.each(['sqlite', 'postgres'] as const)('site sync records on %s', (backend) => {
  const sql = useSqlBackend(backend, 'site-sync-')
  let clock: { now: number }
  let announced: SiteEvent[]

  beforeEach(() => {
    clock = { now: Date.UTC(2026, 10, 1) }
    announced = []
  })

  async function open(db?: Database): Promise<{ desk: FrontDesk; db: Database }> {
    const database = db ?? (await sql.connect())
    await migrate(database, frontDeskMigrations)
    return { desk: createFrontDesk(database, { now: () => clock.now, announce: (event) => announced.push(event) }), db: database }
  }
  const person = (name: string) => ({ personUuid: randomUUID(), email: `${name}@example.com`, firstName: name })
  const checkIn = async (desk: FrontDesk, visitor: ReturnType<typeof person>, kioskId: string) => {
    const outcome: CheckInOutcome = await desk.checkIn({ person: visitor, hostId: null, purpose: 'Meeting', inviteToken: null, asLastTime: false, kioskId })
    if (outcome.outcome !== 'checked-in') throw new Error(`refused: ${outcome.reason}`)
    return outcome.visit
  }
  const pair = async (desk: FrontDesk, name: string) => desk.redeemPairingCode((await desk.createPairingCode('Ada')).code, name)
  const list = (desk: FrontDesk, personUuid: string, reason = 'Banned') => desk.addToWatchlist({ personUuid, email: `${personUuid.slice(0, 8)}@example.com`, reason, addedBy: 'Ada' })
  /** The ops by topic and key, as a map (the pull's order is the change log's, not asserted here). */
  const byKey = (ops: readonly PullOp[]) => new Map(ops.map((op) => [`${op.topic} ${op.key}`, op.value]))
  const pull = async (desk: FrontDesk, kioskId: string, cookie: number, asked?: PullAsked): Promise<PullResult> => pullResult.parse(await desk.syncPull(kioskId, cookie, asked))
  const alert = (seq: number, personUuid = randomUUID(), id = randomUUID()): Extract<SyncMutation, { kind: 'watchlist-alert' }> => ({
    kind: 'watchlist-alert',
    id,
    seq,
    at: clock.now - 60_000,
    args: { place: 'check-in', personUuid, email: 'listed@example.com', givenEmail: 'typed@example.com', reason: 'Banned' },
  })

  it('sends everything on a first pull: every watchlist entry, every open visit with its kiosk, every kiosk not removed', async () => {
    const { desk } = await open()
    const lobby = await pair(desk, 'Lobby')
    const gone = await pair(desk, 'Gone')
    await desk.removeKiosk(gone.id)
    const listed = await list(desk, randomUUID())
    const here = await checkIn(desk, person('here'), lobby.id)
    const left = await checkIn(desk, person('left'), lobby.id)
    await desk.checkOut(left.personUuid)

    const first = await pull(desk, lobby.id, 0)
    expect(first.reset).toBe(true)
    expect(first.more).toBe(false)
    expect(first.lastMutationSeq).toBe(0)
    expect(first.cookie).toBe(await desk.changesHead())
    expect(first.cookie).toBeGreaterThan(0)
    expect(first.ops).toEqual([
      { topic: 'watchlist', key: listed.personUuid, value: listed },
      // The evacuation list's shape: the kiosk's name joined in.
      { topic: 'visit', key: here.id, value: { ...here, kioskName: 'Lobby' } },
      { topic: 'kiosk', key: lobby.id, value: { id: lobby.id, name: 'Lobby' } },
    ])
    expect((await desk.onSite()).map((v) => ({ topic: 'visit', key: v.id, value: v }))).toEqual(first.ops.filter((op) => op.topic === 'visit'))

    // Up to date: nothing to send, the cookie stays.
    expect(await pull(desk, lobby.id, first.cookie)).toEqual({ cookie: first.cookie, reset: false, more: false, ops: [], lastMutationSeq: 0 })
  })

  it('lists each kiosk with how far its copy has come: never pulled, up to date, changes behind; a pull itself is no change', async () => {
    const { desk } = await open()
    const lobby = await pair(desk, 'Lobby')
    const side = await pair(desk, 'Side door')
    const copyOf = async (id: string) => (await desk.listKiosks()).find((k) => k.id === id)!.copy
    expect(await copyOf(lobby.id)).toBeNull()

    clock.now += 1_000
    const first = await pull(desk, lobby.id, 0)
    const head = await desk.changesHead()
    expect(await copyOf(lobby.id)).toEqual({ syncedAt: clock.now, changesBehind: 0 })
    expect(await copyOf(side.id)).toBeNull()
    // Recording the pull logs nothing: the other kiosks have nothing new to pull.
    expect(await desk.changesHead()).toBe(head)

    await list(desk, randomUUID())
    await checkIn(desk, person('new'), side.id)
    expect(await copyOf(lobby.id)).toEqual({ syncedAt: clock.now, changesBehind: 2 })

    clock.now += 1_000
    await pull(desk, lobby.id, first.cookie)
    expect(await copyOf(lobby.id)).toEqual({ syncedAt: clock.now, changesBehind: 0 })
  })

  it('sends each row changed since the cookie once, as it is now: null when it left the list, ended, was forgotten or its kiosk removed', async () => {
    const { desk } = await open()
    const lobby = await pair(desk, 'Lobby')
    const side = await pair(desk, 'Side door')
    const staysListed = await list(desk, randomUUID())
    const unlisted = await list(desk, randomUUID())
    const ended = await checkIn(desk, person('ended'), lobby.id)
    const forgotten = await checkIn(desk, person('forgotten'), side.id)
    const untouched = await checkIn(desk, person('untouched'), lobby.id)
    const { cookie } = await pull(desk, lobby.id, 0)

    clock.now += 60_000
    // A kiosk's calls move its last-seen time: no change a kiosk copies.
    await desk.seenKiosk(lobby.id)
    expect(await desk.changesHead()).toBe(cookie)

    const added = await list(desk, randomUUID())
    const relisted = await list(desk, staysListed.personUuid, 'Listed again')
    await desk.removeFromWatchlist(unlisted.personUuid)
    const arrived = await checkIn(desk, person('arrived'), side.id)
    const cameAndWent = await checkIn(desk, person('came-and-went'), lobby.id)
    await desk.checkOut(cameAndWent.personUuid)
    await desk.endVisit(ended.id)
    expect((await desk.forgetPerson({ personUuid: forgotten.personUuid })).visitIds).toEqual([forgotten.id])
    await desk.removeKiosk(side.id)
    const joined = await pair(desk, 'New wing')

    const next = await pull(desk, lobby.id, cookie)
    expect(next.reset).toBe(false)
    expect(next.more).toBe(false)
    expect(next.cookie).toBe(await desk.changesHead())
    // Each key once, however often it changed.
    expect(new Set(next.ops.map((op) => `${op.topic} ${op.key}`)).size).toBe(next.ops.length)
    expect(byKey(next.ops)).toEqual(
      new Map<string, unknown>([
        [`watchlist ${added.personUuid}`, added],
        [`watchlist ${staysListed.personUuid}`, relisted],
        [`watchlist ${unlisted.personUuid}`, null],
        // Still on site, and its kiosk's name as the site keeps it (removed since, still named).
        [`visit ${arrived.id}`, { ...arrived, kioskName: 'Side door' }],
        [`visit ${cameAndWent.id}`, null],
        [`visit ${ended.id}`, null],
        [`visit ${forgotten.id}`, null],
        [`kiosk ${side.id}`, null],
        [`kiosk ${joined.id}`, { id: joined.id, name: 'New wing' }],
      ]),
    )
    expect(byKey(next.ops).has(`visit ${untouched.id}`)).toBe(false)
    // In the order of their first change.
    expect(next.ops[0]).toEqual({ topic: 'watchlist', key: added.personUuid, value: added })
  })

  it('logs what the retention purges', async () => {
    const { desk } = await open()
    const lobby = await pair(desk, 'Lobby')
    const old = await checkIn(desk, person('old'), lobby.id)
    const { cookie } = await pull(desk, lobby.id, 0)
    clock.now += 40 * DAY
    expect(await desk.purgeVisitsBefore(clock.now - 30 * DAY)).toEqual([old.id])
    expect((await pull(desk, lobby.id, cookie)).ops).toEqual([{ topic: 'visit', key: old.id, value: null }])
  })

  it('pages a long way behind: PULL_PAGE_ROWS changes a pull, `more` until the last', async () => {
    const { desk, db } = await open()
    const lobby = await pair(desk, 'Lobby')
    const { cookie } = await pull(desk, lobby.id, 0)
    const uuids = Array.from({ length: PULL_PAGE_ROWS + 5 }, () => randomUUID())
    await db.transaction(async (tx) => {
      for (const uuid of uuids) await tx.run("INSERT INTO watchlist_entries (person_uuid, email, email_key, reason, added_by, added_at) VALUES (?, 'x@example.com', 'x@example.com', 'r', 'Ada', 1)", [uuid])
    })
    const first = await pull(desk, lobby.id, cookie)
    expect(first).toMatchObject({ reset: false, more: true, cookie: cookie + PULL_PAGE_ROWS })
    expect(first.ops.map((op) => op.key)).toEqual(uuids.slice(0, PULL_PAGE_ROWS))
    const second = await pull(desk, lobby.id, first.cookie)
    expect(second).toMatchObject({ reset: false, more: false, cookie: await desk.changesHead() })
    expect(second.ops.map((op) => op.key)).toEqual(uuids.slice(PULL_PAGE_ROWS))
  })

  it('starts a kiosk over when its cookie is below the pruned floor or above the head', async () => {
    const { desk } = await open()
    const lobby = await pair(desk, 'Lobby')
    const { cookie } = await pull(desk, lobby.id, 0)
    const listed = []
    for (let i = 0; i < 5; i++) listed.push(await list(desk, randomUUID()))
    const head = await desk.changesHead()
    expect(head).toBe(cookie + 5)

    expect(await desk.pruneChanges(2)).toBe(cookie + 3)
    // Already pruned that far: nothing more goes.
    expect(await desk.pruneChanges(2)).toBe(0)
    const behind = await pull(desk, lobby.id, cookie)
    expect(behind.reset).toBe(true)
    expect(behind.cookie).toBe(head)
    expect(byKey(behind.ops).size).toBe(listed.length + 1)
    // At the floor: the log still reaches it.
    expect((await pull(desk, lobby.id, head - 2)).ops.map((op) => op.key)).toEqual(listed.slice(3).map((e) => e.personUuid))

    // Every change pruned: the head stays where it was (seqs never go back), and a kiosk there is up to date.
    await desk.pruneChanges(0)
    expect(await desk.changesHead()).toBe(head)
    expect(await pull(desk, lobby.id, head)).toMatchObject({ reset: false, ops: [], cookie: head })
    const after = await list(desk, randomUUID())
    expect(await pull(desk, lobby.id, head)).toMatchObject({ reset: false, ops: [{ topic: 'watchlist', key: after.personUuid, value: after }], cookie: head + 1 })

    // A cookie from another site, or a database restored from an older backup.
    const ahead = await pull(desk, lobby.id, head + 1000)
    expect(ahead).toMatchObject({ reset: true, cookie: head + 1 })
    await expect(desk.pruneChanges(-1)).rejects.toMatchObject({ code: 'INVALID_INPUT' })
  })

  it('applies a push once: the same push again, or only acts already applied, change nothing', async () => {
    const { desk } = await open()
    const lobby = await pair(desk, 'Lobby')
    const other = await pair(desk, 'Side door')
    const push = [alert(2), alert(1)]
    expect(await desk.syncPush(lobby.id, push)).toEqual({ lastMutationSeq: 2 })
    expect(await desk.syncPush(lobby.id, push)).toEqual({ lastMutationSeq: 2 })
    expect(await desk.syncPush(lobby.id, [alert(1)])).toEqual({ lastMutationSeq: 2 })

    const alerts = await desk.watchlistAlerts()
    expect(alerts.map((a) => a.id).sort()).toEqual(push.map((m) => m.id).sort())
    const [mutation] = push
    expect(alerts.find((a) => a.id === mutation!.id)).toEqual({
      id: mutation!.id,
      at: mutation!.at,
      kioskId: lobby.id,
      kioskName: 'Lobby',
      place: 'check-in',
      personUuid: mutation!.args.personUuid,
      email: 'listed@example.com',
      givenEmail: 'typed@example.com',
      reason: 'Banned',
      firstName: null,
    })
    // Announced once each, after the commit.
    expect(announced.filter((e) => e.type === 'watchlist-alert').map((e) => (e as { alertId: string }).alertId).sort()).toEqual(push.map((m) => m.id).sort())

    // Another kiosk's sequence is its own; the pull tells each kiosk its last.
    expect(await desk.syncPush(other.id, [alert(1)])).toEqual({ lastMutationSeq: 1 })
    expect((await pull(desk, lobby.id, 0)).lastMutationSeq).toBe(2)
    expect((await pull(desk, other.id, 0)).lastMutationSeq).toBe(1)
    // An act sent again under a new seq (its id the site has) is not a second alert.
    expect(await desk.syncPush(lobby.id, [{ ...push[0]!, seq: 3 }])).toEqual({ lastMutationSeq: 3 })
    expect(await desk.watchlistAlerts()).toHaveLength(3)
    await expect(desk.syncPush(lobby.id, [alert(7), alert(7)])).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    expect((await pull(desk, lobby.id, 0)).lastMutationSeq).toBe(3)
  })

  it("applies check-ins and check-outs made away once: the act's id and time, the host told once, a person on site meanwhile keeps their visit", async () => {
    const database = await sql.connect()
    await migrate(database, frontDeskMigrations)
    const desk = createFrontDesk(database, { now: () => clock.now, notifyHosts: true })
    const lobby = await pair(desk, 'Lobby')
    const side = await pair(desk, 'Side door')
    const host = await desk.addHost({ name: 'Hana Host', email: 'hana@example.com', webhookUrl: null })
    const gone = await desk.addHost({ name: 'Gone Host', email: 'gone@example.com', webhookUrl: null })
    await desk.removeHost(gone.id)
    const [ann, bob, cy] = [person('ann'), person('bob'), person('cy')]
    // Cy came in at the side door just before the lobby lost the site.
    const away = clock.now - 3_600_000
    clock.now = away - 60_000
    const cyHere = await checkIn(desk, cy, side.id)
    clock.now = away + 3_600_000
    const act = (seq: number, kind: 'check-in' | 'check-out', args: object, at = away + seq * 1000) => ({ kind, id: randomUUID(), seq, at, args }) as SyncMutation
    const annIn = act(1, 'check-in', { person: ann, hostId: host.id, purpose: 'Interview', asLastTime: false })
    const bobIn = act(2, 'check-in', { person: bob, hostId: gone.id, purpose: null, asLastTime: false })
    const cyIn = act(3, 'check-in', { person: cy, hostId: null, purpose: null, asLastTime: false })
    const bobOut = act(4, 'check-out', { visitId: bobIn.id, person: { personUuid: bob.personUuid, email: bob.email } })
    const cyOut = act(5, 'check-out', { visitId: cyIn.id, person: { personUuid: cy.personUuid, email: cy.email } })
    const push = [annIn, bobIn, cyIn, bobOut, cyOut]
    const jobs = async () => (await database.all<{ subject: string }>("SELECT subject FROM jobs WHERE kind = 'host-notice'")).map((row) => row.subject)

    expect(await desk.syncPush(lobby.id, push)).toEqual({ lastMutationSeq: 5 })
    // Sent again (a reply lost) and again under new seqs (a copy made anew): nothing more.
    expect(await desk.syncPush(lobby.id, push)).toEqual({ lastMutationSeq: 5 })
    expect(await desk.syncPush(lobby.id, [{ ...annIn, seq: 6 }])).toEqual({ lastMutationSeq: 6 })

    const annVisit = await desk.lastVisitOf(ann.personUuid)
    expect(annVisit).toMatchObject({ id: annIn.id, personUuid: ann.personUuid, email: ann.email, hostId: host.id, hostName: 'Hana Host', purpose: 'Interview', checkedInAt: new Date(annIn.at).toISOString(), checkedOutAt: null, kioskId: lobby.id, kioskName: 'Lobby' })
    // The host removed while the kiosk was away: the visit stands without one.
    expect(await desk.lastVisitOf(bob.personUuid)).toMatchObject({ id: bobIn.id, hostId: null, checkedOutAt: new Date(bobOut.at).toISOString(), checkedOutBy: 'visitor' })
    // Cy was on site already: their visit from the side door is the one, ended by the lobby's check-out.
    expect(await desk.lastVisitOf(cy.personUuid)).toMatchObject({ id: cyHere.id, checkedOutAt: new Date(cyOut.at).toISOString() })
    expect((await desk.onSite()).map((v) => v.id)).toEqual([annIn.id])
    // One notice per channel of Ann's arrival, queued once.
    expect(await jobs()).toEqual([annIn.id])
  })

  it('sends staff accounts (hashes, never sessions) only to a kiosk that asks, and logs only what it copies', async () => {
    const { desk } = await open()
    const lobby = await pair(desk, 'Lobby')
    await desk.createFirstAdmin('Ada Admin', 'admin-secret-1', lobby.id)
    const plain = await pull(desk, lobby.id, 0)
    expect(plain.ops.some((op) => op.topic === 'account')).toBe(false)

    const first = await pull(desk, lobby.id, 0, { accounts: true })
    const adaOps = first.ops.filter((op) => op.topic === 'account')
    expect(adaOps).toEqual([{ topic: 'account', key: 'ada admin', value: { name: 'Ada Admin', role: 'admin', salt: expect.any(String), hash: expect.any(String), params: expect.stringContaining('"N"'), disabled: false } }])
    const ada = adaOps[0]!.value as CopiedAccount
    expect(Buffer.from(ada.hash, 'base64')).toHaveLength(32)

    // Signing in (its last sign-in, its failures, its pause) is the site's own: no change for the kiosks.
    const head = await desk.changesHead()
    await desk.signIn('Ada Admin', 'admin-secret-1', lobby.id)
    await expect(desk.signIn('Ada Admin', 'wrong-secret', lobby.id)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    expect(await desk.changesHead()).toBe(head)

    await desk.createAccount('Olga Operator', 'operator', 'operator-secret-1')
    await desk.setAccountDisabled('Olga Operator', true)
    const next = await pull(desk, lobby.id, first.cookie, { accounts: true })
    expect(next.ops).toEqual([{ topic: 'account', key: 'olga operator', value: expect.objectContaining({ name: 'Olga Operator', role: 'operator', disabled: true }) }])
    // A kiosk that does not ask is sent no account, but moves past their changes.
    const without = await pull(desk, lobby.id, first.cookie)
    expect(without).toMatchObject({ cookie: next.cookie, ops: [] })
  })

  it("sends invitations until they expire and the site's public invitation keys only to a kiosk that asks, each change as it is now", async () => {
    const { desk } = await open()
    const lobby = await pair(desk, 'Lobby')
    const host = await desk.addHost({ name: 'Hana', email: null, webhookUrl: null })
    const request = { email: 'Guest@Example.com', hostId: host.id, date: '2026-11-02', expiresAt: clock.now + DAY, createdBy: 'Ada' }
    const open1 = await desk.createInvite(request)
    const ending = await desk.createInvite({ ...request, expiresAt: clock.now + 60_000 })
    const plain = await pull(desk, lobby.id, 0)
    expect(plain.ops.some((op) => op.topic === 'invite' || op.topic === 'invite-key')).toBe(false)

    const first = await pull(desk, lobby.id, 0, { invites: true })
    const keys = first.ops.filter((op) => op.topic === 'invite-key')
    const kid = open1.token.split('.')[1]!
    expect(keys).toEqual([{ topic: 'invite-key', key: kid, value: { kid, publicKey: expect.any(String) } }])
    // The public half alone checks the site's codes.
    const publicKey = Buffer.from((keys[0]!.value as CopiedInviteKey).publicKey, 'base64')
    expect(await readInviteToken(open1.token, async () => ({ secret: null, publicKey }))).toMatchObject({ inviteId: open1.invite.id })
    const copied = (invite: Invite) => ({ id: invite.id, email: invite.email, hostId: invite.hostId, hostName: invite.hostName, date: invite.date, expiresAt: invite.expiresAt, usedAt: invite.usedAt, revokedAt: invite.revokedAt })
    const byId = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : 1)
    expect(first.ops.filter((op) => op.topic === 'invite').sort(byId)).toEqual([open1, ending].map(({ invite }) => ({ topic: 'invite', key: invite.id, value: copied(invite) })).sort(byId))

    // Used, revoked, a new key (an HMAC key of a kiosk brought along is never sent), purged: each as it is now.
    const visit = await desk.checkIn({ person: person('guest'), hostId: null, purpose: null, inviteToken: open1.token, asLastTime: false, kioskId: lobby.id })
    expect(visit).toMatchObject({ outcome: 'checked-in' })
    const revoked = await desk.createInvite(request)
    await desk.revokeInvite(revoked.invite.id)
    const rotated = await desk.rotateInviteKey()
    clock.now += 120_000
    await desk.purgeInvitesBefore(clock.now)
    const next = byKey((await pull(desk, lobby.id, first.cookie, { invites: true })).ops)
    expect(next.get(`invite ${open1.invite.id}`)).toMatchObject({ id: open1.invite.id, usedAt: expect.any(Number), revokedAt: null })
    expect(next.get(`invite ${revoked.invite.id}`)).toMatchObject({ revokedAt: expect.any(Number), usedAt: null })
    expect(next.get(`invite ${ending.invite.id}`)).toBeNull()
    expect(next.get(`invite-key ${rotated}`)).toEqual({ kid: rotated, publicKey: expect.any(String) })
    // A kiosk that does not ask moves past them with nothing sent.
    const without = await pull(desk, lobby.id, first.cookie)
    expect(without.ops.map((op) => op.topic)).toEqual(['visit'])
    // Expired ones are not in a whole copy.
    expect((await pull(desk, lobby.id, 0, { invites: true })).ops.filter((op) => op.topic === 'invite').map((op) => op.key).sort()).toEqual([open1.invite.id, revoked.invite.id].sort())
  })

  it('audits a staff sign-in made at a kiosk while away once, in the push that applies it', async () => {
    const { desk, db } = await open()
    const lobby = await pair(desk, 'Lobby')
    const signedIn = { kind: 'staff-sign-in', id: randomUUID(), seq: 1, at: clock.now - 600_000, args: { account: 'Ada Admin', role: 'admin' } } as SyncMutation
    expect(await desk.syncPush(lobby.id, [signedIn])).toEqual({ lastMutationSeq: 1 })
    expect(await desk.syncPush(lobby.id, [signedIn])).toEqual({ lastMutationSeq: 1 })
    const rows = await db.all<{ action: string; account: string; role: string; kiosk_id: string; detail: string }>("SELECT action, account, role, kiosk_id, detail FROM site_audit WHERE action = 'sign-in'")
    expect(rows).toEqual([{ action: 'sign-in', account: 'Ada Admin', role: 'admin', kiosk_id: lobby.id, detail: `signed in at the kiosk while the site was away, ${new Date(signedIn.at).toISOString()}` }])
  })

  it('does not end a visit begun after a check-out made away', async () => {
    const { desk } = await open()
    const lobby = await pair(desk, 'Lobby')
    const dee = person('dee')
    const checkOutAt = clock.now - 60_000
    const later = await checkIn(desk, dee, lobby.id)
    const out = { kind: 'check-out', id: randomUUID(), seq: 1, at: checkOutAt, args: { visitId: randomUUID(), person: { personUuid: dee.personUuid, email: dee.email } } } as SyncMutation
    expect(await desk.syncPush(lobby.id, [out])).toEqual({ lastMutationSeq: 1 })
    expect(await desk.lastVisitOf(dee.personUuid)).toMatchObject({ id: later.id, checkedOutAt: null })
  })

  it('raises one invitation alert when a code taken at two kiosks away comes back used, naming both visits; kept until dismissed, gone with either visit', async () => {
    const { desk, db } = await open()
    const lobby = await pair(desk, 'Lobby')
    const side = await pair(desk, 'Side door')
    const host = await desk.addHost({ name: 'Hana Host', email: null, webhookUrl: null })
    const request = { email: 'ines@example.com', hostId: host.id, date: '2026-11-01', expiresAt: clock.now + DAY, createdBy: 'Ada' }
    const { invite } = await desk.createInvite(request)
    const revoked = (await desk.createInvite({ ...request, email: 'rex@example.com', hostId: null })).invite
    await desk.revokeInvite(revoked.id)
    // The code went round: two people came in on it, one at each kiosk, while both were away.
    const [ines, friend, rex, stray] = [person('ines'), { ...person('friend'), email: 'ines@example.com' }, { ...person('rex'), email: 'rex@example.com' }, person('stray')]
    const checkInAway = (seq: number, visitor: ReturnType<typeof person>, inviteId: string): SyncMutation => ({
      kind: 'check-in',
      id: randomUUID(),
      seq,
      at: clock.now - 3_600_000 + seq * 1000,
      args: { person: visitor, hostId: null, purpose: null, asLastTime: false, inviteId },
    })
    const inesIn = checkInAway(1, ines, invite.id)
    const friendIn = checkInAway(1, friend, invite.id)
    clock.now += 60_000

    await desk.syncPush(lobby.id, [inesIn])
    expect(await desk.inviteAlerts()).toEqual([])
    await desk.syncPush(side.id, [friendIn])
    // Sent again (a reply lost), and again under a new seq (a copy made anew): no second alert.
    await desk.syncPush(side.id, [friendIn])
    await desk.syncPush(side.id, [{ ...friendIn, seq: 2 }])

    const [used, ...others] = await desk.inviteAlerts()
    expect(others).toEqual([])
    expect(inviteAlertSchema.parse(used)).toEqual({
      id: expect.any(String),
      at: clock.now,
      inviteId: invite.id,
      email: 'ines@example.com',
      hostName: 'Hana Host',
      reason: 'used',
      visit: { id: friendIn.id, kioskId: side.id, kioskName: 'Side door', at: friendIn.at },
      firstVisit: { id: inesIn.id, kioskId: lobby.id, kioskName: 'Lobby', at: inesIn.at },
    })
    // Both visits stand; the invitation counts for the first only.
    expect(await desk.lastVisitOf(ines.personUuid)).toMatchObject({ id: inesIn.id, inviteId: invite.id })
    expect(await desk.lastVisitOf(friend.personUuid)).toMatchObject({ id: friendIn.id, inviteId: null })

    // Revoked before the kiosk was back, or gone from the site: no first visit to name.
    clock.now += 60_000
    const rexIn = checkInAway(3, rex, revoked.id)
    const strayIn = checkInAway(4, stray, 'no-such-invite')
    await desk.syncPush(side.id, [rexIn, strayIn])
    const alerts = await desk.inviteAlerts()
    // Newest first; found in one push, the later visit first.
    expect(alerts.map((a) => a.visit.id)).toEqual([strayIn.id, rexIn.id, friendIn.id])
    const [invalid, wasRevoked] = alerts
    expect(wasRevoked).toMatchObject({ inviteId: revoked.id, email: 'rex@example.com', hostName: null, reason: 'revoked', visit: { id: rexIn.id, kioskName: 'Side door' }, firstVisit: null })
    expect(invalid).toMatchObject({ inviteId: 'no-such-invite', email: stray.email, hostName: null, reason: 'invalid', firstVisit: null })
    // Announced once each, after the commit.
    expect(announced.filter((e) => e.type === 'invite-alert')).toEqual(alerts.map((a) => ({ type: 'invite-alert', alertId: a.id })).reverse())

    // Dismissed once for all kiosks.
    expect(await desk.dismissInviteAlert(wasRevoked!.id, 'Otto Operator')).toBe(true)
    expect(await desk.dismissInviteAlert(wasRevoked!.id, 'Otto Operator')).toBe(false)
    expect(await desk.dismissInviteAlert(randomUUID(), 'Otto Operator')).toBe(false)
    expect((await desk.inviteAlerts()).map((a) => a.id)).toEqual([invalid!.id, used!.id])
    expect(announced.filter((e) => e.type === 'invite-alert-dismissed')).toEqual([{ type: 'invite-alert-dismissed', alertId: wasRevoked!.id }])

    // Forgetting a visitor takes the alerts that name their visit, as either visit.
    const stored = async () => (await db.all<{ id: string }>('SELECT id FROM invite_alerts')).map((row) => row.id).sort()
    await desk.forgetPerson({ personUuid: ines.personUuid })
    expect(await stored()).toEqual([invalid!.id, wasRevoked!.id].sort())
    // Dismissed ones go with the watchlist's, after the days kept; the rest with their visits, by the retention.
    clock.now += 2 * DAY
    expect(await desk.pruneDismissed(1)).toBe(1)
    expect(await stored()).toEqual([invalid!.id])
    expect(await desk.purgeVisitsBefore(clock.now)).toContain(strayIn.id)
    expect(await stored()).toEqual([])
  })

  it.runIf(backend === 'postgres')('applies a push once when two engines apply it at the same moment', async () => {
    const { desk, db } = await open()
    const { desk: peer } = await open(await sql.connect())
    const lobby = await pair(desk, 'Lobby')
    // Every attempt to store an alert, even one its id turns away: an act applied twice shows here.
    await db.exec(`
      CREATE TABLE alert_attempts (id text NOT NULL);
      CREATE FUNCTION count_alert_attempt() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO alert_attempts VALUES (NEW.id); RETURN NEW; END $$;
      CREATE TRIGGER alert_attempted BEFORE INSERT ON watchlist_alerts FOR EACH ROW EXECUTE FUNCTION count_alert_attempt();
    `)
    await desk.syncPush(lobby.id, [alert(1)])
    const push = [alert(2), alert(3)]
    // Both wait on the one row until the blocker lets go: their transactions overlap in the database.
    const blocker = postgresClient(sql.cluster!.url)
    await blocker.connect()
    try {
      await blocker.query('BEGIN')
      await blocker.query('LOCK TABLE kiosk_mutations IN SHARE MODE')
      const both = Promise.all([desk.syncPush(lobby.id, push), peer.syncPush(lobby.id, push)])
      await eventually('both pushes waiting', async () => (await blocker.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()")).rows[0].n >= 2, { attempts: 400, everyMs: 25 })
      await blocker.query('COMMIT')
      expect(await both).toEqual([{ lastMutationSeq: 3 }, { lastMutationSeq: 3 }])
    } finally {
      await blocker.end()
    }
    const stored = (await db.all<{ id: string }>('SELECT id FROM watchlist_alerts')).map((r) => r.id)
    expect(stored).toHaveLength(3)
    expect(stored).toEqual(expect.arrayContaining(push.map((m) => m.id)))
    expect((await db.all('SELECT id FROM alert_attempts')).length).toBe(3)
  })

  it.runIf(backend === 'postgres')('hands out seqs in commit order: a change waits for the one before it to commit', async () => {
    const { desk } = await open()
    const lobby = await pair(desk, 'Lobby')
    const { cookie } = await pull(desk, lobby.id, 0)
    const slow = postgresClient(sql.cluster!.url)
    await slow.connect()
    try {
      const first = randomUUID()
      await slow.query('BEGIN')
      await slow.query("INSERT INTO watchlist_entries (person_uuid, email, email_key, reason, added_by, added_at) VALUES ($1, 'a@example.com', 'a@example.com', 'r', 'Ada', 1)", [first])
      let done = false
      const second = list(desk, randomUUID()).then((entry) => ((done = true), entry))
      await new Promise((resolve) => setTimeout(resolve, 300))
      // The second is held until the first commits, so no reader sees it and later finds the first below it.
      expect(done).toBe(false)
      expect((await pull(desk, lobby.id, cookie)).ops).toEqual([])
      await slow.query('COMMIT')
      const entry = await second
      expect((await pull(desk, lobby.id, cookie)).ops.map((op) => op.key)).toEqual([first, entry.personUuid])
    } finally {
      await slow.end()
    }
  })
})

const fd = (path: string) => `${FRONTDESK_PREFIX}${path}`

async function call(engine: { url: string }, method: string, path: string, options: { token?: string; session?: string; body?: unknown; raw?: string } = {}): Promise<SiteReply> {
  const headers: Record<string, string> = {}
  if (options.token) headers.authorization = `Bearer ${options.token}`
  if (options.session) headers[STAFF_SESSION_HEADER] = options.session
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body))
  if (body !== undefined) headers['content-type'] = 'application/json'
  return replyOf(await request(`${engine.url}${path}`, { method: method as Dispatcher.HttpMethod, headers, body }))
}

/** Pairs a kiosk through `engine` as a kiosk does (a code, then its own client's token). */
async function pairKiosk(engine: { url: string; engine: Engine }, name: string): Promise<{ kioskId: string; token: string }> {
  const paired = await call(engine, 'POST', fd('/pair'), { body: { code: (await engine.engine.ctx.frontDesk.createPairingCode('test')).code, name } })
  expect(paired.status, JSON.stringify(paired.body)).toBe(200)
  const issued = await request(`${engine.url}/v2/oauth2/oauth/token?grant_type=client_credentials&scope=${encodeURIComponent(`${SCOPE_TENANT_ADMIN} ${SCOPE_FRONTDESK_KIOSK}`)}`, {
    method: 'POST',
    headers: { authorization: basic(paired.body.clientId, paired.body.clientSecret), 'content-type': 'application/x-www-form-urlencoded' },
  })
  return { kioskId: paired.body.kioskId, token: ((await issued.body.json()) as { access_token: string }).access_token }
}

/** GET /events: the SiteEvents it has sent so far. */
async function openEvents(engine: { url: string }, token: string): Promise<{ events: SiteEvent[]; close(): void }> {
  const stream = await request(`${engine.url}${fd('/events')}`, { headers: { authorization: `Bearer ${token}` } })
  expect(stream.statusCode).toBe(200)
  return { events: readEventStream(stream.body).events, close: () => stream.body.destroy() }
}

describe('site sync through two engines on PostgreSQL', () => {
  let handle: BackendHandle
  const folders: string[] = []
  const engines: TestEngine[] = []
  let a: TestEngine
  let b: TestEngine
  let kioskId: string
  let token: string
  let admin: string

  beforeAll(async () => {
    handle = await startBackend('postgres')
    for (let i = 0; i < 2; i++) {
      const folder = mkdtempSync(join(tmpdir(), 'kiosk-site-sync-'))
      folders.push(folder)
      engines.push(await startTestEngine([], folder, { ...handle.options, tenant: TEST_TENANT }))
    }
    ;[a, b] = engines as [TestEngine, TestEngine]
    ;({ kioskId, token } = await pairKiosk(a, 'Lobby'))
    admin = (await call(a, 'POST', fd('/staff/first-admin'), { token, body: { name: 'Ada Admin', secret: 'admin-secret-1' } })).body.session
  })
  afterAll(async () => {
    // Every engine, then the database, even when a test or a start failed.
    for (const engine of engines) await engine.close().catch(() => {})
    await handle?.close()
    for (const folder of folders) rmSync(folder, { recursive: true, force: true })
  })

  const mutation = (seq: number, text = (n: number) => 'x'.repeat(n)): SyncMutation => ({
    kind: 'watchlist-alert',
    id: randomUUID(),
    seq,
    at: Date.now(),
    args: { place: 'enrollment', personUuid: randomUUID(), email: text(254), givenEmail: text(254), reason: text(500) },
  })

  it('pulls and pushes with the kiosk token only', async () => {
    expect((await call(a, 'GET', fd('/sync/pull'))).status).toBe(401)
    expect((await call(a, 'POST', fd('/sync/push'), { body: { mutations: [mutation(1)] } })).status).toBe(401)

    const first = await call(b, 'GET', fd('/sync/pull'), { token })
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    expect(first.headers['cache-control']).toBe('no-store')
    const copy = pullResult.parse(first.body)
    expect(copy.reset).toBe(true)
    expect(copy.ops).toContainEqual({ topic: 'kiosk', key: kioskId, value: { id: kioskId, name: 'Lobby' } })
    const next = await call(a, 'GET', fd(`/sync/pull?cookie=${copy.cookie}`), { token })
    expect(pullResult.parse(next.body)).toMatchObject({ reset: false, ops: [], cookie: copy.cookie })
    // Asked for, the site's public invitation key too (its first, made for the invite below).
    await a.engine.ctx.frontDesk.createInvite({ email: 'guest@example.com', hostId: null, date: '2099-01-01', expiresAt: Date.now() + DAY, createdBy: 'Ada' })
    const withInvites = pullResult.parse((await call(b, 'GET', fd(`/sync/pull?cookie=${copy.cookie}&invites=1`), { token })).body)
    expect(withInvites.ops.map((op) => op.topic).sort()).toEqual(['invite', 'invite-key'])
    expect((await call(b, 'GET', fd('/sync/pull?invites=yes'), { token })).status).toBe(400)

    const push = [mutation(1), mutation(2)]
    const pushed = await call(a, 'POST', fd('/sync/push'), { token, body: { mutations: push } })
    expect(pushed.status, JSON.stringify(pushed.body)).toBe(200)
    expect(pushed.body).toEqual({ lastMutationSeq: 2 })
    // The reply was lost; the kiosk sends it again, through the other engine.
    expect((await call(b, 'POST', fd('/sync/push'), { token, body: { mutations: push } })).body).toEqual({ lastMutationSeq: 2 })
    const alerts = await a.engine.ctx.frontDesk.watchlistAlerts()
    expect(alerts.filter((al) => push.some((m) => m.id === al.id)).map((al) => al.kioskName)).toEqual(['Lobby', 'Lobby'])
    expect((await call(b, 'GET', fd('/sync/pull?cookie=0'), { token })).body.lastMutationSeq).toBe(2)

    // On the site's trail: counts and seqs, none of the acts' e-mails or reasons.
    const trail = await a.engine.ctx.store.db.all<{ detail: string; kiosk_id: string }>("SELECT detail, kiosk_id FROM site_audit WHERE action = 'sync-push' ORDER BY seq")
    expect(trail).toEqual([
      { detail: 'syncPush: 2 acts up to seq 2; last applied 2', kiosk_id: kioskId },
      { detail: 'syncPush: 2 acts up to seq 2; last applied 2', kiosk_id: kioskId },
    ])
    expect(await a.engine.ctx.store.db.get("SELECT seq FROM site_audit WHERE action = 'sync-push' AND detail LIKE '%xxx%'")).toBeUndefined()
  })

  it('takes a push of PUSH_MAX_MUTATIONS acts of the longest texts, and refuses more, or a malformed one, with a clear 400', async () => {
    // Three bytes a character in UTF-8: the most a character of these texts takes.
    const multibyte = (n: number) => '€'.repeat(n - 13) + '@example.com'
    const full = Array.from({ length: PUSH_MAX_MUTATIONS }, (_, i) => mutation(100 + i, multibyte))
    const pushed = await call(a, 'POST', fd('/sync/push'), { token, body: { mutations: full } })
    expect(pushed.status, JSON.stringify(pushed.body).slice(0, 500)).toBe(200)
    expect(pushed.body).toEqual({ lastMutationSeq: 100 + PUSH_MAX_MUTATIONS - 1 })

    const bad: Array<[string, unknown]> = [
      ['no acts', { mutations: [] }],
      ['too many', { mutations: [...full, mutation(1000)] }],
      ['an unknown kind', { mutations: [{ ...mutation(1001), kind: 'delete-everything' }] }],
      ['a seq below 1', { mutations: [mutation(0)] }],
      ['an extra field', { mutations: [{ ...mutation(1002), args: { ...mutation(1002).args, kioskId: randomUUID() } }] }],
      ['not a list', { mutations: 'all of them' }],
    ]
    for (const [what, body] of bad) {
      const reply = await call(a, 'POST', fd('/sync/push'), { token, body })
      expect(reply.status, `${what}: ${JSON.stringify(reply.body).slice(0, 300)}`).toBe(400)
      expect(reply.body, what).toMatchObject({ status: 400, code: 'INVALID_INPUT', path: fd('/sync/push') })
      expect(typeof reply.body.message, what).toBe('string')
    }
    const twice = await call(a, 'POST', fd('/sync/push'), { token, body: { mutations: [mutation(2000), mutation(2000)] } })
    expect(twice.status).toBe(400)
    expect(twice.body.message).toMatch(/same sequence number/)
    expect((await call(a, 'POST', fd('/sync/push'), { token, raw: '{"mutations": [' })).status).toBe(400)
    expect((await call(a, 'GET', fd('/sync/pull?cookie=-1'), { token })).status).toBe(400)
    expect((await call(a, 'GET', fd('/sync/pull?cookie=soon'), { token })).status).toBe(400)
    // Nothing past the last good push was applied.
    expect((await call(a, 'GET', fd('/sync/pull'), { token })).body.lastMutationSeq).toBe(100 + PUSH_MAX_MUTATIONS - 1)
  })

  it("tells the other engine's event streams to pull after a change on one", async () => {
    const { events, close } = await openEvents(b, token)
    try {
      const personUuid = randomUUID()
      const added = await call(a, 'POST', fd('/watchlist'), { token, session: admin, body: { personUuid, email: 'listed@example.com', reason: 'Banned' } })
      expect(added.status, JSON.stringify(added.body)).toBe(200)
      const head = await a.engine.ctx.frontDesk.changesHead()
      const told = await eventually('records-changed on the other engine', async () => events.find((e) => e.type === 'records-changed' && e.seq >= head), { attempts: 100, everyMs: 50 })
      expect(told).toEqual({ type: 'records-changed', seq: head })
      // The kiosk pulls what it was told of.
      const pulled = pullResult.parse((await call(b, 'GET', fd(`/sync/pull?cookie=${head - 1}`), { token })).body)
      expect(pulled.ops).toContainEqual({ topic: 'watchlist', key: personUuid, value: expect.objectContaining({ personUuid, reason: 'Banned' }) })
      // A read announces nothing; nor does a write that changed nothing a kiosk copies.
      const before = events.length
      await call(a, 'GET', fd('/watchlist'), { token, session: admin })
      await call(a, 'POST', fd('/hosts'), { token, session: admin, body: { name: 'Hana Host' } })
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(events.slice(before).filter((e) => e.type === 'records-changed')).toEqual([])
    } finally {
      close()
    }
  })
  it('shows staff the invitation alerts a push raised, at any engine, and dismisses each once', async () => {
    const desk = a.engine.ctx.frontDesk
    const side = await pairKiosk(b, 'Side door')
    const { invite } = await desk.createInvite({ email: 'ines@example.com', hostId: null, date: '2099-01-01', expiresAt: Date.now() + DAY, createdBy: 'Ada' })
    const checkInAway = (seq: number): SyncMutation => ({
      kind: 'check-in',
      id: randomUUID(),
      seq,
      at: Date.now() - 60_000,
      args: { person: { personUuid: randomUUID(), email: 'ines@example.com', firstName: null }, hostId: null, purpose: null, asLastTime: false, inviteId: invite.id },
    })
    const next = (await call(a, 'GET', fd('/sync/pull'), { token })).body.lastMutationSeq + 1
    const first = checkInAway(next)
    const second = checkInAway(1)
    const { events, close } = await openEvents(a, token)
    try {
      expect((await call(a, 'POST', fd('/sync/push'), { token, body: { mutations: [first] } })).status).toBe(200)
      expect((await call(b, 'POST', fd('/sync/push'), { token: side.token, body: { mutations: [second] } })).status).toBe(200)

      // Staff only: the kiosk's token alone reads nothing.
      expect((await call(a, 'GET', fd('/invites/alerts'), { token })).status).toBe(401)
      const listed = await call(a, 'GET', fd('/invites/alerts'), { token, session: admin })
      expect(listed.status, JSON.stringify(listed.body)).toBe(200)
      expect(listed.body).toEqual([expect.objectContaining({ reason: 'used', visit: expect.objectContaining({ id: second.id, kioskName: 'Side door' }), firstVisit: expect.objectContaining({ id: first.id, kioskName: 'Lobby' }) })])
      const alertId = listed.body[0].id as string
      // Raised through the other engine, told on this one's stream.
      await eventually('the invite-alert event', async () => events.find((e) => e.type === 'invite-alert' && e.alertId === alertId), { attempts: 100, everyMs: 50 })

      expect((await call(a, 'POST', fd(`/invites/alerts/${alertId}/dismiss`), { token })).status).toBe(401)
      expect((await call(b, 'POST', fd(`/invites/alerts/${alertId}/dismiss`), { token, session: admin })).status).toBe(204)
      await eventually('the invite-alert-dismissed event', async () => events.find((e) => e.type === 'invite-alert-dismissed' && e.alertId === alertId), { attempts: 100, everyMs: 50 })
      for (const id of [alertId, randomUUID()]) {
        const missing = await call(a, 'POST', fd(`/invites/alerts/${id}/dismiss`), { token, session: admin })
        expect(missing.status).toBe(404)
        expect(missing.body).toMatchObject({ code: 'NOT_FOUND', message: expect.stringMatching(/no open invitation alert/i) })
      }
      expect((await call(b, 'GET', fd('/invites/alerts'), { token, session: admin })).body).toEqual([])
      // Each dismissal asked is on the site's trail, by the alert's id: without a session, done, then found done.
      const trail = await a.engine.ctx.store.db.all<{ outcome: string }>("SELECT outcome FROM site_audit WHERE action = 'invite-alert-dismiss' AND detail LIKE ? ORDER BY seq", [`%alert ${alertId}%`])
      expect(trail.map((row) => row.outcome)).toEqual(['refused', 'ok', 'refused'])
    } finally {
      close()
    }
  })
})

describe('an engine on its own, after its retention', () => {
  it('tells kiosks to pull when the retention removed visits', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'kiosk-site-sync-retention-'))
    let skew = 0
    const engine = await createEngine({ dataDir: folder, plugins: [], tenant: TEST_TENANT, frontDesk: { now: () => Date.now() + skew }, retention: { firstMs: 50, everyMs: 100 } })
    let stream: { events: SiteEvent[]; close(): void } | null = null
    try {
      await engine.ctx.store.tenants.upsert(TEST_TENANT, { name: 'Front desk', maxIdentities: 0, defaultPostBack: null })
      await engine.app.listen({ host: '127.0.0.1', port: 0 })
      const address = engine.app.server.address()
      const site = { engine, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` }
      const { kioskId, token } = await pairKiosk(site, 'Lobby')
      const desk = engine.ctx.frontDesk
      await desk.setLook({ visitorRetentionDays: 30 })
      // In-process, past the routes: only the retention can tell of it.
      const outcome = await desk.checkIn({ person: { personUuid: randomUUID(), email: 'old@example.com', firstName: null }, hostId: null, purpose: 'Meeting', inviteToken: null, asLastTime: false, kioskId })
      if (outcome.outcome !== 'checked-in') throw new Error('refused')
      stream = await openEvents(site, token)
      const head = await desk.changesHead()
      skew = 40 * DAY
      const told = await eventually('records-changed after the retention', async () => stream!.events.find((e) => e.type === 'records-changed'), { attempts: 100, everyMs: 50 })
      expect(told).toEqual({ type: 'records-changed', seq: head + 1 })
      expect(pullResult.parse((await call(site, 'GET', fd(`/sync/pull?cookie=${head}`), { token })).body).ops).toEqual([{ topic: 'visit', key: outcome.visit.id, value: null }])
    } finally {
      stream?.close()
      await engine.close()
      rmSync(folder, { recursive: true, force: true })
    }
  })
})

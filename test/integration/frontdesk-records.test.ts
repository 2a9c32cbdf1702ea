import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createFrontDesk } from '../../electron/records/frontdesk/create-front-desk'
import type { FrontDesk, FrontDeskOptions } from '../../electron/records/frontdesk/front-desk'
import { frontDeskMigrations } from '../../electron/records/frontdesk/migrations'
import { migrate, recordedVersion, SchemaTooNewError, type MigrationSet } from '../../electron/records/sql/migrate'
import { openPostgres } from '../../electron/records/sql/postgres'
import { openSqlite } from '../../electron/records/sql/sqlite'
import type { Database } from '../../electron/records/sql/types'
import type { SiteEvent } from '../../electron/shared/frontdesk-api'
import { PAIRING_ALPHABET, PAIRING_CODE_LENGTH, PAIRING_CODE_TTL_MS } from '../../electron/shared/frontdesk-api'
import { emptyDatabase, postgresClient, startTestPostgres, type TestPostgres } from '../support/postgres'
import { eventually } from '../support/until'

/**
 * The front desk's records (issue 43): the same behaviour on a kiosk's own SQLite file and on a
 * site's real PostgreSQL 15 cluster, which this suite starts and stops. Each test starts on an
 * empty database, with a clock it moves. "Two kiosks" are two FrontDesks: on PostgreSQL each has
 * its own pool, as two engines of a site do; on SQLite they share the one connection a process has.
 */
const DAY = 86_400_000
const PERSON = '5b0f7c2e-8a41-4b8e-9a57-3f2f0d6c1a11'
const OTHER = '00000000-0000-4000-8000-000000000000'
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

describe.each(['sqlite', 'postgres'] as const)('front desk records on %s', (backend) => {
  let cluster: TestPostgres | null = null
  let folder: string
  let file: string
  let clock: { now: number }
  const opened: Database[] = []

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'frontdesk-records-'))
    if (backend === 'postgres') {
      cluster = await startTestPostgres()
      process.env.PGPASSFILE = cluster.passfile
    }
  })
  afterAll(async () => {
    try {
      await cluster?.close()
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })
  beforeEach(async () => {
    clock = { now: Date.UTC(2026, 10, 1) }
    file = join(mkdtempSync(join(folder, 'db-')), 'frontdesk.db')
    if (cluster) await emptyDatabase(cluster.url)
  })
  afterEach(async () => {
    for (const db of opened.splice(0)) await db.close()
  })

  /** A new connection to this test's database (a new pool on PostgreSQL), closed after the test. */
  async function connect(): Promise<Database> {
    const db = cluster ? await openPostgres({ url: cluster.url }) : openSqlite(file)
    opened.push(db)
    return db
  }
  /** Another engine's connection on PostgreSQL; on SQLite, the process's one connection (two in one process would wait on each other's lock). */
  const peerOf = async (db: Database) => (cluster ? connect() : db)
  const close = async (db: Database) => {
    opened.splice(opened.indexOf(db), 1)
    await db.close()
  }
  async function open(options: FrontDeskOptions = {}, db?: Database): Promise<{ desk: FrontDesk; db: Database }> {
    const database = db ?? (await connect())
    await migrate(database, frontDeskMigrations)
    return { desk: createFrontDesk(database, { now: () => clock.now, ...options }), db: database }
  }
  /**
   * Runs `start`'s calls while another connection holds writes to `table` back, until each call
   * waits on a lock (the table's, or the front desk's advisory one): so their transactions overlap
   * in the database, which two engines' can, rather than one after the other.
   */
  async function overlapping<T>(table: string, start: () => Array<Promise<T>>): Promise<Array<PromiseSettledResult<T>>> {
    const blocker = postgresClient(cluster!.url)
    await blocker.connect()
    try {
      await blocker.query('BEGIN')
      await blocker.query(`LOCK TABLE ${table} IN SHARE MODE`)
      const calls = start()
      const settled = Promise.allSettled(calls)
      const waiting = async () => (await blocker.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()")).rows[0].n
      await eventually(`${calls.length} calls waiting on a lock`, async () => (await waiting()) >= calls.length, { attempts: 400, everyMs: 25 })
      await blocker.query('COMMIT')
      return await settled
    } finally {
      await blocker.end()
    }
  }
  const refusal = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error as { code: string; message: string })

  describe('staff accounts', () => {
    it('makes the first administrator once, signed in, and refuses a second', async () => {
      const { desk } = await open()
      expect(await desk.accountCount()).toBe(0)
      const first = await desk.createFirstAdmin('Ada', 'correct horse 1', null)
      expect(first.account).toEqual({ name: 'Ada', role: 'admin', disabled: false, createdAt: clock.now, lastSignInAt: clock.now })
      expect(await desk.session(first.session)).toEqual({ account: 'Ada', role: 'admin' })
      await expect(desk.createFirstAdmin('Mallory', 'another-secret', null)).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: 'The first administrator already exists: sign in instead.',
      })
      expect(await desk.accountCount()).toBe(1)
    })

    it('makes one first administrator when two kiosks race to make one', async () => {
      const a = await open()
      const b = await open({}, await peerOf(a.db))
      const results = await Promise.allSettled([a.desk.createFirstAdmin('Ada', 'correct horse 1', 'kiosk-a'), b.desk.createFirstAdmin('Bob', 'correct horse 2', 'kiosk-b')])
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
      expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'FORBIDDEN' } })
      expect(await a.desk.listAccounts()).toHaveLength(1)
    })

    it.runIf(backend === 'postgres')('makes one first administrator when two engines check and insert at the same time', async () => {
      const a = await open()
      const b = await open({}, await peerOf(a.db))
      const results = await overlapping('accounts', () => [a.desk.createFirstAdmin('Ada', 'correct horse 1', null), b.desk.createFirstAdmin('Bob', 'correct horse 2', null)])
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
      expect(await a.desk.accountCount()).toBe(1)
    })

    it.runIf(backend === 'postgres')('keeps one active administrator when two engines disable the last two at the same time', async () => {
      const a = await open()
      const b = await open({}, await peerOf(a.db))
      await a.desk.createFirstAdmin('Ada', 'right-secret', null)
      await a.desk.createAccount('Grace', 'admin', 'grace-secret')
      const results = await overlapping('accounts', () => [a.desk.setAccountDisabled('Ada', true), b.desk.setAccountDisabled('Grace', true)])
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
      expect((await a.desk.listAccounts()).filter((account) => !account.disabled)).toHaveLength(1)
    })

    it('signs in by any case of the name, and answers a wrong PIN and an unknown name in the same words', async () => {
      const { desk } = await open()
      await desk.createFirstAdmin('Élise', 'right-secret', null)
      await desk.createAccount('Otto', 'operator', 'otto-secret')
      clock.now += 1000
      const signedIn = await desk.signIn('ÉLISE', 'right-secret', 'kiosk-a')
      expect(signedIn.account).toMatchObject({ name: 'Élise', role: 'admin', lastSignInAt: clock.now })
      expect(await desk.session(signedIn.session)).toEqual({ account: 'Élise', role: 'admin' })
      expect((await desk.signIn('otto', 'otto-secret', null)).account).toMatchObject({ name: 'Otto', role: 'operator' })
      await expect(desk.createAccount('élise', 'operator', 'another-secret')).rejects.toMatchObject({ code: 'REJECTED', message: 'An account named élise already exists.' })

      const wrong = await refusal(desk.signIn('Otto', 'not-it', null))
      const unknown = await refusal(desk.signIn('Nobody', 'not-it', null))
      expect(wrong).toMatchObject({ code: 'UNAUTHORIZED', message: 'That name and PIN or password do not match an active staff account.' })
      expect(unknown).toEqual(wrong)
    })

    it('backs off after failed sign-ins, counted across kiosks and kept across a restart', async () => {
      const a = await open()
      const b = await open({}, await peerOf(a.db))
      await a.desk.createFirstAdmin('Ada', 'right-secret', null)
      // Three failures, at two kiosks: the account is paused at both.
      await expect(a.desk.signIn('Ada', 'wrong', null)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
      await expect(b.desk.signIn('ada', 'wrong', null)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
      await expect(a.desk.signIn('Ada', 'wrong', null)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
      for (const desk of [a.desk, b.desk]) {
        await expect(desk.signIn('Ada', 'right-secret', null)).rejects.toMatchObject({
          code: 'TOO_MANY_ATTEMPTS',
          message: 'Too many failed sign-ins. Try again in 5 seconds.',
          retryAfterSeconds: 5,
        })
      }
      await close(a.db)
      if (b.db !== a.db) await close(b.db)

      // A restart does not lift the pause; each further failure doubles it.
      const reopened = await open()
      await expect(reopened.desk.signIn('Ada', 'right-secret', null)).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS' })
      clock.now += 5_001
      await expect(reopened.desk.signIn('Ada', 'wrong', null)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
      await expect(reopened.desk.signIn('Ada', 'right-secret', null)).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS', message: expect.stringContaining('10 seconds') })
      clock.now += 10_001
      await expect(reopened.desk.signIn('Ada', 'right-secret', null)).resolves.toMatchObject({ account: { name: 'Ada' } })
      // A good sign-in clears the count: the next failure is a free one again.
      await expect(reopened.desk.signIn('Ada', 'wrong', null)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
      await expect(reopened.desk.signIn('Ada', 'right-secret', null)).resolves.toMatchObject({ account: { name: 'Ada' } })
    })

    it('backs off an unknown name too, without making an account of it', async () => {
      const { desk } = await open()
      await desk.createFirstAdmin('Ada', 'right-secret', null)
      for (let i = 0; i < 3; i++) await expect(desk.signIn('Nobody', 'guess', null)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
      await expect(desk.signIn('nobody', 'guess', null)).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS', retryAfterSeconds: 5 })
      expect(await desk.accountCount()).toBe(1)
    })

    it('refuses a disabled account, even with its right PIN, and lets it in again once enabled', async () => {
      const { desk } = await open()
      await desk.createFirstAdmin('Ada', 'right-secret', null)
      await desk.createAccount('Otto', 'operator', 'otto-secret')
      expect(await desk.setAccountDisabled('otto', true)).toMatchObject({ name: 'Otto', disabled: true })
      await expect(desk.signIn('Otto', 'otto-secret', null)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
      expect(await desk.setAccountDisabled('Otto', false)).toMatchObject({ disabled: false })
      await expect(desk.signIn('Otto', 'otto-secret', null)).resolves.toMatchObject({ account: { name: 'Otto', disabled: false } })
      await expect(desk.setAccountDisabled('Nobody', true)).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'There is no account named Nobody.' })
    })

    it('never disables the last active administrator', async () => {
      const { desk } = await open()
      await desk.createFirstAdmin('Ada', 'right-secret', null)
      const last = { code: 'REJECTED', message: 'This is the last active administrator: add another before disabling it.' }
      await expect(desk.setAccountDisabled('Ada', true)).rejects.toMatchObject(last)
      clock.now += 1000
      await desk.createAccount('Otto', 'operator', 'otto-secret')
      await expect(desk.setAccountDisabled('Ada', true)).rejects.toMatchObject(last)
      clock.now += 1000
      await desk.createAccount('Grace', 'admin', 'grace-secret')
      await desk.setAccountDisabled('Ada', true)
      await expect(desk.setAccountDisabled('Grace', true)).rejects.toMatchObject(last)
      expect((await desk.listAccounts()).map((a) => [a.name, a.role, a.disabled])).toEqual([
        ['Ada', 'admin', true],
        ['Otto', 'operator', false],
        ['Grace', 'admin', false],
      ])
    })
  })

  describe('staff sessions', () => {
    it('work until signed out, and keep only a hash of the token', async () => {
      const { desk, db } = await open()
      const { session } = await desk.createFirstAdmin('Ada', 'right-secret', 'kiosk-a')
      expect(Buffer.from(session, 'base64url')).toHaveLength(32)
      const second = await desk.signIn('Ada', 'right-secret', 'kiosk-b')
      expect(second.session).not.toBe(session)
      const rows = await db.all<Record<string, unknown>>('SELECT * FROM staff_sessions')
      expect(rows.map((r) => r.token_hash).sort()).toEqual([sha256(session), sha256(second.session)].sort())
      expect(JSON.stringify(rows)).not.toContain(session)
      expect(rows.map((r) => r.kiosk_id).sort()).toEqual(['kiosk-a', 'kiosk-b'])

      await desk.signOut(session)
      await expect(desk.session(session)).rejects.toMatchObject({ code: 'UNAUTHORIZED', message: 'Your staff session has ended: sign in again.' })
      await expect(desk.session(second.session)).resolves.toEqual({ account: 'Ada', role: 'admin' })
      await expect(desk.session('made-up')).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    })

    it('end once idle past the limit; each use counts as activity', async () => {
      const { desk } = await open({ sessionIdleMs: 60_000 })
      const { session } = await desk.createFirstAdmin('Ada', 'right-secret', null)
      clock.now += 59_000
      await expect(desk.session(session)).resolves.toMatchObject({ account: 'Ada' })
      clock.now += 59_000
      await expect(desk.session(session)).resolves.toMatchObject({ account: 'Ada' })
      clock.now += 60_001
      await expect(desk.session(session)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
      // Gone for good: going back in time does not revive it.
      clock.now -= 60_001
      await expect(desk.session(session)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    })

    it('idle for an hour by default', async () => {
      const { desk } = await open()
      const { session } = await desk.createFirstAdmin('Ada', 'right-secret', null)
      clock.now += 60 * 60_000
      await expect(desk.session(session)).resolves.toMatchObject({ account: 'Ada' })
      clock.now += 60 * 60_000 + 1
      await expect(desk.session(session)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    })

    it('end when their account is disabled, at every kiosk, and stay ended when it is enabled again', async () => {
      const a = await open()
      const b = await open({}, await peerOf(a.db))
      await a.desk.createFirstAdmin('Ada', 'right-secret', null)
      await a.desk.createAccount('Otto', 'operator', 'otto-secret')
      const atA = await a.desk.signIn('Otto', 'otto-secret', 'kiosk-a')
      const atB = await b.desk.signIn('Otto', 'otto-secret', 'kiosk-b')
      await expect(b.desk.session(atA.session)).resolves.toEqual({ account: 'Otto', role: 'operator' })
      await a.desk.setAccountDisabled('Otto', true)
      await expect(b.desk.session(atA.session)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
      await expect(b.desk.session(atB.session)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
      await a.desk.setAccountDisabled('Otto', false)
      await expect(b.desk.session(atB.session)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    })

    it('read the account again on every call: one disabled behind the front desk\u2019s back is refused too', async () => {
      const { desk, db } = await open()
      await desk.createFirstAdmin('Ada', 'right-secret', null)
      await desk.createAccount('Otto', 'operator', 'otto-secret')
      const { session } = await desk.signIn('Otto', 'otto-secret', null)
      await db.run("UPDATE accounts SET disabled = 1 WHERE name = 'Otto'")
      await expect(desk.session(session)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    })
  })

  describe('watchlist', () => {
    const entry = { personUuid: PERSON.toUpperCase(), email: 'Listed@Example.com', reason: 'Banned after an incident', addedBy: 'Ada' }

    it('adds, lists, updates and removes entries, keyed by the lower-case uuid', async () => {
      const { desk } = await open()
      const added = await desk.addToWatchlist(entry)
      expect(added).toEqual({ ...entry, personUuid: PERSON, addedAt: clock.now })
      expect(await desk.listWatchlist()).toEqual([added])
      clock.now += 1000
      const updated = await desk.addToWatchlist({ ...entry, personUuid: PERSON, reason: 'Another reason' })
      expect(await desk.listWatchlist()).toEqual([updated])
      expect(await desk.removeFromWatchlist(PERSON.toUpperCase())).toBe(true)
      expect(await desk.removeFromWatchlist(PERSON)).toBe(false)
      expect(await desk.listWatchlist()).toEqual([])
    })

    it('screens by any of the uuids (any case), else by the listed e-mail case-insensitively, and clears everyone else', async () => {
      const { desk } = await open()
      await desk.addToWatchlist(entry)
      const subject = { givenEmail: null, place: 'check-in' as const, kioskId: 'kiosk-a' }
      expect(await desk.screen({ ...subject, personUuids: [OTHER, PERSON.toUpperCase()] })).toMatchObject({ screening: 'watchlisted', personUuid: PERSON, email: 'Listed@Example.com' })
      expect(await desk.screen({ ...subject, personUuids: [OTHER], givenEmail: ' listed@EXAMPLE.COM ' })).toMatchObject({ screening: 'watchlisted', personUuid: PERSON })
      expect(await desk.screen({ ...subject, personUuids: [OTHER], givenEmail: 'other@example.com' })).toEqual({ screening: 'clear' })
      expect(await desk.screen({ ...subject, personUuids: [] })).toEqual({ screening: 'clear' })
      // An enrollment under a new address, found by face: the alert says which address was typed.
      clock.now += 1000
      await desk.screen({ personUuids: [PERSON], givenEmail: 'new@example.com', place: 'enrollment', kioskId: 'kiosk-a' })
      const alerts = await desk.watchlistAlerts()
      expect(alerts.map((a) => a.givenEmail)).toEqual(['new@example.com', null, null])
    })

    it('raises an alert naming the kiosk, told only once it is committed, seen and dismissed once for all kiosks', async () => {
      const heard: SiteEvent[] = []
      const a = await open({
        announce: (event) => {
          heard.push(event)
        },
      })
      const b = await open({}, await peerOf(a.db))
      const { code } = await a.desk.createPairingCode('Ada')
      const lobby = await a.desk.redeemPairingCode(code, 'Lobby')
      await a.desk.addToWatchlist(entry)

      // Whoever hears of the alert can read it at once, from another engine's connection.
      let readable: unknown = null
      const told = await open(
        {
          announce: (event) => {
            heard.push(event)
            readable = b.desk.watchlistAlerts()
          },
        },
        a.db,
      )
      const result = await told.desk.screen({ personUuids: [PERSON], givenEmail: null, place: 'enrollment', kioskId: lobby.id })
      if (result.screening !== 'watchlisted') throw new Error('not stopped')
      expect(await readable).toEqual([
        {
          id: result.alertId,
          at: clock.now,
          kioskId: lobby.id,
          kioskName: 'Lobby',
          place: 'enrollment',
          personUuid: PERSON,
          email: 'Listed@Example.com',
          givenEmail: null,
          reason: 'Banned after an incident',
        },
      ])
      // A kiosk the site does not know (a kiosk on its own) is named by its id alone.
      clock.now += 1000
      const own = await a.desk.screen({ personUuids: [PERSON], givenEmail: null, place: 'check-in', kioskId: 'own-kiosk' })
      expect((await b.desk.watchlistAlerts())[0]).toMatchObject({ kioskId: 'own-kiosk', kioskName: null })

      expect(await b.desk.dismissAlert(result.alertId, 'Otto')).toBe(true)
      expect(await a.desk.dismissAlert(result.alertId, 'Ada')).toBe(false)
      expect(await a.desk.dismissAlert('11111111-1111-4111-8111-111111111111', 'Ada')).toBe(false)
      expect((await a.desk.watchlistAlerts()).map((alert) => alert.id)).toEqual([own.screening === 'watchlisted' ? own.alertId : ''])
      expect(heard).toEqual([
        { type: 'watchlist-alert', alertId: result.alertId },
        { type: 'watchlist-alert', alertId: own.screening === 'watchlisted' ? own.alertId : '' },
      ])
    })

    it('announces a dismissal once', async () => {
      const heard: SiteEvent[] = []
      const { desk } = await open({ announce: (event) => void heard.push(event) })
      await desk.addToWatchlist(entry)
      const result = await desk.screen({ personUuids: [PERSON], givenEmail: null, place: 'check-in', kioskId: null })
      if (result.screening !== 'watchlisted') throw new Error('not stopped')
      expect((await desk.watchlistAlerts())[0]).toMatchObject({ kioskId: '', kioskName: null })
      await desk.dismissAlert(result.alertId, 'Ada')
      await desk.dismissAlert(result.alertId, 'Ada')
      expect(heard).toEqual([
        { type: 'watchlist-alert', alertId: result.alertId },
        { type: 'watchlist-alert-dismissed', alertId: result.alertId },
      ])
    })

    it('shows the 50 newest open alerts, newest first', async () => {
      const { desk } = await open()
      await desk.addToWatchlist(entry)
      const raised: string[] = []
      for (let i = 0; i < 52; i++) {
        clock.now += 1000
        const result = await desk.screen({ personUuids: [PERSON], givenEmail: null, place: 'check-in', kioskId: 'k' })
        if (result.screening === 'watchlisted') raised.push(result.alertId)
      }
      expect((await desk.watchlistAlerts()).map((a) => a.id)).toEqual(raised.reverse().slice(0, 50))
    })

    it('forgets a dismissed alert after its keeping time, never an open one', async () => {
      const { desk } = await open()
      await desk.addToWatchlist(entry)
      const subject = { personUuids: [PERSON], givenEmail: null, place: 'check-in' as const, kioskId: 'k' }
      const first = await desk.screen(subject)
      const second = await desk.screen(subject)
      if (first.screening !== 'watchlisted' || second.screening !== 'watchlisted') throw new Error('not stopped')
      expect(await desk.dismissAlert(first.alertId, 'Otto')).toBe(true)
      clock.now += 29 * DAY
      expect(await desk.pruneDismissed(30)).toBe(0)
      clock.now += 2 * DAY
      expect(await desk.pruneDismissed(30)).toBe(1)
      expect(await desk.pruneDismissed(30)).toBe(0)
      expect((await desk.watchlistAlerts()).map((a) => a.id)).toEqual([second.alertId])
    })
  })

  describe('pairing and kiosks', () => {
    it('makes a short single-use code, valid 15 minutes, and keeps only its hash', async () => {
      const { desk, db } = await open()
      const made = await desk.createPairingCode('Ada')
      expect(made.code).toMatch(new RegExp(`^[${PAIRING_ALPHABET}]{${PAIRING_CODE_LENGTH}}$`))
      expect(made.expiresAt).toBe(new Date(clock.now + PAIRING_CODE_TTL_MS).toISOString())
      const rows = await db.all<Record<string, unknown>>('SELECT * FROM pairing_codes')
      expect(rows).toEqual([expect.objectContaining({ code_hash: sha256(made.code), created_by: 'Ada', used_at: null })])
      expect(JSON.stringify(rows)).not.toContain(made.code)
      // Typed as people type it: lower case, with a dash.
      const typed = `${made.code.slice(0, 4)}-${made.code.slice(4)}`.toLowerCase()
      const kiosk = await desk.redeemPairingCode(typed, ' Lobby ')
      expect(kiosk).toEqual({ id: expect.any(String), name: 'Lobby', joinedAt: clock.now, lastSeenAt: null })
      expect(await desk.listKiosks()).toEqual([kiosk])
    })

    it('refuses a wrong, a used and an expired code, each in its own words', async () => {
      const { desk } = await open()
      const used = await desk.createPairingCode('Ada')
      await desk.redeemPairingCode(used.code, 'Lobby')
      const expiring = await desk.createPairingCode('Ada')
      const unknown = used.code === '23456789' ? '98765432' : '23456789'
      const refusals = [
        await refusal(desk.redeemPairingCode(unknown, 'Side door')),
        await refusal(desk.redeemPairingCode('not a code', 'Side door')),
        await refusal(desk.redeemPairingCode(used.code, 'Side door')),
      ]
      clock.now += PAIRING_CODE_TTL_MS
      refusals.push(await refusal(desk.redeemPairingCode(expiring.code, 'Side door')))
      expect(refusals).toEqual([
        expect.objectContaining({ code: 'REJECTED', message: 'This pairing code is wrong: check it and type it again, or make a new one.' }),
        expect.objectContaining({ code: 'REJECTED', message: 'This pairing code is wrong: check it and type it again, or make a new one.' }),
        expect.objectContaining({ code: 'REJECTED', message: 'This pairing code has already been used: make a new one.' }),
        expect.objectContaining({ code: 'REJECTED', message: 'This pairing code has expired (a code is valid for 15 minutes): make a new one.' }),
      ])
      expect((await desk.listKiosks()).map((k) => k.name)).toEqual(['Lobby'])
    })

    it('pairs one kiosk when two redeem the same code at once', async () => {
      const a = await open()
      const b = await open({}, await peerOf(a.db))
      for (let round = 0; round < 5; round++) {
        const { code } = await a.desk.createPairingCode('Ada')
        const results = await Promise.allSettled([a.desk.redeemPairingCode(code, `A${round}`), b.desk.redeemPairingCode(code, `B${round}`)])
        expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
        expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'REJECTED', message: expect.stringContaining('already been used') } })
      }
      expect(await a.desk.listKiosks()).toHaveLength(5)
    })

    it('does alsoDo in the same transaction: when it fails, the code stays usable and no kiosk is recorded', async () => {
      const { desk } = await open()
      const { code } = await desk.createPairingCode('Ada')
      const failing = desk.redeemPairingCode(code, 'Lobby', async (tx, kiosk) => {
        // The kiosk is already there, in this transaction.
        expect(await tx.get('SELECT name FROM kiosks WHERE id = ?', [kiosk.id])).toEqual({ name: 'Lobby' })
        await tx.run('UPDATE kiosks SET name = ? WHERE id = ?', ['Renamed', kiosk.id])
        throw new Error('the OAuth client could not be made')
      })
      await expect(failing).rejects.toThrow('the OAuth client could not be made')
      expect(await desk.listKiosks()).toEqual([])
      let seenInside: unknown = null
      const kiosk = await desk.redeemPairingCode(code, 'Lobby', async (tx, made) => {
        seenInside = await tx.get('SELECT name FROM kiosks WHERE id = ?', [made.id])
      })
      expect(seenInside).toEqual({ name: 'Lobby' })
      expect(await desk.listKiosks()).toEqual([kiosk])
    })

    it('tells a paired kiosk from a removed one, keeps its last-seen time, and ends staff sessions at a removed kiosk', async () => {
      const { desk } = await open()
      await desk.createFirstAdmin('Ada', 'right-secret', null)
      const lobby = await desk.redeemPairingCode((await desk.createPairingCode('Ada')).code, 'Lobby')
      clock.now += 1000
      const door = await desk.redeemPairingCode((await desk.createPairingCode('Ada')).code, 'Side door')
      clock.now += 60_000
      expect(await desk.seenKiosk(lobby.id)).toEqual({ ...lobby, lastSeenAt: clock.now })
      expect((await desk.listKiosks()).map((k) => [k.name, k.lastSeenAt])).toEqual([
        ['Lobby', clock.now],
        ['Side door', null],
      ])
      const atLobby = await desk.signIn('Ada', 'right-secret', lobby.id)
      const atDoor = await desk.signIn('Ada', 'right-secret', door.id)

      expect(await desk.removeKiosk(lobby.id)).toBe(true)
      expect(await desk.removeKiosk(lobby.id)).toBe(false)
      expect(await desk.removeKiosk('11111111-1111-4111-8111-111111111111')).toBe(false)
      expect(await desk.seenKiosk(lobby.id)).toBeNull()
      expect(await desk.seenKiosk('11111111-1111-4111-8111-111111111111')).toBeNull()
      expect((await desk.listKiosks()).map((k) => k.name)).toEqual(['Side door'])
      await expect(desk.session(atLobby.session)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
      await expect(desk.session(atDoor.session)).resolves.toMatchObject({ account: 'Ada' })
    })
  })

  describe("the organisation's look", () => {
    const png = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#0b5cad' } }).png().toBuffer()

    it('is the defaults until set; a patch changes only what it carries, announced after it is committed', async () => {
      const heard: SiteEvent[] = []
      const { desk } = await open({ announce: (event) => void heard.push(event) })
      expect(await desk.getLook()).toEqual({ organisationName: 'Identity Kiosk', welcomeLine: '', accentColour: '#0b5cad', visitorRetentionDays: null, logo: null })
      const logo = (await png(30, 10)).toString('base64')
      expect(await desk.setLook({ organisationName: ' Harbour Offices ', accentColour: '#1F5F3A', logo })).toEqual({
        organisationName: 'Harbour Offices',
        welcomeLine: '',
        accentColour: '#1f5f3a',
        visitorRetentionDays: null,
        logo,
      })
      expect(heard).toEqual([{ type: 'look' }])
      const after = await desk.setLook({ visitorRetentionDays: 30, welcomeLine: 'Welcome' })
      expect(after).toMatchObject({ organisationName: 'Harbour Offices', accentColour: '#1f5f3a', visitorRetentionDays: 30, welcomeLine: 'Welcome', logo })
      expect(await desk.getLook()).toEqual(after)
      expect((await desk.setLook({ logo: null, visitorRetentionDays: null })).logo).toBeNull()
    })

    it('refuses what the settings would refuse, and a logo that is not a small PNG, changing nothing', async () => {
      const heard: SiteEvent[] = []
      const { desk } = await open({ announce: (event) => void heard.push(event) })
      const before = await desk.setLook({ organisationName: 'Harbour Offices' })
      heard.length = 0
      const jpeg = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000000' } }).jpeg().toBuffer()
      for (const patch of [
        { organisationName: '' },
        { welcomeLine: 'two\nlines' },
        { accentColour: '#ffff00' },
        { visitorRetentionDays: 0 },
        { logo: jpeg.toString('base64') },
        { logo: (await png(600, 10)).toString('base64') },
        { logo: Buffer.from('not a png at all').toString('base64') },
        { organisationName: 'Fine', idleTimeoutSeconds: 30 } as never,
      ]) {
        const refused = await refusal(desk.setLook(patch))
        expect(refused, JSON.stringify(patch).slice(0, 60)).toMatchObject({ code: 'INVALID_INPUT' })
      }
      expect(await desk.getLook()).toEqual(before)
      expect(heard).toEqual([])
    })

    it('keeps both changes when two kiosks set different fields at once', async () => {
      const a = await open()
      const b = await open({}, await peerOf(a.db))
      await Promise.all([a.desk.setLook({ organisationName: 'From A' }), b.desk.setLook({ welcomeLine: 'From B' }), a.desk.setLook({ visitorRetentionDays: 7 })])
      expect(await b.desk.getLook()).toMatchObject({ organisationName: 'From A', welcomeLine: 'From B', visitorRetentionDays: 7 })
    })
  })

  describe('migrations', () => {
    /** A set whose steps would fail if applied twice (CREATE TABLE without IF NOT EXISTS), counting each run. */
    const counted = (name: string, steps = 3): MigrationSet => ({
      name,
      steps: Array.from({ length: steps }, (_, i) => {
        const script = `${i === 0 ? `CREATE TABLE ${name}_runs (step INTEGER NOT NULL);` : ''} CREATE TABLE ${name}_t${i} (x INTEGER); INSERT INTO ${name}_runs (step) VALUES (${i + 1});`
        return { sqlite: script, postgres: script }
      }),
    })

    it('applies each step once: opening again is a no-op', async () => {
      const db = await connect()
      await migrate(db, frontDeskMigrations)
      await migrate(db, counted('demo'))
      const desk = createFrontDesk(db, { now: () => clock.now })
      await desk.addToWatchlist({ personUuid: PERSON, email: 'a@example.com', reason: 'r', addedBy: 'Ada' })
      await close(db)

      const again = await connect()
      await migrate(again, frontDeskMigrations)
      await migrate(again, counted('demo'))
      expect(await recordedVersion(again, 'frontdesk')).toBe(frontDeskMigrations.steps.length)
      expect(await recordedVersion(again, 'demo')).toBe(3)
      expect(await again.all('SELECT step FROM demo_runs ORDER BY step')).toEqual([{ step: 1 }, { step: 2 }, { step: 3 }])
      expect(await createFrontDesk(again).listWatchlist()).toHaveLength(1)
      // A set learns new steps: only those run.
      await migrate(again, counted('demo', 4))
      expect(await again.all('SELECT step FROM demo_runs ORDER BY step')).toEqual([{ step: 1 }, { step: 2 }, { step: 3 }, { step: 4 }])
    })

    it('refuses a database migrated by newer code, and leaves it as it is', async () => {
      const db = await connect()
      await migrate(db, counted('demo'))
      await db.run("UPDATE schema_versions SET version = 4 WHERE name = 'demo'")
      const refused = await refusal(migrate(db, counted('demo')))
      expect(refused).toBeInstanceOf(SchemaTooNewError)
      expect(refused?.message).toContain('version 4, newer than this program')
      expect(await recordedVersion(db, 'demo')).toBe(4)
    })

    it('runs each step in its own transaction: a failing step leaves the ones before it applied, and none of itself', async () => {
      const db = await connect()
      const broken: MigrationSet = {
        name: 'broken',
        steps: [
          { sqlite: 'CREATE TABLE broken_a (x INTEGER)', postgres: 'CREATE TABLE broken_a (x INTEGER)' },
          { sqlite: 'CREATE TABLE broken_b (x INTEGER); INSERT INTO no_such_table VALUES (1);', postgres: 'CREATE TABLE broken_b (x INTEGER); INSERT INTO no_such_table VALUES (1);' },
        ],
      }
      await expect(migrate(db, broken)).rejects.toThrow(/no_such_table/)
      expect(await recordedVersion(db, 'broken')).toBe(1)
      await db.get('SELECT count(*) AS n FROM broken_a')
      await expect(db.get('SELECT count(*) AS n FROM broken_b')).rejects.toThrow(/broken_b/)
    })

    it('migrates once when two engines open the database at the same moment', async () => {
      const a = await connect()
      const b = await peerOf(a)
      await Promise.all([migrate(a, counted('race', 5)), migrate(b, counted('race', 5)), migrate(a, frontDeskMigrations), migrate(b, frontDeskMigrations)])
      expect(await a.all('SELECT step FROM race_runs ORDER BY step')).toEqual([1, 2, 3, 4, 5].map((step) => ({ step })))
      expect(await recordedVersion(b, 'frontdesk')).toBe(frontDeskMigrations.steps.length)
    })
  })
})

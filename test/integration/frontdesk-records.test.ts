import { createHash, createHmac, randomBytes } from 'node:crypto'
import sharp from 'sharp'
import { beforeEach, describe, expect, it } from 'vitest'
import { createFrontDesk } from '../../electron/records/frontdesk/create-front-desk'
import type { FrontDesk, FrontDeskOptions } from '../../electron/records/frontdesk/front-desk'
import { singleKeyring } from '../../electron/records/frontdesk/invite-keyring'
import { readInviteToken, signInviteToken } from '../../electron/records/frontdesk/invite-tokens'
import { VISIT_EXPORT_MAX, type CheckInOutcome, type CheckInRequest, type NewInviteRequest } from '../../electron/records/frontdesk/visit-types'
import { frontDeskMigrations } from '../../electron/records/frontdesk/migrations'
import { migrate, recordedVersion, SchemaTooNewError, type MigrationSet } from '../../electron/records/sql/migrate'
import type { Database } from '../../electron/records/sql/types'
import type { SiteEvent } from '../../electron/shared/frontdesk-api'
import { PAIRING_ALPHABET, PAIRING_CODE_LENGTH, PAIRING_CODE_TTL_MS } from '../../electron/shared/frontdesk-api'
import { INVITE_TOKEN_MAX, type InviteState } from '../../electron/shared/invites'
import type { Visit, VisitFilter } from '../../electron/shared/visits'
import { postgresClient } from '../support/postgres'
import { useSqlBackend } from '../support/sql-backend'
import { eventually } from '../support/until'

/**
 * The front desk's records: the same behaviour on a kiosk's own SQLite file and on a
 * site's real PostgreSQL 15 cluster, which this suite starts and stops. Each test starts on an
 * empty database, with a clock it moves. "Two kiosks" are two FrontDesks: on PostgreSQL each has
 * its own pool, as two engines of a site do; on SQLite they share the one connection a process has.
 */
const DAY = 86_400_000
const PERSON = '5b0f7c2e-8a41-4b8e-9a57-3f2f0d6c1a11'
const OTHER = '00000000-0000-4000-8000-000000000000'
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

describe.each(['sqlite', 'postgres'] as const)('front desk records on %s', (backend) => {
  const sql = useSqlBackend(backend, 'frontdesk-records-')
  const { connect, close } = sql
  let clock: { now: number }

  beforeEach(() => {
    clock = { now: Date.UTC(2026, 10, 1) }
  })

  /** Another engine's connection on PostgreSQL; on SQLite, the process's one connection (two in one process would wait on each other's lock). */
  const peerOf = async (db: Database) => (sql.cluster ? connect() : db)
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
    const blocker = postgresClient(sql.cluster!.url)
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
  const checkedIn = (outcome: CheckInOutcome) => {
    if (outcome.outcome !== 'checked-in') throw new Error(`refused: ${outcome.reason}`)
    return outcome
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
          firstName: null,
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
      expect(await desk.listKiosks()).toEqual([{ ...kiosk, copy: null, health: null }])
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
      expect(await desk.listKiosks()).toEqual([{ ...kiosk, copy: null, health: null }])
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

  describe('hosts', () => {
    const fields = (name: string) => ({ name, email: `${name.toLowerCase()}@example.com`, webhookUrl: null })

    it('adds, lists by name in any case, reads, updates and removes hosts', async () => {
      const { desk } = await open()
      const zoe = await desk.addHost(fields('Zoe'))
      const adam = await desk.addHost({ name: 'adam', email: null, webhookUrl: 'https://hooks.example.com/a' })
      const bea = await desk.addHost({ ...fields('Bea'), id: 'sneaked-in' } as never)
      expect(zoe).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Zoe', email: 'zoe@example.com', webhookUrl: null })
      expect(bea.id).not.toBe('sneaked-in')
      expect(await desk.listHosts()).toEqual([adam, bea, zoe])
      expect(await desk.getHost(adam.id)).toEqual(adam)
      expect(await desk.getHost('no-such-host')).toBeNull()
      const renamed = await desk.updateHost(zoe.id, { name: 'Aaron', email: null, webhookUrl: null })
      expect(renamed).toEqual({ id: zoe.id, name: 'Aaron', email: null, webhookUrl: null })
      expect(await desk.updateHost('no-such-host', fields('X'))).toBeNull()
      expect((await desk.listHosts()).map((h) => h.name)).toEqual(['Aaron', 'adam', 'Bea'])
      expect(await desk.removeHost(adam.id)).toBe(true)
      expect(await desk.removeHost(adam.id)).toBe(false)
      expect((await desk.listHosts()).map((h) => h.name)).toEqual(['Aaron', 'Bea'])
    })
  })

  describe('visits', () => {
    const visitor = (personUuid = PERSON, email = 'Visitor@Example.com', firstName: string | null = 'Vera') => ({ personUuid, email, firstName })
    const request = (over: Partial<CheckInRequest> = {}): CheckInRequest => ({
      person: visitor(),
      hostId: null,
      purpose: null,
      inviteToken: null,
      asLastTime: false,
      kioskId: 'kiosk-a',
      ...over,
    })

    it('checks a person in once, naming the kiosk, and gives back the open visit on a second check-in', async () => {
      const { desk, db } = await open()
      const lobby = await desk.redeemPairingCode((await desk.createPairingCode('Ada')).code, 'Lobby')
      const host = await desk.addHost({ name: 'Hana', email: 'hana@example.com', webhookUrl: 'https://hooks.example.com/h' })
      const first = checkedIn(await desk.checkIn(request({ person: visitor(PERSON.toUpperCase()), hostId: host.id, purpose: 'Interview', kioskId: lobby.id })))
      expect(first).toEqual({
        outcome: 'checked-in',
        alreadyOnSite: false,
        host,
        // This desk tells no host itself (the caller is given the host): it promises nothing.
        hostNotified: false,
        visit: {
          id: expect.any(String),
          personUuid: PERSON,
          email: 'Visitor@Example.com',
          firstName: 'Vera',
          hostId: host.id,
          hostName: 'Hana',
          purpose: 'Interview',
          checkedInAt: new Date(clock.now).toISOString(),
          checkedOutAt: null,
          checkedOutBy: null,
          kioskId: lobby.id,
          kioskName: 'Lobby',
          inviteId: null,
        },
      })
      clock.now += 1000
      const again = await desk.checkIn(request({ hostId: host.id, purpose: 'Something else', kioskId: 'kiosk-b' }))
      expect(again).toEqual({ outcome: 'checked-in', alreadyOnSite: true, host: null, hostNotified: false, visit: first.visit })
      expect(await db.all('SELECT id FROM visits')).toEqual([{ id: first.visit.id }])
      // A visit keeps its host's name as it was; no host, no one to tell.
      await desk.updateHost(host.id, { ...host, name: 'Hana B.' })
      expect((await desk.lastVisitOf(PERSON))?.hostName).toBe('Hana')
      const alone = checkedIn(await desk.checkIn(request({ person: visitor(OTHER, 'o@example.com', null), kioskId: null })))
      expect(alone).toMatchObject({ alreadyOnSite: false, host: null, visit: { hostId: null, hostName: null, purpose: '', firstName: null, kioskId: '', kioskName: null } })
    })

    it('refuses a chosen host that left the directory, storing nothing', async () => {
      const { desk, db } = await open()
      const host = await desk.addHost({ name: 'Hana', email: null, webhookUrl: null })
      await desk.removeHost(host.id)
      await expect(desk.checkIn(request({ hostId: host.id }))).rejects.toMatchObject({ code: 'INVALID_INPUT', message: 'That host is not in the directory any more: choose another.' })
      expect(await db.all('SELECT id FROM visits')).toEqual([])
    })

    it('brings a returning visitor who names no host to whom they saw last time, for the same reason', async () => {
      const { desk } = await open()
      const host = await desk.addHost({ name: 'Hana', email: 'hana@example.com', webhookUrl: null })
      const other = await desk.addHost({ name: 'Otis', email: null, webhookUrl: null })
      const first = checkedIn(await desk.checkIn(request({ hostId: host.id, purpose: 'Audit' })))
      await desk.checkOut(PERSON)
      clock.now += DAY

      const back = checkedIn(await desk.checkIn(request({ person: visitor(PERSON, 'visitor@example.com', null), asLastTime: true })))
      expect(back).toMatchObject({ alreadyOnSite: false, host, visit: { hostId: host.id, hostName: 'Hana', purpose: 'Audit', firstName: 'Vera' } })
      expect(back.visit.id).not.toBe(first.visit.id)
      await desk.checkOut(PERSON)
      clock.now += DAY
      // Naming a host: that host, and no purpose unless given.
      const chose = checkedIn(await desk.checkIn(request({ person: visitor(PERSON, 'visitor@example.com', null), asLastTime: true, hostId: other.id })))
      expect(chose.visit).toMatchObject({ hostId: other.id, purpose: '' })
      await desk.checkOut(PERSON)
      clock.now += DAY
      // Last time's host gone from the directory: nobody to see, the reason still kept.
      await desk.removeHost(other.id)
      const gone = checkedIn(await desk.checkIn(request({ person: visitor(PERSON, 'visitor@example.com', null), asLastTime: true, purpose: 'Delivery' })))
      expect(gone).toMatchObject({ host: null, visit: { hostId: null, purpose: 'Delivery' } })
      // Not asLastTime: nothing carried over.
      await desk.checkOut(PERSON)
      clock.now += DAY
      const fresh = checkedIn(await desk.checkIn(request({ person: visitor(PERSON, 'visitor@example.com', null) })))
      expect(fresh.visit).toMatchObject({ hostId: null, purpose: '', firstName: null })
    })

    it('checks out by person (the visitor) and lets staff end a visit, each once', async () => {
      const { desk } = await open()
      expect(await desk.checkOut(PERSON)).toBeNull()
      const visit = checkedIn(await desk.checkIn(request())).visit
      clock.now += 60_000
      const out = await desk.checkOut(PERSON.toUpperCase())
      expect(out).toEqual({ ...visit, checkedOutAt: new Date(clock.now).toISOString(), checkedOutBy: 'visitor' })
      expect(await desk.checkOut(PERSON)).toBeNull()
      await expect(desk.endVisit(visit.id)).rejects.toMatchObject({ code: 'INVALID_INPUT', message: 'That visit has already ended.' })
      await expect(desk.endVisit('no-such-visit')).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'There is no such visit.' })

      const next = checkedIn(await desk.checkIn(request())).visit
      clock.now += 1000
      expect(await desk.endVisit(next.id)).toMatchObject({ id: next.id, checkedOutBy: 'staff', checkedOutAt: new Date(clock.now).toISOString() })
      expect(await desk.onSite()).toEqual([])
    })

    it('checks one person in once when two kiosks do it at the same moment', async () => {
      const a = await open()
      const b = await open({}, await peerOf(a.db))
      const start = () => [a.desk.checkIn(request({ kioskId: 'kiosk-a' })), b.desk.checkIn(request({ kioskId: 'kiosk-b' }))]
      const results = sql.cluster ? await overlapping('visits', start) : await Promise.allSettled(start())
      const outcomes = results.map((r) => {
        if (r.status === 'rejected') throw r.reason
        return checkedIn(r.value)
      })
      expect(outcomes.map((o) => o.alreadyOnSite).sort()).toEqual([false, true])
      expect(new Set(outcomes.map((o) => o.visit.id)).size).toBe(1)
      expect(outcomes.find((o) => o.alreadyOnSite)?.host).toBeNull()
      expect(await a.db.all('SELECT id FROM visits')).toHaveLength(1)
    })

    it('lists who is on site oldest first, with the kiosk each came through', async () => {
      const { desk } = await open()
      const lobby = await desk.redeemPairingCode((await desk.createPairingCode('Ada')).code, 'Lobby')
      const early = checkedIn(await desk.checkIn(request({ person: visitor(OTHER, 'o@example.com'), kioskId: lobby.id }))).visit
      clock.now += 1000
      const late = checkedIn(await desk.checkIn(request({ kioskId: 'own-kiosk' }))).visit
      const third = '11111111-1111-4111-8111-111111111111'
      checkedIn(await desk.checkIn(request({ person: visitor(third, 't@example.com') })))
      await desk.checkOut(third)
      // A kiosk removed since is still named.
      await desk.removeKiosk(lobby.id)
      expect((await desk.onSite()).map((v) => [v.id, v.kioskName])).toEqual([
        [early.id, 'Lobby'],
        [late.id, null],
      ])
    })

    it('pages the log newest first by search, dates, host and presence, and exports what matches', async () => {
      const { desk } = await open()
      const hana = await desk.addHost({ name: 'Hana', email: null, webhookUrl: null })
      const people = ['aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'cccccccc-cccc-4ccc-8ccc-cccccccccccc', 'dddddddd-dddd-4ddd-8ddd-dddddddddddd']
      const ids: string[] = []
      for (const [i, uuid] of people.entries()) {
        clock.now += 1000
        const purpose = ['Interview', '100% sure', 'Delivery', 'interview round 2'][i]!
        ids.push(checkedIn(await desk.checkIn(request({ person: visitor(uuid, `p${i}@Example.com`, `Name${i}`), hostId: i % 2 === 0 ? hana.id : null, purpose }))).visit.id)
      }
      await desk.checkOut(people[0]!)
      const log = (filter: VisitFilter, pageNo = 0, pageSize = 50) => desk.visitLog(filter, pageNo, pageSize)
      const idsOf = (result: { visits: Visit[] }) => result.visits.map((v) => ids.indexOf(v.id))

      expect(idsOf(await log({}))).toEqual([3, 2, 1, 0])
      expect(await log({}, 1, 3)).toMatchObject({ total: 4 })
      expect(idsOf(await log({}, 1, 3))).toEqual([0])
      expect(idsOf(await log({ search: 'INTERVIEW' }))).toEqual([3, 0])
      // The search is literal: % and _ are not wildcards.
      expect(idsOf(await log({ search: '0%' }))).toEqual([1])
      expect(idsOf(await log({ search: 'p_@' }))).toEqual([])
      expect(idsOf(await log({ search: 'Hana' }))).toEqual([2, 0])
      expect(idsOf(await log({ hostId: hana.id, onSite: true }))).toEqual([2])
      expect(idsOf(await log({ onSite: false }))).toEqual([0])
      const start = Date.UTC(2026, 10, 1)
      expect(await log({ from: new Date(start + 2000).toISOString(), to: new Date(start + 3000).toISOString() })).toMatchObject({ total: 2 })
      expect((await desk.exportVisits({ search: 'name' })).map((v) => ids.indexOf(v.id))).toEqual([3, 2, 1, 0])
    })

    it('counts the Overview in the database: check-ins per quarter hour in the range, on site now, the average stay, the busiest hosts by their name now', async () => {
      const { desk } = await open()
      const start = clock.now
      const [hana, ivo] = [await desk.addHost({ name: 'Hana', email: null, webhookUrl: null }), await desk.addHost({ name: 'Ivo', email: null, webhookUrl: null })]
      const people = [0, 1, 2, 3].map((i) => `${i}${i}${i}${i}${i}${i}${i}${i}-aaaa-4aaa-8aaa-aaaaaaaaaaaa`)
      // Two in the first quarter hour (one at its last millisecond), one in the third; one before the range.
      const at = [start + 1000, start + 15 * 60_000 - 1, start + 31 * 60_000, start - 1]
      const host = [hana.id, hana.id, ivo.id, ivo.id]
      for (const [i, uuid] of people.entries()) {
        clock.now = at[i]!
        checkedIn(await desk.checkIn(request({ person: visitor(uuid, `o${i}@example.com`), hostId: host[i]!, purpose: 'Meeting' })))
      }
      // Stays of 10 and 20 minutes; the others still on site.
      clock.now = at[0]! + 10 * 60_000
      await desk.checkOut(people[0]!)
      clock.now = at[2]! + 20 * 60_000
      await desk.checkOut(people[2]!)
      await desk.updateHost(ivo.id, { name: 'Ivo Petrov', email: null, webhookUrl: null })

      const overview = await desk.visitOverview({ from: new Date(start).toISOString(), to: new Date(start + DAY).toISOString() })
      expect(overview).toEqual({
        arrivals: [
          [start, 2],
          [start + 30 * 60_000, 1],
        ],
        onSiteNow: 2,
        ended: 2,
        averageStaySeconds: 15 * 60,
        busiestHosts: [
          { hostId: hana.id, name: 'Hana', visits: 2 },
          { hostId: ivo.id, name: 'Ivo Petrov', visits: 1 },
        ],
      })
      // A range with nothing in it: nothing counted, still who is on site.
      expect(await desk.visitOverview({ from: new Date(start + 2 * DAY).toISOString(), to: new Date(start + 3 * DAY).toISOString() })).toEqual({ arrivals: [], onSiteNow: 2, ended: 0, averageStaySeconds: null, busiestHosts: [] })
    })

    it(`refuses an export of more than ${VISIT_EXPORT_MAX} visits, saying to narrow the filter`, async () => {
      const { desk, db } = await open()
      const many = VISIT_EXPORT_MAX + 1
      await db.run(
        backend === 'postgres'
          ? `INSERT INTO visits (id, person_uuid, email, email_key, purpose, checked_in_at, checked_out_at, kiosk_id)
             SELECT 'v' || n, 'p' || n, 'e@x.com', 'e@x.com', '', n, n, 'k' FROM generate_series(1, ${many}) AS n`
          : `WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${many})
             INSERT INTO visits (id, person_uuid, email, email_key, purpose, checked_in_at, checked_out_at, kiosk_id) SELECT 'v' || n, 'p' || n, 'e@x.com', 'e@x.com', '', n, n, 'k' FROM s`,
      )
      await expect(desk.exportVisits({})).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('narrow the filter') })
      expect(await desk.exportVisits({ to: new Date(VISIT_EXPORT_MAX).toISOString() })).toHaveLength(VISIT_EXPORT_MAX)
    })

    it('forgets a person: their visits by e-mail (any case) and by id, and their invites', async () => {
      const { desk } = await open()
      const mine = checkedIn(await desk.checkIn(request())).visit
      await desk.checkOut(PERSON)
      // The same person under another id (enrolled again), and someone else.
      const again = checkedIn(await desk.checkIn(request({ person: visitor('22222222-2222-4222-8222-222222222222', 'visitor@example.COM') }))).visit
      const theirs = checkedIn(await desk.checkIn(request({ person: visitor(OTHER, 'o@example.com') }))).visit
      const expiresAt = clock.now + DAY
      await desk.createInvite({ email: 'VISITOR@example.com', hostId: null, date: '2026-11-02', expiresAt, createdBy: 'Ada' })
      await desk.createInvite({ email: 'o@example.com', hostId: null, date: '2026-11-02', expiresAt, createdBy: 'Ada' })

      const forgotten = await desk.forgetPerson({ userId: ' Visitor@Example.com ' })
      expect(forgotten.visitIds.sort()).toEqual([mine.id, again.id].sort())
      expect(forgotten.invites).toBe(1)
      expect((await desk.visitLog({}, 0, 50)).visits.map((v) => v.id)).toEqual([theirs.id])
      // By id alone: their visits, and the invites made out to the e-mail they came under.
      expect(await desk.forgetPerson({ personUuid: OTHER.toUpperCase() })).toEqual({ visitIds: [theirs.id], invites: 1 })
      expect((await desk.listInvites()).invites).toEqual([])
      expect(await desk.forgetPerson({})).toEqual({ visitIds: [], invites: 0 })
    })

    it('purges visits that ended, or still open began, before the cutoff', async () => {
      const { desk } = await open()
      const start = clock.now
      const ended = checkedIn(await desk.checkIn(request())).visit
      clock.now += 10 * DAY
      await desk.checkOut(PERSON)
      const open_ = checkedIn(await desk.checkIn(request({ person: visitor(OTHER, 'o@example.com') }))).visit
      clock.now += DAY
      const recent = checkedIn(await desk.checkIn(request())).visit
      expect(await desk.purgeVisitsBefore(start + 5 * DAY)).toEqual([])
      expect((await desk.purgeVisitsBefore(start + 10 * DAY + 1)).sort()).toEqual([ended.id, open_.id].sort())
      expect((await desk.onSite()).map((v) => v.id)).toEqual([recent.id])
    })

    it("queues the host's notices in the check-in's transaction, once per channel, and removes them with the visits (forgotten or purged)", async () => {
      const { desk, db } = await open({ notifyHosts: true })
      const host = await desk.addHost({ name: 'Hana', email: 'hana@example.com', webhookUrl: 'https://hooks.example.com/h' })
      const mine = checkedIn(await desk.checkIn(request({ hostId: host.id })))
      // Nobody for the caller to tell: the notices are queued.
      expect(mine.host).toBeNull()
      const jobs = () => db.all<{ subject: string; dedupe_key: string; state: string }>("SELECT subject, dedupe_key, state FROM jobs WHERE kind = 'host-notice' ORDER BY seq")
      expect(await jobs()).toEqual([
        { subject: mine.visit.id, dedupe_key: `${mine.visit.id}/email`, state: 'queued' },
        { subject: mine.visit.id, dedupe_key: `${mine.visit.id}/webhook`, state: 'queued' },
      ])
      // Checked in again while on site: nobody is told twice.
      expect(checkedIn(await desk.checkIn(request({ hostId: host.id }))).alreadyOnSite).toBe(true)
      // A host without an address: nothing to queue.
      const quiet = await desk.addHost({ name: 'Quiet', email: null, webhookUrl: null })
      checkedIn(await desk.checkIn(request({ person: visitor('33333333-3333-4333-8333-333333333333', 't@example.com'), hostId: quiet.id })))
      const theirs = checkedIn(await desk.checkIn(request({ person: visitor(OTHER, 'o@example.com'), hostId: host.id }))).visit
      expect(await jobs()).toHaveLength(4)

      await desk.forgetPerson({ userId: 'visitor@example.com' })
      expect((await jobs()).map((j) => j.subject)).toEqual([theirs.id, theirs.id])
      await desk.checkOut(OTHER)
      clock.now += 1
      expect(await desk.purgeVisitsBefore(clock.now)).toContain(theirs.id)
      expect(await jobs()).toEqual([])
    })
  })

  describe('invites', () => {
    /** A site's code carries an Ed25519 signature (86 characters), a kiosk's own an HMAC (43). */
    const TOKEN = /^KI1\.([a-z0-9]{4,12})\.([A-Za-z0-9_-]{22})\.([0-9a-z]+)\.(?:[A-Za-z0-9_-]{43}|[A-Za-z0-9_-]{86})$/
    const invite = (over: Partial<NewInviteRequest> = {}): NewInviteRequest => ({ email: 'Guest@Example.com', hostId: null, date: '2026-11-02', expiresAt: clock.now + DAY, createdBy: 'Ada', ...over })
    const guest = (personUuid = PERSON, email = 'guest@example.com') => ({ personUuid, email, firstName: 'Gus' })
    const checkIn = (desk: FrontDesk, token: string | null, over: Partial<CheckInRequest> = {}) =>
      desk.checkIn({ person: guest(), hostId: null, purpose: null, inviteToken: token, asLastTime: false, kioskId: 'kiosk-a', ...over })

    it('makes a signed code naming its key, for a host in the directory, on a day ahead', async () => {
      const { desk } = await open()
      const host = await desk.addHost({ name: 'Hana', email: null, webhookUrl: null })
      // The code carries whole seconds: the invite keeps the same.
      const made = await desk.createInvite(invite({ hostId: host.id, expiresAt: clock.now + DAY + 999 }))
      expect(made.token).toMatch(TOKEN)
      expect(made.token.length).toBeLessThanOrEqual(INVITE_TOKEN_MAX)
      expect(made.invite).toEqual({
        id: made.token.match(TOKEN)![2],
        email: 'Guest@Example.com',
        hostId: host.id,
        hostName: 'Hana',
        date: '2026-11-02',
        createdAt: clock.now,
        expiresAt: clock.now + DAY,
        createdBy: 'Ada',
        state: 'open',
        usedAt: null,
        visitId: null,
        revokedAt: null,
      })
      expect(await desk.checkInvite(made.token)).toEqual({ status: 'valid', email: 'Guest@Example.com', hostId: host.id, hostName: 'Hana', date: '2026-11-02' })

      const refused = [
        await refusal(desk.createInvite(invite({ expiresAt: clock.now }))),
        await refusal(desk.createInvite(invite({ expiresAt: clock.now + 367 * DAY }))),
        await refusal(desk.createInvite(invite({ hostId: 'no-such-host' }))),
      ]
      expect(refused).toEqual([
        expect.objectContaining({ code: 'INVALID_INPUT', message: 'The visit date is in the past: choose today or a later day.' }),
        expect.objectContaining({ code: 'INVALID_INPUT', message: 'Invite at most 366 days ahead.' }),
        expect.objectContaining({ code: 'NOT_FOUND', message: 'No host with that id in the hosts directory.' }),
      ])
      expect(await desk.createInvite(invite({ expiresAt: clock.now + 366 * DAY }))).toMatchObject({ invite: { state: 'open' } })
    })

    it('refuses a code that is not ours, altered, used, revoked or expired, each as the visitor reads it', async () => {
      const { desk } = await open()
      const used = await desk.createInvite(invite())
      checkedIn(await checkIn(desk, used.token))
      const revoked = await desk.createInvite(invite())
      await desk.revokeInvite(revoked.invite.id)
      const expiring = await desk.createInvite(invite({ expiresAt: clock.now + 60_000 }))
      const good = await desk.createInvite(invite())
      const [, kid, id, expiry] = good.token.match(TOKEN)!
      const lastChar = good.token.at(-1) === 'A' ? 'B' : 'A'
      const codes = {
        garbage: 'KI1.not-a-code',
        notPrefixed: good.token.slice(4),
        altered: `${good.token.slice(0, -1)}${lastChar}`,
        longer: `KI1.${kid}.${id}.${(parseInt(expiry!, 36) + 86_400).toString(36)}.${good.token.split('.').at(-1)}`,
        unknownKey: good.token.replace(`.${kid}.`, '.zzzz9999.'),
        // The older form, which names no key: a site has no key for it.
        olderForm: good.token.replace(`.${kid}.`, '.'),
      }
      clock.now += 60_000
      for (const [name, code] of Object.entries(codes)) expect([name, await desk.checkInvite(code)]).toEqual([name, { status: 'refused', reason: 'invalid' }])
      expect(await desk.checkInvite(used.token)).toEqual({ status: 'refused', reason: 'used' })
      expect(await desk.checkInvite(revoked.token)).toEqual({ status: 'refused', reason: 'revoked' })
      expect(await desk.checkInvite(expiring.token)).toEqual({ status: 'refused', reason: 'expired' })
      expect(await desk.checkInvite(good.token)).toMatchObject({ status: 'valid' })
      // Forgotten with its visitor: the code names nothing any more.
      await desk.forgetPerson({ userId: 'guest@example.com' })
      expect(await desk.checkInvite(good.token)).toEqual({ status: 'refused', reason: 'invalid' })
    })

    it('is used up by the check-in it brings, with its host, once; another e-mail or a refused check-in leaves it good', async () => {
      const { desk, db } = await open()
      const host = await desk.addHost({ name: 'Hana', email: 'hana@example.com', webhookUrl: null })
      const made = await desk.createInvite(invite({ hostId: host.id }))

      expect(await checkIn(desk, made.token, { person: guest(PERSON, 'someone.else@example.com') })).toEqual({ outcome: 'invite-refused', reason: 'other-email' })
      const gone = await desk.addHost({ name: 'Gone', email: null, webhookUrl: null })
      await desk.removeHost(gone.id)
      await expect(checkIn(desk, made.token, { hostId: gone.id })).rejects.toMatchObject({ code: 'INVALID_INPUT' })
      expect(await db.all('SELECT id FROM visits')).toEqual([])
      expect(await desk.checkInvite(made.token)).toMatchObject({ status: 'valid' })

      clock.now += 1000
      const visit = checkedIn(await checkIn(desk, made.token, { person: guest(PERSON.toUpperCase(), 'GUEST@example.com') }))
      expect(visit).toMatchObject({ alreadyOnSite: false, host, visit: { hostId: host.id, hostName: 'Hana', inviteId: made.invite.id } })
      expect((await desk.listInvites('used')).invites).toEqual([{ ...made.invite, state: 'used', usedAt: clock.now, visitId: visit.visit.id }])
      // Already on site: the open visit, the code not looked at again.
      expect(await checkIn(desk, made.token)).toMatchObject({ outcome: 'checked-in', alreadyOnSite: true, visit: { id: visit.visit.id } })
      await desk.checkOut(PERSON)
      expect(await checkIn(desk, made.token)).toEqual({ outcome: 'invite-refused', reason: 'used' })
      expect(await db.all('SELECT id FROM visits')).toHaveLength(1)
    })

    it('is used once when two kiosks check in with it at the same moment', async () => {
      const a = await open()
      const b = await open({}, await peerOf(a.db))
      const made = await a.desk.createInvite(invite())
      // One visitor enrolled twice (two ids, one e-mail), at two kiosks.
      const start = () => [checkIn(a.desk, made.token, { person: guest(PERSON) }), checkIn(b.desk, made.token, { person: guest(OTHER), kioskId: 'kiosk-b' })]
      const results = sql.cluster ? await overlapping('invites', start) : await Promise.allSettled(start())
      const outcomes = results.map((r) => (r.status === 'fulfilled' ? r.value : { outcome: 'failed', reason: String(r.reason) }))
      expect(outcomes.map((o) => o.outcome).sort()).toEqual(['checked-in', 'invite-refused'])
      expect(outcomes.find((o) => o.outcome === 'invite-refused')).toEqual({ outcome: 'invite-refused', reason: 'used' })
      const stored = await a.db.all<{ id: string; invite_id: string }>('SELECT id, invite_id FROM visits')
      expect(stored).toEqual([{ id: expect.any(String), invite_id: made.invite.id }])
      expect((await a.desk.listInvites()).invites[0]).toMatchObject({ state: 'used', visitId: stored[0]!.id })
    })

    it('lists by state, newest first, revokes an unused one, and purges those that ended', async () => {
      const { desk } = await open()
      const first = await desk.createInvite(invite({ expiresAt: clock.now + 60_000 }))
      clock.now += 1000
      const second = await desk.createInvite(invite())
      clock.now += 1000
      const third = await desk.createInvite(invite({ email: 'other@example.com' }))
      checkedIn(await checkIn(desk, third.token, { person: guest(OTHER, 'other@example.com') }))
      clock.now += 60_000
      const ids = async (state?: InviteState) => (await desk.listInvites(state)).invites.map((i) => i.id)
      expect(await ids()).toEqual([third.invite.id, second.invite.id, first.invite.id])
      expect(await ids('open')).toEqual([second.invite.id])
      expect(await ids('expired')).toEqual([first.invite.id])
      expect(await ids('used')).toEqual([third.invite.id])
      expect((await desk.listInvites()).truncated).toBe(false)

      expect(await desk.revokeInvite(second.invite.id)).toMatchObject({ id: second.invite.id, state: 'revoked', revokedAt: clock.now })
      expect(await ids('revoked')).toEqual([second.invite.id])
      await expect(desk.revokeInvite(third.invite.id)).rejects.toMatchObject({ code: 'INVALID_INPUT', message: 'This invite was already used for a visit; there is nothing to revoke.' })
      await expect(desk.revokeInvite('no-such-invite')).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'No such invite (it may have been removed after it ended).' })

      expect(await desk.purgeInvitesBefore(first.invite.expiresAt)).toBe(0)
      expect(await desk.purgeInvitesBefore(first.invite.expiresAt + 1)).toBe(1)
      expect(await ids()).toEqual([third.invite.id, second.invite.id])
    })

    it('signs new codes with a rotated key, at every engine; codes of the older key stay good', async () => {
      const a = await open()
      const b = await open({}, await peerOf(a.db))
      // Two engines making the site's first key at once make one.
      const [one, two] = await Promise.all([a.desk.createInvite(invite()), b.desk.createInvite(invite())])
      const kidOf = (token: string) => token.match(TOKEN)![1]!
      expect(kidOf(one.token)).toBe(kidOf(two.token))
      expect(await a.db.all('SELECT kid FROM invite_keys')).toEqual([{ kid: kidOf(one.token) }])

      const rotated = await b.desk.rotateInviteKey()
      expect(rotated).toMatch(/^[a-z0-9]{4,12}$/)
      expect(rotated).not.toBe(kidOf(one.token))
      const after = await a.desk.createInvite(invite())
      expect(kidOf(after.token)).toBe(rotated)
      for (const desk of [a.desk, b.desk]) {
        for (const made of [one, after]) expect(await desk.checkInvite(made.token)).toMatchObject({ status: 'valid' })
      }
      // A rotation in the same millisecond still orders the keys.
      const again = await a.desk.rotateInviteKey()
      expect(kidOf((await b.desk.createInvite(invite())).token)).toBe(again)
      checkedIn(await checkIn(b.desk, one.token))
    })

    it("signs a site's codes with Ed25519: the public key alone checks them, in one spelling; a site's older HMAC key still checks its codes", async () => {
      const { desk, db } = await open()
      // A site from before: its one key an HMAC key, and a code it signed.
      const hmac = { kid: 'old0key0', secret: randomBytes(32), publicKey: null }
      await db.run('INSERT INTO invite_keys (kid, secret, created_at) VALUES (?, ?, ?)', [hmac.kid, hmac.secret, clock.now - 1])
      const before = await desk.createInvite(invite())
      const olderCode = signInviteToken(hmac, { inviteId: before.invite.id, expiresAt: before.invite.expiresAt })
      expect(await desk.checkInvite(olderCode)).toMatchObject({ status: 'valid' })

      // New codes are signed by an Ed25519 key made on first use, not by the HMAC key.
      const [, kid] = before.token.match(TOKEN)!
      expect(kid).not.toBe(hmac.kid)
      const signature = before.token.split('.').at(-1)!
      expect(signature).toHaveLength(86)
      const row = (await db.get<{ public_key: Buffer }>('SELECT public_key FROM invite_keys WHERE kid = ?', [kid]))!
      const publicOnly = async (named: string | null) => (named === kid ? { secret: null, publicKey: row.public_key } : null)
      expect(await readInviteToken(before.token, publicOnly)).toEqual({ inviteId: before.invite.id, expiresAt: before.invite.expiresAt })
      // Another spelling of the same signature bytes (the last character's 4 unused bits), an altered one, another key's kind: refused.
      const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
      const sameBytes = before.token.slice(0, -1) + BASE64URL[BASE64URL.indexOf(before.token.at(-1)!) ^ 1]
      expect(Buffer.from(sameBytes.split('.').at(-1)!, 'base64url')).toEqual(Buffer.from(signature, 'base64url'))
      const altered = before.token.slice(0, -2) + (before.token.at(-2) === 'A' ? 'B' : 'A') + before.token.at(-1)
      const macUnderEd25519 = `${before.token.slice(0, before.token.lastIndexOf('.'))}.${createHmac('sha256', row.public_key).update(before.token.slice(0, before.token.lastIndexOf('.')), 'utf8').digest('base64url')}`
      for (const forged of [sameBytes, altered, macUnderEd25519]) {
        expect(await readInviteToken(forged, publicOnly)).toBeNull()
        expect(await desk.checkInvite(forged)).toEqual({ status: 'refused', reason: 'invalid' })
      }
      // An HMAC key cannot pass for a signature of the other kind.
      const ed25519Body = olderCode.slice(0, olderCode.lastIndexOf('.'))
      expect(await desk.checkInvite(`${ed25519Body}.${signature}`)).toEqual({ status: 'refused', reason: 'invalid' })
      expect(before.token.length).toBeLessThanOrEqual(INVITE_TOKEN_MAX)
    })

    it("checks a kiosk's own codes with its keychain's one key, the older form of code included", async () => {
      const key = randomBytes(32)
      const { desk } = await open({ inviteKeys: singleKeyring(async () => key) })
      const made = await desk.createInvite(invite())
      const [, kid, id, expiry] = made.token.match(TOKEN)!
      expect(kid).toBe('kc00')
      // A code as kiosks made them before codes named their key (services/invites/tokens.ts as it was).
      const body = `KI1.${id}.${expiry}`
      const older = `${body}.${createHmac('sha256', key).update(body, 'utf8').digest('base64url')}`
      expect(await desk.checkInvite(older)).toEqual({ status: 'valid', email: 'Guest@Example.com', hostId: null, hostName: null, date: '2026-11-02' })
      const forged = `${body}.${createHmac('sha256', randomBytes(32)).update(body, 'utf8').digest('base64url')}`
      expect(await desk.checkInvite(forged)).toEqual({ status: 'refused', reason: 'invalid' })
      expect(await desk.checkInvite(made.token.replace('.kc00.', '.kc01.'))).toEqual({ status: 'refused', reason: 'invalid' })
      checkedIn(await checkIn(desk, older))
      expect(await desk.checkInvite(made.token)).toEqual({ status: 'refused', reason: 'used' })
      await expect(desk.rotateInviteKey()).rejects.toMatchObject({ code: 'NOT_CONFIGURED', message: 'A kiosk on its own keeps one invitation key in its keychain.' })
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

    it('moves the host notices into the one delivery queue (step 7): every row a job, failed now needing attention, the payload as bytes', async () => {
      const db = await connect()
      await migrate(db, { name: 'frontdesk', steps: frontDeskMigrations.steps.slice(0, 6) })
      const arrival = JSON.stringify({ visitId: 'visit-1', visitorName: 'Amélie Ørsted', purpose: 'Interview' })
      const insert = `INSERT INTO host_notices (id, dedupe_key, visit_id, channel, host_name, payload, state, attempts, created_at, updated_at, next_attempt_at, delivered_at, error_code, error_message, claimed_by, claimed_until)
                      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
      await db.run(insert, ['n-2', 'visit-1/webhook', 'visit-1', 'webhook', 'Hana Ö', arrival, 'failed', 3, 2000, 2500, null, null, 'REJECTED', 'HTTP 400', null, null])
      await db.run(insert, ['n-1', 'visit-1/email', 'visit-1', 'email', 'Hana Ö', null, 'delivered', 1, 1000, 1200, null, 1200, null, null, null, null])
      await db.run(insert, ['n-3', 'visit-2/email', 'visit-2', 'email', 'Hana Ö', arrival, 'in-flight', 1, 3000, 3100, null, null, null, null, 'engine-a', 3400])

      await migrate(db, { name: 'frontdesk', steps: frontDeskMigrations.steps.slice(0, 7) })
      expect(await recordedVersion(db, 'frontdesk')).toBe(7)
      await expect(db.get('SELECT count(*) AS n FROM host_notices')).rejects.toThrow(/host_notices/)
      type Job = { id: string; kind: string; dedupe_key: string; subject: string; summary: string; payload: Buffer | null; state: string; attempts: number; created_at: number; updated_at: number; delivered_at: number | null; error_code: string | null; claimed_by: string | null; claimed_until: number | null }
      const jobs = await db.all<Job>('SELECT id, kind, dedupe_key, subject, summary, payload, state, attempts, created_at, updated_at, delivered_at, error_code, claimed_by, claimed_until FROM jobs ORDER BY seq')
      // In the order they were queued.
      expect(jobs.map((j) => [j.id, j.kind, j.dedupe_key, j.subject, j.state, Number(j.attempts), Number(j.created_at), j.error_code])).toEqual([
        ['n-1', 'host-notice', 'visit-1/email', 'visit-1', 'delivered', 1, 1000, null],
        ['n-2', 'host-notice', 'visit-1/webhook', 'visit-1', 'needs-attention', 3, 2000, 'REJECTED'],
        ['n-3', 'host-notice', 'visit-2/email', 'visit-2', 'in-flight', 1, 3000, null],
      ])
      expect(jobs.map((j) => JSON.parse(j.summary))).toEqual([
        { visitId: 'visit-1', channel: 'email', hostName: 'Hana Ö' },
        { visitId: 'visit-1', channel: 'webhook', hostName: 'Hana Ö' },
        { visitId: 'visit-2', channel: 'email', hostName: 'Hana Ö' },
      ])
      expect(jobs[0]!.payload).toBeNull()
      expect(Buffer.isBuffer(jobs[1]!.payload)).toBe(true)
      expect(jobs[1]!.payload!.toString('utf8')).toBe(arrival)
      // Still claimed: the claim runs out and a runner queues it again.
      expect([jobs[2]!.claimed_by, Number(jobs[2]!.claimed_until)]).toEqual(['engine-a', 3400])
      // The dedupe keys came along: the same arrival is not queued twice.
      await expect(db.run("INSERT INTO jobs (id, kind, dedupe_key, summary, state, created_at, updated_at) VALUES ('x', 'host-notice', 'visit-1/webhook', '{}', 'queued', 1, 1)")).rejects.toThrow()
    })

    it('drops the retired visits.arrival_queued_at (step 9): the visits kept, their change log still filled', async () => {
      const db = await connect()
      await migrate(db, { name: 'frontdesk', steps: frontDeskMigrations.steps.slice(0, 8) })
      const insert = `INSERT INTO visits (id, person_uuid, email, email_key, first_name, host_id, host_name, purpose, checked_in_at, checked_out_at, checked_out_by, kiosk_id, invite_id, arrival_queued_at)
                      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
      await db.run(insert, ['v-1', PERSON, 'v@example.com', 'v@example.com', 'Vera', 'h-1', 'Hana', 'Interview', 1000, null, null, 'kiosk-1', null, 1000])
      await db.run(insert, ['v-2', OTHER, 'o@example.com', 'o@example.com', null, null, null, '', 2000, 3000, 'staff', 'kiosk-1', null, null])

      await migrate(db, { name: 'frontdesk', steps: frontDeskMigrations.steps.slice(0, 9) })
      expect(await recordedVersion(db, 'frontdesk')).toBe(9)
      await expect(db.get('SELECT arrival_queued_at FROM visits')).rejects.toThrow(/arrival_queued_at/)
      const desk = createFrontDesk(db, { now: () => clock.now })
      expect((await desk.onSite()).map((v) => [v.id, v.personUuid, v.hostName, v.checkedInAt])).toEqual([['v-1', PERSON, 'Hana', new Date(1000).toISOString()]])
      expect((await desk.visitLog({}, 0, 10)).total).toBe(2)
      // The triggers on visits still log a change.
      const logged = async () => (await db.all<{ key: string }>("SELECT key FROM frontdesk_changes WHERE topic = 'visit' ORDER BY seq")).map((c) => c.key)
      const before = await logged()
      expect(await desk.checkOut(PERSON)).toBeTruthy()
      expect((await logged()).slice(before.length)).toEqual(['v-1'])
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

import { createHmac, randomBytes } from 'node:crypto'
import { beforeEach, describe, expect, it } from 'vitest'
import { createFrontDesk } from '../../electron/records/frontdesk/create-front-desk'
import type { FrontDesk } from '../../electron/records/frontdesk/front-desk'
import { singleKeyring } from '../../electron/records/frontdesk/invite-keyring'
import { readKioskRecords, removeBroughtRecords } from '../../electron/records/frontdesk/merge-export'
import { mergeKioskRecords } from '../../electron/records/frontdesk/merge-rules'
import { frontDeskMigrations } from '../../electron/records/frontdesk/migrations'
import type { CheckInOutcome, CheckInRequest } from '../../electron/records/frontdesk/visit-types'
import { migrate } from '../../electron/records/sql/migrate'
import { openSqlite } from '../../electron/records/sql/sqlite'
import type { Database } from '../../electron/records/sql/types'
import { kioskRecordsSchema, type KioskRecords } from '../../electron/shared/frontdesk-api'
import { useSqlBackend } from '../support/sql-backend'

/**
 * A kiosk that ran on its own brings its records when it joins a site: read from its own SQLite
 * file, sent as the wire's shape, merged into the site's (SQLite, and a real PostgreSQL cluster
 * this suite starts and stops) in the transaction that uses the pairing code up, then removed
 * from the kiosk.
 */
const DAY = 86_400_000
const LISTED = '5b0f7c2e-8a41-4b8e-9a57-3f2f0d6c1a11'
const ALSO_LISTED = '6c1f8d3f-9b52-4c9f-8b68-4a3a1e7d2b22'
const ON_BOTH = '7d2a9e4a-ac63-4dae-9c79-5b4b2f8e3c33'
const LEFT = '8e3bafb5-bd74-4ebf-8d8a-6c5c3a9f4d44'
const GUEST = '9f4cb0c6-ce85-4fc0-9e9b-7d6d4bae5e55'
const OLD_GUEST = 'a05dc1d7-df96-4ad1-afac-8e7e5cbf6f66'

const checkedIn = (outcome: CheckInOutcome) => {
  if (outcome.outcome !== 'checked-in') throw new Error(`refused: ${outcome.reason}`)
  return outcome
}
const request = (personUuid: string, email: string, extra: Partial<CheckInRequest> = {}): CheckInRequest => ({
  person: { personUuid, email, firstName: null },
  hostId: null,
  purpose: 'Meeting',
  inviteToken: null,
  asLastTime: false,
  kioskId: null,
  ...extra,
})

describe.each(['sqlite', 'postgres'] as const)('a kiosk brings its records to a site on %s', (backend) => {
  const sql = useSqlBackend(backend, 'frontdesk-merge-')
  let clock: { now: number }

  beforeEach(() => {
    clock = { now: Date.UTC(2026, 10, 1, 9) }
  })

  async function migrated(db: Database): Promise<Database> {
    await migrate(db, frontDeskMigrations)
    return db
  }
  /** A kiosk's own database: a new SQLite file, migrated, closed after the test. */
  const kioskDatabase = async () => migrated(sql.track(openSqlite(sql.sqliteFile())))
  /** The site's database: the suite's PostgreSQL cluster, or a SQLite file of its own; migrated, closed after the test. */
  const siteDatabase = async () => migrated(await sql.connect())

  /** The kiosk on its own (its SQLite file, its keychain's key) with a bit of everything, and the site it joins. */
  async function setUp() {
    const key = randomBytes(32)
    const kioskDb = await kioskDatabase()
    const kiosk = createFrontDesk(kioskDb, { now: () => clock.now, inviteKeys: singleKeyring(async () => key) })
    const siteDb = await siteDatabase()
    const site = createFrontDesk(siteDb, { now: () => clock.now })

    await kiosk.createFirstAdmin('Ada', 'kiosk-ada-pin', 'own')
    await kiosk.createAccount('Bea', 'operator', 'bea-pin-123')
    await kiosk.addToWatchlist({ personUuid: LISTED, email: 'listed@example.com', reason: 'Shouted at the desk', addedBy: 'Ada' })
    await kiosk.addToWatchlist({ personUuid: ALSO_LISTED, email: 'also@example.com', reason: 'Banned', addedBy: 'Ada' })
    await kiosk.screen({ personUuids: [ALSO_LISTED], givenEmail: null, place: 'check-in', kioskId: 'own' })
    const host = await kiosk.addHost({ name: 'Harriet Host', email: 'harriet@example.com', webhookUrl: null })
    checkedIn(await kiosk.checkIn(request(ON_BOTH, 'both@example.com', { hostId: host.id, kioskId: 'own' })))
    checkedIn(await kiosk.checkIn(request(LEFT, 'left@example.com', { kioskId: 'own' })))
    await kiosk.checkOut(LEFT)
    const invite = await kiosk.createInvite({ email: 'Guest@Example.com', hostId: host.id, date: '2026-11-02', expiresAt: clock.now + DAY, createdBy: 'Ada' })
    const older = await kiosk.createInvite({ email: 'old@example.com', hostId: null, date: '2026-11-02', expiresAt: clock.now + DAY, createdBy: 'Ada' })
    // The same invite's code as kiosks printed them before codes named their key.
    const [, , id, expiry] = older.token.split('.')
    const body = `KI1.${id}.${expiry}`
    const olderCode = `${body}.${createHmac('sha256', key).update(body, 'utf8').digest('base64url')}`

    // The site: an administrator whose name the kiosk also has (any case), the same person
    // watched for another reason, and the person on site already (through another kiosk).
    await site.createFirstAdmin('ADA', 'site-ada-pin', null)
    await site.addToWatchlist({ personUuid: LISTED, email: 'listed@example.com', reason: 'Trespassed', addedBy: 'ADA' })
    checkedIn(await site.checkIn(request(ON_BOTH, 'both@example.com', { kioskId: null })))
    return { key, kioskDb, kiosk, siteDb, site, host, inviteCode: invite.token, olderCode }
  }

  /** What the kiosk sends, through the wire's schema (as the engine parses it), and the site's pairing with the merge. */
  async function pairBringing(kioskDb: Database, key: Buffer, site: FrontDesk, name = 'Lobby') {
    const records = kioskRecordsSchema.parse(JSON.parse(JSON.stringify(await readKioskRecords(kioskDb, async () => key))))
    const { code } = await site.createPairingCode('ADA')
    clock.now += 60_000
    let merged: Awaited<ReturnType<typeof mergeKioskRecords>> | null = null
    const made = await site.redeemPairingCode(code, name, async (tx, kiosk) => {
      merged = await mergeKioskRecords(tx, kiosk, records, clock.now)
    })
    return { records, made, merged: merged! }
  }

  it('merges accounts, the watchlist, hosts, visits and invites; a site with staff takes the accounts in disabled, a taken name under another', async () => {
    const { key, kioskDb, site, host } = await setUp()
    const { made, merged } = await pairBringing(kioskDb, key, site)

    expect(merged.keptApart).toEqual([
      { name: 'Ada', importedAs: 'Ada - Lobby' },
      { name: 'Bea', importedAs: 'Bea' },
    ])
    expect(merged.added).toEqual({ accounts: 2, watchlist: 1, alerts: 1, hosts: 1, visits: 2, invites: 2 })
    expect(merged.visitsEnded).toBe(1)
    expect(merged.reasonsJoined).toBe(1)

    const accounts = await site.listAccounts()
    expect(accounts.map(({ name, role, disabled }) => ({ name, role, disabled }))).toEqual(
      expect.arrayContaining([
        { name: 'ADA', role: 'admin', disabled: false },
        { name: 'Ada - Lobby', role: 'admin', disabled: true },
        { name: 'Bea', role: 'operator', disabled: true },
      ]),
    )
    // Staff sign in at the site with the PINs they had, once an administrator of the site enabled them.
    await expect(site.signIn('Bea', 'bea-pin-123', made.id)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    await site.setAccountDisabled('Bea', false)
    expect((await site.signIn('Bea', 'bea-pin-123', made.id)).account.name).toBe('Bea')
    await expect(site.signIn('Ada - Lobby', 'kiosk-ada-pin', made.id)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    await expect(site.signIn('Ada', 'kiosk-ada-pin', made.id)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    await site.setAccountDisabled('Ada - Lobby', false)
    expect((await site.signIn('ada - lobby', 'kiosk-ada-pin', made.id)).account.name).toBe('Ada - Lobby')

    const watchlist = await site.listWatchlist()
    expect(watchlist.find((e) => e.personUuid === LISTED)).toMatchObject({ reason: 'Trespassed / Lobby: Shouted at the desk', addedBy: 'ADA' })
    expect(watchlist.find((e) => e.personUuid === ALSO_LISTED)).toMatchObject({ reason: 'Banned', addedBy: 'Ada' })
    expect(await site.watchlistAlerts()).toEqual([expect.objectContaining({ personUuid: ALSO_LISTED, kioskId: made.id, kioskName: 'Lobby' })])
    expect(await site.listHosts()).toEqual([host])

    // One open visit for the person on both sides: the site's; the kiosk's ended at the join, by nobody.
    const onSite = await site.onSite()
    expect(onSite).toHaveLength(1)
    expect(onSite[0]).toMatchObject({ personUuid: ON_BOTH, kioskId: '' })
    const log = await site.visitLog({}, 0, 10)
    expect(log.total).toBe(3)
    expect(log.visits.find((v) => v.personUuid === ON_BOTH && v.kioskId === made.id)).toMatchObject({ kioskName: 'Lobby', hostName: 'Harriet Host', checkedOutAt: new Date(clock.now).toISOString(), checkedOutBy: null })
    expect(log.visits.find((v) => v.personUuid === LEFT)).toMatchObject({ kioskId: made.id, kioskName: 'Lobby', checkedOutBy: 'visitor' })
    expect((await site.listInvites()).invites.map((i) => i.email).sort()).toEqual(['Guest@Example.com', 'old@example.com'])
  })

  it("verifies the codes the kiosk printed (both forms) at the site, once, and signs the site's own codes with its own key", async () => {
    const { key, kioskDb, site, host, inviteCode, olderCode } = await setUp()
    // Before the join the site knows neither code.
    expect(await site.checkInvite(inviteCode)).toEqual({ status: 'refused', reason: 'invalid' })
    const { made } = await pairBringing(kioskDb, key, site)

    expect(await site.checkInvite(inviteCode)).toEqual({ status: 'valid', email: 'Guest@Example.com', hostId: host.id, hostName: 'Harriet Host', date: '2026-11-02' })
    const visit = checkedIn(await site.checkIn(request(GUEST, 'guest@example.com', { inviteToken: inviteCode, kioskId: made.id })))
    expect(visit.visit).toMatchObject({ inviteId: expect.any(String), hostName: 'Harriet Host', kioskName: 'Lobby' })
    expect(await site.checkIn(request(GUEST.replace('9f', '0f'), 'guest@example.com', { inviteToken: inviteCode }))).toEqual({ outcome: 'invite-refused', reason: 'used' })
    checkedIn(await site.checkIn(request(OLD_GUEST, 'old@example.com', { inviteToken: olderCode })))
    expect(await site.checkInvite(olderCode)).toEqual({ status: 'refused', reason: 'used' })

    // The kiosk's key signs nothing new at the site, and checks no code but those of the invites it came with.
    const own = await site.createInvite({ email: 'new@example.com', hostId: null, date: '2026-11-02', expiresAt: clock.now + DAY, createdBy: 'ADA' })
    const ownKid = own.token.split('.')[1]
    expect(ownKid).toMatch(/^[0-9a-f]{12}$/)
    const [, , ownId, ownExpiry] = own.token.split('.')
    const forgedBody = `KI1.kc00.${ownId}.${ownExpiry}`
    const forged = `${forgedBody}.${createHmac('sha256', key).update(forgedBody, 'utf8').digest('base64url')}`
    expect(await site.checkInvite(forged)).toEqual({ status: 'refused', reason: 'invalid' })
    expect(await site.checkInvite(own.token)).toMatchObject({ status: 'valid' })
    const rotated = await site.rotateInviteKey()
    expect(rotated).not.toBe(ownKid)
    expect((await site.createInvite({ email: 'n2@example.com', hostId: null, date: '2026-11-02', expiresAt: clock.now + DAY, createdBy: 'ADA' })).token.split('.')[1]).toBe(rotated)
  })

  it('makes a staffless site’s staff of the first kiosk’s, as they were; refuses accounts with PIN parameters it does not use', async () => {
    const key = randomBytes(32)
    const kioskDb = await kioskDatabase()
    const kiosk = createFrontDesk(kioskDb, { now: () => clock.now, inviteKeys: singleKeyring(async () => key) })
    await kiosk.createFirstAdmin('Ada', 'kiosk-ada-pin', 'own')
    await kiosk.createAccount('Bea', 'operator', 'bea-pin-123')
    const empty = createFrontDesk(await siteDatabase(), { now: () => clock.now })
    const records = kioskRecordsSchema.parse(JSON.parse(JSON.stringify(await readKioskRecords(kioskDb, async () => key))))
    const pair = async (brought: typeof records) => {
      const { code } = await empty.createPairingCode('installer')
      return empty.redeemPairingCode(code, 'Lobby', async (tx, kiosk) => {
        await mergeKioskRecords(tx, kiosk, brought, clock.now)
      })
    }
    // Hostile parameters (each sign-in would allocate gigabytes): nothing merged, no kiosk, the code still good.
    const huge = { ...records, accounts: records.accounts.map((a) => ({ ...a, params: JSON.stringify({ N: 2 ** 24, r: 8, p: 1, keylen: 32 }) })) }
    await expect(pair(huge)).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    expect(await empty.listKiosks()).toEqual([])
    expect(await empty.accountCount()).toBe(0)
    const made = await pair(records)
    expect((await empty.listAccounts()).map(({ name, disabled }) => ({ name, disabled }))).toEqual(expect.arrayContaining([{ name: 'Ada', disabled: false }, { name: 'Bea', disabled: false }]))
    expect((await empty.signIn('Ada', 'kiosk-ada-pin', made.id)).account.role).toBe('admin')
  })

  it('numbers a kept-apart name that is taken too', async () => {
    const { key, kioskDb, site } = await setUp()
    await site.createAccount('Ada - Lobby', 'operator', 'another-pin')
    const { merged } = await pairBringing(kioskDb, key, site)
    expect(merged.keptApart).toContainEqual({ name: 'Ada', importedAs: 'Ada - Lobby 2' })
    expect((await site.listAccounts()).find((a) => a.name === 'Ada - Lobby 2')).toMatchObject({ role: 'admin', disabled: true })
  })

  it("takes an older kiosk's visits, which still carry the retired arrivalQueuedAt, and ignores it; refuses any other field it does not know", async () => {
    const { key, kioskDb, site } = await setUp()
    const wire = JSON.parse(JSON.stringify(await readKioskRecords(kioskDb, async () => key))) as KioskRecords
    expect(wire.visits[0]).not.toHaveProperty('arrivalQueuedAt')
    const older = { ...wire, visits: wire.visits.map((v, i) => ({ ...v, arrivalQueuedAt: i === 0 ? v.checkedInAt : null })) }
    const records = kioskRecordsSchema.parse(older)
    expect(kioskRecordsSchema.safeParse({ ...wire, visits: wire.visits.map((v) => ({ ...v, badgeNumber: 'B-7' })) }).success).toBe(false)

    const { code } = await site.createPairingCode('ADA')
    const made = await site.redeemPairingCode(code, 'Lobby', async (tx, kiosk) => {
      expect((await mergeKioskRecords(tx, kiosk, records, clock.now)).added.visits).toBe(2)
    })
    expect((await site.visitLog({}, 0, 10)).visits.filter((v) => v.kioskId === made.id)).toHaveLength(2)
  })

  it('takes nothing in, and leaves the code unused, when the pairing fails after the merge', async () => {
    const { key, kioskDb, site } = await setUp()
    const records = await readKioskRecords(kioskDb, async () => key)
    const { code } = await site.createPairingCode('ADA')
    await expect(
      site.redeemPairingCode(code, 'Lobby', async (tx, kiosk) => {
        await mergeKioskRecords(tx, kiosk, records, clock.now)
        throw new Error('the client could not be made')
      }),
    ).rejects.toThrow('the client could not be made')
    expect((await site.listAccounts()).map((a) => a.name)).toEqual(['ADA'])
    expect(await site.listHosts()).toEqual([])
    expect((await site.visitLog({}, 0, 10)).total).toBe(1)
    expect(await site.listKiosks()).toEqual([])
    // The code still works.
    await site.redeemPairingCode(code, 'Lobby', async (tx, kiosk) => {
      await mergeKioskRecords(tx, kiosk, records, clock.now)
    })
    expect(await site.listHosts()).toHaveLength(1)
  })

  it('leaves the kiosk without the rows it brought once the site has them', async () => {
    const { key, kioskDb, kiosk } = await setUp()
    const records: KioskRecords = await readKioskRecords(kioskDb, async () => key)
    expect(records.inviteKey).toBe(key.toString('base64'))
    // A row written after the read stays.
    const later = await kiosk.addHost({ name: 'Later Host', email: null, webhookUrl: null })
    expect(await removeBroughtRecords(kioskDb, records)).toEqual({ accounts: 2, watchlist: 2, alerts: 1, hosts: 1, visits: 2, invites: 2 })
    expect(await kiosk.accountCount()).toBe(0)
    expect(await kiosk.listWatchlist()).toEqual([])
    expect(await kiosk.watchlistAlerts()).toEqual([])
    expect(await kiosk.listHosts()).toEqual([later])
    expect((await kiosk.visitLog({}, 0, 10)).total).toBe(0)
    expect((await kiosk.listInvites()).invites).toEqual([])
    for (const table of ['staff_sessions', 'accounts', 'watchlist_entries', 'watchlist_alerts', 'visits', 'invites']) {
      expect((await kioskDb.get<{ n: number }>(`SELECT count(*) AS n FROM ${table}`))!.n).toBe(0)
    }
  })
})

import { randomBytes } from 'node:crypto'
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { LegacyImport } from '../../electron/records/frontdesk/legacy-import'
import { frontDeskMigrations } from '../../electron/records/frontdesk/migrations'
import { FRONTDESK_FILE, openLocalFrontDesk, type LocalFrontDesk } from '../../electron/records/frontdesk/local'
import { singleKeyring } from '../../electron/records/frontdesk/invite-keyring'
import { openAccounts, openWatchlist } from '../support/older-frontdesk-stores'
import { addArrival } from '../../electron/records/frontdesk/notices/notice-jobs'
import { hostNoticesService } from '../../electron/records/frontdesk/notices/service'
import { openOldHostNotices, openOldInvites, openOldVisits } from '../support/older-visit-stores'

/**
 * A kiosk on its own: its front desk on frontdesk.db in its data folder, and the staff
 * and watchlist it kept before in accounts.db and watchlist.db (made here by a frozen copy of the
 * code that made them, test/support/older-frontdesk-stores.ts) brought over on the first open: a
 * PIN set before still signs in.
 */
const PERSON = '5b0f7c2e-8a41-4b8e-9a57-3f2f0d6c1a11'
const OTHER = '00000000-0000-4000-8000-000000000000'
const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8)
const databaseFiles = (dir: string, name: string) => ['', '-wal', '-shm'].map((suffix) => join(dir, `${name}${suffix}`))

describe('a kiosk on its own: frontdesk.db', () => {
  let root: string
  let dir: string
  let clock: { now: number }
  let local: LocalFrontDesk | null = null
  const now = () => clock.now
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'frontdesk-local-'))
    dir = join(root, 'data')
    clock = { now: Date.UTC(2026, 10, 1) }
  })
  afterEach(async () => {
    await local?.close()
    local = null
    rmSync(root, { recursive: true, force: true })
  })

  /** What a kiosk that ran before this change has in its data folder. */
  async function oldKiosk(): Promise<{ alerts: { open: string; dismissed: string }; accountsBefore: unknown; entriesBefore: unknown }> {
    const accounts = openAccounts({ dir, now })
    await accounts.createFirst('Ada', 'old-pin-1')
    clock.now += 1000
    await accounts.create('Otto', 'operator', 'otto-pin-1')
    accounts.setDisabled('Otto', true)
    // Two failures on record: the next one pauses Ada.
    for (let i = 0; i < 2; i++) await expect(accounts.verify('Ada', 'wrong')).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    const accountsBefore = accounts.list()
    accounts.close()

    const watchlist = openWatchlist({ dir, now })
    watchlist.add({ personUuid: PERSON, email: 'Listed@Example.com', reason: 'Banned after an incident', addedBy: 'Ada' })
    const alert = { kioskId: 'old-kiosk', place: 'enrollment' as const, personUuid: PERSON, email: 'Listed@Example.com', givenEmail: 'new@example.com', reason: 'Banned after an incident' }
    clock.now += 1000
    const dismissed = watchlist.raise(alert)
    clock.now += 1000
    const open = watchlist.raise(alert)
    watchlist.dismiss(dismissed.id, 'Otto')
    const entriesBefore = watchlist.list()
    watchlist.close()
    return { alerts: { open: open.id, dismissed: dismissed.id }, accountsBefore, entriesBefore }
  }

  it('brings the old accounts and watchlist over, PINs and back-off included, then removes the old files', async () => {
    const before = await oldKiosk()
    const imported: LegacyImport[] = []
    local = await openLocalFrontDesk({ dataDir: dir, now, onImported: (counts) => imported.push(counts) })
    const desk = local.frontDesk
    expect(imported).toEqual([{ accounts: 2, entries: 1, alerts: 2, visits: 0, hosts: 0, invites: 0, notices: 0 }])
    for (const file of [...databaseFiles(dir, 'accounts.db'), ...databaseFiles(dir, 'watchlist.db')]) expect(existsSync(file), file).toBe(false)

    expect(await desk.listAccounts()).toEqual(before.accountsBefore)
    // The third failure pauses Ada, as it would have before: the two earlier ones came along.
    await expect(desk.signIn('Ada', 'wrong', null)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    await expect(desk.signIn('Ada', 'old-pin-1', null)).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS' })
    clock.now += 5_001
    const signedIn = await desk.signIn('ada', 'old-pin-1', null)
    expect(await desk.session(signedIn.session)).toEqual({ account: 'Ada', role: 'admin' })
    await expect(desk.signIn('Otto', 'otto-pin-1', null)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    await desk.setAccountDisabled('Otto', false)
    await expect(desk.signIn('Otto', 'otto-pin-1', null)).resolves.toMatchObject({ account: { name: 'Otto', role: 'operator' } })

    expect(await desk.listWatchlist()).toEqual(before.entriesBefore)
    expect(await desk.watchlistAlerts()).toEqual([expect.objectContaining({ id: before.alerts.open, kioskId: 'old-kiosk', kioskName: null, givenEmail: 'new@example.com' })])
    expect(await desk.dismissAlert(before.alerts.dismissed, 'Ada')).toBe(false)
    expect(await desk.screen({ personUuids: [OTHER], givenEmail: 'LISTED@example.com', place: 'check-in', kioskId: 'old-kiosk' })).toMatchObject({ screening: 'watchlisted' })

    // Private: the file, and its WAL and index once written to.
    for (const file of databaseFiles(dir, FRONTDESK_FILE)) if (existsSync(file)) expect([file, modeOf(file)]).toEqual([file, '600'])
    expect(modeOf(join(dir, FRONTDESK_FILE))).toBe('600')
    expect(modeOf(dir)).toBe('700')

    // Opened again: nothing to import, nothing doubled.
    await local.close()
    local = await openLocalFrontDesk({ dataDir: dir, now, onImported: (counts) => imported.push(counts) })
    expect(imported).toHaveLength(1)
    expect(await local.frontDesk.listAccounts()).toHaveLength(2)
    await expect(local.frontDesk.signIn('Ada', 'old-pin-1', null)).resolves.toMatchObject({ account: { name: 'Ada' } })
  })

  it('brings the old visits, hosts and invites over: who is on site still is, and an old code still works once', async () => {
    const key = randomBytes(32)
    const DAY = 86_400_000
    const visits = openOldVisits({ dir, now })
    const hana = visits.addHost({ name: 'Hana', email: 'hana@example.com', webhookUrl: 'https://hooks.example.com/h' })
    clock.now += 1000
    const left = visits.checkIn({ personUuid: OTHER, email: 'o@example.com', firstName: null, host: null, purpose: '', kioskId: 'old-kiosk' })
    visits.checkOut(left, 'staff')
    const queued = visits.checkIn({ personUuid: PERSON, email: 'Vera@Example.com', firstName: 'Vera', host: hana, purpose: 'Interview', kioskId: 'old-kiosk' })
    visits.arrivalQueued(queued)
    clock.now += 1000
    const third = '11111111-1111-4111-8111-111111111111'
    // Stored, then the kiosk stopped before the arrival was handed to the host notices.
    const missed = visits.checkIn({ personUuid: third, email: 't@example.com', firstName: null, host: hana, purpose: 'Delivery', kioskId: 'old-kiosk' })
    visits.close()
    const invites = openOldInvites({ dir, now, key })
    const open = invites.add({ email: 'Guest@Example.com', hostId: hana.id, hostName: 'Hana', date: '2026-11-02', expiresAt: clock.now + DAY, createdBy: 'Ada' })
    clock.now -= 1000
    const used = invites.add({ email: 'o@example.com', hostId: null, hostName: null, date: '2026-11-01', expiresAt: clock.now + DAY, createdBy: 'Ada' })
    clock.now += 1000
    invites.use(used.id, left)
    invites.close()

    const imported: LegacyImport[] = []
    local = await openLocalFrontDesk({ dataDir: dir, now, inviteKeys: singleKeyring(async () => key), onImported: (counts) => imported.push(counts) })
    const desk = local.frontDesk
    expect(imported).toEqual([{ accounts: 0, entries: 0, alerts: 0, visits: 3, hosts: 1, invites: 2, notices: 0 }])
    for (const file of [...databaseFiles(dir, 'visits.db'), ...databaseFiles(dir, 'invites.db')]) expect(existsSync(file), file).toBe(false)

    expect(await desk.listHosts()).toEqual([hana])
    expect((await desk.onSite()).map((v) => [v.id, v.personUuid, v.kioskId, v.kioskName, v.hostName])).toEqual([
      [queued, PERSON, 'old-kiosk', null, 'Hana'],
      [missed, third, 'old-kiosk', null, 'Hana'],
    ])
    // The old file's arrival_queued_at is left behind: the records no longer keep it (a check-in queues its notices in its transaction).
    expect((await local.database.all<{ name: string }>("SELECT name FROM pragma_table_info('visits')")).map((c) => c.name)).not.toContain('arrival_queued_at')
    expect((await desk.visitLog({ onSite: false }, 0, 10)).visits).toEqual([expect.objectContaining({ id: left, checkedOutBy: 'staff' })])
    // Still on site: checking in again gives the open visit back.
    const again = await desk.checkIn({ person: { personUuid: PERSON, email: 'vera@example.com', firstName: null }, hostId: null, purpose: null, inviteToken: null, asLastTime: true, kioskId: 'old-kiosk' })
    expect(again).toMatchObject({ outcome: 'checked-in', alreadyOnSite: true, visit: { id: queued } })
    // Found by e-mail in any case: the e-mail was folded on the way in.
    expect((await desk.visitLog({ search: 'vera@example' }, 0, 10)).total).toBe(1)

    expect((await desk.listInvites()).invites.map((i) => [i.id, i.state, i.visitId])).toEqual([
      [open.id, 'open', null],
      [used.id, 'used', left],
    ])
    expect(await desk.checkInvite(open.token)).toEqual({ status: 'valid', email: 'Guest@Example.com', hostId: hana.id, hostName: 'Hana', date: '2026-11-02' })
    expect(await desk.checkInvite(used.token)).toEqual({ status: 'refused', reason: 'used' })
    const guest = await desk.checkIn({ person: { personUuid: '22222222-2222-4222-8222-222222222222', email: 'guest@example.com', firstName: 'Gus' }, hostId: null, purpose: null, inviteToken: open.token, asLastTime: false, kioskId: 'old-kiosk' })
    // A site of one: the check-in queued its host's notices itself, one per channel, and gives no host back.
    expect(guest).toMatchObject({ outcome: 'checked-in', alreadyOnSite: false, host: null, visit: { inviteId: open.id } })
    const guestVisit = guest.outcome === 'checked-in' ? guest.visit.id : ''
    expect(await local.database.all("SELECT dedupe_key, state FROM jobs WHERE kind = 'host-notice' ORDER BY dedupe_key")).toEqual([
      { dedupe_key: `${guestVisit}/email`, state: 'queued' },
      { dedupe_key: `${guestVisit}/webhook`, state: 'queued' },
    ])
    expect(await desk.checkInvite(open.token)).toEqual({ status: 'refused', reason: 'used' })
    // The person removed: their old invites go with their visits.
    expect(await desk.forgetPerson({ userId: 'O@example.com' })).toEqual({ visitIds: [left], invites: 1 })

    await local.close()
    local = await openLocalFrontDesk({ dataDir: dir, now, inviteKeys: singleKeyring(async () => key), onImported: (counts) => imported.push(counts) })
    expect(imported).toHaveLength(1)
    expect(await local.frontDesk.onSite()).toHaveLength(3)
  })

  it('takes in a visits.db from before arrivals were marked, and keeps one open visit per person', async () => {
    const visits = openOldVisits({ dir, now, migrations: 1 })
    const hana = visits.addHost({ name: 'Hana', email: null, webhookUrl: null })
    const withHost = visits.checkIn({ personUuid: OTHER, email: 'o@example.com', firstName: null, host: hana, purpose: '', kioskId: 'old-kiosk' })
    // Two open visits of one person (two windows of one kiosk racing, before the records refused it).
    const older = visits.checkIn({ personUuid: PERSON, email: 'v@example.com', firstName: null, host: null, purpose: '', kioskId: 'old-kiosk' })
    clock.now += 1000
    const newer = visits.checkIn({ personUuid: PERSON, email: 'v@example.com', firstName: null, host: null, purpose: '', kioskId: 'old-kiosk' })
    visits.close()

    const imported: LegacyImport[] = []
    local = await openLocalFrontDesk({ dataDir: dir, now, onImported: (counts) => imported.push(counts) })
    expect(imported).toEqual([{ accounts: 0, entries: 0, alerts: 0, visits: 3, hosts: 1, invites: 0, notices: 0 }])
    expect((await local.frontDesk.onSite()).map((v) => v.id)).toEqual([withHost, newer])
    const log = await local.frontDesk.visitLog({ onSite: false }, 0, 10)
    expect(log.visits).toEqual([expect.objectContaining({ id: older, checkedOutAt: new Date(clock.now).toISOString(), checkedOutBy: null })])
  })

  it('brings the old host-notices.db over: what was not delivered is queued again (in flight: due now; failed: needs attention), delivered records and the SMTP settings kept', async () => {
    const visits = openOldVisits({ dir, now })
    const hana = visits.addHost({ name: 'Hana', email: 'hana@example.com', webhookUrl: 'https://hooks.example.com/h' })
    const first = visits.checkIn({ personUuid: PERSON, email: 'v@example.com', firstName: 'Vera', host: hana, purpose: 'Interview', kioskId: 'old-kiosk' })
    const second = visits.checkIn({ personUuid: OTHER, email: 'o@example.com', firstName: 'Otto', host: hana, purpose: 'Delivery', kioskId: 'old-kiosk' })
    visits.close()
    const arrival = (visitId: string, visitorName: string) =>
      JSON.stringify({ visitId, host: hana, visitorName, purpose: 'Interview', arrivedAt: new Date(clock.now).toISOString(), kioskId: 'old-kiosk' })
    const smtp = { host: 'smtp.example.com', port: 587, security: 'starttls', from: 'desk@example.com', user: 'kiosk' }
    const old = openOldHostNotices({ dir, now })
    const queued = old.add({ visitId: first, channel: 'email', hostName: 'Hana', payload: arrival(first, 'Vera'), state: 'queued', attempts: 2, error: { code: 'UNREACHABLE', message: 'down' } })
    const failed = old.add({ visitId: first, channel: 'webhook', hostName: 'Hana', payload: arrival(first, 'Vera'), state: 'failed', attempts: 1, error: { code: 'REJECTED', message: 'HTTP 400' } })
    clock.now += 1000
    const inFlight = old.add({ visitId: second, channel: 'email', hostName: 'Hana', payload: arrival(second, 'Otto'), state: 'in-flight', attempts: 1 })
    const delivered = old.add({ visitId: second, channel: 'webhook', hostName: 'Hana', payload: null, state: 'delivered', attempts: 1 })
    old.setSmtp(JSON.stringify(smtp))
    old.close()

    const imported: LegacyImport[] = []
    local = await openLocalFrontDesk({ dataDir: dir, now, onImported: (counts) => imported.push(counts) })
    expect(imported).toEqual([{ accounts: 0, entries: 0, alerts: 0, visits: 2, hosts: 1, invites: 0, notices: 4 }])
    for (const file of databaseFiles(dir, 'host-notices.db')) expect(existsSync(file), file).toBe(false)

    const secrets = { smtpPassword: async () => null, webhookSecret: async () => null, status: async () => ({ smtpPassword: false, webhookSecret: false }), set: async () => ({ smtpPassword: false, webhookSecret: false }) }
    const notices = hostNoticesService(local.database, { secrets, now })
    expect((await notices.list()).map((n) => [n.id, n.visitId, n.channel, n.hostName, n.state, n.attempts, n.lastError?.code ?? null])).toEqual([
      [queued, first, 'email', 'Hana', 'queued', 2, 'UNREACHABLE'],
      [failed, first, 'webhook', 'Hana', 'needs-attention', 1, 'REJECTED'],
      [inFlight, second, 'email', 'Hana', 'queued', 1, null],
      [delivered, second, 'webhook', 'Hana', 'delivered', 1, null],
    ])
    // In flight when the old store stopped (its outcome unknown): due now, under nobody's claim.
    expect(await local.database.get('SELECT next_attempt_at AS due, claimed_by FROM jobs WHERE id = ?', [inFlight])).toEqual({ due: clock.now, claimed_by: null })
    // The arrival still to tell is kept as it was (bytes now); the delivered one keeps none.
    const payloads = await local.database.all<{ id: string; payload: Buffer | null }>('SELECT id, payload FROM jobs ORDER BY seq')
    expect(JSON.parse(payloads[0]!.payload!.toString('utf8'))).toMatchObject({ visitId: first, visitorName: 'Vera' })
    expect(payloads[3]).toEqual({ id: delivered, payload: null })
    expect(await notices.settings()).toEqual({ smtp, secrets: { smtpPassword: false, webhookSecret: false } })
    expect((await notices.queue()).counts).toEqual({ queued: 2, inFlight: 0, needsAttention: 1, delivered: 1 })
    // The dedupe keys came along: the same arrival queued again is not a second notice.
    expect(await addArrival(local.database, JSON.parse(arrival(second, 'Otto')), clock.now)).toEqual([])

    await local.close()
    local = await openLocalFrontDesk({ dataDir: dir, now, onImported: (counts) => imported.push(counts) })
    expect(imported).toHaveLength(1)
    expect(await local.database.all('SELECT id FROM jobs')).toHaveLength(4)
  })

  it('reads what the old files still held in their WAL (a kiosk stopped without a checkpoint)', async () => {
    const watchlist = openWatchlist({ dir, now })
    // A connection that never checkpoints keeps the rows in watchlist.db-wal only.
    const holder = new BetterSqlite(join(dir, 'watchlist.db'))
    holder.pragma('wal_autocheckpoint = 0')
    holder.prepare("INSERT INTO entries (person_uuid, email, reason, added_by, added_at) VALUES (?, 'wal@example.com', 'r', 'Ada', 1)").run(PERSON)
    watchlist.close()
    expect(existsSync(join(dir, 'watchlist.db-wal'))).toBe(true)
    try {
      local = await openLocalFrontDesk({ dataDir: dir, now })
      expect(await local.frontDesk.listWatchlist()).toEqual([expect.objectContaining({ personUuid: PERSON, email: 'wal@example.com' })])
    } finally {
      holder.close()
    }
    for (const file of databaseFiles(dir, 'watchlist.db')) expect(existsSync(file), file).toBe(false)
  })

  it('imports again, adding nothing and changing nothing, when the old files outlived an import', async () => {
    await oldKiosk()
    copyFileSync(join(dir, 'accounts.db'), join(root, 'accounts.db'))
    local = await openLocalFrontDesk({ dataDir: dir, now })
    clock.now += 60_000
    await local.frontDesk.setAccountDisabled('Otto', false)
    const after = await local.frontDesk.listAccounts()
    await local.close()

    // As if the process stopped between the import's commit and the removal of the old files.
    copyFileSync(join(root, 'accounts.db'), join(dir, 'accounts.db'))
    const imported: LegacyImport[] = []
    local = await openLocalFrontDesk({ dataDir: dir, now, onImported: (counts) => imported.push(counts) })
    expect(imported).toEqual([{ accounts: 0, entries: 0, alerts: 0, visits: 0, hosts: 0, invites: 0, notices: 0 }])
    expect(await local.frontDesk.listAccounts()).toEqual(after)
    expect(existsSync(join(dir, 'accounts.db'))).toBe(false)
  })

  it('makes a new data folder 0700 and frontdesk.db 0600, and starts with no staff', async () => {
    const imported: LegacyImport[] = []
    local = await openLocalFrontDesk({ dataDir: dir, now, onImported: (counts) => imported.push(counts) })
    expect(modeOf(dir)).toBe('700')
    expect(modeOf(join(dir, FRONTDESK_FILE))).toBe('600')
    expect(imported).toEqual([])
    expect(await local.frontDesk.accountCount()).toBe(0)
    await local.frontDesk.createFirstAdmin('Ada', 'new-pin-1', null)
    for (const file of databaseFiles(dir, FRONTDESK_FILE)) if (existsSync(file)) expect([file, modeOf(file)]).toEqual([file, '600'])
    const raw = new BetterSqlite(join(dir, FRONTDESK_FILE), { readonly: true })
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal')
      expect(raw.prepare("SELECT version FROM schema_versions WHERE name = 'frontdesk'").get()).toEqual({ version: frontDeskMigrations.steps.length })
    } finally {
      raw.close()
    }
  })
  it('empties its change log each time it opens: nobody pulls from a kiosk on its own', async () => {
    local = await openLocalFrontDesk({ dataDir: dir, now })
    await local.frontDesk.addToWatchlist({ personUuid: PERSON, email: 'listed@example.com', reason: 'Banned', addedBy: 'Ada' })
    const logged = async () => (await local!.database.all<{ topic: string; key: string }>('SELECT topic, key FROM frontdesk_changes')).map((c) => [c.topic, c.key])
    expect(await logged()).toEqual([['watchlist', PERSON]])
    await local.close()
    local = await openLocalFrontDesk({ dataDir: dir, now })
    expect(await logged()).toEqual([])
    // Emptied, not undone: the entry stays, and a change after the open is logged as before.
    expect((await local.frontDesk.listWatchlist()).map((e) => e.personUuid)).toEqual([PERSON])
    expect(await local.frontDesk.removeFromWatchlist(PERSON)).toBe(true)
    expect(await logged()).toEqual([['watchlist', PERSON]])
  })
})

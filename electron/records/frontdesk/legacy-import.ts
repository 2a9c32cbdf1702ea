import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import BetterSqlite from 'better-sqlite3'
import type { WatchlistEntry } from '../../shared/watchlist'
import type { Database } from '../sql/types'
import type { AccountRow } from './accounts-repository'
import { recordsOn } from './records'
import type { HostRow } from './hosts-repository'
import type { InviteRow } from './invites-repository'
import { importNotice, type ImportedNotice } from './notices/notice-jobs'
import { NoticeSettingsRepository } from './notices/settings'
import type { VisitRow } from './visits-repository'
import { uuidKey, type AlertRow } from './watchlist-repository'

/** The files a kiosk kept its staff, its watchlist, its visits and hosts, and its invites in before the front desk's records. */
export const LEGACY_ACCOUNTS_FILE = 'accounts.db'
export const LEGACY_WATCHLIST_FILE = 'watchlist.db'
export const LEGACY_VISITS_FILE = 'visits.db'
export const LEGACY_INVITES_FILE = 'invites.db'
/** The kiosk's own host notices' queue before the one delivery queue (its `items` and `config` tables). */
export const LEGACY_HOST_NOTICES_FILE = 'host-notices.db'

export interface LegacyImport {
  accounts: number
  entries: number
  alerts: number
  visits: number
  hosts: number
  invites: number
  notices: number
}

type LegacyAccount = Omit<AccountRow, 'name_key'>
type LegacyEntry = { person_uuid: string; email: string; reason: string; added_by: string; added_at: number }
type LegacyAlert = Omit<AlertRow, 'kiosk_name'>
/**
 * An old visits.db's visit. One past its second migration also has arrival_queued_at (when the
 * arrival was handed to its host notices), which the records no longer keep: read, never copied.
 */
type LegacyVisit = VisitRow & { arrival_queued_at?: number | null }
type LegacyNotice = {
  id: string
  visit_id: string
  channel: 'email' | 'webhook'
  host_name: string
  payload: string | null
  state: 'queued' | 'in-flight' | 'delivered' | 'failed'
  attempts: number
  created_at: number
  updated_at: number
  next_attempt_at: number | null
  delivered_at: number | null
  error_code: string | null
  error_message: string | null
}

/**
 * Brings a kiosk's old accounts.db, watchlist.db, visits.db, invites.db and host-notices.db into
 * the front desk's records, once: every row, the PIN hashes (with their salts and parameters) and
 * the back-off included, so staff sign in with the PINs they had, no alert is lost, whoever was on
 * site still is, an invitation made before still works (its code is checked with the keychain's
 * key), and a host not yet told still is (its notice a job of the one queue, with its id, so a
 * receiver recognises a repeat; the SMTP settings into notice_settings unless some are set).
 * One transaction; the old files (and their -wal, -shm) are removed only after it committed. A
 * row the records already hold is kept as it is there, so an import cut short between the commit
 * and the removal is simply done again at the next open. Returns what was added (null when there
 * was nothing to import).
 */
export async function importLegacyRecords(db: Database, dir: string): Promise<LegacyImport | null> {
  const accountsFile = join(dir, LEGACY_ACCOUNTS_FILE)
  const watchlistFile = join(dir, LEGACY_WATCHLIST_FILE)
  const visitsFile = join(dir, LEGACY_VISITS_FILE)
  const invitesFile = join(dir, LEGACY_INVITES_FILE)
  const accounts = existsSync(accountsFile) ? readOld(accountsFile, (old) => rows<LegacyAccount>(old, 'accounts', 'created_at, name')) : null
  const watchlist = existsSync(watchlistFile)
    ? readOld(watchlistFile, (old) => ({ entries: rows<LegacyEntry>(old, 'entries', 'added_at'), alerts: rows<LegacyAlert>(old, 'alerts', 'at') }))
    : null
  const visits = existsSync(visitsFile)
    ? readOld(visitsFile, (old) => ({ hosts: rows<HostRow>(old, 'hosts', 'created_at, id'), visits: oneOpenEach(rows<LegacyVisit>(old, 'visits', 'checked_in_at, id')) }))
    : null
  const invites = existsSync(invitesFile) ? readOld(invitesFile, (old) => rows<InviteRow>(old, 'invites', 'created_at, id')) : null
  const noticesFile = join(dir, LEGACY_HOST_NOTICES_FILE)
  const notices = existsSync(noticesFile)
    ? readOld(noticesFile, (old) => ({
        items: rows<LegacyNotice>(old, 'items', 'seq'),
        smtp: rows<{ smtp: string | null }>(old, 'config', 'id')[0]?.smtp ?? null,
      }))
    : null
  if (!accounts && !watchlist && !visits && !invites && !notices) return null

  const imported = await db.transaction(async (tx) => {
    const records = recordsOn(tx)
    const added: LegacyImport = { accounts: 0, entries: 0, alerts: 0, visits: 0, hosts: 0, invites: 0, notices: 0 }
    for (const row of accounts ?? []) if (await records.accounts.insertImported(row)) added.accounts++
    for (const row of watchlist?.entries ?? []) {
      const entry: WatchlistEntry = { personUuid: row.person_uuid, email: row.email, reason: row.reason, addedBy: row.added_by, addedAt: row.added_at }
      if (await records.watchlist.insertImported(entry)) added.entries++
    }
    // The old alerts were all this kiosk's own: it had no name on a site.
    for (const row of watchlist?.alerts ?? []) if (await records.watchlist.insertImportedAlert({ ...row, kiosk_name: null })) added.alerts++
    for (const row of visits?.hosts ?? []) if (await records.hosts.insertImported(row)) added.hosts++
    for (const row of visits?.visits ?? []) if (await records.visits.insertImported(row)) added.visits++
    for (const row of invites ?? []) if (await records.invites.insertImported(row)) added.invites++
    for (const row of notices?.items ?? []) if (await importNotice(tx, noticeOf(row))) added.notices++
    if (notices?.smtp) await new NoticeSettingsRepository(tx).setSmtpIfNone(notices.smtp, Date.now())
    return added
  })
  for (const [read, file] of [
    [accounts, accountsFile],
    [watchlist, watchlistFile],
    [visits, visitsFile],
    [invites, invitesFile],
    [notices, noticesFile],
  ] as const) {
    if (read) removeDatabaseFiles(file)
  }
  return imported
}

/**
 * The old visits as the records keep them (the columns they have: arrival_queued_at, where the old
 * file had it, left behind), and at most one open visit per person (the records refuse a second):
 * an older open one of the same person is ended, by nobody, when the next began, so no visit is lost.
 */
function oneOpenEach(visits: LegacyVisit[]): VisitRow[] {
  const rows: VisitRow[] = visits.map(({ arrival_queued_at: _retired, ...row }) => row)
  const open = new Map<string, VisitRow>()
  for (const row of rows) {
    if (row.checked_out_at !== null) continue
    const before = open.get(uuidKey(row.person_uuid))
    if (before) Object.assign(before, { checked_out_at: row.checked_in_at, checked_out_by: null })
    open.set(uuidKey(row.person_uuid), row)
  }
  return rows
}

/**
 * An old notice as a job: one that failed is one that needs attention; one in flight when the old
 * store last stopped (its outcome unknown) is queued again, due at once, with the same id.
 */
function noticeOf(row: LegacyNotice): ImportedNotice {
  const state = row.state === 'failed' ? 'needs-attention' : row.state === 'in-flight' ? 'queued' : row.state
  return {
    id: row.id,
    visitId: row.visit_id,
    channel: row.channel,
    hostName: row.host_name,
    payload: row.payload,
    state,
    attempts: row.attempts,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    nextAttemptAt: state === 'queued' ? (row.state === 'in-flight' ? row.updated_at : (row.next_attempt_at ?? row.updated_at)) : null,
    deliveredAt: row.delivered_at,
    errorCode: row.error_code,
    errorMessage: row.error_message,
  }
}

/** Reads an old file without writing to it (read-only: a file that cannot be read stops the import, and nothing is removed). */
function readOld<T>(file: string, read: (db: BetterSqlite.Database) => T): T {
  const old = new BetterSqlite(file, { readonly: true, fileMustExist: true })
  try {
    return read(old)
  } catch (error) {
    throw new Error(`${file} could not be imported into the front desk's records: ${error instanceof Error ? error.message : String(error)}`)
  } finally {
    old.close()
  }
}

/** Every row of an old table; none when the file never got its tables (a kiosk stopped as it first made it). */
function rows<T>(db: BetterSqlite.Database, table: string, orderBy: string): T[] {
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table)
  return exists ? (db.prepare(`SELECT * FROM ${table} ORDER BY ${orderBy}`).all() as T[]) : []
}

function removeDatabaseFiles(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true })
}

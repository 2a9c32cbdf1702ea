import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import BetterSqlite from 'better-sqlite3'
import type { WatchlistEntry } from '../../shared/watchlist'
import type { Database } from '../sql/types'
import type { AccountRow } from './accounts-repository'
import { recordsOn } from './records'
import type { AlertRow } from './watchlist-repository'

/** The files a kiosk kept its staff and its watchlist in before the front desk's records. */
export const LEGACY_ACCOUNTS_FILE = 'accounts.db'
export const LEGACY_WATCHLIST_FILE = 'watchlist.db'

export interface LegacyImport {
  accounts: number
  entries: number
  alerts: number
}

type LegacyAccount = Omit<AccountRow, 'name_key'>
type LegacyEntry = { person_uuid: string; email: string; reason: string; added_by: string; added_at: number }
type LegacyAlert = Omit<AlertRow, 'kiosk_name'>

/**
 * Brings a kiosk's old accounts.db and watchlist.db into the front desk's records, once: every row,
 * the PIN hashes (with their salts and parameters) and the back-off included, so staff sign in with
 * the PINs they had and no alert is lost. One transaction; the old files (and their -wal, -shm)
 * are removed only after it committed. A row the records already hold is kept as it is there, so
 * an import cut short between the commit and the removal is simply done again at the next open.
 * Returns what was added (null when there was nothing to import).
 */
export async function importLegacyRecords(db: Database, dir: string): Promise<LegacyImport | null> {
  const accountsFile = join(dir, LEGACY_ACCOUNTS_FILE)
  const watchlistFile = join(dir, LEGACY_WATCHLIST_FILE)
  const accounts = existsSync(accountsFile) ? readOld(accountsFile, (old) => rows<LegacyAccount>(old, 'accounts', 'created_at, name')) : null
  const watchlist = existsSync(watchlistFile)
    ? readOld(watchlistFile, (old) => ({ entries: rows<LegacyEntry>(old, 'entries', 'added_at'), alerts: rows<LegacyAlert>(old, 'alerts', 'at') }))
    : null
  if (!accounts && !watchlist) return null

  const imported = await db.transaction(async (tx) => {
    const records = recordsOn(tx)
    const added: LegacyImport = { accounts: 0, entries: 0, alerts: 0 }
    for (const row of accounts ?? []) if (await records.accounts.insertImported(row)) added.accounts++
    for (const row of watchlist?.entries ?? []) {
      const entry: WatchlistEntry = { personUuid: row.person_uuid, email: row.email, reason: row.reason, addedBy: row.added_by, addedAt: row.added_at }
      if (await records.watchlist.insertImported(entry)) added.entries++
    }
    // The old alerts were all this kiosk's own: it had no name on a site.
    for (const row of watchlist?.alerts ?? []) if (await records.watchlist.insertImportedAlert({ ...row, kiosk_name: null })) added.alerts++
    return added
  })
  if (accounts) removeDatabaseFiles(accountsFile)
  if (watchlist) removeDatabaseFiles(watchlistFile)
  return imported
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

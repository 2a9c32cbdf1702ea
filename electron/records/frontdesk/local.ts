import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs'
import { join } from 'node:path'
import { migrate } from '../sql/migrate'
import { openSqlite } from '../sql/sqlite'
import type { Database } from '../sql/types'
import { ChangesRepository } from './changes-repository'
import { createFrontDesk } from './create-front-desk'
import type { FrontDesk, FrontDeskOptions } from './front-desk'
import { importLegacyRecords, type LegacyImport } from './legacy-import'
import { frontDeskMigrations } from './migrations'

/** A kiosk on its own keeps the front desk's records here, in its data folder. */
export const FRONTDESK_FILE = 'frontdesk.db'

export interface LocalFrontDeskOptions extends Omit<FrontDeskOptions, 'notifyHosts'> {
  /** The kiosk's data folder (made 0700 if it is new). */
  dataDir: string
  /** Told what was brought over from the kiosk's old accounts.db, watchlist.db, visits.db, invites.db and host-notices.db, the one time it happens. */
  onImported?: (imported: LegacyImport) => void
}

export interface LocalFrontDesk {
  frontDesk: FrontDesk
  /** The SQLite file's connection (migrated): for other records a kiosk on its own keeps beside these. */
  database: Database
  close(): Promise<void>
}

/**
 * The front desk of a kiosk on its own: a site of one, on `<dataDir>/frontdesk.db`. Personal data
 * and PIN hashes, so the file is made 0600 before SQLite opens it (SQLite gives its -wal and -shm
 * the main file's permissions, so all three stay private); every commit is fsynced before it
 * returns (synchronous FULL), and freed pages are zeroed. On its first open it takes in the
 * kiosk's older accounts.db, watchlist.db, visits.db, invites.db and host-notices.db (legacy-import.ts); the
 * invites' codes stay good when `inviteKeys` is the keychain's key (singleKeyring).
 */
export async function openLocalFrontDesk(options: LocalFrontDeskOptions): Promise<LocalFrontDesk> {
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 })
  const file = join(options.dataDir, FRONTDESK_FILE)
  closeSync(openSync(file, 'a', 0o600))
  chmodSync(file, 0o600)
  const database = openSqlite(file, { synchronous: 'FULL', secureDelete: true })
  try {
    await migrate(database, frontDeskMigrations)
    // Nobody pulls from a kiosk's own front desk (a site's kiosks pull from the site's): its change log is emptied each time it opens.
    await database.transaction((tx) => new ChangesRepository(tx).prune(0))
    const imported = await importLegacyRecords(database, options.dataDir)
    if (imported) options.onImported?.(imported)
  } catch (error) {
    await database.close()
    throw error
  }
  // A site of one: the check-in queues its host notices in its transaction, as a site's does.
  return { frontDesk: createFrontDesk(database, { ...options, notifyHosts: true }), database, close: () => database.close() }
}

import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs'
import { join } from 'node:path'
import { jobsTable } from '../../records/queue/jobs-migration'
import { migrate, type MigrationSet } from '../../records/sql/migrate'
import { openSqlite } from '../../records/sql/sqlite'
import type { Database, Sql } from '../../records/sql/types'
import { ENROLLMENT_KIND, summaryText } from './enrollment-job'

/** The outbox lives in its own file, apart from settings and the engine, so it can be scanned, moved or wiped alone. */
export const OUTBOX_FILE = 'outbox.db'

/** The outbox's schema: the one queue's `jobs` table (electron/records/queue/jobs-migration.ts). */
export const outboxMigrations: MigrationSet = { name: 'outbox', steps: [jobsTable] }

/**
 * PRAGMA user_version of a file with jobs. The outbox before the one queue (tables items, payloads,
 * lease) recorded 1 there and refuses a file above it as "written by a newer kiosk": an older kiosk
 * given this file stops, rather than making an empty outbox of its own beside the jobs.
 */
const JOBS_USER_VERSION = 2

/**
 * Opens (creating if needed) `<dir>/outbox.db`: the folder 0700 and the file 0600 before SQLite
 * opens it (SQLite gives -wal and -shm the main file's permissions); every commit fsynced before it
 * returns; freed pages zeroed. Migrated, and the items of an outbox written before the one queue
 * brought over (importLegacyItems). Returns how many were.
 */
export async function openOutboxDatabase(dir: string, now: number): Promise<{ db: Database; imported: number }> {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const file = join(dir, OUTBOX_FILE)
  closeSync(openSync(file, 'a', 0o600))
  chmodSync(file, 0o600)
  const db = openSqlite(file, { synchronous: 'FULL', secureDelete: true })
  try {
    await migrate(db, outboxMigrations)
    const imported = await db.transaction((tx) => importLegacyItems(tx, now))
    if (imported > 0) await checkpoint(db)
    return { db, imported }
  } catch (error) {
    await db.close()
    throw error
  }
}

interface LegacyRow {
  id: string
  state: 'queued' | 'in-flight' | 'delivered' | 'needs-attention'
  template_type: string
  sample_count: number
  user_sealed: Buffer
  attempts: number
  created_at: number
  updated_at: number
  next_attempt_at: number | null
  delivered_at: number | null
  error_code: string | null
  error_message: string | null
  samples_sealed: Buffer | null
}

/**
 * Within the caller's transaction: the rows of the outbox as it was before the one queue (`items`,
 * their sealed samples in `payloads`, the dispatcher `lease`) become enrollment jobs, in enqueue
 * order, with the same ids, states, attempts, timestamps and errors; an in-flight row (its
 * dispatcher is gone: this runs at open) comes in queued, due now. The sealed userId and samples
 * move as they are (same key, same associated data). Then the old tables are dropped.
 */
export async function importLegacyItems(tx: Sql, now: number): Promise<number> {
  const tables = new Set((await tx.all<{ name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('items', 'payloads', 'lease')`)).map((t) => t.name))
  let imported = 0
  if (tables.has('items')) {
    const samples = tables.has('payloads') ? 'p.samples_sealed' : 'NULL'
    const join = tables.has('payloads') ? 'LEFT JOIN payloads p ON p.item_id = i.id' : ''
    const rows = await tx.all<LegacyRow>(`SELECT i.*, ${samples} AS samples_sealed FROM items i ${join} ORDER BY i.seq`)
    for (const row of rows) {
      const inFlight = row.state === 'in-flight'
      const state = inFlight ? 'queued' : row.state
      const nextAttemptAt = state === 'queued' ? (inFlight ? now : (row.next_attempt_at ?? now)) : null
      imported += await tx.run(
        `INSERT INTO jobs (id, kind, summary, payload, state, attempts, created_at, updated_at, next_attempt_at, delivered_at, error_code, error_message)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
        [
          row.id,
          ENROLLMENT_KIND,
          summaryText(row.template_type, row.sample_count, row.user_sealed),
          state === 'delivered' ? null : row.samples_sealed,
          state,
          row.attempts,
          row.created_at,
          inFlight ? now : row.updated_at,
          nextAttemptAt,
          row.delivered_at,
          row.error_code,
          row.error_message,
        ],
      )
    }
  }
  // payloads first: it references items.
  for (const table of ['payloads', 'items', 'lease']) if (tables.has(table)) await tx.exec(`DROP TABLE ${table}`)
  const version = (await tx.get<{ user_version: number }>('PRAGMA user_version'))?.user_version ?? 0
  if (version < JOBS_USER_VERSION) await tx.exec(`PRAGMA user_version = ${JOBS_USER_VERSION}`)
  return imported
}

/**
 * Folds the WAL back into the database and truncates it, so the ciphertext of delivered payloads
 * does not linger in old WAL frames. Best effort: another process's reader may keep it busy.
 */
export async function checkpoint(db: Database): Promise<void> {
  await db.exec('PRAGMA wal_checkpoint(TRUNCATE)').catch(() => {})
}

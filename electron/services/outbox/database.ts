import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'

export type Db = Database.Database

/** The outbox lives in its own file, apart from settings and the engine, so it can be scanned, moved or wiped alone. */
export const OUTBOX_FILE = 'outbox.db'

/**
 * Schema migrations, applied in order; PRAGMA user_version records how many have run (the same
 * scheme as the engine's store). Never edit a shipped migration: add a new one.
 *
 * - `items`: one row per queued enrollment, with only what the UI needs in clear; the userId is
 *   sealed (AES-256-GCM). `seq` keeps enqueue order. `claimed_by` names the dispatcher that set
 *   a row in-flight, so a dispatcher taking over from a dead one knows which rows are stale.
 * - `payloads`: the sealed samples, in their own table so that list/state queries never read
 *   megabytes of ciphertext and delivery can drop them with one DELETE.
 * - `lease`: at most one row, the dispatcher currently allowed to drain (see store.ts).
 */
const migrations: string[] = [
  `
  CREATE TABLE items (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    state TEXT NOT NULL CHECK (state IN ('queued', 'in-flight', 'delivered', 'needs-attention')),
    template_type TEXT NOT NULL,
    sample_count INTEGER NOT NULL,
    user_sealed BLOB NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    next_attempt_at INTEGER,
    delivered_at INTEGER,
    error_code TEXT,
    error_message TEXT,
    claimed_by TEXT
  );
  CREATE INDEX items_by_state ON items(state, next_attempt_at, seq);
  CREATE TABLE payloads (
    item_id TEXT PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
    samples_sealed BLOB NOT NULL
  );
  CREATE TABLE lease (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    owner TEXT NOT NULL,
    pid INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  );
  `,
]

/**
 * Opens (creating if needed) `<dir>/outbox.db`. The folder is made private to the user and the
 * file is created 0600 before SQLite opens it: SQLite gives the -wal and -shm files the main
 * file's permissions, so all three stay private.
 */
export function openOutboxDatabase(dir: string): Db {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const file = join(dir, OUTBOX_FILE)
  closeSync(openSync(file, 'a', 0o600))
  chmodSync(file, 0o600)
  const db = new Database(file)
  try {
    // Another kiosk process (desktop app and web host share the data folder) may hold the write lock briefly.
    db.pragma('busy_timeout = 5000')
    db.pragma('journal_mode = WAL')
    // FULL: a committed enqueue is fsynced before enqueue returns, so a capture the operator was
    // told is queued survives power loss, not only a crash. The cost is one fsync per write.
    db.pragma('synchronous = FULL')
    db.pragma('foreign_keys = ON')
    // Deleted payloads are overwritten with zeros instead of lingering in free pages.
    db.pragma('secure_delete = ON')
    migrate(db)
    return db
  } catch (error) {
    db.close()
    throw error
  }
}

/** All pending migrations in one IMMEDIATE transaction that reads user_version inside it, so two processes opening a new outbox at once cannot both apply the same migration. */
function migrate(db: Db): void {
  db.transaction(() => {
    const applied = db.pragma('user_version', { simple: true }) as number
    if (applied > migrations.length) throw new Error(`${OUTBOX_FILE} was written by a newer kiosk (schema ${applied}); refusing to touch it.`)
    for (let version = applied; version < migrations.length; version++) {
      db.exec(migrations[version]!)
      db.pragma(`user_version = ${version + 1}`)
    }
  }).immediate()
}

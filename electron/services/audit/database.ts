import Database from 'better-sqlite3'
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs'
import { join } from 'node:path'

export type Db = Database.Database
export const AUDIT_FILE = 'audit.db'

/** Refuses changes to entries; prune lifts it inside its own transaction. */
export const NO_DELETE_TRIGGER = `CREATE TRIGGER entries_append_only_delete BEFORE DELETE ON entries BEGIN SELECT RAISE(ABORT, 'audit entries are append-only'); END`

const migrations = [
  `CREATE TABLE entries (
     seq INTEGER PRIMARY KEY,
     at INTEGER NOT NULL,
     kiosk_id TEXT NOT NULL,
     action TEXT NOT NULL,
     outcome TEXT NOT NULL,
     role TEXT NOT NULL,
     account TEXT,
     user_id TEXT,
     person_uuid TEXT,
     outbox_id TEXT,
     score REAL,
     detail TEXT,
     correlation_id TEXT,
     prev_hash TEXT NOT NULL,
     hash TEXT NOT NULL
   );
   CREATE INDEX entries_at ON entries (at);
   CREATE INDEX entries_user ON entries (user_id);
   CREATE INDEX entries_person ON entries (person_uuid);
   -- Where the chain starts after pruning: the last pruned entry's seq and hash.
   CREATE TABLE anchor (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL, hash TEXT NOT NULL);
   CREATE TRIGGER entries_append_only_update BEFORE UPDATE ON entries BEGIN SELECT RAISE(ABORT, 'audit entries are append-only'); END;
   ${NO_DELETE_TRIGGER};`,
]

/** Opens (creating) the audit database: private file, WAL, every append fsynced before it returns. */
export function openAuditDatabase(dir: string): Db {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const file = join(dir, AUDIT_FILE)
  closeSync(openSync(file, 'a', 0o600))
  chmodSync(file, 0o600)
  const db = new Database(file)
  try {
    // The desktop app and the web host may share the data folder, and so this file.
    db.pragma('busy_timeout = 5000')
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = FULL')
    db.pragma('secure_delete = ON')
    db.transaction(() => {
      const applied = db.pragma('user_version', { simple: true }) as number
      if (applied > migrations.length) throw new Error(`${AUDIT_FILE} was written by a newer kiosk (schema ${applied}); refusing to touch it.`)
      for (let version = applied; version < migrations.length; version++) db.exec(migrations[version]!)
      db.pragma(`user_version = ${migrations.length}`)
    }).immediate()
    return db
  } catch (error) {
    db.close()
    throw error
  }
}

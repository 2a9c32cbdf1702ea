import { openPrivateDatabase, type Db } from '../private-database'
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

/** Opens (creating) the audit database: private, durable, migrated (see private-database.ts). */
export function openAuditDatabase(dir: string): Db {
  return openPrivateDatabase(dir, AUDIT_FILE, migrations)
}

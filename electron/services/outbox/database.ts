import { openPrivateDatabase, type Db } from '../private-database'

export type { Db }

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
 * - `lease`: at most one row, the dispatcher currently allowed to drain (see lease.ts).
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

/** Opens (creating if needed) `<dir>/outbox.db`: private, durable, migrated (see private-database.ts). */
export function openOutboxDatabase(dir: string): Db {
  return openPrivateDatabase(dir, OUTBOX_FILE, migrations, { foreignKeys: true })
}

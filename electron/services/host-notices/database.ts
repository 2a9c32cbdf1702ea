import { openPrivateDatabase, type Db } from '../private-database'

export type { Db }

/** The host notices live in their own file, apart from the enrollment outbox: wiped, moved or inspected alone. */
export const HOST_NOTICES_FILE = 'host-notices.db'

/**
 * Schema migrations (PRAGMA user_version, as in private-database.ts). Never edit a shipped one.
 *
 * - `items`: one row per (arrival, channel). `dedupe_key` = `<visit id>/<channel>` is UNIQUE, so an
 *   arrival enqueued twice is one row and is delivered once. `payload` is the arrival notice (the
 *   visitor's name, the host's address) and is emptied once the notice is delivered. The columns
 *   state / next_attempt_at / claimed_by / updated_at and the `lease` table are the shapes the
 *   outbox's lease (outbox/lease.ts) works on, so the same lease serves this queue.
 * - `lease`: at most one row, the sender currently allowed to deliver.
 * - `config`: the SMTP settings (no secrets: those are in the keychain).
 */
const migrations: string[] = [
  `
  CREATE TABLE items (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    dedupe_key TEXT NOT NULL UNIQUE,
    visit_id TEXT NOT NULL,
    channel TEXT NOT NULL CHECK (channel IN ('email', 'webhook')),
    host_name TEXT NOT NULL,
    payload TEXT,
    state TEXT NOT NULL CHECK (state IN ('queued', 'in-flight', 'delivered', 'failed')),
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
  CREATE INDEX items_by_visit ON items(visit_id);
  CREATE TABLE lease (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    owner TEXT NOT NULL,
    pid INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  );
  CREATE TABLE config (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    smtp TEXT
  );
  `,
]

/** Opens (creating if needed) `<dir>/host-notices.db`: private (0600 in 0700), durable, migrated. */
export function openHostNoticesDatabase(dir: string): Db {
  return openPrivateDatabase(dir, HOST_NOTICES_FILE, migrations)
}

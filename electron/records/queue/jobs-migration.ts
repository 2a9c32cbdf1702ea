import type { MigrationStep } from '../sql/migrate'

/**
 * The one delivery queue's table, the same in every database that keeps jobs (a kiosk's outbox.db
 * and frontdesk.db, a site's PostgreSQL). One row per job of any kind:
 * - `kind`: whose job it is ('enrollment', 'host-notice'); each kind reads only its own rows.
 * - `dedupe_key`: UNIQUE when given, so a job added twice (an arrival on one channel) is one row.
 * - `subject`: what the job is about, to remove its jobs with it (a visit); null when nothing.
 * - `summary`: the kind's few fields staff see, as JSON (anything personal sealed by the kind).
 * - `payload`: what the send needs, possibly sealed by the kind; NULL once delivered.
 * - `claimed_by` / `claimed_until`: the runner sending it, until when its claim holds (renewed while
 *   the send runs; a claim that runs out is queued again). `seq` keeps the order jobs were added.
 */
export const jobsTable: MigrationStep = {
  sqlite: `
    CREATE TABLE jobs (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      kind TEXT NOT NULL,
      dedupe_key TEXT UNIQUE,
      subject TEXT,
      summary TEXT NOT NULL,
      payload BLOB,
      state TEXT NOT NULL CHECK (state IN ('queued', 'in-flight', 'delivered', 'needs-attention')),
      attempts INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      next_attempt_at INTEGER,
      delivered_at INTEGER,
      error_code TEXT,
      error_message TEXT,
      claimed_by TEXT,
      claimed_until INTEGER
    );
    CREATE INDEX jobs_due ON jobs (kind, state, next_attempt_at, seq);
    CREATE INDEX jobs_claims ON jobs (state, claimed_until);
    CREATE INDEX jobs_by_subject ON jobs (subject);
  `,
  postgres: `
    CREATE TABLE jobs (
      seq bigserial PRIMARY KEY,
      id text NOT NULL UNIQUE,
      kind text NOT NULL,
      dedupe_key text UNIQUE,
      subject text,
      summary text NOT NULL,
      payload bytea,
      state text NOT NULL CHECK (state IN ('queued', 'in-flight', 'delivered', 'needs-attention')),
      attempts integer NOT NULL DEFAULT 0,
      created_at bigint NOT NULL,
      updated_at bigint NOT NULL,
      next_attempt_at bigint,
      delivered_at bigint,
      error_code text,
      error_message text,
      claimed_by text,
      claimed_until bigint
    );
    CREATE INDEX jobs_due ON jobs (kind, state, next_attempt_at, seq);
    CREATE INDEX jobs_claims ON jobs (state, claimed_until);
    CREATE INDEX jobs_by_subject ON jobs (subject);
  `,
}

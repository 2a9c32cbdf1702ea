import type { MigrationStep } from '../sql/migrate'

/**
 * The site's host notices (step 5 of the frontdesk set): one row per arrival and channel
 * (dedupe_key `<visit id>/<channel>`, UNIQUE: an arrival is queued once whichever engine took it),
 * written in the check-in's transaction and sent by whichever engine claims it first
 * (since moved into the one job queue: notice-jobs-migration.ts). payload is the ArrivalNotice as JSON until it is delivered, then NULL.
 * claimed_by / claimed_until: the engine sending it and until when its claim holds (renewed while
 * the send runs; an expired claim is queued again). notice_settings: one row, the site's SMTP
 * settings and its secrets sealed by the engine (never plain in the database).
 */
export const noticesStep: MigrationStep = {
  sqlite: `
    CREATE TABLE host_notices (
      id TEXT PRIMARY KEY,
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
      claimed_by TEXT,
      claimed_until INTEGER
    );
    CREATE INDEX host_notices_due ON host_notices (state, next_attempt_at, created_at);
    CREATE INDEX host_notices_claims ON host_notices (state, claimed_until);
    CREATE INDEX host_notices_by_visit ON host_notices (visit_id);
    CREATE TABLE notice_settings (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      smtp TEXT,
      smtp_password BLOB,
      webhook_secret BLOB,
      updated_at INTEGER NOT NULL
    );
  `,
  postgres: `
    CREATE TABLE host_notices (
      id text PRIMARY KEY,
      dedupe_key text NOT NULL UNIQUE,
      visit_id text NOT NULL,
      channel text NOT NULL CHECK (channel IN ('email', 'webhook')),
      host_name text NOT NULL,
      payload text,
      state text NOT NULL CHECK (state IN ('queued', 'in-flight', 'delivered', 'failed')),
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
    CREATE INDEX host_notices_due ON host_notices (state, next_attempt_at, created_at);
    CREATE INDEX host_notices_claims ON host_notices (state, claimed_until);
    CREATE INDEX host_notices_by_visit ON host_notices (visit_id);
    CREATE TABLE notice_settings (
      id integer PRIMARY KEY CHECK (id = 1),
      smtp text,
      smtp_password bytea,
      webhook_secret bytea,
      updated_at bigint NOT NULL
    );
  `,
}

import type { MigrationStep } from '../sql/migrate'

/**
 * Invitation alerts (step 14 of the frontdesk set; electron/shared/invite-alerts.ts): one row per
 * check-in a kiosk made away from the site whose code the site would not count, kept until staff
 * dismiss it. The row names both visits as they were found, so it reads the same after they end.
 */
export const inviteAlertsStep: MigrationStep = {
  sqlite: `
    CREATE TABLE invite_alerts (
      id TEXT PRIMARY KEY,
      at INTEGER NOT NULL,
      invite_id TEXT NOT NULL,
      email TEXT NOT NULL,
      host_name TEXT,
      reason TEXT NOT NULL,
      visit_id TEXT NOT NULL UNIQUE,
      visit_kiosk_id TEXT NOT NULL,
      visit_kiosk_name TEXT,
      visit_at INTEGER NOT NULL,
      first_visit_id TEXT,
      first_kiosk_id TEXT,
      first_kiosk_name TEXT,
      first_at INTEGER,
      dismissed_at INTEGER,
      dismissed_by TEXT
    );
    CREATE INDEX invite_alerts_open ON invite_alerts (dismissed_at, at);
  `,
  postgres: `
    CREATE TABLE invite_alerts (
      id text PRIMARY KEY,
      at bigint NOT NULL,
      invite_id text NOT NULL,
      email text NOT NULL,
      host_name text,
      reason text NOT NULL,
      visit_id text NOT NULL UNIQUE,
      visit_kiosk_id text NOT NULL,
      visit_kiosk_name text,
      visit_at bigint NOT NULL,
      first_visit_id text,
      first_kiosk_id text,
      first_kiosk_name text,
      first_at bigint,
      dismissed_at bigint,
      dismissed_by text
    );
    CREATE INDEX invite_alerts_open ON invite_alerts (dismissed_at, at);
  `,
}

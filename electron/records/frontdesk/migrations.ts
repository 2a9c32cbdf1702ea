import type { MigrationSet } from '../sql/migrate'
import { accountSyncStep } from './account-sync-migration'
import { dropArrivalQueuedStep } from './arrival-column-migration'
import { inviteAlertsStep } from './invite-alerts-migration'
import { inviteSigningStep } from './invite-signing-migration'
import { inviteSyncStep } from './invite-sync-migration'
import { kioskHealthStep } from './kiosk-health-migration'
import { kioskSyncStep } from './kiosk-sync-migration'
import { auditStep } from './audit-migration'
import { mergeStep } from './merge-migration'
import { noticeJobsStep } from './notice-jobs-migration'
import { noticesStep } from './notices-migration'
import { syncStep } from './sync-migration'

/**
 * The front desk's tables, the same on a kiosk's own SQLite file and on a site's PostgreSQL
 * database: epoch milliseconds are INTEGER / bigint, hashes BLOB / bytea, flags 0/1. Case-insensitive
 * keys (an account's name, a watchlisted e-mail) are folded in JavaScript into a *_key column, so
 * both dialects compare them the same way and no SQL function of ours is needed. Secrets are kept
 * only as hashes: scrypt for PINs, SHA-256 for session tokens and pairing codes (random and long
 * enough that a fast hash is no weakness). Never edit a shipped step: add one.
 */
export const frontDeskMigrations: MigrationSet = {
  name: 'frontdesk',
  steps: [
    {
      sqlite: `
        CREATE TABLE accounts (
          name_key TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          role TEXT NOT NULL CHECK (role IN ('operator', 'admin')),
          salt BLOB NOT NULL,
          hash BLOB NOT NULL,
          params TEXT NOT NULL,
          disabled INTEGER NOT NULL DEFAULT 0,
          created_at INTEGER NOT NULL,
          last_sign_in_at INTEGER,
          failures INTEGER NOT NULL DEFAULT 0,
          locked_until INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE staff_sessions (
          token_hash TEXT PRIMARY KEY,
          account_key TEXT NOT NULL REFERENCES accounts(name_key) ON DELETE CASCADE,
          kiosk_id TEXT,
          created_at INTEGER NOT NULL,
          last_active_at INTEGER NOT NULL
        );
        CREATE INDEX staff_sessions_by_account ON staff_sessions (account_key);
        CREATE INDEX staff_sessions_by_activity ON staff_sessions (last_active_at);
        CREATE TABLE watchlist_entries (
          person_uuid TEXT PRIMARY KEY,
          email TEXT NOT NULL,
          email_key TEXT NOT NULL,
          reason TEXT NOT NULL,
          added_by TEXT NOT NULL,
          added_at INTEGER NOT NULL
        );
        CREATE INDEX watchlist_entries_by_email ON watchlist_entries (email_key, added_at);
        CREATE TABLE watchlist_alerts (
          id TEXT PRIMARY KEY,
          at INTEGER NOT NULL,
          kiosk_id TEXT NOT NULL,
          kiosk_name TEXT,
          place TEXT NOT NULL CHECK (place IN ('enrollment', 'check-in')),
          person_uuid TEXT NOT NULL,
          email TEXT NOT NULL,
          given_email TEXT,
          reason TEXT NOT NULL,
          dismissed_at INTEGER,
          dismissed_by TEXT
        );
        CREATE INDEX watchlist_alerts_open ON watchlist_alerts (dismissed_at, at);
        CREATE TABLE kiosks (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          joined_at INTEGER NOT NULL,
          last_seen_at INTEGER,
          removed_at INTEGER
        );
        CREATE TABLE pairing_codes (
          code_hash TEXT PRIMARY KEY,
          created_by TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          expires_at INTEGER NOT NULL,
          used_at INTEGER,
          used_by_kiosk TEXT
        );
      `,
      postgres: `
        CREATE TABLE accounts (
          name_key text PRIMARY KEY,
          name text NOT NULL,
          role text NOT NULL CHECK (role IN ('operator', 'admin')),
          salt bytea NOT NULL,
          hash bytea NOT NULL,
          params text NOT NULL,
          disabled integer NOT NULL DEFAULT 0,
          created_at bigint NOT NULL,
          last_sign_in_at bigint,
          failures integer NOT NULL DEFAULT 0,
          locked_until bigint NOT NULL DEFAULT 0
        );
        CREATE TABLE staff_sessions (
          token_hash text PRIMARY KEY,
          account_key text NOT NULL REFERENCES accounts(name_key) ON DELETE CASCADE,
          kiosk_id text,
          created_at bigint NOT NULL,
          last_active_at bigint NOT NULL
        );
        CREATE INDEX staff_sessions_by_account ON staff_sessions (account_key);
        CREATE INDEX staff_sessions_by_activity ON staff_sessions (last_active_at);
        CREATE TABLE watchlist_entries (
          person_uuid text PRIMARY KEY,
          email text NOT NULL,
          email_key text NOT NULL,
          reason text NOT NULL,
          added_by text NOT NULL,
          added_at bigint NOT NULL
        );
        CREATE INDEX watchlist_entries_by_email ON watchlist_entries (email_key, added_at);
        CREATE TABLE watchlist_alerts (
          id text PRIMARY KEY,
          at bigint NOT NULL,
          kiosk_id text NOT NULL,
          kiosk_name text,
          place text NOT NULL CHECK (place IN ('enrollment', 'check-in')),
          person_uuid text NOT NULL,
          email text NOT NULL,
          given_email text,
          reason text NOT NULL,
          dismissed_at bigint,
          dismissed_by text
        );
        CREATE INDEX watchlist_alerts_open ON watchlist_alerts (dismissed_at, at);
        CREATE TABLE kiosks (
          id text PRIMARY KEY,
          name text NOT NULL,
          joined_at bigint NOT NULL,
          last_seen_at bigint,
          removed_at bigint
        );
        CREATE TABLE pairing_codes (
          code_hash text PRIMARY KEY,
          created_by text NOT NULL,
          created_at bigint NOT NULL,
          expires_at bigint NOT NULL,
          used_at bigint,
          used_by_kiosk text
        );
      `,
    },
    {
      // The organisation's look: one row, the site's, for every kiosk. No row: the defaults.
      sqlite: `
        CREATE TABLE look (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          organisation_name TEXT NOT NULL,
          welcome_line TEXT NOT NULL,
          accent_colour TEXT NOT NULL,
          visitor_retention_days INTEGER,
          logo BLOB,
          updated_at INTEGER NOT NULL
        );
      `,
      postgres: `
        CREATE TABLE look (
          id integer PRIMARY KEY CHECK (id = 1),
          organisation_name text NOT NULL,
          welcome_line text NOT NULL,
          accent_colour text NOT NULL,
          visitor_retention_days integer,
          logo bytea,
          updated_at bigint NOT NULL
        );
      `,
    },
    {
      // Hosts, visits and invites: the site's, whichever kiosk a visitor came through. One open
      // visit per person (the partial unique index): two kiosks checking one person in at once
      // store one visit. Invitation codes' keys, each named by the codes it signed.
      sqlite: `
        CREATE TABLE hosts (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          email TEXT,
          webhook_url TEXT,
          created_at INTEGER NOT NULL
        );
        CREATE TABLE visits (
          id TEXT PRIMARY KEY,
          person_uuid TEXT NOT NULL,
          email TEXT NOT NULL,
          email_key TEXT NOT NULL,
          first_name TEXT,
          host_id TEXT,
          host_name TEXT,
          purpose TEXT NOT NULL,
          checked_in_at INTEGER NOT NULL,
          checked_out_at INTEGER,
          checked_out_by TEXT CHECK (checked_out_by IN ('visitor', 'staff')),
          kiosk_id TEXT NOT NULL,
          invite_id TEXT,
          arrival_queued_at INTEGER
        );
        CREATE UNIQUE INDEX visits_one_open ON visits (person_uuid) WHERE checked_out_at IS NULL;
        CREATE INDEX visits_open ON visits (checked_out_at, checked_in_at);
        CREATE INDEX visits_person ON visits (person_uuid, checked_in_at);
        CREATE INDEX visits_in ON visits (checked_in_at);
        CREATE INDEX visits_by_email ON visits (email_key);
        CREATE TABLE invites (
          id TEXT PRIMARY KEY,
          email TEXT NOT NULL,
          email_key TEXT NOT NULL,
          host_id TEXT,
          host_name TEXT,
          visit_date TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          expires_at INTEGER NOT NULL,
          created_by TEXT,
          used_at INTEGER,
          visit_id TEXT,
          revoked_at INTEGER
        );
        CREATE INDEX invites_created ON invites (created_at);
        CREATE INDEX invites_by_email ON invites (email_key);
        CREATE INDEX invites_expiry ON invites (expires_at);
        CREATE TABLE invite_keys (
          kid TEXT PRIMARY KEY,
          secret BLOB NOT NULL,
          created_at INTEGER NOT NULL
        );
      `,
      postgres: `
        CREATE TABLE hosts (
          id text PRIMARY KEY,
          name text NOT NULL,
          email text,
          webhook_url text,
          created_at bigint NOT NULL
        );
        CREATE TABLE visits (
          id text PRIMARY KEY,
          person_uuid text NOT NULL,
          email text NOT NULL,
          email_key text NOT NULL,
          first_name text,
          host_id text,
          host_name text,
          purpose text NOT NULL,
          checked_in_at bigint NOT NULL,
          checked_out_at bigint,
          checked_out_by text CHECK (checked_out_by IN ('visitor', 'staff')),
          kiosk_id text NOT NULL,
          invite_id text,
          arrival_queued_at bigint
        );
        CREATE UNIQUE INDEX visits_one_open ON visits (person_uuid) WHERE checked_out_at IS NULL;
        CREATE INDEX visits_open ON visits (checked_out_at, checked_in_at);
        CREATE INDEX visits_person ON visits (person_uuid, checked_in_at);
        CREATE INDEX visits_in ON visits (checked_in_at);
        CREATE INDEX visits_by_email ON visits (email_key);
        CREATE TABLE invites (
          id text PRIMARY KEY,
          email text NOT NULL,
          email_key text NOT NULL,
          host_id text,
          host_name text,
          visit_date text NOT NULL,
          created_at bigint NOT NULL,
          expires_at bigint NOT NULL,
          created_by text,
          used_at bigint,
          visit_id text,
          revoked_at bigint
        );
        CREATE INDEX invites_created ON invites (created_at);
        CREATE INDEX invites_by_email ON invites (email_key);
        CREATE INDEX invites_expiry ON invites (expires_at);
        CREATE TABLE invite_keys (
          kid text PRIMARY KEY,
          secret bytea NOT NULL,
          created_at bigint NOT NULL
        );
      `,
    },
    // The site's audit trail (audit-migration.ts).
    auditStep,
    // The site's host notices and their settings (notices-migration.ts).
    noticesStep,
    // What a kiosk that ran on its own brings when it joins: its invitation key (merge-migration.ts).
    mergeStep,
    // The host notices move into the one delivery queue's jobs table (notice-jobs-migration.ts).
    noticeJobsStep,
    // What a site's kiosks copy: the change log its triggers fill, and the acts each kiosk pushed (sync-migration.ts).
    syncStep,
    // visits.arrival_queued_at retired: nothing reads it since a check-in queues its own notices (arrival-column-migration.ts).
    dropArrivalQueuedStep,
    // How far each kiosk's copy of the site has come, for the Kiosks screen (kiosk-sync-migration.ts).
    kioskSyncStep,
    // Staff accounts in the change log, for kiosks that sign staff in while the site is away (account-sync-migration.ts).
    accountSyncStep,
    // Invitation keys with a public half, for kiosks that check codes while the site is away (invite-signing-migration.ts).
    inviteSigningStep,
    // Invitations and the Ed25519 invitation keys in the change log, for kiosks that take codes while the site is away (invite-sync-migration.ts).
    inviteSyncStep,
    // Invitation codes the site would not count for check-ins made at kiosks away from it (invite-alerts-migration.ts).
    inviteAlertsStep,
    // Each kiosk's last health report, for the Kiosks screen and the site's metrics (kiosk-health-migration.ts).
    kioskHealthStep,
  ],
}

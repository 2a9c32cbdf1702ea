import type { MigrationStep } from '../sql/migrate'

/**
 * The site's audit trail (step 4 of the frontdesk set): one append-only, hash-chained line of what
 * the site answered its kiosks (audit-repository.ts). The database refuses to change or remove a
 * row, so an edit needs the triggers dropped first, and the chain still shows it. kiosk_id is null
 * only for a pairing that failed (no kiosk yet). No e-mails, names of visitors, tokens or PINs.
 */
export const auditStep: MigrationStep = {
  sqlite: `
    CREATE TABLE site_audit (
      seq INTEGER PRIMARY KEY,
      at INTEGER NOT NULL,
      kiosk_id TEXT,
      kiosk_name TEXT,
      action TEXT NOT NULL,
      outcome TEXT NOT NULL,
      role TEXT NOT NULL,
      account TEXT,
      person_uuid TEXT,
      detail TEXT,
      prev_hash TEXT NOT NULL,
      hash TEXT NOT NULL
    );
    CREATE INDEX site_audit_by_at ON site_audit (at);
    CREATE INDEX site_audit_by_kiosk ON site_audit (kiosk_id, seq);
    CREATE INDEX site_audit_by_person ON site_audit (person_uuid);
    CREATE TRIGGER site_audit_no_update BEFORE UPDATE ON site_audit BEGIN SELECT RAISE(ABORT, 'audit entries are append-only'); END;
    CREATE TRIGGER site_audit_no_delete BEFORE DELETE ON site_audit BEGIN SELECT RAISE(ABORT, 'audit entries are append-only'); END;
  `,
  postgres: `
    CREATE TABLE site_audit (
      seq bigint PRIMARY KEY,
      at bigint NOT NULL,
      kiosk_id text,
      kiosk_name text,
      action text NOT NULL,
      outcome text NOT NULL,
      role text NOT NULL,
      account text,
      person_uuid text,
      detail text,
      prev_hash text NOT NULL,
      hash text NOT NULL
    );
    CREATE INDEX site_audit_by_at ON site_audit (at);
    CREATE INDEX site_audit_by_kiosk ON site_audit (kiosk_id, seq);
    CREATE INDEX site_audit_by_person ON site_audit (person_uuid);
    CREATE FUNCTION site_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'audit entries are append-only';
    END
    $$;
    CREATE TRIGGER site_audit_no_change BEFORE UPDATE OR DELETE ON site_audit FOR EACH ROW EXECUTE FUNCTION site_audit_append_only();
    CREATE TRIGGER site_audit_no_truncate BEFORE TRUNCATE ON site_audit FOR EACH STATEMENT EXECUTE FUNCTION site_audit_append_only();
  `,
}

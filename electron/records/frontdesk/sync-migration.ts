import type { MigrationStep } from '../sql/migrate'

/**
 * What a site's kiosks keep a copy of, and the acts they pushed (sync-rules.ts). The change log is
 * filled by triggers, so no write path (a check-in, a forget, a purge, a merge, a pairing) can leave
 * it out: each row names a topic and a key whose row changed; a pull reads the row as it is now.
 * kiosks log only their name and removal, never last_seen_at (written by every call of a kiosk).
 * The floor is the newest seq pruned: a kiosk behind it is sent everything.
 *
 * On PostgreSQL the trigger takes CHANGES_LOCK before its insert, held to the
 * commit, so seqs are handed out in commit order: a kiosk that applied seq n never later misses a
 * change below n that was committed after it read. SQLite has one writer at a time already.
 *
 * kiosk_mutations: the last act of each kiosk the site applied (its push is a no-op at or below).
 */
/** Taken by the change log's trigger on PostgreSQL (a constant of this step: never change it). */
export const CHANGES_LOCK = 0x6b696f736b21

export const syncStep: MigrationStep = {
  sqlite: `
    CREATE TABLE frontdesk_changes (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      topic TEXT NOT NULL,
      key TEXT NOT NULL
    );
    CREATE TABLE frontdesk_changes_floor (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL);
    INSERT INTO frontdesk_changes_floor (id, seq) VALUES (1, 0);

    CREATE TRIGGER watchlist_entries_logged_insert AFTER INSERT ON watchlist_entries BEGIN
      INSERT INTO frontdesk_changes (topic, key) VALUES ('watchlist', NEW.person_uuid);
    END;
    CREATE TRIGGER watchlist_entries_logged_update AFTER UPDATE ON watchlist_entries BEGIN
      INSERT INTO frontdesk_changes (topic, key) SELECT 'watchlist', OLD.person_uuid WHERE OLD.person_uuid <> NEW.person_uuid;
      INSERT INTO frontdesk_changes (topic, key) VALUES ('watchlist', NEW.person_uuid);
    END;
    CREATE TRIGGER watchlist_entries_logged_delete AFTER DELETE ON watchlist_entries BEGIN
      INSERT INTO frontdesk_changes (topic, key) VALUES ('watchlist', OLD.person_uuid);
    END;

    CREATE TRIGGER visits_logged_insert AFTER INSERT ON visits BEGIN
      INSERT INTO frontdesk_changes (topic, key) VALUES ('visit', NEW.id);
    END;
    CREATE TRIGGER visits_logged_update AFTER UPDATE ON visits BEGIN
      INSERT INTO frontdesk_changes (topic, key) SELECT 'visit', OLD.id WHERE OLD.id <> NEW.id;
      INSERT INTO frontdesk_changes (topic, key) VALUES ('visit', NEW.id);
    END;
    CREATE TRIGGER visits_logged_delete AFTER DELETE ON visits BEGIN
      INSERT INTO frontdesk_changes (topic, key) VALUES ('visit', OLD.id);
    END;

    CREATE TRIGGER kiosks_logged_insert AFTER INSERT ON kiosks BEGIN
      INSERT INTO frontdesk_changes (topic, key) VALUES ('kiosk', NEW.id);
    END;
    CREATE TRIGGER kiosks_logged_update AFTER UPDATE OF id, name, removed_at ON kiosks BEGIN
      INSERT INTO frontdesk_changes (topic, key) SELECT 'kiosk', OLD.id WHERE OLD.id <> NEW.id;
      INSERT INTO frontdesk_changes (topic, key) VALUES ('kiosk', NEW.id);
    END;
    CREATE TRIGGER kiosks_logged_delete AFTER DELETE ON kiosks BEGIN
      INSERT INTO frontdesk_changes (topic, key) VALUES ('kiosk', OLD.id);
    END;

    CREATE TABLE kiosk_mutations (
      kiosk_id TEXT PRIMARY KEY,
      last_seq INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
  `,
  postgres: `
    CREATE TABLE frontdesk_changes (
      seq bigserial PRIMARY KEY,
      topic text NOT NULL,
      key text NOT NULL
    );
    CREATE TABLE frontdesk_changes_floor (id integer PRIMARY KEY CHECK (id = 1), seq bigint NOT NULL);
    INSERT INTO frontdesk_changes_floor (id, seq) VALUES (1, 0);

    -- TG_ARGV: the topic, and the column that keys it. The row's old key too when an update changed it.
    CREATE FUNCTION frontdesk_log_change() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      old_key text;
      new_key text;
    BEGIN
      PERFORM pg_advisory_xact_lock(${CHANGES_LOCK});
      IF TG_OP <> 'INSERT' THEN old_key := to_jsonb(OLD) ->> TG_ARGV[1]; END IF;
      IF TG_OP <> 'DELETE' THEN new_key := to_jsonb(NEW) ->> TG_ARGV[1]; END IF;
      IF old_key IS NOT NULL AND old_key IS DISTINCT FROM new_key THEN
        INSERT INTO frontdesk_changes (topic, key) VALUES (TG_ARGV[0], old_key);
      END IF;
      IF new_key IS NOT NULL THEN
        INSERT INTO frontdesk_changes (topic, key) VALUES (TG_ARGV[0], new_key);
      END IF;
      RETURN NULL;
    END
    $$;
    CREATE TRIGGER watchlist_entries_logged AFTER INSERT OR UPDATE OR DELETE ON watchlist_entries
      FOR EACH ROW EXECUTE FUNCTION frontdesk_log_change('watchlist', 'person_uuid');
    CREATE TRIGGER visits_logged AFTER INSERT OR UPDATE OR DELETE ON visits
      FOR EACH ROW EXECUTE FUNCTION frontdesk_log_change('visit', 'id');
    CREATE TRIGGER kiosks_logged AFTER INSERT OR UPDATE OF id, name, removed_at OR DELETE ON kiosks
      FOR EACH ROW EXECUTE FUNCTION frontdesk_log_change('kiosk', 'id');

    CREATE TABLE kiosk_mutations (
      kiosk_id text PRIMARY KEY,
      last_seq bigint NOT NULL,
      updated_at bigint NOT NULL
    );
  `,
}

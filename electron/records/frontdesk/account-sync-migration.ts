import type { MigrationStep } from '../sql/migrate'

/**
 * Staff accounts in the change log (step 11 of the frontdesk set), for the kiosks that keep them to
 * sign staff in while the site is away: a row is logged when what a kiosk copies changes (name,
 * role, PIN hash, salt, parameters, disabled), never for what every sign-in writes (the last
 * sign-in, failures, pauses), so signing in does not make every kiosk pull.
 */
export const accountSyncStep: MigrationStep = {
  sqlite: `
    CREATE TRIGGER accounts_logged_insert AFTER INSERT ON accounts BEGIN
      INSERT INTO frontdesk_changes (topic, key) VALUES ('account', NEW.name_key);
    END;
    CREATE TRIGGER accounts_logged_update AFTER UPDATE OF name_key, name, role, salt, hash, params, disabled ON accounts BEGIN
      INSERT INTO frontdesk_changes (topic, key) SELECT 'account', OLD.name_key WHERE OLD.name_key <> NEW.name_key;
      INSERT INTO frontdesk_changes (topic, key) VALUES ('account', NEW.name_key);
    END;
    CREATE TRIGGER accounts_logged_delete AFTER DELETE ON accounts BEGIN
      INSERT INTO frontdesk_changes (topic, key) VALUES ('account', OLD.name_key);
    END;
  `,
  postgres: `
    CREATE TRIGGER accounts_logged AFTER INSERT OR UPDATE OF name_key, name, role, salt, hash, params, disabled OR DELETE ON accounts
      FOR EACH ROW EXECUTE FUNCTION frontdesk_log_change('account', 'name_key');
  `,
}

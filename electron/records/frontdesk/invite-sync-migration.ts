import type { MigrationStep } from '../sql/migrate'

/**
 * Invitations and the site's Ed25519 invitation keys in the change log (step 13 of the frontdesk
 * set), for the kiosks that take codes while the site is away: an invitation is logged at every
 * write (made, used, revoked, forgotten, purged); a key when it is made with a public half (HMAC
 * keys, a site's from before or a kiosk's brought along, are never sent).
 */
export const inviteSyncStep: MigrationStep = {
  sqlite: `
    CREATE TRIGGER invites_logged_insert AFTER INSERT ON invites BEGIN
      INSERT INTO frontdesk_changes (topic, key) VALUES ('invite', NEW.id);
    END;
    CREATE TRIGGER invites_logged_update AFTER UPDATE ON invites BEGIN
      INSERT INTO frontdesk_changes (topic, key) SELECT 'invite', OLD.id WHERE OLD.id <> NEW.id;
      INSERT INTO frontdesk_changes (topic, key) VALUES ('invite', NEW.id);
    END;
    CREATE TRIGGER invites_logged_delete AFTER DELETE ON invites BEGIN
      INSERT INTO frontdesk_changes (topic, key) VALUES ('invite', OLD.id);
    END;
    CREATE TRIGGER invite_keys_logged_insert AFTER INSERT ON invite_keys WHEN NEW.public_key IS NOT NULL BEGIN
      INSERT INTO frontdesk_changes (topic, key) VALUES ('invite-key', NEW.kid);
    END;
  `,
  postgres: `
    CREATE TRIGGER invites_logged AFTER INSERT OR UPDATE OR DELETE ON invites
      FOR EACH ROW EXECUTE FUNCTION frontdesk_log_change('invite', 'id');
    CREATE TRIGGER invite_keys_logged AFTER INSERT ON invite_keys
      FOR EACH ROW WHEN (NEW.public_key IS NOT NULL) EXECUTE FUNCTION frontdesk_log_change('invite-key', 'kid');
  `,
}

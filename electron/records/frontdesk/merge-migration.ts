import type { MigrationStep } from '../sql/migrate'

/**
 * A kiosk that ran on its own brings its records when it joins a site (merge-rules.ts). Its
 * invitation key comes with them, kept in invite_keys under a new key id with the kiosk it came
 * from (imported_from): such a key never signs the site's new codes and is found by no code's key
 * id, only through the invites it signed (invites.key_kid), so the codes that kiosk printed (key
 * id 'kc00', or the older form naming no key) still verify at the site, and nothing else does.
 * key_kid is null for the site's own invites (their codes name their key).
 */
export const mergeStep: MigrationStep = {
  sqlite: `
    ALTER TABLE invite_keys ADD COLUMN imported_from TEXT;
    ALTER TABLE invites ADD COLUMN key_kid TEXT;
  `,
  postgres: `
    ALTER TABLE invite_keys ADD COLUMN imported_from text;
    ALTER TABLE invites ADD COLUMN key_kid text;
  `,
}

import type { MigrationStep } from '../sql/migrate'

/**
 * How far each kiosk's copy of the site has come (step 10 of the frontdesk set): the change-log seq
 * the site last sent it up to, and when. Written by its pulls; not logged as a change (the kiosks
 * triggers of sync-migration.ts follow only id, name and removal), so a pull does not make another.
 */
export const kioskSyncStep: MigrationStep = {
  sqlite: `
    ALTER TABLE kiosks ADD COLUMN synced_cookie INTEGER;
    ALTER TABLE kiosks ADD COLUMN synced_at INTEGER;
  `,
  postgres: `
    ALTER TABLE kiosks ADD COLUMN synced_cookie bigint;
    ALTER TABLE kiosks ADD COLUMN synced_at bigint;
  `,
}

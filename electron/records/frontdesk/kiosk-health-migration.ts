import type { MigrationStep } from '../sql/migrate'

/**
 * Each kiosk's last health report (version, outbox, notices, copy age, camera, last
 * error) and when it came; not logged as a change, so a report does not make kiosks pull.
 */
export const kioskHealthStep: MigrationStep = {
  sqlite: `
    ALTER TABLE kiosks ADD COLUMN health TEXT;
    ALTER TABLE kiosks ADD COLUMN health_at INTEGER;
  `,
  postgres: `
    ALTER TABLE kiosks ADD COLUMN health text;
    ALTER TABLE kiosks ADD COLUMN health_at bigint;
  `,
}

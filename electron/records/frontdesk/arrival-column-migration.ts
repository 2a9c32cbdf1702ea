import type { MigrationStep } from '../sql/migrate'

/**
 * visits.arrival_queued_at retired (step 9 of the frontdesk set). It marked when a kiosk on its own
 * handed an arrival to its old host notices' store, for the compensation that queued the arrivals
 * a stopped kiosk had missed; a check-in now queues its notices in its own transaction, and nothing
 * reads the column. Dropped on both dialects: on SQLite (3.35 or later: better-sqlite3 bundles its
 * own) no index, view or trigger names it (sync-migration.ts's triggers on visits name only id),
 * which SQLite would require before dropping it.
 */
export const dropArrivalQueuedStep: MigrationStep = {
  sqlite: `
    ALTER TABLE visits DROP COLUMN arrival_queued_at;
  `,
  postgres: `
    ALTER TABLE visits DROP COLUMN arrival_queued_at;
  `,
}

import { jobsTable } from '../queue/jobs-migration'
import type { MigrationStep } from '../sql/migrate'

const columns = 'id, kind, dedupe_key, subject, summary, payload, state, attempts, created_at, updated_at, next_attempt_at, delivered_at, error_code, error_message, claimed_by, claimed_until'

/**
 * The host notices join the one delivery queue (step 7 of the frontdesk set): the `jobs` table
 * (queue/jobs-migration.ts) made, every host_notices row moved into it as a 'host-notice' job
 * (notices/notice-jobs.ts: subject the visit, summary its visit, channel and host's name as JSON,
 * payload the ArrivalNotice as bytes; 'failed' is now 'needs-attention'), then host_notices dropped.
 * Rows in flight keep their claim: the next runner queues them again once it runs out.
 * notice_settings stays as step 5 made it.
 */
export const noticeJobsStep: MigrationStep = {
  sqlite: `
    ${jobsTable.sqlite}
    INSERT INTO jobs (${columns})
    SELECT id, 'host-notice', dedupe_key, visit_id, json_object('visitId', visit_id, 'channel', channel, 'hostName', host_name), CAST(payload AS BLOB),
           CASE state WHEN 'failed' THEN 'needs-attention' ELSE state END, attempts, created_at, updated_at, next_attempt_at, delivered_at,
           error_code, error_message, claimed_by, claimed_until
    FROM host_notices ORDER BY created_at, id;
    DROP TABLE host_notices;
  `,
  postgres: `
    ${jobsTable.postgres}
    INSERT INTO jobs (${columns})
    SELECT id, 'host-notice', dedupe_key, visit_id, json_build_object('visitId', visit_id, 'channel', channel, 'hostName', host_name)::text, convert_to(payload, 'UTF8'),
           CASE state WHEN 'failed' THEN 'needs-attention' ELSE state END, attempts, created_at, updated_at, next_attempt_at, delivered_at,
           error_code, error_message, claimed_by, claimed_until
    FROM host_notices ORDER BY created_at, id;
    DROP TABLE host_notices;
  `,
}

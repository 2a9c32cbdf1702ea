import { z } from 'zod'

/**
 * The audit trail as the renderer sees it: what was done, by whom, to whom, with what outcome.
 * Never images, templates or secrets (the store refuses them).
 */

export const auditActions = [
  'sign-in',
  'sign-out',
  'account-change',
  'enroll',
  'enroll-queued',
  'enroll-delivered',
  'verify',
  'identify',
  'face-match',
  'remove',
  'template-delete',
  'template-migrate',
  'check-samples',
  'settings-change',
  'credentials-change',
  'tenant-change',
  'outbox-retry',
  'outbox-discard',
  'host-notice-retry',
  'engine-admin',
  'audit-export',
  'audit-prune',
  'retention-purge',
  'replica-sync',
  'replica-wipe',
  'check-in',
  'check-out',
  'host-change',
  'visits-export',
  'visits-purge',
  'invite-create',
  'invite-revoke',
  'invite-check',
  'watchlist-add',
  'watchlist-remove',
  'watchlist-hit',
  'watchlist-dismiss',
] as const
export type AuditAction = (typeof auditActions)[number]

export const auditOutcomes = ['started', 'ok', 'refused', 'failed', 'queued'] as const
/** Who acted: a session's role, or 'system' for what the kiosk does on its own (queued deliveries, retention). */
export const auditRoles = ['visitor', 'operator', 'admin', 'system'] as const

export const auditEntrySchema = z.object({
  seq: z.number().int(),
  at: z.number(),
  kioskId: z.string(),
  action: z.enum(auditActions),
  outcome: z.enum(auditOutcomes),
  role: z.enum(auditRoles),
  account: z.string().nullable(),
  subject: z.object({ userId: z.string().optional(), personUuid: z.string().optional(), outboxId: z.string().optional() }).nullable(),
  score: z.number().nullable(),
  detail: z.string().nullable(),
  correlationId: z.string().nullable(),
  prevHash: z.string(),
  hash: z.string(),
})
export type AuditEntryView = z.infer<typeof auditEntrySchema>

export const auditQueryInput = z.strictObject({
  from: z.number().optional(),
  to: z.number().optional(),
  actions: z.array(z.enum(auditActions)).max(auditActions.length).optional(),
  userId: z.string().max(254).optional(),
  personUuid: z.uuid().optional(),
  account: z.string().max(64).optional(),
  limit: z.number().int().min(1).max(1000).optional(),
  beforeSeq: z.number().int().min(1).optional(),
})

/** How many of the seqs of entries in the previous format a verdict lists (the oldest); it counts them all. */
export const PREVIOUS_FORMAT_LISTED = 100

export const auditVerdictSchema = z.object({
  ok: z.boolean(),
  entries: z.number().int(),
  firstBadSeq: z.number().int().nullable(),
  reason: z.string().nullable(),
  /**
   * Entries an older kiosk wrote whose hash is in the previous format (an empty subject hashed as
   * three empty fields, though it reads back as none), verified in that format: how many, and the
   * seqs of the oldest of them. Counted up to the first bad entry.
   */
  previousFormat: z.object({ entries: z.number().int(), seqs: z.array(z.number().int()).max(PREVIOUS_FORMAT_LISTED) }),
})
export type AuditVerdictView = z.infer<typeof auditVerdictSchema>

export const auditLogResult = z.object({ entries: z.array(auditEntrySchema), verdict: auditVerdictSchema })
export const auditExportInput = auditQueryInput.extend({ format: z.enum(['csv', 'json']) })
export const auditExportResult = z.object({ fileName: z.string(), content: z.string(), entries: z.number().int() })

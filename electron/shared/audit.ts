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
  'invite-alert-dismiss',
  'watchlist-add',
  'watchlist-remove',
  'watchlist-hit',
  'watchlist-dismiss',
  // A site's own acts (its audit trail, records/frontdesk/audit-repository.ts).
  'watchlist-screen',
  'kiosk-pair',
  'kiosk-remove',
  'pairing-code',
  'look-change',
  'sync-push',
] as const
export type AuditAction = (typeof auditActions)[number]

export const auditOutcomes = ['started', 'ok', 'refused', 'failed', 'queued'] as const
/** Who acted: a session's role, or 'system' for what the kiosk does on its own (queued deliveries, retention). */
export const auditRoles = ['visitor', 'operator', 'admin', 'system'] as const

export const auditEntrySchema = z.object({
  seq: z.number().int(),
  at: z.number(),
  kioskId: z.string(),
  /** On a site's trail: the kiosk's name on the site when the entry was written (null: none known). */
  kioskName: z.string().nullable().optional(),
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
  /** On a site: only what this kiosk of the site did (a kiosk on its own has one kiosk, and ignores it). */
  kioskId: z.uuid().optional(),
  /**
   * On a site, which trail: the site's (the default: every act it did for its kiosks) or this
   * kiosk's own (what it did itself: enrollments, identifications, its settings). A kiosk on its
   * own has only its own.
   */
  trail: z.enum(['site', 'kiosk']).optional(),
})
export type AuditQueryInput = z.infer<typeof auditQueryInput>
/** Verifying a trail: on a site, the site's (the default) or this kiosk's own. */
export const auditVerifyInput = z.strictObject({ trail: auditQueryInput.shape.trail })

/** A whole number as a query string carries it (GET /audit on a site). */
const queryInteger = z
  .string()
  .regex(/^\d{1,15}$/, 'a whole number')
  .transform(Number)
/**
 * auditQueryInput as a query string: numbers as digits, the actions comma-separated (or the
 * parameter repeated). The site's GET /audit reads it; `auditQueryRecord` writes it.
 */
export const auditQueryParams = z.strictObject({
  from: queryInteger.optional(),
  to: queryInteger.optional(),
  actions: z
    .union([z.string().max(2000), z.array(z.string().max(64)).max(auditActions.length)])
    .transform((value) => (Array.isArray(value) ? value : value.split(',')).filter(Boolean))
    .pipe(z.array(z.enum(auditActions)).max(auditActions.length))
    .optional(),
  userId: auditQueryInput.shape.userId,
  personUuid: auditQueryInput.shape.personUuid,
  account: auditQueryInput.shape.account,
  limit: queryInteger.pipe(z.number().int().min(1).max(1000)).optional(),
  beforeSeq: queryInteger.pipe(z.number().int().min(1)).optional(),
  kioskId: auditQueryInput.shape.kioskId,
})

/** A query as GET /audit's query parameters: what auditQueryParams reads back. */
export function auditQueryRecord({ trail: _trail, ...query }: AuditQueryInput): Record<string, string> {
  const params: Record<string, string> = {}
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue
    if (Array.isArray(value)) {
      if (value.length > 0) params[key] = value.join(',')
    } else if (typeof value === 'number') {
      // Whole milliseconds: a bound's fraction widens it, never narrows it.
      params[key] = String(key === 'to' ? Math.ceil(value) : Math.max(0, Math.floor(value)))
    } else params[key] = value
  }
  return params
}

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

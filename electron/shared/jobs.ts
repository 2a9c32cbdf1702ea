import { z } from 'zod'
import { errorCodeSchema } from './errors'

/**
 * What staff see of a job in the kiosk's one delivery queue (electron/records/queue/README.md),
 * whatever its kind: an enrollment waiting in the outbox, a host's arrival notice. Each kind's wire
 * item is these fields and its own few (outbox.ts, host-notices.ts); the renderer shows both with
 * one component.
 */

/**
 * queued → in-flight → delivered, or → needs-attention (a refusal that sending again would only
 * repeat, or too late to matter: staff retry or discard it). A failure worth repeating goes back to
 * queued with a later nextAttemptAt.
 */
export const jobStates = ['queued', 'in-flight', 'delivered', 'needs-attention'] as const
export const jobStateSchema = z.enum(jobStates)
export type JobState = z.infer<typeof jobStateSchema>

export const jobErrorSchema = z.object({ code: errorCodeSchema, message: z.string() })
export type JobError = z.infer<typeof jobErrorSchema>

export const jobFieldsSchema = z.object({
  id: z.string(),
  state: jobStateSchema,
  /** Delivery attempts so far (reset when staff retry). */
  attempts: z.number().int(),
  /** Epoch milliseconds. */
  createdAt: z.number(),
  updatedAt: z.number(),
  /** When a queued job is next tried; null in any other state. */
  nextAttemptAt: z.number().nullable(),
  deliveredAt: z.number().nullable(),
  /** Why the last attempt failed (the reason for needs-attention); null after success. */
  lastError: jobErrorSchema.nullable(),
})
export type JobFields = z.infer<typeof jobFieldsSchema>

export const jobCountsSchema = z.object({
  queued: z.number().int(),
  inFlight: z.number().int(),
  needsAttention: z.number().int(),
  delivered: z.number().int(),
})
export type JobCounts = z.infer<typeof jobCountsSchema>

/** At most this many jobs in a state sent to the screen: needs-attention first, then in-flight, queued, the latest deliveries. */
export const JOB_STATE_MAX_ITEMS = 100

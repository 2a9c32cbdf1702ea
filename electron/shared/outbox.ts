import { z } from 'zod'
import { JOB_STATE_MAX_ITEMS, jobCountsSchema, jobErrorSchema, jobFieldsSchema, jobStateSchema, type JobCounts, type JobError, type JobState } from './jobs'

/**
 * What the renderer may see of the offline outbox (electron/services/outbox/README.md): item
 * summaries and the queue's state, never the samples. The services build these; the renderer
 * parses pushed events with the same schemas.
 */

/** The one delivery queue's states (jobs.ts): queued → in-flight → delivered, or → needs-attention. */
export const outboxItemStateSchema = jobStateSchema
export type OutboxItemState = JobState

/** An enrollment to queue: what the enroll form captured. The outbox adds the templateContext. */
export const outboxEnqueueSchema = z.strictObject({
  userId: z.string().trim().min(1).max(254),
  templateType: z.string().min(1).max(128),
  /** Base64 JPEG/PNG samples, as the BioEngine takes them. */
  samples: z.array(z.string().min(1)).min(1).max(10),
})
export type OutboxEnqueueRequest = z.infer<typeof outboxEnqueueSchema>

export const outboxErrorSchema = jobErrorSchema
export type OutboxError = JobError

/** A queued enrollment as staff see it: the queue's fields (jobs.ts) and its own. */
export const outboxItemSchema = jobFieldsSchema.extend({
  /**
   * The visitor this enrollment is for, so an operator knows whom a parked item concerns. Kept
   * encrypted at rest; shown here because the operator typed it in the first place.
   */
  userId: z.string(),
  templateType: z.string(),
  sampleCount: z.number().int(),
})
export type OutboxItem = z.infer<typeof outboxItemSchema>

/** An operator's "Retry now": the item after the attempt it triggered, and whether the servers answered. */
export const outboxRetryResultSchema = z.object({
  item: outboxItemSchema,
  /** The probe's verdict (false: the servers cannot be reached, so nothing was sent). */
  online: z.boolean().nullable(),
})
export type OutboxRetryResult = z.infer<typeof outboxRetryResultSchema>

export const outboxCountsSchema = jobCountsSchema
export type OutboxCounts = JobCounts

export const outboxStateSchema = z.object({
  /** The last health probe's verdict; null until the first probe has answered. */
  online: z.boolean().nullable(),
  /** True while the dispatcher runs (started and not stopped). */
  running: z.boolean(),
  counts: outboxCountsSchema,
  /**
   * The items an operator should see first: needs-attention, in-flight, queued (oldest first),
   * then recently delivered; at most OUTBOX_STATE_MAX_ITEMS. `counts` always covers everything.
   */
  items: z.array(outboxItemSchema),
  /** True when `items` was cut short; the full list is available on request. */
  truncated: z.boolean(),
})
export type OutboxState = z.infer<typeof outboxStateSchema>

/** Keeps each pushed event small however long the queue grows while offline. */
export const OUTBOX_STATE_MAX_ITEMS = JOB_STATE_MAX_ITEMS

import { z } from 'zod'
import { visitSchema } from './visits'
import { watchlistEntrySchema, watchlistPlaces } from './watchlist'

/**
 * How a site's kiosk keeps its local copies of the site's records and hands the site what it did
 * while away: two calls, after the Replicache push/pull protocol.
 *
 * - Pull (GET /sync/pull?cookie=N): the site's changes since the kiosk's cookie (the seq of the
 *   site's front-desk change log it has applied). Each op is a row as it is NOW (or null: gone), so
 *   applying a page twice is harmless. `reset` says the ops are the whole of every topic (cookie 0,
 *   or a cookie the log no longer reaches): the kiosk replaces its copy with them, in one transaction.
 *   A kiosk changes its copy only by a reply that parses with this schema: an error page, a proxy's
 *   404 or a truncated body changes nothing.
 * - Push (POST /sync/push): the kiosk's acts, each with an id made on the kiosk and a per-kiosk
 *   sequence. The site applies those above the last sequence it applied for that kiosk, each in the
 *   transaction that records the new last sequence, so an act sent again (a reply lost, the kiosk
 *   killed mid-send) is a no-op.
 */

export const SYNC_TOPICS = ['watchlist', 'visit', 'kiosk'] as const
export type SyncTopic = (typeof SYNC_TOPICS)[number]

/** The most change-log rows one incremental pull reads (a reset is one reply, whatever its size). */
export const PULL_PAGE_ROWS = 1000
/** The most acts one push carries. */
export const PUSH_MAX_MUTATIONS = 200

export const pullQuery = z.object({ cookie: z.coerce.number().int().min(0).default(0) })

/** A kiosk of the site as its peers know it (for "not heard from" on an offline evacuation list). */
export const copiedKioskSchema = z.object({ id: z.uuid(), name: z.string().max(64) })
export type CopiedKiosk = z.infer<typeof copiedKioskSchema>

/** One row of a topic as it is now at the site; `value` null: no longer there (removed from the list, a visit ended or forgotten, a kiosk removed). */
export const pullOpSchema = z.discriminatedUnion('topic', [
  z.object({ topic: z.literal('watchlist'), key: z.string().min(1).max(128), value: watchlistEntrySchema.nullable() }),
  /** Open visits only: an ended visit is null. */
  z.object({ topic: z.literal('visit'), key: z.string().min(1).max(128), value: visitSchema.nullable() }),
  z.object({ topic: z.literal('kiosk'), key: z.string().min(1).max(128), value: copiedKioskSchema.nullable() }),
])
export type PullOp = z.infer<typeof pullOpSchema>

export const pullResult = z.object({
  /** The change-log seq these ops bring the kiosk up to: the cookie of its next pull. */
  cookie: z.number().int().min(0),
  /** The ops are every row of every topic: the kiosk's copy becomes exactly them. */
  reset: z.boolean(),
  /** More changes wait past `cookie`: pull again at once. */
  more: z.boolean(),
  ops: z.array(pullOpSchema),
  /** The last act of this kiosk the site applied (0: none): acts at or below it are done. */
  lastMutationSeq: z.number().int().min(0),
})
export type PullResult = z.infer<typeof pullResult>

/** Acts a kiosk makes while it cannot reach the site, applied by the site once. */
export const syncMutationSchema = z.discriminatedUnion('kind', [
  /** A listed person stopped at the kiosk from its copy of the watchlist; the alert keeps the mutation's id. */
  z.object({
    kind: z.literal('watchlist-alert'),
    id: z.uuid(),
    seq: z.number().int().min(1),
    at: z.number(),
    args: z.strictObject({
      place: z.enum(watchlistPlaces),
      personUuid: z.uuid(),
      /** The e-mail on the entry, and the one the visitor typed when it was another. */
      email: z.string().max(254),
      givenEmail: z.string().max(254).nullable(),
      reason: z.string().max(500),
    }),
  }),
])
export type SyncMutation = z.infer<typeof syncMutationSchema>

export const pushRequest = z.strictObject({ mutations: z.array(syncMutationSchema).min(1).max(PUSH_MAX_MUTATIONS) })
export type PushRequest = z.infer<typeof pushRequest>
export const pushResult = z.object({ lastMutationSeq: z.number().int().min(0) })
export type PushResult = z.infer<typeof pushResult>

/** A site kiosk's hold on its site, for staff: whether it is reachable, how old its copy is, and what waits to be pushed. */
export const siteSyncStateSchema = z.object({
  online: z.boolean(),
  /** The first failed call of the current outage (null while online). */
  offlineSince: z.number().nullable(),
  /** The last pull the site answered (null: none yet). */
  copyAsOf: z.number().nullable(),
  /** Acts made here the site has not acknowledged. */
  waitingActs: z.number().int().min(0),
  watchlistEntries: z.number().int().min(0),
  openVisits: z.number().int().min(0),
})
export type SiteSyncState = z.infer<typeof siteSyncStateSchema>

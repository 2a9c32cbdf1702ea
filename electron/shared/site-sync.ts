import { z } from 'zod'
import { email } from './email'
import { inviteSchema } from './invites'
import { listedFaceSchema, MAX_LISTED_FACES } from './listed-faces'
import { accountName, staffRoles } from './staff'
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

export const SYNC_TOPICS = ['watchlist', 'visit', 'kiosk', 'account', 'invite', 'invite-key'] as const
export type SyncTopic = (typeof SYNC_TOPICS)[number]

/** The most change-log rows one incremental pull reads (a reset is one reply, whatever its size). */
export const PULL_PAGE_ROWS = 1000
/** The most acts one push carries. */
export const PUSH_MAX_MUTATIONS = 200

export const pullQuery = z.object({
  cookie: z.coerce.number().int().min(0).default(0),
  /**
   * '1': send the staff accounts too (topic 'account'), for signing staff in while the site is away.
   * A kiosk that does not ask (one older than the topic, whose schema would refuse it) gets none.
   */
  accounts: z.enum(['1']).optional(),
  /** '1': send the invitations not yet expired and the site's public invitation keys too (topics 'invite', 'invite-key'), asked as `accounts`. */
  invites: z.enum(['1']).optional(),
})

/** A kiosk of the site as its peers know it (for "not heard from" on an offline evacuation list). */
export const copiedKioskSchema = z.object({ id: z.uuid(), name: z.string().max(64) })
export type CopiedKiosk = z.infer<typeof copiedKioskSchema>

/**
 * A staff account as a kiosk keeps it to sign staff in while its site is away: the PIN's scrypt hash,
 * salt and parameters (never the PIN), the role and whether it is disabled. Nothing of sessions,
 * failures or last sign-ins: those change at every sign-in and are the site's own.
 */
export const copiedAccountSchema = z.object({
  name: accountName,
  role: z.enum(staffRoles),
  salt: z.base64().max(64),
  hash: z.base64().max(128),
  params: z.string().max(200),
  disabled: z.boolean(),
})
export type CopiedAccount = z.infer<typeof copiedAccountSchema>

/**
 * A watchlist entry as a kiosk copies it: with the listed person's newest faces (their templates on
 * the site's BioEngine), so the kiosk screens faces against them while the site is away. Absent
 * (a site older than the field, or a person with no face enrolled): screened by id and e-mail only.
 */
export const copiedWatchlistEntrySchema = watchlistEntrySchema.extend({ faces: z.array(listedFaceSchema).max(MAX_LISTED_FACES * 2).optional() })
export type CopiedWatchlistEntry = z.infer<typeof copiedWatchlistEntrySchema>

/**
 * An invitation as a kiosk keeps it to take its code while the site is away: what the visitor's
 * form fills, when it ends, and whether it was used or revoked (its state is read by the kiosk's clock).
 */
export const copiedInviteSchema = inviteSchema.pick({ id: true, email: true, hostId: true, hostName: true, date: true, expiresAt: true, usedAt: true, revokedAt: true })
export type CopiedInvite = z.infer<typeof copiedInviteSchema>

/** A site's invitation key as its kiosks keep it: the Ed25519 public half (SPKI DER, base64) that checks the codes it signed. */
export const copiedInviteKeySchema = z.object({ kid: z.string().min(4).max(12), publicKey: z.base64().max(200) })
export type CopiedInviteKey = z.infer<typeof copiedInviteKeySchema>

/** One row of a topic as it is now at the site; `value` null: no longer there (removed from the list, a visit ended or forgotten, a kiosk removed). */
export const pullOpSchema = z.discriminatedUnion('topic', [
  z.object({ topic: z.literal('watchlist'), key: z.string().min(1).max(128), value: copiedWatchlistEntrySchema.nullable() }),
  /** Open visits only: an ended visit is null. */
  z.object({ topic: z.literal('visit'), key: z.string().min(1).max(128), value: visitSchema.nullable() }),
  z.object({ topic: z.literal('kiosk'), key: z.string().min(1).max(128), value: copiedKioskSchema.nullable() }),
  /** Only to a kiosk that asked (pullQuery.accounts); keyed by the account's name key (accountKey). */
  z.object({ topic: z.literal('account'), key: z.string().min(1).max(128), value: copiedAccountSchema.nullable() }),
  /** Only to a kiosk that asked (pullQuery.invites): invitations until they expire (null: forgotten or purged). */
  z.object({ topic: z.literal('invite'), key: z.string().min(1).max(128), value: copiedInviteSchema.nullable() }),
  /** Only to a kiosk that asked: the site's Ed25519 keys (never removed; its HMAC keys from before are not sent). */
  z.object({ topic: z.literal('invite-key'), key: z.string().min(1).max(128), value: copiedInviteKeySchema.nullable() }),
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

const actHead = { id: z.uuid(), seq: z.number().int().min(1), at: z.number() }

/**
 * The kinds of act, with how the person is named: `personUuid` is the site's person id on the wire;
 * in the kiosk's queue it may be null until the kiosk learns it (see queuedActSchema).
 */
function actKinds<P extends z.ZodType<string | null>>(personUuid: P) {
  /** The person an offline visit is of: the e-mail (the person server's userId) is how the kiosk knows them. */
  const person = z.strictObject({ personUuid, email })
  return z.discriminatedUnion('kind', [
    /** A listed person stopped at the kiosk from its copy of the watchlist; the alert keeps the mutation's id. */
    z.object({
      kind: z.literal('watchlist-alert'),
      ...actHead,
      args: z.strictObject({
        place: z.enum(watchlistPlaces),
        personUuid: z.uuid(),
        /** The e-mail on the entry, and the one the visitor typed when it was another. */
        email: z.string().max(254),
        givenEmail: z.string().max(254).nullable(),
        reason: z.string().max(500),
      }),
    }),
    /**
     * A check-in made while the site was away: the visit's id is the act's, its time the act's. The
     * site applies it as a check-in then (a person on site meanwhile keeps their open visit), and
     * queues the host's notice in that transaction: the host hears once, when the site learns of it.
     */
    z.object({
      kind: z.literal('check-in'),
      ...actHead,
      args: z.strictObject({
        person: person.extend({ firstName: z.string().trim().min(1).max(80).nullable() }),
        hostId: visitSchema.shape.hostId,
        purpose: z.string().trim().max(200).nullable(),
        /** A returning visitor who named no host: the site gives them last time's host and purpose. */
        asLastTime: z.boolean(),
        /**
         * The invitation whose code the kiosk took from its copy: the site uses it up as it applies
         * the check-in. Used meanwhile elsewhere, revoked or ended by then: the visit stands without it.
         */
        inviteId: inviteSchema.shape.id.optional(),
      }),
    }),
    /** A staff member signed in at the kiosk from its copy of the accounts while the site was away: the site audits it. */
    z.object({
      kind: z.literal('staff-sign-in'),
      ...actHead,
      args: z.strictObject({ account: accountName, role: z.enum(staffRoles) }),
    }),
    /** A check-out made while the site was away: the visit it ends (one from the copy, or a check-in made here), else that person's open visit begun before it. */
    z.object({
      kind: z.literal('check-out'),
      ...actHead,
      args: z.strictObject({ visitId: visitSchema.shape.id, person }),
    }),
  ])
}

/** Acts a kiosk makes while it cannot reach the site, applied by the site once. */
export const syncMutationSchema = actKinds(z.uuid())
export type SyncMutation = z.infer<typeof syncMutationSchema>
/**
 * An act as the kiosk keeps it until the site applied it. A visitor known here only by their e-mail
 * (an enrollment still in the outbox, or a face the offline replica recognised: its person ids are
 * its own) waits with no person id: the kiosk asks the person server for it before the act is pushed.
 */
export const queuedActSchema = actKinds(z.uuid().nullable())
export type QueuedAct = z.infer<typeof queuedActSchema>

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

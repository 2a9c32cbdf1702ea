import { z } from 'zod'
import { email } from './email'
import { INVITE_TOKEN_MAX, inviteRefusals } from './invites'
import { livenessEvidenceInput, livenessOverrideInput } from './liveness'

/**
 * The front desk's records: hosts who receive visitors, and visits. One wire model for
 * the services, the renderer and the host notifications; each feature module extends it beside
 * its own methods.
 */

const id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'not an id')
const isoTime = z.iso.datetime({ offset: true })

/** A person staff list as someone visitors come to see. The e-mail and webhook are where they are told of an arrival. */
export const hostSchema = z.object({
  id,
  name: z.string().trim().min(1).max(120),
  email: email.nullable(),
  /** https (or http to loopback, for tests and a local relay) URL that receives a signed POST on each arrival. */
  webhookUrl: z.url().max(2048).nullable(),
})
export type Host = z.infer<typeof hostSchema>

/** A visit: who came, to see whom, why, when in and out, at which kiosk. */
export const visitSchema = z.object({
  id,
  /** The enrolled person (person server uuid) who checked in. */
  personUuid: z.uuid(),
  /** Their e-mail (the person server's userId). */
  email,
  /** What the visitor gave as their first name; null when they gave none. */
  firstName: z.string().trim().min(1).max(80).nullable(),
  hostId: id.nullable(),
  hostName: z.string().max(120).nullable(),
  purpose: z.string().trim().max(200),
  checkedInAt: isoTime,
  checkedOutAt: isoTime.nullable(),
  /** Who ended it: the visitor at a kiosk, staff, or nobody (ended as forgotten). */
  checkedOutBy: z.enum(['visitor', 'staff']).nullable(),
  kioskId: z.string().max(128),
  /** The kiosk's name on its site (null on a kiosk on its own, or a kiosk the site no longer knows). */
  kioskName: z.string().max(64).nullable(),
  /** The invite this visit came from, if any. */
  inviteId: id.nullable(),
})
export type Visit = z.infer<typeof visitSchema>

/** What a host is told when their visitor arrives: no face, no score, nothing beyond the visit. */
export const arrivalNoticeSchema = z.object({
  visitId: id,
  host: hostSchema,
  visitorName: z.string().max(254),
  purpose: z.string().max(200),
  arrivedAt: isoTime,
  kioskId: z.string().max(128),
})
export type ArrivalNotice = z.infer<typeof arrivalNoticeSchema>

/*
 * The visits feature's methods: check-in and check-out at the kiosk, the
 * hosts directory, and staff's views of who is on site and the visit log.
 */

const base64Image = z.string().min(16, 'an image is required').max(8 * 1024 * 1024, 'the image is too large')
const livenessParts = { liveness: livenessEvidenceInput.optional(), livenessOverride: livenessOverrideInput.optional() }
const purpose = z.string().trim().max(200)
const firstName = z.string().trim().min(1).max(80)

/** A webhook must not be a way to reach the kiosk's own network in the clear: https, or http to loopback only. */
export function webhookUrlProblem(value: string): string | null {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return 'not a URL'
  }
  if (url.protocol === 'https:') return null
  if (url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) return null
  return 'use an https address (http only to this computer)'
}
const webhookUrl = z
  .url()
  .max(2048)
  .refine((value) => webhookUrlProblem(value) === null, { message: 'use an https address (http only to this computer)' })

export const hostInput = z.strictObject({ name: z.string().trim().min(1).max(120), email: email.nullable().optional(), webhookUrl: webhookUrl.nullable().optional() })
export const updateHostInput = hostInput.extend({ id })
export const recordIdInput = z.strictObject({ id })
/** What a visitor may see of a host: whom they can pick, nothing more. */
export const hostNameSchema = hostSchema.pick({ id: true, name: true })
export type HostName = z.infer<typeof hostNameSchema>

/** The visitor agreed to their photo on their badge (it is printed only where the tenant keeps face crops). */
const badgePhoto = z.boolean().optional()
/** Whether a check-in may offer the visitor their photo on the badge: only where the tenant keeps face crops. */
export const badgePolicySchema = z.object({ photo: z.boolean() })

/** After enrolling: the person this window just enrolled checks in (staff may name anyone enrolled). */
export const checkInInput = z.strictObject({
  /** Absent: the person this screen just enrolled, whose enrollment waits in the outbox (the servers have given them no id yet). */
  personUuid: z.uuid().optional(),
  hostId: id.nullable().optional(),
  purpose: purpose.optional(),
  firstName: firstName.optional(),
  /** The invitation the visitor showed before enrolling: the visit links to it, and uses it up. */
  inviteToken: z.string().min(1).max(INVITE_TOKEN_MAX).optional(),
  badgePhoto,
})
/** "I've been here before": one photo (and liveness when the tenant asks); without a host, their last visit's host and purpose. */
export const checkInByFaceInput = z.strictObject({ sample: base64Image, hostId: id.optional(), purpose: purpose.optional(), badgePhoto, ...livenessParts })
export const checkOutByFaceInput = z.strictObject({ sample: base64Image, ...livenessParts })

/**
 * Why a face check-in or check-out went no further, for staff and the audit only: a visitor reads
 * 'see-front-desk' whatever it was (or 'not-on-site' when they were recognised but not checked in).
 */
export const refusalWhySchema = z.enum(['no-match', 'tie', 'no-email', 'watchlisted', 'not-on-site'])

/** An invitation refused at check-in: as the scan words it, or made out to another e-mail than the one enrolled. */
export const inviteCheckInRefusal = z.enum([...inviteRefusals, 'other-email'])
export type InviteCheckInRefusal = z.infer<typeof inviteCheckInRefusal>

/** A check-in or check-out this kiosk keeps for its site until the site is back (absent: the front desk has it). */
const offlineAct = z.literal(true).optional()

export const visitorCheckResult = z.discriminatedUnion('outcome', [
  z.object({
    outcome: z.literal('checked-in'),
    visitId: id,
    /** The visitor's own first name, or their e-mail without one: nobody else's. */
    greeting: z.string().max(254),
    hostName: z.string().max(120).nullable(),
    checkedInAt: isoTime,
    /** They were already on site: the open visit is given back, no second one made. */
    alreadyOnSite: z.boolean(),
    /**
     * This check-in queued a notice to the host on a channel that is set up: only then may the
     * visitor be told their host will hear (not when they were on site already, the host has no
     * address, or e-mail or the webhook secret is not set up).
     */
    hostNotified: z.boolean(),
    /** The badge may show the visitor's photo: they agreed and the tenant keeps face crops (absent otherwise). */
    badgePhoto: z.literal(true).optional(),
    /** Staff only (the audit names the person); a visitor's result has none. */
    personUuid: z.uuid().optional(),
    /** Recorded at this kiosk while its site could not be reached: the site, and so the host, hear of it when it is back. */
    offline: offlineAct,
  }),
  z.object({ outcome: z.literal('checked-out'), visitId: id, greeting: z.string().max(254), checkedOutAt: isoTime, personUuid: z.uuid().optional(), offline: offlineAct }),
  z.object({
    outcome: z.literal('refused'),
    reason: z.enum(['see-front-desk', 'not-on-site', 'invite']),
    why: refusalWhySchema.optional(),
    /** With reason 'invite': why the visitor's own invitation could not be used (they read it, as at the scan). */
    invite: inviteCheckInRefusal.optional(),
    personUuid: z.uuid().optional(),
  }),
])
export type VisitorCheckResult = z.infer<typeof visitorCheckResult>

/** The visit log's filters: a text search (e-mail, name, host, purpose), a check-in date range, a host, only those on site. */
export const visitFilterInput = z.strictObject({
  search: z.string().trim().max(120).optional(),
  from: isoTime.optional(),
  to: isoTime.optional(),
  hostId: id.optional(),
  onSite: z.boolean().optional(),
})
export type VisitFilter = z.infer<typeof visitFilterInput>
export const visitLogInput = visitFilterInput.extend({ pageNo: z.number().int().min(0).max(100_000).default(0), pageSize: z.number().int().min(1).max(200).default(50) })
export const visitLogResult = z.object({ visits: z.array(visitSchema), total: z.number().int(), pageNo: z.number().int(), pageSize: z.number().int() })
export const visitsCsvResult = z.object({ fileName: z.string(), content: z.string(), visits: z.number().int() })
/** The Overview's range: at most VISIT_OVERVIEW_MAX_DAYS of check-ins, so its work is bounded. */
export const VISIT_OVERVIEW_MAX_DAYS = 366
/** How check-ins are counted: per quarter hour (UTC), so each kiosk draws them by its own clock (every time zone is whole quarters from UTC). */
export const ARRIVAL_BUCKET_MS = 15 * 60_000
export const visitOverviewInput = z
  .strictObject({ from: isoTime, to: isoTime })
  .refine(({ from, to }) => Date.parse(from) <= Date.parse(to), { message: 'The range ends before it starts.' })
  .refine(({ from, to }) => Date.parse(to) - Date.parse(from) <= VISIT_OVERVIEW_MAX_DAYS * 86_400_000, { message: `The range is longer than ${VISIT_OVERVIEW_MAX_DAYS} days.` })
export type VisitOverviewRange = z.infer<typeof visitOverviewInput>
const count = z.number().int().min(0)
/** The front desk's day in numbers, never a person: check-ins in the range, who is on site now, stays, the busiest hosts. */
export const visitOverviewSchema = z.object({
  /** Check-ins in the range per quarter hour: the quarter's start (ms since 1970, UTC) and how many; quarters with none left out. */
  arrivals: z.array(z.tuple([z.number().int(), count])),
  /** Everyone on site now, whenever they came. */
  onSiteNow: count,
  /** Visits in the range that ended, and their average length (null: none ended). */
  ended: count,
  averageStaySeconds: z.number().min(0).nullable(),
  /** The hosts most visited in the range, most first (at most VISIT_OVERVIEW_HOSTS). */
  busiestHosts: z.array(z.object({ hostId: id, name: z.string(), visits: count })),
})
export type VisitOverview = z.infer<typeof visitOverviewSchema>
export const VISIT_OVERVIEW_HOSTS = 5
/** Why an evacuation list may be short: read from the kiosk's copy while its site could not be reached. */
export const onSiteCopySchema = z.object({
  /** When the copy last heard from the site (null: never, since the kiosk joined). */
  asOf: isoTime.nullable(),
  /** The site's other kiosks, by name: whoever they admitted since `asOf` is not on the list. */
  unheardKiosks: z.array(z.string()),
})
export type OnSiteCopy = z.infer<typeof onSiteCopySchema>
/** The evacuation list: live from the front desk, or (a site's kiosk away from its site) its copy, which `offline` describes. */
export const onSiteResult = z.object({ visits: z.array(visitSchema), at: isoTime, offline: onSiteCopySchema.nullable() })

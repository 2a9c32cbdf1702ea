import { z } from 'zod'
import { auditExportInput, auditExportResult, auditLogResult, auditQueryParams, auditVerdictSchema } from './audit'
import { LOGO_MAX_STORED_BYTES } from './branding'
import { lookSettingFields } from './settings'
import { accountViewSchema, createAccountInput, firstAdminInput, setAccountDisabledInput, signInInput, staffRoles } from './staff'
import { watchlistAlertSchema, watchlistEntrySchema, watchlistPlaces } from './watchlist'
import { inviteAlertSchema } from './invite-alerts'
import { checkInviteInput, checkInviteResult, createInviteInput, inviteSchema, inviteStates, listInvitesResult } from './invites'
import { hostInput, hostNameSchema, hostSchema, inviteCheckInRefusal, visitFilterInput, visitLogInput, visitOverviewInput, visitOverviewSchema, visitSchema } from './visits'
import { pullQuery, pullResult, pushRequest, pushResult } from './site-sync'
import { hostNoticeQueueSchema, hostNoticeSchema, hostNoticeSecretStatusSchema, hostNoticeSecretsInput, hostNoticeSettingsSchema, saveHostNoticeSettingsInput } from './host-notices'

/**
 * The site's front-desk API: what a kiosk on a site asks the site's engines, under
 * FRONTDESK_PREFIX. One wire model: the engine's routes declare these schemas, the kiosk's client
 * parses replies with them. Errors come back in the engine's person-server shape
 * `{timestamp, status, error, message, path}` plus `code` (a kiosk error code), so the kiosk can
 * pass the site's words on as they are.
 *
 * Who may call:
 * - 'pairing': anyone (a one-time pairing code is the credential), backed off per peer on wrong codes;
 * - 'kiosk': a paired kiosk's bearer token (its OAuth client from pairing, at the engine's token
 *   endpoint): what a visitor at that kiosk may cause;
 * - 'operator' / 'admin': the kiosk's token AND a staff session the site issued (STAFF_SESSION_HEADER)
 *   whose account, read again on every call, is active and holds that role. The site checks the
 *   role; the kiosk's own check is only a first filter.
 */

export const FRONTDESK_PREFIX = '/frontdesk/v1'
/** The staff session a kiosk's staff call carries: the opaque token the site issued at sign-in. */
export const STAFF_SESSION_HEADER = 'x-staff-session'
/** OAuth client ids the site makes for paired kiosks start with this; the rest is the kiosk's id. */
export const KIOSK_CLIENT_PREFIX = 'kiosk-'
/** The scope a paired kiosk's client holds (beside the person server's tenant-admin scope). */
export const SCOPE_FRONTDESK_KIOSK = 'frontdesk-kiosk'

export type FrontDeskAuth = 'pairing' | 'kiosk' | 'operator' | 'admin'

/** A pairing code's letters: no 0/O, 1/I/L, so it can be read off a screen and typed. */
export const PAIRING_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ'
export const PAIRING_CODE_LENGTH = 8
/** How long a pairing code is valid. */
export const PAIRING_CODE_TTL_MS = 15 * 60_000

/** A code as typed: case, spaces and dashes do not matter ("abcd-efgh" is ABCDEFGH). */
export const pairingCode = z
  .string()
  .max(32)
  .transform((value) => value.replace(/[\s-]/g, '').toUpperCase())
  .pipe(z.string().regex(new RegExp(`^[${PAIRING_ALPHABET}]{${PAIRING_CODE_LENGTH}}$`), `a pairing code is ${PAIRING_CODE_LENGTH} letters and digits`))

/**
 * A pairing that brings a kiosk's records names its code in this header too: the site reads a body
 * larger than PAIR_PLAIN_BODY_LIMIT only for a code that would pair now, so a stranger without one
 * cannot make it parse megabytes.
 */
export const PAIRING_CODE_HEADER = 'x-pairing-code'
/** The most a pairing request without a code in PAIRING_CODE_HEADER may carry (a plain pairing is a few hundred bytes). */
export const PAIR_PLAIN_BODY_LIMIT = 16 * 1024

/** A kiosk's name on its site (the Kiosks list, alerts, visits): one line. */
// eslint-disable-next-line no-control-regex
export const kioskName = z.string().trim().min(1).max(64).regex(/^[^\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]+$/, 'one line without control characters')

export const pairingCodeResult = z.object({ code: z.string(), expiresAt: z.iso.datetime() })
export type PairingCodeResult = z.infer<typeof pairingCodeResult>

/**
 * What a kiosk that ran on its own brings when it joins (an administrator's choice): its front
 * desk's records as it keeps them, merged into the site's in the transaction that uses the pairing
 * code up (electron/records/frontdesk/merge-rules.ts). Stored values, so bounded but not judged
 * again by today's input rules (a row the kiosk kept must not stop the join). PIN hashes and salts,
 * and the invitation key, are base64.
 */
const storedText = (max: number) => z.string().max(max)
const storedId = z.string().min(1).max(64)
const storedTime = z.number().int().nonnegative()
const base64 = (maxBytes: number) => z.string().max(Math.ceil(maxBytes / 3) * 4).regex(/^[A-Za-z0-9+/]*={0,2}$/, 'base64')
export const kioskRecordsSchema = z.strictObject({
  accounts: z.array(
    z.strictObject({
      name: storedText(64).min(1),
      role: z.enum(staffRoles),
      salt: base64(1024),
      hash: base64(1024),
      params: storedText(1024),
      disabled: z.boolean(),
      createdAt: storedTime,
      lastSignInAt: storedTime.nullable(),
    }),
  ),
  watchlist: z.array(z.strictObject({ personUuid: storedId, email: storedText(320), reason: storedText(2000), addedBy: storedText(254), addedAt: storedTime })),
  /** The watchlist's alerts, dismissed ones with their dismissal. */
  alerts: z.array(
    z.strictObject({
      id: storedId,
      at: storedTime,
      place: z.enum(watchlistPlaces),
      personUuid: storedId,
      email: storedText(320),
      givenEmail: storedText(320).nullable(),
      reason: storedText(2000),
      dismissedAt: storedTime.nullable(),
      dismissedBy: storedText(254).nullable(),
    }),
  ),
  hosts: z.array(z.strictObject({ id: storedId, name: storedText(500), email: storedText(320).nullable(), webhookUrl: storedText(2048).nullable(), createdAt: storedTime })),
  visits: z.array(
    z.strictObject({
      id: storedId,
      personUuid: storedId,
      email: storedText(320),
      firstName: storedText(500).nullable(),
      hostId: storedId.nullable(),
      hostName: storedText(500).nullable(),
      purpose: storedText(2000),
      checkedInAt: storedTime,
      checkedOutAt: storedTime.nullable(),
      checkedOutBy: z.enum(['visitor', 'staff']).nullable(),
      inviteId: storedId.nullable(),
      /**
       * Retired (the records no longer keep it): still sent by a kiosk of an older version, so
       * taken and ignored. The rest stays strict: a field the site did not know would be lost
       * with the kiosk's copy, which it removes once the site has its records.
       */
      arrivalQueuedAt: storedTime.nullable().optional(),
    }),
  ),
  invites: z.array(
    z.strictObject({
      id: storedId,
      email: storedText(320),
      hostId: storedId.nullable(),
      hostName: storedText(500).nullable(),
      date: storedText(32),
      createdAt: storedTime,
      expiresAt: storedTime,
      createdBy: storedText(254).nullable(),
      usedAt: storedTime.nullable(),
      visitId: storedId.nullable(),
      revokedAt: storedTime.nullable(),
    }),
  ),
  /** The key the kiosk's invitation codes were signed with (its keychain's); null when it brings no invites. */
  inviteKey: base64(64).nullable(),
})
export type KioskRecords = z.infer<typeof kioskRecordsSchema>

/** `records`: what a kiosk that ran on its own brings, when its administrator chose to. */
export const pairRequest = z.strictObject({ code: pairingCode, name: kioskName, records: kioskRecordsSchema.optional() })
/** An account the kiosk brought that the site took in disabled (it has staff of its own), under another name where it had the name. */
export const keptApartSchema = z.object({ name: z.string(), importedAs: z.string() })
export type KeptApart = z.infer<typeof keptApartSchema>
/** What pairing gives a kiosk: its id on the site, and its own OAuth client (kept in its keychain). */
export const pairResult = z.object({
  kioskId: z.uuid(),
  name: z.string(),
  clientId: z.string(),
  clientSecret: z.string(),
  /** The site's tenant, which its kiosks enroll into. */
  tenantCode: z.string(),
  /** When the kiosk brought its records: the accounts kept apart (empty when none was). */
  keptApart: z.array(keptApartSchema).optional(),
})
export type PairResult = z.infer<typeof pairResult>

export const siteKioskSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  joinedAt: z.number(),
  /** The last call the site had from it; null: none since pairing. */
  lastSeenAt: z.number().nullable(),
})
export type SiteKiosk = z.infer<typeof siteKioskSchema>
/**
 * A kiosk as the site lists it to a kiosk: marked when it is the kiosk asking, the screen staff
 * stand at (false from a site older than the mark: a kiosk may be upgraded before its site).
 */
/** How far a kiosk's copy of the site has come: when it last pulled, and how many of the site's changes it has not been sent since. */
export const kioskCopySchema = z.object({ syncedAt: z.number(), changesBehind: z.number().int().min(0) })
/** How often a site's kiosk reports its health: two reports missed and staff read "not heard from since". */
export const KIOSK_HEALTH_INTERVAL_MS = 30_000
const count = z.number().int().min(0).max(1_000_000)
/** What a kiosk tells its site every KIOSK_HEALTH_INTERVAL_MS: counts and states, never a person. */
export const kioskHealthReport = z.strictObject({
  version: z.string().trim().min(1).max(64),
  outbox: z.strictObject({ waiting: count, failed: count }),
  hostNoticesWaiting: count,
  /** Seconds since its copy of the site was last brought up to date; null: it has none. */
  replicaAgeSeconds: count.nullable(),
  /** Whether its screen found a camera the last time one was looked for. */
  camera: z.enum(['found', 'none', 'unknown']),
  /** The code of the last error the kiosk met (a KioskError code), null: none since it started. */
  lastErrorCode: z.string().regex(/^[A-Z_]{1,40}$/).nullable(),
})
export type KioskHealthReport = z.infer<typeof kioskHealthReport>
export const kioskHealthSchema = kioskHealthReport.extend({ reportedAt: z.number() })
export type KioskHealth = z.infer<typeof kioskHealthSchema>
export type KioskCopy = z.infer<typeof kioskCopySchema>
/** A kiosk as the site lists it to staff: with its copy's progress (null: it never pulled; a site older than the copy says null too). */
export const kioskWithCopySchema = siteKioskSchema.extend({ copy: kioskCopySchema.nullable().default(null), health: kioskHealthSchema.nullable().default(null) })
export type KioskWithCopy = z.infer<typeof kioskWithCopySchema>
export const listedKioskSchema = kioskWithCopySchema.extend({ thisKiosk: z.boolean().default(false) })
export type ListedKiosk = z.infer<typeof listedKioskSchema>
export const kioskIdParams = z.object({ id: z.uuid() })

/** A staff session the site issued: the token goes back with every staff call, never to a renderer. */
export const staffSessionResult = z.object({ session: z.string(), account: accountViewSchema })
export type StaffSessionResult = z.infer<typeof staffSessionResult>
/** Who a staff session is now (read again from the account: disabled or demoted takes effect at once). */
export const staffWhoSchema = z.object({ account: z.string(), role: z.enum(staffRoles) })
export type StaffWho = z.infer<typeof staffWhoSchema>
export const staffStatusSchema = z.object({ accounts: z.number().int() })

export { createAccountInput, firstAdminInput, setAccountDisabledInput, signInInput }

/** The kiosk has looked the person up on the person server: the site stores who, never a face. */
export const watchlistAddRequest = z.strictObject({ personUuid: z.uuid(), email: z.string().max(254), reason: z.string().trim().min(1).max(500) })
export const watchlistPersonParams = z.object({ personUuid: z.uuid() })
export const screenRequest = z.strictObject({
  personUuids: z.array(z.uuid()).max(100),
  givenEmail: z.string().max(254).nullable(),
  place: z.enum(watchlistPlaces),
})
export const screenResult = z.discriminatedUnion('screening', [
  z.object({ screening: z.literal('clear') }),
  z.object({ screening: z.literal('watchlisted'), alertId: z.uuid(), personUuid: z.uuid(), email: z.string() }),
])
export type ScreenResult = z.infer<typeof screenResult>
export const alertIdParams = z.object({ id: z.uuid() })
export { watchlistAlertSchema, watchlistEntrySchema }

/**
 * The organisation's look, the site's for every kiosk: the look settings and the
 * logo, the services' own re-encoded PNG (electron/services/branding/logo-image.ts) as base64. The
 * site keeps only a PNG of at most LOGO_MAX_SIDE per side and LOGO_MAX_STORED_BYTES
 * (electron/records/frontdesk/look-rules.ts checks the bytes themselves).
 */
export const lookLogo = z
  .string()
  .max(Math.ceil(LOGO_MAX_STORED_BYTES / 3) * 4, `the logo must be at most ${LOGO_MAX_STORED_BYTES / 1024} KB`)
  .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'the logo must be a PNG sent as base64')
export const lookSchema = z.object({
  organisationName: z.string(),
  welcomeLine: z.string(),
  accentColour: z.string(),
  visitorRetentionDays: z.number().int().nullable(),
  logo: lookLogo.nullable(),
})
export type Look = z.infer<typeof lookSchema>
/** What an administrator changes: only the fields given; `logo: null` removes it. */
export const lookPatch = z.strictObject({ ...lookSettingFields, logo: lookLogo.nullable() }).partial()
export type LookPatch = z.infer<typeof lookPatch>

/** A host of the directory, by id (path). */
export const hostIdParams = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) })
export const personParams = z.object({ personUuid: z.uuid() })
/**
 * A check-in at a kiosk: the kiosk recognised or enrolled the person (the site trusts its kiosk for
 * that, as the person server does) and says what the visitor chose.
 */
export const checkInRequest = z.strictObject({
  person: z.strictObject({ personUuid: z.uuid(), email: z.string().max(254), firstName: z.string().trim().min(1).max(80).nullable() }),
  hostId: hostIdParams.shape.id.nullable(),
  purpose: z.string().trim().max(200).nullable(),
  inviteToken: checkInviteInput.shape.token.nullable(),
  asLastTime: z.boolean(),
})
export const checkInOutcome = z.discriminatedUnion('outcome', [
  // hostNotified: false from a site older than it, so the visitor is promised nothing it did not say.
  z.object({ outcome: z.literal('checked-in'), visit: visitSchema, alreadyOnSite: z.boolean(), host: hostSchema.nullable(), hostNotified: z.boolean().default(false) }),
  z.object({ outcome: z.literal('invite-refused'), reason: inviteCheckInRefusal }),
])
export const visitOrNone = z.object({ visit: visitSchema.nullable() })
export const visitIdParams = hostIdParams
export const forgetPersonRequest = z.strictObject({ userId: z.string().max(254).optional(), personUuid: z.uuid().optional() })
export const forgetPersonResult = z.object({ visitIds: z.array(z.string()), invites: z.number().int() })
/** The inviting kiosk works out the end of the visit's day in its own time zone. */
export const siteInviteRequest = createInviteInput.extend({ expiresAt: z.number().int().positive() })
export const siteInviteResult = z.object({ invite: inviteSchema, token: z.string() })
export const listInvitesQuery = z.object({ state: z.enum(inviteStates).optional() })
export const inviteIdParams = hostIdParams

/** What the site pushes to its kiosks on GET /events (text/event-stream, one JSON object per `data:` line). */
export const siteEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('watchlist-alert'), alertId: z.uuid() }),
  z.object({ type: z.literal('watchlist-alert-dismissed'), alertId: z.uuid() }),
  /** An invitation code the site would not count for a kiosk's check-in made away (electron/shared/invite-alerts.ts). */
  z.object({ type: z.literal('invite-alert'), alertId: z.uuid() }),
  z.object({ type: z.literal('invite-alert-dismissed'), alertId: z.uuid() }),
  /** The look changed: kiosks read it again (GET /look); the logo is too large for a notification. */
  z.object({ type: z.literal('look') }),
  /** The site's records changed up to this change-log seq: kiosks pull (GET /sync/pull). */
  z.object({ type: z.literal('records-changed'), seq: z.number().int().min(0) }),
])
export type SiteEvent = z.infer<typeof siteEventSchema>

/** The error body of a front-desk call (the engine's person-server error, with the kiosk's code). */
export const frontDeskErrorBody = z.object({ status: z.number(), message: z.string(), code: z.string().optional() })

export const hostNoticeIdParams = z.object({ id: z.uuid() })

/** Every front-desk route: method, path under FRONTDESK_PREFIX, who may call, and its schemas. */
export const frontDeskRoutes = {
  pair: { method: 'POST', path: '/pair', auth: 'pairing', body: pairRequest, response: pairResult },
  createPairingCode: { method: 'POST', path: '/pairing-codes', auth: 'admin', response: pairingCodeResult },
  listKiosks: { method: 'GET', path: '/kiosks', auth: 'admin', response: z.array(listedKioskSchema) },
  removeKiosk: { method: 'DELETE', path: '/kiosks/:id', auth: 'admin', params: kioskIdParams },
  reportHealth: { method: 'POST', path: '/kiosks/health', auth: 'kiosk', body: kioskHealthReport },

  staffStatus: { method: 'GET', path: '/staff/status', auth: 'kiosk', response: staffStatusSchema },
  signIn: { method: 'POST', path: '/staff/sign-in', auth: 'kiosk', body: signInInput, response: staffSessionResult },
  createFirstAdmin: { method: 'POST', path: '/staff/first-admin', auth: 'kiosk', body: firstAdminInput, response: staffSessionResult },
  /** The session's account as it is now (401 once it ended, idled out, or its account was disabled). */
  session: { method: 'GET', path: '/staff/session', auth: 'operator', response: staffWhoSchema },
  signOut: { method: 'DELETE', path: '/staff/session', auth: 'operator' },
  listAccounts: { method: 'GET', path: '/accounts', auth: 'admin', response: z.array(accountViewSchema) },
  createAccount: { method: 'POST', path: '/accounts', auth: 'admin', body: createAccountInput, response: accountViewSchema },
  setAccountDisabled: { method: 'POST', path: '/accounts/set-disabled', auth: 'admin', body: setAccountDisabledInput, response: accountViewSchema },

  listWatchlist: { method: 'GET', path: '/watchlist', auth: 'operator', response: z.array(watchlistEntrySchema) },
  addToWatchlist: { method: 'POST', path: '/watchlist', auth: 'admin', body: watchlistAddRequest, response: watchlistEntrySchema },
  removeFromWatchlist: { method: 'DELETE', path: '/watchlist/:personUuid', auth: 'admin', params: watchlistPersonParams },
  screen: { method: 'POST', path: '/watchlist/screen', auth: 'kiosk', body: screenRequest, response: screenResult },
  watchlistAlerts: { method: 'GET', path: '/watchlist/alerts', auth: 'operator', response: z.array(watchlistAlertSchema) },
  dismissAlert: { method: 'POST', path: '/watchlist/alerts/:id/dismiss', auth: 'operator', params: alertIdParams },
  /** Invitation codes the site would not count for check-ins made at kiosks away from it, not yet dismissed. */
  inviteAlerts: { method: 'GET', path: '/invites/alerts', auth: 'operator', response: z.array(inviteAlertSchema) },
  dismissInviteAlert: { method: 'POST', path: '/invites/alerts/:id/dismiss', auth: 'operator', params: alertIdParams },

  /** The organisation's look, as every kiosk of the site shows it. */
  look: { method: 'GET', path: '/look', auth: 'kiosk', response: lookSchema },
  /** Changes the look; told to every kiosk (a `look` event). The body carries the logo: up to LOOK_BODY_LIMIT. */
  setLook: { method: 'PUT', path: '/look', auth: 'admin', body: lookPatch, response: lookSchema },

  listHosts: { method: 'GET', path: '/hosts', auth: 'operator', response: z.array(hostSchema) },
  /** What a visitor may see of the directory: whom they can pick. */
  listHostNames: { method: 'GET', path: '/hosts/names', auth: 'kiosk', response: z.array(hostNameSchema) },
  addHost: { method: 'POST', path: '/hosts', auth: 'operator', body: hostInput, response: hostSchema },
  updateHost: { method: 'PUT', path: '/hosts/:id', auth: 'operator', params: hostIdParams, body: hostInput, response: hostSchema },
  removeHost: { method: 'DELETE', path: '/hosts/:id', auth: 'operator', params: hostIdParams },

  checkIn: { method: 'POST', path: '/visits/check-in', auth: 'kiosk', body: checkInRequest, response: checkInOutcome },
  /** The visitor recognised at a kiosk leaves: their open visit ends (null: they were not on site). */
  checkOut: { method: 'POST', path: '/visits/check-out/:personUuid', auth: 'kiosk', params: personParams, response: visitOrNone },
  lastVisit: { method: 'GET', path: '/visits/last/:personUuid', auth: 'kiosk', params: personParams, response: visitOrNone },
  /** The evacuation list: everyone on site, with the kiosk each came through. */
  onSite: { method: 'GET', path: '/visits/on-site', auth: 'operator', response: z.array(visitSchema) },
  visitLog: { method: 'POST', path: '/visits/log', auth: 'operator', body: visitLogInput, response: z.object({ visits: z.array(visitSchema), total: z.number().int() }) },
  /** The Overview's counts (Visits → Overview): never a person. */
  visitOverview: { method: 'POST', path: '/visits/overview', auth: 'operator', body: visitOverviewInput, response: visitOverviewSchema },
  exportVisits: { method: 'POST', path: '/visits/export', auth: 'operator', body: visitFilterInput, response: z.array(visitSchema) },
  endVisit: { method: 'POST', path: '/visits/:id/end', auth: 'operator', params: visitIdParams, response: visitSchema },
  /** A visitor removed by staff: their visits and invites go with them. */
  forgetPerson: { method: 'POST', path: '/visits/forget', auth: 'operator', body: forgetPersonRequest, response: forgetPersonResult },

  createInvite: { method: 'POST', path: '/invites', auth: 'operator', body: siteInviteRequest, response: siteInviteResult },
  listInvites: { method: 'GET', path: '/invites', auth: 'operator', querystring: listInvitesQuery, response: listInvitesResult },
  revokeInvite: { method: 'POST', path: '/invites/:id/revoke', auth: 'operator', params: inviteIdParams, response: inviteSchema },
  checkInvite: { method: 'POST', path: '/invites/check', auth: 'kiosk', body: checkInviteInput, response: checkInviteResult },

  /** The site's changes since the kiosk's cookie, for its local copies (electron/shared/site-sync.ts). */
  syncPull: { method: 'GET', path: '/sync/pull', auth: 'kiosk', querystring: pullQuery, response: pullResult },
  /** The kiosk's acts made away from the site, each applied once. */
  syncPush: { method: 'POST', path: '/sync/push', auth: 'kiosk', body: pushRequest, response: pushResult },

  /** text/event-stream of SiteEvent; a comment line every 15 s keeps proxies from closing it. */
  events: { method: 'GET', path: '/events', auth: 'kiosk' },

  /** The site's audit trail (every act it answered its kiosks), newest first; the verdict is the engine's last walk of the chain. */
  auditLog: { method: 'GET', path: '/audit', auth: 'operator', querystring: auditQueryParams, response: auditLogResult },
  /** Walks the whole chain again. */
  verifyAudit: { method: 'GET', path: '/audit/verify', auth: 'operator', response: auditVerdictSchema },
  exportAudit: { method: 'POST', path: '/audit/export', auth: 'admin', body: auditExportInput, response: auditExportResult },

  /** The site's host notices (sent by its engines, once per arrival and channel): failed first, then in flight, queued, latest delivered. */
  getHostNotices: { method: 'GET', path: '/host-notices', auth: 'operator', response: hostNoticeQueueSchema },
  /** A failed or waiting notice tried again now (a delivered or in-flight one is refused). */
  retryHostNotice: { method: 'POST', path: '/host-notices/:id/retry', auth: 'operator', params: hostNoticeIdParams, response: hostNoticeSchema },
  // The three paths below keep their first name, "notification-settings": kiosks and sites already in use call them.
  /** The site's SMTP settings and which secrets it keeps (never their values). */
  getHostNoticeSettings: { method: 'GET', path: '/notification-settings', auth: 'admin', response: hostNoticeSettingsSchema },
  saveHostNoticeSettings: { method: 'PUT', path: '/notification-settings', auth: 'admin', body: saveHostNoticeSettingsInput, response: hostNoticeSettingsSchema },
  /** Write-only: the SMTP password and the webhook signing secret, kept sealed by the site. */
  setHostNoticeSecrets: { method: 'PUT', path: '/notification-settings/secrets', auth: 'admin', body: hostNoticeSecretsInput, response: hostNoticeSecretStatusSchema },
} as const satisfies Record<string, { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string; auth: FrontDeskAuth; body?: z.ZodType; params?: z.ZodType; querystring?: z.ZodType; response?: z.ZodType }>
export type FrontDeskRouteName = keyof typeof frontDeskRoutes
/** The largest body PUT /look takes: the logo's base64 and the rest of the look. */
export const LOOK_BODY_LIMIT = Math.ceil(LOGO_MAX_STORED_BYTES / 3) * 4 + 4096

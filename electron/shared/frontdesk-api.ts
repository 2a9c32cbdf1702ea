import { z } from 'zod'
import { LOGO_MAX_STORED_BYTES } from './branding'
import { lookSettingFields } from './settings'
import { accountViewSchema, createAccountInput, firstAdminInput, setAccountDisabledInput, signInInput, staffRoles } from './staff'
import { watchlistAlertSchema, watchlistEntrySchema, watchlistPlaces } from './watchlist'

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

/** A kiosk's name on its site (the Kiosks list, alerts, visits): one line. */
// eslint-disable-next-line no-control-regex
export const kioskName = z.string().trim().min(1).max(64).regex(/^[^\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]+$/, 'one line without control characters')

export const pairingCodeResult = z.object({ code: z.string(), expiresAt: z.iso.datetime() })
export type PairingCodeResult = z.infer<typeof pairingCodeResult>

export const pairRequest = z.strictObject({ code: pairingCode, name: kioskName })
/** What pairing gives a kiosk: its id on the site, and its own OAuth client (kept in its keychain). */
export const pairResult = z.object({
  kioskId: z.uuid(),
  name: z.string(),
  clientId: z.string(),
  clientSecret: z.string(),
  /** The site's tenant, which its kiosks enroll into. */
  tenantCode: z.string(),
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

/** What the site pushes to its kiosks on GET /events (text/event-stream, one JSON object per `data:` line). */
export const siteEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('watchlist-alert'), alertId: z.uuid() }),
  z.object({ type: z.literal('watchlist-alert-dismissed'), alertId: z.uuid() }),
  /** The look changed: kiosks read it again (GET /look); the logo is too large for a notification. */
  z.object({ type: z.literal('look') }),
])
export type SiteEvent = z.infer<typeof siteEventSchema>

/** The error body of a front-desk call (the engine's person-server error, with the kiosk's code). */
export const frontDeskErrorBody = z.object({ status: z.number(), message: z.string(), code: z.string().optional() })

/** Every front-desk route: method, path under FRONTDESK_PREFIX, who may call, and its schemas. */
export const frontDeskRoutes = {
  pair: { method: 'POST', path: '/pair', auth: 'pairing', body: pairRequest, response: pairResult },
  createPairingCode: { method: 'POST', path: '/pairing-codes', auth: 'admin', response: pairingCodeResult },
  listKiosks: { method: 'GET', path: '/kiosks', auth: 'admin', response: z.array(siteKioskSchema) },
  removeKiosk: { method: 'DELETE', path: '/kiosks/:id', auth: 'admin', params: kioskIdParams },

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

  /** The organisation's look, as every kiosk of the site shows it. */
  look: { method: 'GET', path: '/look', auth: 'kiosk', response: lookSchema },
  /** Changes the look; told to every kiosk (a `look` event). The body carries the logo: up to LOOK_BODY_LIMIT. */
  setLook: { method: 'PUT', path: '/look', auth: 'admin', body: lookPatch, response: lookSchema },

  /** text/event-stream of SiteEvent; a comment line every 15 s keeps proxies from closing it. */
  events: { method: 'GET', path: '/events', auth: 'kiosk' },
} as const satisfies Record<string, { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string; auth: FrontDeskAuth; body?: z.ZodType; params?: z.ZodType; response?: z.ZodType }>
export type FrontDeskRouteName = keyof typeof frontDeskRoutes
/** The largest body PUT /look takes: the logo's base64 and the rest of the look. */
export const LOOK_BODY_LIMIT = Math.ceil(LOGO_MAX_STORED_BYTES / 3) * 4 + 4096

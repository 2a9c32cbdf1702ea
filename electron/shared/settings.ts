import { z } from 'zod'
import { accentRefusal, isHexColour } from './contrast'

/**
 * The kiosk's settings: everything an operator configures that is not a secret. They are stored as
 * JSON in the data folder (electron/services/settings-store.ts). Credentials and tokens are never
 * settings: they live in the OS keychain (electron/services/secrets/credentials.ts), and only
 * their presence is shown to the renderer (credentialStatusSchema below).
 */

/**
 * Where the kiosk's servers are: its own embedded engine; a person server and BioEngine elsewhere
 * (a vendor's, or our engine run apart), with the front desk's records kept on the kiosk; or a
 * site it joined with a pairing code: remote servers that are the site's engines, which
 * also keep the front desk's records (staff, the watchlist) for every kiosk of the site.
 */
export const kioskModes = ['embedded', 'remote', 'site'] as const
export type KioskMode = (typeof kioskModes)[number]

/** True when the servers are not the kiosk's own engine ('remote' and 'site'): the URLs, credentials and offline replica apply. */
export function usesRemoteServers(mode: KioskMode): boolean {
  return mode !== 'embedded'
}

/**
 * Where the BioEngine's bearer token comes from: the person server's OAuth token (the embedded
 * engine accepts the same issuer's JWT), or a JWT the operator stored in the keychain for a remote
 * BioEngine.
 */
export const bioEngineAuthModes = ['person-server-token', 'stored-jwt'] as const
export type BioEngineAuth = (typeof bioEngineAuthModes)[number]

/**
 * How the token call's HTTP Basic credentials are built: RFC 6749 §2.3.1 form-encodes the client
 * id and secret first ('form-urlencoded'); the vendor's own samples send them as they are ('plain').
 * The two differ only for ids or secrets with reserved characters.
 */
export const basicAuthEncodings = ['form-urlencoded', 'plain'] as const
export type BasicAuthEncoding = (typeof basicAuthEncodings)[number]

// eslint-disable-next-line no-control-regex
const controlChars = /[\u0000-\u001f\u007f-\u009f]/

/**
 * A base URL: http or https, with a host, without user:password (that would put a secret in the
 * settings file), a query or a fragment. '' means "not set".
 */
const baseUrl = z
  .string()
  .trim()
  .max(2048, 'must be at most 2048 characters')
  .refine((value) => value === '' || isHttpBaseUrl(value), {
    message: 'must be an http:// or https:// address with a host, and no user name, password, query or fragment',
  })

function isHttpBaseUrl(value: string): boolean {
  if (controlChars.test(value)) return false
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return false
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && !url.username && !url.password && !url.search && !url.hash
}

/** A site's address, as typed to join it: a base URL that must be given, kept without a trailing slash. */
export const siteUrl = baseUrl.pipe(z.string().min(1, 'is required')).transform((value) => value.replace(/\/+$/, ''))

/** Tenant and app codes as the person server accepts them in paths. */
const code = z
  .string()
  .trim()
  .regex(/^(?!\.+$)[A-Za-z0-9_.-]{1,64}$/, 'must be 1–64 letters, digits, dot, dash or underscore')

/** A BioEngine template type as the kiosk names it: a biometric type and a plugin name. */
export const templateType = z.string().trim().regex(/^[A-Za-z]{1,32}:[A-Za-z0-9]{1,64}$/, 'must look like BioType:Plugin, e.g. Face:HumanFaceRes')

/** A threshold override on the template type's own scale (0–1 or 0–100); null: the server's scoreThreshold. */
const thresholdOverride = z.number().min(0, 'must be from 0 to 100').max(100, 'must be from 0 to 100').nullable()
const seconds = (min: number, max: number) => z.number().int('must be a whole number').min(min, `must be from ${min} to ${max}`).max(max, `must be from ${min} to ${max}`)

/**
 * A line of text shown to visitors: one line, bounded, without control or bidirectional-override
 * characters (which could make the organisation's name read as something else).
 */
// eslint-disable-next-line no-control-regex
const unsafeText = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/
const displayLine = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .refine((value) => !unsafeText.test(value), 'must be one line without control characters')

/** An accent colour as #rrggbb (stored in lower case) that keeps every place it is used readable (./contrast.ts). */
const accentColour = z
  .string()
  .trim()
  .toLowerCase()
  .refine(isHexColour, 'must be a colour written as #rrggbb, e.g. #0b5cad')
  .superRefine((value, ctx) => {
    const refusal = isHexColour(value) ? accentRefusal(value) : null
    if (refusal) ctx.addIssue({ code: 'custom', message: refusal })
  })

/** The fields without defaults: what a partial update may carry. */
const fields = {
  mode: z.enum(kioskModes),
  /** The remote person server's base URL (on a site: the site's); required in remote and site mode, ignored in embedded mode. */
  personServerUrl: baseUrl,
  /** The remote BioEngine's base URL (on a site: the site's /bioengine); required in remote and site mode, ignored in embedded mode. */
  bioEngineUrl: baseUrl,
  tenantCode: code,
  appCode: code,
  templateType,
  /** Verify (1:1) decision threshold; null (the default) uses the template type's scoreThreshold. */
  verifyThresholdOverride: thresholdOverride,
  /** Identify (1:N) decision threshold; null uses the template type's scoreThreshold. */
  identifyThresholdOverride: thresholdOverride,
  identifyMaxResults: z.number().int('must be a whole number').min(1, 'must be from 1 to 100').max(100, 'must be from 1 to 100'),
  /** Seconds without interaction before the kiosk returns to its start screen and forgets the visitor. */
  idleTimeoutSeconds: z.number().int('must be a whole number').min(15, 'must be from 15 to 3600').max(3600, 'must be from 15 to 3600'),
  /** Audit entries older than this are pruned (at start-up); the remaining chain stays verifiable. */
  auditRetentionDays: z.number().int('must be a whole number').min(30, 'must be from 30 to 3650').max(3650, 'must be from 30 to 3650'),
  /**
   * Visitor enrollments older than this many days (their newest template) are removed by the
   * reference's removal rule, audited; null (the default): kept until staff remove them.
   */
  visitorRetentionDays: z.number().int('must be a whole number').min(1, 'must be from 1 to 3650').max(3650, 'must be from 1 to 3650').nullable(),
  bioEngineAuth: z.enum(bioEngineAuthModes),
  basicAuthEncoding: z.enum(basicAuthEncodings),
  /** How long to wait for a connection to either server. */
  connectTimeoutSeconds: seconds(1, 60),
  /** How long to wait for a server's answer once connected (face work on a busy server takes a while). */
  requestTimeoutSeconds: seconds(2, 300),
  /** Time for each liveness step: how long the capture waits for a blink or a head turn before it sends what it has. */
  livenessStepSeconds: seconds(3, 30),
  /**
   * Remote mode: keep a local replica of this tenant's faces enrolled or verified here (the kiosk's
   * own template type, encrypted), so Verify and Identify still decide when the servers cannot be
   * reached. Off by default; turning it off (or changing the servers or tenant) wipes it.
   */
  offlineReplica: z.boolean(),
  /** A replica record not refreshed (enrolled or verified here) for this many days is deleted. */
  offlineReplicaDays: z.number().int('must be a whole number').min(1, 'must be from 1 to 365').max(365, 'must be from 1 to 365'),
  /** At most this many persons in the replica; past it, the oldest records go. */
  offlineReplicaMaxPersons: z.number().int('must be a whole number').min(1, 'must be from 1 to 10000').max(10000, 'must be from 1 to 10000'),
  /** The organisation's name, in the visitor screens' top bar. */
  organisationName: displayLine(60).pipe(z.string().min(1, 'must not be empty')),
  /** A line under the Home screen's welcome; '' shows none. */
  welcomeLine: displayLine(160),
  /** The colour of buttons, tiles and highlights (the stylesheet's --accent). */
  accentColour,
  /** This kiosk's name on its site (alerts and the Kiosks list say where something happened); '' until it joins one. */
  kioskName: displayLine(64),
  /**
   * On a site: how long after the last pull the site answered an operator may still sign in from
   * the kiosk's copy of the accounts while the site is away; past it, only an administrator.
   * 0: only administrators sign in while the site is away.
   */
  offlineSignInHours: z.number().int('must be a whole number').min(0, 'must be from 0 to 168').max(168, 'must be from 0 to 168'),
}

/**
 * The organisation's look: on a site these are the site's, the same at every kiosk;
 * a kiosk on its own keeps them in its settings. Everything else is one kiosk's own.
 */
export const lookSettingKeys = ['organisationName', 'welcomeLine', 'accentColour', 'visitorRetentionDays'] as const
export type LookSettingKey = (typeof lookSettingKeys)[number]
/** The look's setting fields, with the settings' own rules (the site checks a look with these). */
export const lookSettingFields = {
  organisationName: fields.organisationName,
  welcomeLine: fields.welcomeLine,
  accentColour: fields.accentColour,
  visitorRetentionDays: fields.visitorRetentionDays,
} satisfies { [K in LookSettingKey]: (typeof fields)[K] }

export const defaultSettings = Object.freeze({
  mode: 'embedded',
  personServerUrl: '',
  bioEngineUrl: '',
  tenantCode: 'KIOSK',
  appCode: 'KIOSK',
  templateType: 'Face:HumanFaceRes',
  verifyThresholdOverride: null,
  identifyThresholdOverride: null,
  identifyMaxResults: 5,
  idleTimeoutSeconds: 90,
  auditRetentionDays: 365,
  visitorRetentionDays: null,
  bioEngineAuth: 'person-server-token',
  basicAuthEncoding: 'form-urlencoded',
  connectTimeoutSeconds: 5,
  requestTimeoutSeconds: 20,
  livenessStepSeconds: 8,
  offlineReplica: false,
  offlineReplicaDays: 30,
  offlineReplicaMaxPersons: 1000,
  organisationName: 'Identity Kiosk',
  welcomeLine: '',
  accentColour: '#0b5cad',
  kioskName: '',
  offlineSignInHours: 12,
} as const satisfies { [K in keyof typeof fields]: z.infer<(typeof fields)[K]> })

const shapeWithDefaults = {
  mode: fields.mode.default(defaultSettings.mode),
  personServerUrl: fields.personServerUrl.default(defaultSettings.personServerUrl),
  bioEngineUrl: fields.bioEngineUrl.default(defaultSettings.bioEngineUrl),
  tenantCode: fields.tenantCode.default(defaultSettings.tenantCode),
  appCode: fields.appCode.default(defaultSettings.appCode),
  templateType: fields.templateType.default(defaultSettings.templateType),
  verifyThresholdOverride: fields.verifyThresholdOverride.default(defaultSettings.verifyThresholdOverride),
  identifyThresholdOverride: fields.identifyThresholdOverride.default(defaultSettings.identifyThresholdOverride),
  identifyMaxResults: fields.identifyMaxResults.default(defaultSettings.identifyMaxResults),
  idleTimeoutSeconds: fields.idleTimeoutSeconds.default(defaultSettings.idleTimeoutSeconds),
  auditRetentionDays: fields.auditRetentionDays.default(defaultSettings.auditRetentionDays),
  visitorRetentionDays: fields.visitorRetentionDays.default(defaultSettings.visitorRetentionDays),
  bioEngineAuth: fields.bioEngineAuth.default(defaultSettings.bioEngineAuth),
  basicAuthEncoding: fields.basicAuthEncoding.default(defaultSettings.basicAuthEncoding),
  connectTimeoutSeconds: fields.connectTimeoutSeconds.default(defaultSettings.connectTimeoutSeconds),
  requestTimeoutSeconds: fields.requestTimeoutSeconds.default(defaultSettings.requestTimeoutSeconds),
  livenessStepSeconds: fields.livenessStepSeconds.default(defaultSettings.livenessStepSeconds),
  offlineReplica: fields.offlineReplica.default(defaultSettings.offlineReplica),
  offlineReplicaDays: fields.offlineReplicaDays.default(defaultSettings.offlineReplicaDays),
  offlineReplicaMaxPersons: fields.offlineReplicaMaxPersons.default(defaultSettings.offlineReplicaMaxPersons),
  organisationName: fields.organisationName.default(defaultSettings.organisationName),
  welcomeLine: fields.welcomeLine.default(defaultSettings.welcomeLine),
  accentColour: fields.accentColour.default(defaultSettings.accentColour),
  kioskName: fields.kioskName.default(defaultSettings.kioskName),
  offlineSignInHours: fields.offlineSignInHours.default(defaultSettings.offlineSignInHours),
}

/** Remote and site mode need both URLs; embedded mode keeps whatever is there (for switching back) but ignores it. */
function remoteNeedsUrls(settings: { mode: KioskMode; personServerUrl: string; bioEngineUrl: string }, ctx: z.RefinementCtx): void {
  if (!usesRemoteServers(settings.mode)) return
  for (const key of ['personServerUrl', 'bioEngineUrl'] as const) {
    if (settings[key] === '') ctx.addIssue({ code: 'custom', path: [key], message: `is required in ${settings.mode} mode` })
  }
}

/**
 * The settings, complete: missing fields take their defaults, unknown fields are an error. Use it
 * for anything coming from the renderer (a saved settings form) and as the output schema.
 */
export const settingsSchema = z.strictObject(shapeWithDefaults).superRefine(remoteNeedsUrls)

/**
 * The same, but unknown fields are dropped instead of rejected: for reading the settings file, so a
 * file written by a newer kiosk version still loads.
 */
export const storedSettingsSchema = z
  .object({
    ...shapeWithDefaults,
    // The contrast rule can tighten in a new version (a new place using the accent): the saved
    // accent then gives way to the default, rather than the whole file being set aside.
    accentColour: shapeWithDefaults.accentColour.catch(defaultSettings.accentColour),
  })
  .superRefine(remoteNeedsUrls)

/** A partial update: only the fields given change; the merged result is validated with settingsSchema. */
export const settingsPatchSchema = z.strictObject(fields).partial()

export type KioskSettings = z.infer<typeof settingsSchema>
/** What a caller may pass: every field optional (defaults fill in). */
export type KioskSettingsInput = z.input<typeof settingsSchema>
export type SettingsPatch = z.infer<typeof settingsPatchSchema>

/*
 * Credentials, as the renderer may handle them: it can set them (write-only) and see whether each
 * is stored, never read them back. The values go straight to the OS keychain in the services.
 */

/** A credential string: non-empty, bounded, no control characters, no spaces at either end. */
const credential = (label: string, max: number) =>
  z
    .string()
    .min(1, `${label} must not be empty`)
    .max(max, `${label} must be at most ${max} characters`)
    .refine((value) => !controlChars.test(value), `${label} must not contain control characters`)
    .refine((value) => value.trim() === value, `${label} must not start or end with spaces`)

export const serverCredentialsInputSchema = z
  .strictObject({
    /** The person server's OAuth2 client id. */
    clientId: credential('The client id', 256).optional(),
    /** The person server's OAuth2 client secret. */
    clientSecret: credential('The client secret', 1024).optional(),
    /** A BioEngine JWT for a remote deployment (bioEngineAuth = 'stored-jwt'): header.payload.signature. */
    bioengineJwt: credential('The BioEngine token', 16_384)
      .refine((value) => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(value), 'The BioEngine token must be a JWT (three base64url parts separated by dots, without "Bearer")')
      .optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), 'Give at least one credential to store')

export type ServerCredentialsInput = z.infer<typeof serverCredentialsInputSchema>
export const serverCredentialNames = ['clientId', 'clientSecret', 'bioengineJwt'] as const
export type ServerCredentialName = (typeof serverCredentialNames)[number]

/** What the renderer may know about the stored credentials: whether each is there, never its value. */
export const credentialStatusSchema = z.strictObject({
  clientId: z.boolean(),
  clientSecret: z.boolean(),
  bioengineJwt: z.boolean(),
})
export type CredentialStatus = z.infer<typeof credentialStatusSchema>

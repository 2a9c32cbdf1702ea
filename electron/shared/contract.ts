import { z } from 'zod'
import { brandingSchema, setLogoInput } from './branding'
import { auditExportInput, auditExportResult, auditLogResult, auditQueryInput, auditVerdictSchema, auditVerifyInput } from './audit'
import { hostNoticeQueueSchema, hostNoticeSchema, hostNoticeSecretStatusSchema, hostNoticeSecretsInput, hostNoticeSettingsSchema, retryHostNoticeInput, saveHostNoticeSettingsInput } from './host-notices'
import { dismissInviteAlertInput, inviteAlertSchema } from './invite-alerts'
import { checkInviteInput, checkInviteResult, createInviteInput, createInviteResult, inviteSchema, listInvitesInput, listInvitesResult, revokeInviteInput } from './invites'
import { livenessChallengeInput, livenessChallengeSchema } from './liveness'
import { outboxRetryResultSchema, outboxStateSchema } from './outbox'
import { siteSyncStateSchema } from './site-sync'
import { accountViewSchema, createAccountInput, firstAdminInput, sessionViewSchema, setAccountDisabledInput, signInInput, type Role } from './staff'
import { keptApartSchema, kioskIdParams, kioskName, pairingCode, pairingCodeResult, listedKioskSchema } from './frontdesk-api'
import { credentialStatusSchema, kioskModes, serverCredentialNames, serverCredentialsInputSchema, settingsPatchSchema, settingsSchema, siteUrl } from './settings'
import * as v from './visits'
import * as w from './workflows'
import { addToWatchlistInput, dismissWatchlistAlertInput, removeFromWatchlistInput, watchlistAlertSchema, watchlistEntrySchema } from './watchlist'

/**
 * The kiosk's one contract: every method the renderer may call, with the schemas that validate its
 * input (in the services, on every call), describe its output, and the least role a session needs
 * to call it (refused in the services before any validation or work). Types are inferred from it.
 */

const noInput = z.object({}).strict()

export const appInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  /** Which shell hosts the services: the Electron main process or the web host. */
  shell: z.enum(['electron', 'web']),
  platform: z.string(),
  nodeVersion: z.string(),
  startedAt: z.string(),
})

export const engineStateSchema = z.enum(['stopped', 'starting', 'running', 'restarting', 'failed'])

export const engineStatusSchema = z.object({
  mode: z.enum(kioskModes),
  state: engineStateSchema,
  /** Base URL of the person server (the BioEngine lives under /bioengine on the embedded engine). */
  url: z.string().nullable(),
  pid: z.number().int().nullable(),
  restarts: z.number().int().nonnegative(),
  lastError: z.string().nullable(),
})

const done = z.object({ ok: z.literal(true) })

/**
 * Joining a site: its address, the pairing code an administrator made there, and this kiosk's name on it (else the one in Settings, else the computer's).
 * `bringRecords`: an administrator of a kiosk that ran on its own brings its staff accounts, watchlist, hosts, visits and invites to the site.
 */
export const joinSiteInput = z.strictObject({ url: siteUrl, code: pairingCode, name: kioskName.optional(), bringRecords: z.boolean().optional() })
/** How many of each the kiosk brought to the site (and no longer keeps itself). */
export const broughtRecordsSchema = z.object({
  accounts: z.number().int(),
  watchlist: z.number().int(),
  alerts: z.number().int(),
  hosts: z.number().int(),
  visits: z.number().int(),
  invites: z.number().int(),
})
/**
 * The kiosk as the site now knows it; the kiosk's settings say mode 'site' from here on. When it brought its records: how many,
 * and the accounts the site took in disabled (it has staff of its own; under another name where it had the name), for an administrator to look at.
 */
export const joinSiteResult = z.object({
  kioskId: z.uuid(),
  name: z.string(),
  url: z.string(),
  brought: broughtRecordsSchema.optional(),
  keptApart: z.array(keptApartSchema).optional(),
})

/** What every method declares: a method without a role does not compile. */
interface MethodSpec {
  input: z.ZodType
  output: z.ZodType
  role: Role
  /** A status read the renderer polls: it does not keep a staff session from going idle. */
  poll?: true
}

export const contract = {
  // The session at this screen: visitor until staff sign in.
  getSession: { input: noInput, output: sessionViewSchema, role: 'visitor', poll: true },
  signIn: { input: signInInput, output: sessionViewSchema, role: 'visitor' },
  signOut: { input: noInput, output: sessionViewSchema, role: 'visitor' },
  /** Staff are at the screen (typing, tapping): counts as activity, so the session does not go idle under them. */
  keepSession: { input: noInput, output: sessionViewSchema, role: 'visitor' },
  /** Only while no account exists: the first launch's administrator, signed in at once. */
  createFirstAdmin: { input: firstAdminInput, output: sessionViewSchema, role: 'visitor' },
  listAccounts: { input: noInput, output: z.array(accountViewSchema), role: 'admin' },
  createAccount: { input: createAccountInput, output: accountViewSchema, role: 'admin' },
  setAccountDisabled: { input: setAccountDisabledInput, output: accountViewSchema, role: 'admin' },

  getAppInfo: { input: noInput, output: appInfoSchema, role: 'visitor', poll: true },
  getEngineStatus: { input: noInput, output: engineStatusSchema, role: 'visitor', poll: true },
  /** What the screen finds: whether the browser lists a camera (for the kiosk's health report to its site). */
  reportCamera: { input: z.strictObject({ found: z.boolean() }), output: done, role: 'visitor', poll: true },

  // Visitor workflows: each returns what its screen needs in one call.
  /** Before a capture: the liveness this attempt must show (a fresh random step order), or that none is required. */
  startLivenessChallenge: { input: livenessChallengeInput, output: livenessChallengeSchema, role: 'visitor' },
  enrollVisitor: { input: w.enrollVisitorInput, output: w.enrollVisitorResult, role: 'visitor' },
  verifyVisitor: { input: w.verifyVisitorInput, output: w.verifyVisitorResult, role: 'visitor' },
  identifyVisitor: { input: w.identifyVisitorInput, output: w.identifyVisitorResult, role: 'operator' },
  faceMatch: { input: w.faceMatchInput, output: w.faceMatchResult, role: 'operator' },
  removeVisitor: { input: w.removeVisitorInput, output: w.removeVisitorResult, role: 'operator' },

  // Persons.
  searchPersons: { input: w.searchPersonsInput, output: w.searchPersonsResult, role: 'operator' },
  getPersonDetail: { input: w.personDetailInput, output: w.personDetailResult, role: 'operator' },
  findPerson: { input: w.findPersonInput, output: w.findPersonResult, role: 'operator' },
  getAppUser: { input: w.appUserInput, output: w.appUserResult, role: 'operator' },
  getPersonTemplates: { input: w.personTemplatesInput, output: w.personTemplatesResult, role: 'operator' },
  deleteTemplates: { input: w.deleteTemplatesInput, output: z.object({ remaining: z.number().int() }), role: 'operator' },
  checkSamples: { input: w.checkSamplesInput, output: w.checkSamplesResult, role: 'operator' },

  // Tenant administration (the kiosk's own tenant, from the settings).
  getTenant: { input: noInput, output: w.tenantSchema, role: 'admin' },
  updateTenant: { input: w.updateTenantInput, output: w.tenantSchema, role: 'admin' },
  getTenantApps: { input: noInput, output: w.appsResult, role: 'admin' },
  getTenantApp: { input: w.appInput, output: w.appResult, role: 'admin' },
  associateApp: { input: w.appInput, output: w.tenantSchema, role: 'admin' },
  disassociateApp: { input: w.appInput, output: w.tenantSchema, role: 'admin' },
  associateAlgorithm: { input: w.algorithmInput, output: w.tenantSchema, role: 'admin' },
  disassociateAlgorithm: { input: w.algorithmInput.pick({ algCode: true }), output: w.tenantSchema, role: 'admin' },
  associateLiveness: { input: w.livenessInput, output: w.tenantSchema, role: 'admin' },
  disassociateLiveness: { input: w.livenessInput, output: w.tenantSchema, role: 'admin' },

  // The offline outbox: enrollments waiting for the servers (a visitor sees the counts, not the items).
  getOutbox: { input: noInput, output: outboxStateSchema, role: 'visitor', poll: true },
  retryOutboxItem: { input: z.strictObject({ id: z.uuid() }), output: outboxRetryResultSchema, role: 'operator' },
  discardOutboxItem: { input: z.strictObject({ id: z.uuid() }), output: done, role: 'operator' },
  /** A site kiosk's hold on its site (online, its copy's age, acts waiting); null off a site. Pushed as `site-sync` events after. */
  getSiteSync: { input: noInput, output: siteSyncStateSchema.nullable(), role: 'operator', poll: true },

  // Host notices: staff see the queue of arrival notices and retry a failed one; an
  // administrator sets the SMTP server and the secrets (write-only: only whether each is stored comes back).
  getHostNotices: { input: noInput, output: hostNoticeQueueSchema, role: 'operator' },
  retryHostNotice: { input: retryHostNoticeInput, output: hostNoticeSchema, role: 'operator' },
  getHostNoticeSettings: { input: noInput, output: hostNoticeSettingsSchema, role: 'admin' },
  saveHostNoticeSettings: { input: saveHostNoticeSettingsInput, output: hostNoticeSettingsSchema, role: 'admin' },
  setHostNoticeSecrets: { input: hostNoticeSecretsInput, output: hostNoticeSecretStatusSchema, role: 'admin' },

  // The offline replica (remote mode, opt-in): staff see its size, age and last sync; an administrator wipes it.
  getReplicaStatus: { input: noInput, output: w.replicaStatusSchema, role: 'operator' },
  syncReplica: { input: noInput, output: w.replicaSyncResult, role: 'operator' },
  // A sync that would remove too many persons at once holds them; an administrator confirms (the servers are asked again).
  confirmReplicaRemovals: { input: noInput, output: w.replicaSyncResult, role: 'admin' },
  wipeReplica: { input: noInput, output: done, role: 'admin' },

  // Settings and credentials (write-only: the renderer sees whether each is stored, never its value).
  getSettings: { input: noInput, output: settingsSchema, role: 'operator' },
  saveSettings: { input: settingsPatchSchema, output: settingsSchema, role: 'admin' },
  getCredentialStatus: { input: noInput, output: credentialStatusSchema, role: 'admin' },
  setCredentials: { input: serverCredentialsInputSchema, output: credentialStatusSchema, role: 'admin' },
  clearCredentials: { input: z.strictObject({ names: z.array(z.enum(serverCredentialNames)).min(1).optional() }), output: credentialStatusSchema, role: 'admin' },
  testConnection: { input: noInput, output: w.connectionTestResult, role: 'admin' },

  // The organisation's look: every screen reads it (its name, welcome line and accent are settings); an administrator sets the logo.
  getBranding: { input: noInput, output: brandingSchema, role: 'visitor', poll: true },
  /** Sets the logo (PNG or SVG, re-encoded as PNG) or, with null, removes it. */
  setLogo: { input: setLogoInput, output: brandingSchema, role: 'admin' },

  // The audit trail: entries newest first, the chain's last verdict, a full verification, exports.
  getAuditLog: { input: auditQueryInput, output: auditLogResult, role: 'operator' },
  verifyAuditLog: { input: auditVerifyInput, output: auditVerdictSchema, role: 'operator' },
  exportAuditLog: { input: auditExportInput, output: auditExportResult, role: 'admin' },

  // Visits: a visitor checks in after enrolling or by face, and out by face; staff see who is
  // on site, the log, and end forgotten visits. Hosts: visitors pick a name, staff keep the directory.
  checkIn: { input: v.checkInInput, output: v.visitorCheckResult, role: 'visitor' },
  checkInByFace: { input: v.checkInByFaceInput, output: v.visitorCheckResult, role: 'visitor' },
  checkOutByFace: { input: v.checkOutByFaceInput, output: v.visitorCheckResult, role: 'visitor' },
  listHostNames: { input: noInput, output: z.array(v.hostNameSchema), role: 'visitor' },
  getBadgePolicy: { input: noInput, output: v.badgePolicySchema, role: 'visitor' },
  listOnSite: { input: noInput, output: v.onSiteResult, role: 'operator' },
  visitLog: { input: v.visitLogInput, output: v.visitLogResult, role: 'operator' },
  visitOverview: { input: v.visitOverviewInput, output: v.visitOverviewSchema, role: 'operator' },
  exportVisitsCsv: { input: v.visitFilterInput, output: v.visitsCsvResult, role: 'operator' },
  endVisit: { input: v.recordIdInput, output: v.visitSchema, role: 'operator' },
  listHosts: { input: noInput, output: z.array(v.hostSchema), role: 'operator' },
  addHost: { input: v.hostInput, output: v.hostSchema, role: 'operator' },
  updateHost: { input: v.updateHostInput, output: v.hostSchema, role: 'operator' },
  removeHost: { input: v.recordIdInput, output: done, role: 'operator' },
  // Invites: staff pre-register a visitor and get a signed, single-use code; a visitor's
  // kiosk checks a code to fill the form (the check-in uses it up, in the services).
  createInvite: { input: createInviteInput, output: createInviteResult, role: 'operator' },
  listInvites: { input: listInvitesInput, output: listInvitesResult, role: 'operator' },
  revokeInvite: { input: revokeInviteInput, output: inviteSchema, role: 'operator' },
  checkInvite: { input: checkInviteInput, output: checkInviteResult, role: 'visitor' },

  // Engine administration.
  getTemplateTypes: { input: noInput, output: w.templateTypesResult, role: 'visitor' },
  rebuildCaches: { input: w.rebuildCachesInput, output: done, role: 'admin' },
  /** Before a template-type change: how many enrolled visitors have no template of that type. */
  getTemplateCoverage: { input: w.templateTypeInput, output: w.templateCoverageResult, role: 'admin' },
  /** Rebuild templates of a type from kept face crops (the BioEngine's createcache), then recount. */
  migrateTemplates: { input: w.templateTypeInput, output: w.migrateTemplatesResult, role: 'admin' },
  getEngineLogs: { input: noInput, output: w.engineLogsResult, role: 'admin' },

  // The watchlist: an administrator lists and unlists persons; operators at the desk see the list and its alerts.
  addToWatchlist: { input: addToWatchlistInput, output: watchlistEntrySchema, role: 'admin' },
  removeFromWatchlist: { input: removeFromWatchlistInput, output: done, role: 'admin' },
  listWatchlist: { input: noInput, output: z.array(watchlistEntrySchema), role: 'operator' },
  /** The alerts no one has dismissed yet (a signed-in staff screen reads them at sign-in and when told of a new one). */
  getWatchlistAlerts: { input: noInput, output: z.array(watchlistAlertSchema), role: 'operator', poll: true },
  dismissWatchlistAlert: { input: dismissWatchlistAlertInput, output: done, role: 'operator' },
  /** Invitation codes a site would not count for check-ins its kiosks made while it was away (a code used twice); empty on a kiosk on its own. */
  getInviteAlerts: { input: noInput, output: z.array(inviteAlertSchema), role: 'operator', poll: true },
  dismissInviteAlert: { input: dismissInviteAlertInput, output: done, role: 'operator' },

  // A site: a kiosk joins one with a pairing code; administrators make codes, see the site's kiosks, remove one.
  /** Anyone while the kiosk has no staff account and is not on a site (the first-run screen); otherwise administrators only (checked in the services). */
  joinSite: { input: joinSiteInput, output: joinSiteResult, role: 'visitor' },
  /** A single-use code another kiosk joins this kiosk's site with (NOT_CONFIGURED on a kiosk on its own). */
  createPairingCode: { input: noInput, output: pairingCodeResult, role: 'admin' },
  listKiosks: { input: noInput, output: z.array(listedKioskSchema), role: 'admin' },
  /** The site refuses that kiosk's credential from now on. */
  removeKiosk: { input: z.strictObject(kioskIdParams.shape), output: done, role: 'admin' },
} as const satisfies Record<string, MethodSpec>

export type Contract = typeof contract
export type MethodName = keyof Contract
export type MethodInput<M extends MethodName> = z.input<Contract[M]['input']>
export type MethodOutput<M extends MethodName> = z.infer<Contract[M]['output']>

export type AppInfo = z.infer<typeof appInfoSchema>
export type EngineStatus = z.infer<typeof engineStatusSchema>
export type EngineState = z.infer<typeof engineStateSchema>

export const methodNames = Object.keys(contract) as MethodName[]

export function isMethodName(name: unknown): name is MethodName {
  return typeof name === 'string' && Object.hasOwn(contract, name)
}

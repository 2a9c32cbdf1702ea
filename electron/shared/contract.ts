import { z } from 'zod'
import { auditExportInput, auditExportResult, auditLogResult, auditQueryInput, auditVerdictSchema } from './audit'
import { outboxItemSchema, outboxStateSchema } from './outbox'
import { credentialStatusSchema, serverCredentialNames, serverCredentialsInputSchema, settingsPatchSchema, settingsSchema } from './settings'
import * as w from './workflows'

/**
 * The kiosk's one contract: every method the renderer may call, with the schemas that validate its
 * input (in the services, on every call) and describe its output. Types below are inferred from it.
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
  mode: z.enum(['embedded', 'remote']),
  state: engineStateSchema,
  /** Base URL of the person server (the BioEngine lives under /bioengine on the embedded engine). */
  url: z.string().nullable(),
  pid: z.number().int().nullable(),
  restarts: z.number().int().nonnegative(),
  lastError: z.string().nullable(),
})

const done = z.object({ ok: z.literal(true) })

export const contract = {
  getAppInfo: { input: noInput, output: appInfoSchema },
  getEngineStatus: { input: noInput, output: engineStatusSchema },

  // Visitor workflows: each returns what its screen needs in one call.
  enrollVisitor: { input: w.enrollVisitorInput, output: w.enrollVisitorResult },
  verifyVisitor: { input: w.verifyVisitorInput, output: w.verifyVisitorResult },
  identifyVisitor: { input: w.identifyVisitorInput, output: w.identifyVisitorResult },
  faceMatch: { input: w.faceMatchInput, output: w.faceMatchResult },
  removeVisitor: { input: w.removeVisitorInput, output: w.removeVisitorResult },

  // Persons.
  searchPersons: { input: w.searchPersonsInput, output: w.searchPersonsResult },
  getPersonDetail: { input: w.personDetailInput, output: w.personDetailResult },
  findPerson: { input: w.findPersonInput, output: w.findPersonResult },
  getAppUser: { input: w.appUserInput, output: w.appUserResult },
  getPersonTemplates: { input: w.personTemplatesInput, output: w.personTemplatesResult },
  deleteTemplates: { input: w.deleteTemplatesInput, output: z.object({ remaining: z.number().int() }) },
  checkSamples: { input: w.checkSamplesInput, output: w.checkSamplesResult },

  // Tenant administration (the kiosk's own tenant, from the settings).
  getTenant: { input: noInput, output: w.tenantSchema },
  updateTenant: { input: w.updateTenantInput, output: w.tenantSchema },
  getTenantApps: { input: noInput, output: w.appsResult },
  getTenantApp: { input: w.appInput, output: w.appResult },
  associateApp: { input: w.appInput, output: w.tenantSchema },
  disassociateApp: { input: w.appInput, output: w.tenantSchema },
  associateAlgorithm: { input: w.algorithmInput, output: w.tenantSchema },
  disassociateAlgorithm: { input: w.algorithmInput.pick({ algCode: true }), output: w.tenantSchema },
  associateLiveness: { input: w.livenessInput, output: w.tenantSchema },
  disassociateLiveness: { input: w.livenessInput, output: w.tenantSchema },

  // The offline outbox: enrollments waiting for the servers.
  getOutbox: { input: noInput, output: outboxStateSchema },
  retryOutboxItem: { input: z.strictObject({ id: z.uuid() }), output: outboxItemSchema },
  discardOutboxItem: { input: z.strictObject({ id: z.uuid() }), output: done },

  // Settings and credentials (write-only: the renderer sees whether each is stored, never its value).
  getSettings: { input: noInput, output: settingsSchema },
  saveSettings: { input: settingsPatchSchema, output: settingsSchema },
  getCredentialStatus: { input: noInput, output: credentialStatusSchema },
  setCredentials: { input: serverCredentialsInputSchema, output: credentialStatusSchema },
  clearCredentials: { input: z.strictObject({ names: z.array(z.enum(serverCredentialNames)).min(1).optional() }), output: credentialStatusSchema },
  testConnection: { input: noInput, output: w.connectionTestResult },

  // The audit trail: entries newest first, the chain's last verdict, a full verification, exports.
  getAuditLog: { input: auditQueryInput, output: auditLogResult },
  verifyAuditLog: { input: noInput, output: auditVerdictSchema },
  exportAuditLog: { input: auditExportInput, output: auditExportResult },

  // Engine administration.
  getTemplateTypes: { input: noInput, output: w.templateTypesResult },
  rebuildCaches: { input: w.rebuildCachesInput, output: done },
  getEngineLogs: { input: noInput, output: w.engineLogsResult },
} as const

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

import type { Branding } from '../shared/branding'
import type { AppInfo, EngineStatus } from '../shared/contract'
import { KioskError } from '../shared/errors'
import type { CredentialStatus, KioskSettings, ServerCredentialName, ServerCredentialsInput, SettingsPatch } from '../shared/settings'
import type { OutboxRetryResult, OutboxState } from '../shared/outbox'
import type { ConnectionTestResult } from '../shared/workflows'
import type { AuditLog } from './audit'
import { auditView } from './audit-view'
import type { Backend } from './backend'
import type { Handlers } from './dispatch'
import type { LivenessGate } from './liveness/gate'
import type { offlineDecisions } from './replica/offline-decisions'
import type { Replica } from './replica/replica'
import type { Staff } from './staff/staff-service'
import { engineAdmin } from './workflows/engine-admin'
import { appUser, checkSamples, deleteTemplates, findPerson, personDetail, personTemplates, searchPersons } from './workflows/persons'
import { removeVisitor } from './workflows/remove-visitor'
import { migrateTemplates, templateCoverage } from './workflows/template-coverage'
import { tenantAdmin } from './workflows/tenant-admin'

export interface ServiceContext {
  shell: AppInfo['shell']
  version: string
  engineStatus: () => EngineStatus
  /** The servers as the current settings define them; throws a KioskError when they cannot be used. */
  backend: () => Promise<Backend>
  /** Enrolls now or queues; liveness is judged before it is called. */
  enrollVisitor: Handlers['enrollVisitor']
  /** The liveness policy, challenges and decision (electron/services/liveness). */
  liveness: LivenessGate
  /** Verify, Identify and Face match: the servers decide, or this device when they cannot be reached. */
  decisions: ReturnType<typeof offlineDecisions>
  /** The offline replica (electron/services/replica). */
  replica: Pick<Replica, 'status' | 'sync' | 'wipe' | 'forget'>
  settings: { get(): Promise<KioskSettings>; update(patch: SettingsPatch): Promise<KioskSettings> }
  credentials: {
    status(): Promise<CredentialStatus>
    set(input: ServerCredentialsInput): Promise<CredentialStatus>
    clear(names?: ServerCredentialName[]): Promise<CredentialStatus>
  }
  testConnection(): Promise<ConnectionTestResult>
  /** The organisation's look (electron/services/branding). */
  branding: { get(): Promise<Branding>; setLogo(image: string | null): Promise<Branding> }
  outbox: { state(): Promise<OutboxState>; retry(id: string): Promise<OutboxRetryResult>; discard(id: string): Promise<void> }
  /** The audit trail; throws AUDIT_UNAVAILABLE when it cannot be opened. */
  audit: () => AuditLog
  staff: Staff
}

/** The kiosk's handler table: one entry per contract method, each a thin call into a workflow. */
export function createHandlers(ctx: ServiceContext): Handlers {
  const startedAt = new Date().toISOString()
  const tenant = async () => tenantAdmin(await ctx.backend())
  const engine = async () => engineAdmin(await ctx.backend())
  let view: ReturnType<typeof auditView> | null = null
  const audit = () => (view ??= auditView(ctx.audit()))
  return {
    getSession: (_input, call) => ctx.staff.session(call),
    signIn: (input, call) => ctx.staff.signIn(input, call),
    signOut: (_input, call) => ctx.staff.signOut(call),
    keepSession: (_input, call) => ctx.staff.session(call),
    createFirstAdmin: (input, call) => ctx.staff.createFirstAdmin(input, call),
    listAccounts: () => ctx.staff.list(),
    createAccount: (input) => ctx.staff.create(input),
    setAccountDisabled: (input) => ctx.staff.setDisabled(input),

    getAppInfo: async () => ({
      name: 'Identity Kiosk',
      version: ctx.version,
      shell: ctx.shell,
      platform: `${process.platform}-${process.arch}`,
      nodeVersion: process.versions.node,
      startedAt,
    }),
    getEngineStatus: async () => ctx.engineStatus(),

    startLivenessChallenge: (input) => ctx.liveness.challenge(input.purpose),
    // Liveness is judged before each act (before an enrollment is queued, too): a refusal stops it.
    enrollVisitor: async (input, call) => {
      const judged = await ctx.liveness.judge('enroll', input, input.samples, call.actor.role)
      const result = await ctx.enrollVisitor(input, call)
      // Staff decide about an existing record and send the same capture again: one more attempt.
      if (result.outcome === 'needs-decision') judged.release()
      return result.outcome === 'enrolled' || result.outcome === 'queued' ? { ...result, liveness: judged.outcome } : result
    },
    verifyVisitor: async (input, call) => {
      const judged = await ctx.liveness.judge('verify', input, [input.sample], call.actor.role)
      return { ...(await ctx.decisions.verify(input)), liveness: judged.outcome }
    },
    identifyVisitor: async (input, call) => {
      const judged = await ctx.liveness.judge('identify', input, [input.sample], call.actor.role)
      return { ...(await ctx.decisions.identify(input)), liveness: judged.outcome }
    },
    faceMatch: async (input, call) => {
      const camera = input.livenessFor ? input[input.livenessFor] : null
      if (input.liveness && !camera) throw new KioskError('INVALID_INPUT', 'Say which image the liveness frames belong to (livenessFor).')
      const judged = await ctx.liveness.judge('face-match', input, camera ? [camera] : [], call.actor.role)
      return { ...(await ctx.decisions.faceMatch(input)), liveness: judged.outcome }
    },
    removeVisitor: async (input) => {
      const result = await removeVisitor(await ctx.backend(), input.userId)
      await ctx.replica.forget(input.userId)
      return result
    },

    searchPersons: async (input) => searchPersons(await ctx.backend(), input),
    getPersonDetail: async (input) => personDetail(await ctx.backend(), input.personUuid),
    findPerson: async (input) => findPerson(await ctx.backend(), input),
    getAppUser: async (input) => appUser(await ctx.backend(), input),
    getPersonTemplates: async (input) => personTemplates(await ctx.backend(), input),
    deleteTemplates: async (input) => deleteTemplates(await ctx.backend(), input),
    checkSamples: async (input) => checkSamples(await ctx.backend(), input),

    getTenant: async () => (await tenant()).get(),
    updateTenant: async (input) => (await tenant()).update(input),
    getTenantApps: async () => (await tenant()).apps(),
    getTenantApp: async (input) => (await tenant()).app(input.appCode),
    associateApp: async (input) => (await tenant()).associateApp(input.appCode),
    disassociateApp: async (input) => (await tenant()).disassociateApp(input.appCode),
    associateAlgorithm: async (input) => (await tenant()).associateAlgorithm(input),
    disassociateAlgorithm: async (input) => (await tenant()).disassociateAlgorithm(input.algCode),
    associateLiveness: async (input) => (await tenant()).associateLiveness(input),
    disassociateLiveness: async (input) => (await tenant()).disassociateLiveness(input),

    getReplicaStatus: () => ctx.replica.status(),
    syncReplica: () => ctx.replica.sync(),
    confirmReplicaRemovals: () => ctx.replica.sync({ confirmed: true }),
    wipeReplica: async () => {
      await ctx.replica.wipe()
      return { ok: true }
    },

    getOutbox: () => ctx.outbox.state(),
    retryOutboxItem: (input) => ctx.outbox.retry(input.id),
    discardOutboxItem: async (input) => {
      await ctx.outbox.discard(input.id)
      return { ok: true }
    },

    getSettings: () => ctx.settings.get(),
    saveSettings: (patch) => ctx.settings.update(patch),
    getCredentialStatus: () => ctx.credentials.status(),
    setCredentials: (input) => ctx.credentials.set(input),
    clearCredentials: (input) => ctx.credentials.clear(input.names),
    testConnection: () => ctx.testConnection(),

    getBranding: () => ctx.branding.get(),
    setLogo: (input) => ctx.branding.setLogo(input.image),

    getAuditLog: async (input) => audit().log(input),
    verifyAuditLog: async () => audit().verify(),
    exportAuditLog: async (input) => audit().export(input),

    getTemplateTypes: async () => (await engine()).templateTypes(),
    rebuildCaches: async (input) => (await engine()).rebuildCaches(input.pluginName),
    getEngineLogs: async () => (await engine()).logs(),
    getTemplateCoverage: async (input) => templateCoverage(await ctx.backend(), input.templateType),
    migrateTemplates: async (input) => migrateTemplates(await ctx.backend(), input.templateType),
  }
}

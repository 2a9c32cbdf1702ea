import { mkdirSync } from 'node:fs'
import type { KioskEvent } from '../shared/events'
import { KioskError } from '../shared/errors'
import type { KioskSettings } from '../shared/settings'
import { openAuditLog, type AuditLog } from './audit'
import { audited, auditedHandlers, syncWords, type Actor } from './audited-handlers'
import type { Backend } from './backend'
import { BackendResolver } from './backend-resolver'
import { brandingService } from './branding/branding'
import { createLogoStore } from './branding/logo-store'
import { ApiError } from './clients/api-error'
import { createDispatch, type Dispatch } from './dispatch'
import type { LaunchEngine } from './engine-launch'
import { createHandlers } from './handlers'
import { createChallengeStore } from './liveness/challenge-store'
import { livenessGate } from './liveness/gate'
import { localLivenessEngine } from './liveness/local-engine'
import { livenessPolicy } from './liveness/policy'
import { kioskId } from './kiosk-id'
import { ownEngine } from './own-engine'
import { offlineDecisions } from './replica/offline-decisions'
import { createReplica, type ReplicaRemoval } from './replica/replica'
import { createCredentialStore } from './secrets/credentials'
import { createKeychain, keychainServiceFor, type Keychain } from './secrets/keychain'
import { backendProbe, openOutbox, type Outbox } from './outbox'
import { eventFor, roleViews } from './role-views'
import { createSettingsStore } from './settings-store'
import { openAccounts, type Accounts } from './staff/accounts'
import { Sessions } from './staff/sessions'
import { createStaff } from './staff/staff-service'
import { testConnection } from './workflows/connection-test'
import { deliverQueued, enrollOrQueue, enrollPolicy } from './workflows/enroll-or-queue'
import { removeVisitor } from './workflows/remove-visitor'
import { visitorRetention } from './workflows/retention-purge'

export interface KioskServicesOptions {
  shell: 'electron' | 'web'
  version: string
  dataDir: string
  /** Starts one embedded engine process (a child process, or Electron's utilityProcess). */
  launchEngine: LaunchEngine
  /** The OS keychain; tests pass one under a throwaway service name. */
  keychain?: Keychain
  /** The clock visitor retention is measured by (tests move it forward). */
  now?: () => number
  log?: (line: string) => void
}

export interface KioskServices {
  /** One call from a transport, with its caller's session key (a window or tab; null: none). */
  dispatch: Dispatch
  /** Pushed events for the window or tab under `key`, shaped for its session's role. */
  onEvent(key: string | null, listener: (event: KioskEvent) => void): () => void
  /** The window or tab under `key` went away or reloaded: its staff session ends (audited). */
  endSession(key: string, reason: string): void
  /**
   * An administrator's sign-in outside any window (Electron kiosk mode's exit prompt): the same
   * accounts, back-off and audit as signIn. Resolves when it is a valid, active administrator.
   */
  verifyAdmin(name: string, secret: string): Promise<void>
  /** Applies the visitor retention and the offline replica's now (they also run when the engine starts and every hour). */
  purgeExpired(): Promise<void>
  start(): Promise<void>
  stop(): Promise<void>
}

/**
 * The composition root of the kiosk services: settings, keychain, the embedded engine, the
 * clients and the handler table. Electron's main process and the web host both build exactly this.
 */
export function createKioskServices(options: KioskServicesOptions): KioskServices {
  const log = options.log ?? ((line: string) => console.error(line))
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 })
  const settingsStore = createSettingsStore({ dataDir: options.dataDir, log })
  const credentials = createCredentialStore(options.keychain ?? createKeychain(keychainServiceFor(options.dataDir)))
  const listeners = new Set<(event: KioskEvent) => void>()
  const emit = (event: KioskEvent) => listeners.forEach((listener) => listener(event))

  let settings: KioskSettings | null = null
  const currentSettings = async () => (settings ??= await settingsStore.load())
  const branding = brandingService({ settings: currentSettings, logo: createLogoStore({ dataDir: options.dataDir, log }), emit: (look) => emit({ type: 'branding', branding: look }), log })

  const own = ownEngine({ dataDir: options.dataDir, credentials, launchEngine: options.launchEngine, settings: currentSettings, log })
  const engine = own.supervisor
  engine.onChange((status) => {
    emit({ type: 'engine', status })
    if (status.state === 'running') {
      void purgeExpired()
      outbox?.start()
    }
  })

  const resolver = new BackendResolver(credentials, own.target)
  const backend = async () => resolver.backend(await currentSettings())

  const livenessEngine = localLivenessEngine({
    ensureRunning: own.url,
    credentials: () => credentials.embeddedEngineCredentials(),
    connectTimeoutMs: async () => (await currentSettings()).connectTimeoutSeconds * 1000,
  })
  const liveness = livenessGate({
    backend,
    tenantCode: async () => (await currentSettings()).tenantCode,
    policy: livenessPolicy(log),
    challenges: createChallengeStore(),
    evaluate: (request) => livenessEngine.evaluate(request),
    stepSeconds: async () => (await currentSettings()).livenessStepSeconds,
  })

  /** Applies saved settings: the right target, the embedded engine running only in embedded mode. */
  async function applySettings(next: KioskSettings): Promise<void> {
    const previous = settings
    settings = next
    // The replica holds one server's tenant: turned off, or pointed elsewhere, it goes.
    const kept = (s: KioskSettings | null) => s?.mode === 'remote' && s.offlineReplica && `${s.personServerUrl}|${s.bioEngineUrl}|${s.tenantCode}`
    if (kept(previous) && kept(previous) !== kept(next)) await replica.wipe()
    await resolver.reset()
    if (next.mode === 'remote' && previous?.mode !== 'remote') {
      await engine.stop()
      outbox?.start()
    }
    if (next.mode === 'embedded' && (previous?.mode !== 'embedded' || engine.getStatus().state === 'stopped')) {
      void own.start(next).catch((error: Error) => log(`embedded engine failed to start: ${error.message}`))
    } else if (next.mode === 'embedded' && next.tenantCode !== previous?.tenantCode) {
      await ensureEmbeddedTenant(next.tenantCode)
    }
  }

  /** The embedded engine is the kiosk's own: a tenant code chosen in Settings is created there. */
  async function ensureEmbeddedTenant(tenantCode: string): Promise<void> {
    const { persons } = await backend()
    const existing = await persons.getTenant(tenantCode).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 404) return null
      throw error
    })
    if (!existing) await persons.updateTenant(tenantCode, { name: tenantCode, maxIdentities: 0, defaultPostBack: null })
  }

  // The audit trail: opened on first use and kept; until it opens, audited acts do not happen.
  let auditLog: AuditLog | null = null
  const audit = (): AuditLog => (auditLog ??= openAuditLog({ dir: options.dataDir, kioskId: kioskId(options.dataDir) }))
  // What the kiosk does on its own (queued deliveries, retention) is recorded as the system's.
  const system: Actor = { role: 'system', account: null }
  /** A record of something that already happened (a session ended): logged if it cannot be written. */
  const record = (entry: Omit<Parameters<AuditLog['append']>[0], 'outcome'>) => {
    try {
      audit().append({ ...entry, outcome: 'ok' })
    } catch (error) {
      log(`audit: ${entry.action} not recorded: ${error instanceof Error ? error.message : 'unknown error'}`)
    }
  }

  // Staff accounts (opened on first use) and the sessions bound to windows and tabs.
  let accounts: Accounts | null = null
  const openedAccounts = (): Accounts => (accounts ??= openAccounts({ dir: options.dataDir }))
  const sessions = new Sessions({
    idleMs: () => (settings?.idleTimeoutSeconds ?? 90) * 1000,
    onExpired: (_key, who) => record({ action: 'sign-out', ...who, detail: 'idle timeout' }),
  })
  const sweep = setInterval(() => sessions.sweep(), 5_000)
  sweep.unref()

  // Visitors enrolled longer ago than the retention setting go by the removal rule, audited as the system's act.
  const retention = visitorRetention({
    days: async () => (await currentSettings()).visitorRetentionDays,
    backend,
    now: options.now ?? Date.now,
    remove: (servers, expired, days) =>
      audited(
        audit,
        log,
        system,
        { action: 'retention-purge', subject: { userId: expired.userId, personUuid: expired.personUuid }, detail: `older than ${days} days` },
        async () => {
          const result = await removeVisitor(servers, expired.userId)
          await replica.forget(expired.userId)
          return result
        },
        (result) => ({ detail: `older than ${days} days: ${result.outcome}` }),
      ),
    log,
  })
  const purgeExpired = async () => {
    await retention.run()
    await replica.purge()
  }

  // The offline replica (remote mode, opt-in): its removals are the system's acts, audited.
  const removeFromReplica = (local: Backend, record: ReplicaRemoval) =>
    audited(audit, log, system, { action: 'remove', subject: { userId: record.userId }, detail: record.why }, () => removeVisitor(local, record.userId), (result) => ({
      detail: `${record.why}: ${result.outcome}`,
    }))
  const replica = createReplica({
    dir: own.replicaDir,
    settings: currentSettings,
    local: own.backend,
    remote: backend,
    pending: async () => new Set((outbox?.list() ?? []).filter((item) => item.state !== 'delivered').map((item) => item.userId.toLowerCase())),
    remove: removeFromReplica,
    erase: own.eraseReplica,
    now: options.now ?? Date.now,
    log,
  })
  /** The sync the kiosk runs by itself once the servers answer again after it decided offline. */
  const syncAfterOffline = () =>
    void audited(audit, log, system, { action: 'replica-sync', detail: 'the servers answer again' }, () => replica.sync(), (o) => ({
      detail: `the servers answer again: ${syncWords(o)}`,
    })).catch(() => undefined)
  let offline = false
  const reachable = (answered: boolean) => {
    if (answered && offline) syncAfterOffline()
    offline = !answered
  }
  // While the kiosk decides offline, it asks the servers now and then whether they answer again.
  const recheck = setInterval(() => {
    if (!offline) return
    void backend()
      .then((servers) => backendProbe(servers)(AbortSignal.timeout(5_000)))
      .then((answered) => answered && reachable(true))
      .catch(() => undefined)
  }, 15_000)
  recheck.unref()
  const decisions = offlineDecisions({ backend, remoteMode: async () => (await currentSettings()).mode === 'remote', replica, localEngine: own.backend, reachable })
  const hourly = setInterval(() => void purgeExpired(), 60 * 60_000)
  hourly.unref()
  const staff = createStaff({
    accounts: openedAccounts,
    sessions,
    kiosk: async () => {
      const { idleTimeoutSeconds, templateType } = await currentSettings()
      return { idleTimeoutSeconds, templateType }
    },
  })

  // The outbox needs its key from the keychain; a locked keychain at start-up is retried on demand.
  let outbox: Outbox | null = null
  async function openedOutbox(): Promise<Outbox> {
    if (outbox) return outbox
    const opened = openOutbox({
      dir: options.dataDir,
      key: await credentials.outboxKey(),
      // A queued enrollment delivered later is an act of its own, audited like one.
      deliver: (item) =>
        audited(
          audit,
          log,
          system,
          { action: 'enroll-delivered', subject: { userId: item.userId } },
          async () => {
            const result = await deliverQueued(await backend(), item)
            reachable(true)
            void replica.record(item.userId, item.samples, 'confirmed')
            return result
          },
          (result) => ({ subject: { userId: item.userId, personUuid: result.person.uuid } }),
        ),
      probe: async (signal) => backendProbe(await backend())(signal).catch(() => false),
      log,
    })
    opened.onChange((state) => emit({ type: 'outbox', state }))
    // The sender waits for the kiosk's own engine: probing one that is still starting would only
    // report "offline" (it starts when the engine runs; see engine.onChange).
    if (settings?.mode === 'remote' || engine.getStatus().state === 'running') opened.start()
    outbox = opened
    return opened
  }

  const plainHandlers = createHandlers({
    shell: options.shell,
    version: options.version,
    engineStatus: () => ({ ...engine.getStatus(), mode: settings?.mode ?? 'embedded' }),
    backend,
    liveness,
    enrollVisitor: async (input, call) => {
      const result = await enrollOrQueue({ backend, templateType: async () => (await currentSettings()).templateType, outbox: openedOutbox }, input, enrollPolicy(input, call.actor.role))
      // Kept locally too (when the tenant opted in): confirmed by the servers, or queued for them.
      if (result.outcome === 'enrolled' || result.outcome === 'queued') void replica.record(input.userId, input.samples, result.outcome === 'enrolled' ? 'confirmed' : 'offline')
      return result
    },
    decisions,
    replica,
    outbox: {
      state: async () => (await openedOutbox()).state(),
      retry: async (id) => (await openedOutbox()).retryNow(id),
      discard: async (id) => (await openedOutbox()).discard(id),
    },
    settings: {
      get: currentSettings,
      async update(patch) {
        const previous = await currentSettings()
        const saved = await settingsStore.update(patch)
        await applySettings(saved)
        await branding.settingsSaved(previous, saved)
        void purgeExpired()
        return saved
      },
    },
    credentials: {
      status: () => credentials.credentialStatus(),
      async set(input) {
        const status = await credentials.setServerCredentials(input)
        await resolver.reset()
        return status
      },
      async clear(names) {
        const status = await credentials.clearServerCredentials(names)
        await resolver.reset()
        return status
      },
    },
    testConnection: async () => testConnection(await currentSettings(), backend),
    branding,
    audit,
    staff,
  })
  const handlers = roleViews(auditedHandlers(plainHandlers, audit, log))

  return {
    dispatch: createDispatch(handlers, staff.resolveActor, log),
    onEvent(key, listener) {
      const shaped = (event: KioskEvent) => listener(eventFor(sessions.actor(key).role, event))
      listeners.add(shaped)
      return () => listeners.delete(shaped)
    },
    async verifyAdmin(name, secret) {
      await audited(audit, log, { role: 'visitor', account: null }, { action: 'sign-in', account: name, detail: 'leave kiosk mode' }, async () => {
        const account = await openedAccounts().verify(name, secret)
        if (account.role !== 'admin') throw new KioskError('FORBIDDEN', 'Only an administrator may leave kiosk mode.')
      })
    },
    endSession(key, reason) {
      const who = sessions.end(key)
      if (who) record({ action: 'sign-out', ...who, detail: reason })
    },
    async start() {
      const current = await currentSettings()
      try {
        const verdict = audit().startVerdict
        if (!verdict.ok) log(`audit: the chain is broken at entry ${verdict.firstBadSeq}: ${verdict.reason}`)
        audit().prune(Date.now(), current.auditRetentionDays)
      } catch (error) {
        log(`audit trail not opened: ${error instanceof Error ? error.message : 'unknown error'}`)
      }
      await openedOutbox().catch((error: Error) => log(`outbox not opened yet: ${error.message}`))
      // Read again: settings saved meanwhile (a first start is configured at once) decide.
      const latest = await currentSettings()
      if (latest.mode === 'embedded') await own.start(latest).catch((error: Error) => log(`embedded engine failed to start: ${error.message}`))
      // A replica left from remote mode with the replica on: if nothing may use or purge it now, it goes.
      await replica.dropIfOff()
    },
    purgeExpired,
    async stop() {
      clearInterval(sweep)
      clearInterval(hourly)
      clearInterval(recheck)
      accounts?.close()
      accounts = null
      await outbox?.close()
      outbox = null
      auditLog?.close()
      auditLog = null
      await replica.idle()
      await engine.stop()
      await resolver.reset()
      await own.close()
      await livenessEngine.close()
    },
  }
}

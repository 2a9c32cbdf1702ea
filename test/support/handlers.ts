import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openLocalFrontDesk } from '../../electron/records/frontdesk/local'
import type { FrontDeskOptions } from '../../electron/records/frontdesk/front-desk'
import { KioskError } from '../../electron/shared/errors'
import type { EngineStatus } from '../../electron/shared/contract'
import type { AuditLog } from '../../electron/services/audit'
import type { Backend } from '../../electron/services/backend'
import { auditTrail } from '../../electron/services/features/audit'
import { kioskEngine } from '../../electron/services/features/kiosk-engine'
import { enrollment } from '../../electron/services/features/enrollment'
import { faceMatch } from '../../electron/services/features/face-match'
import { hostNotices } from '../../electron/services/features/host-notices'
import { invitesFeature } from '../../electron/services/features/invites'
import { combine, handlerTable } from '../../electron/services/features/feature'
import { livenessChallenges } from '../../electron/services/features/liveness'
import { outboxHandlers } from '../../electron/services/features/outbox'
import { persons } from '../../electron/services/features/persons'
import { replicaFeature } from '../../electron/services/features/replica'
import { savedSettings, settingsFeature } from '../../electron/services/features/settings'
import { siteFeature } from '../../electron/services/features/site'
import { siteSyncFeature } from '../../electron/services/features/site-sync'
import { ownDesk } from '../../electron/services/front-desk/own-desk'
import { staffFeature, type StaffFeature } from '../../electron/services/features/staff'
import { tenantAdmin } from '../../electron/services/features/tenant-admin'
import { verification } from '../../electron/services/features/verification'
import { visitsFeature, type VisitsDeps, type VisitsFeature } from '../../electron/services/features/visits'
import { watchlistFeature, type WatchlistFeature } from '../../electron/services/features/watchlist'
import type { Outbox } from '../../electron/services/outbox'
import { ownVisitRecords, sharedLocalFrontDesk } from '../../electron/services/visits/own-records'
import { defaultSettings } from '../../electron/shared/settings'
import { createChallengeStore } from '../../electron/services/liveness/challenge-store'
import { livenessGate, type LivenessGate } from '../../electron/services/liveness/gate'
import { livenessPolicy } from '../../electron/services/liveness/policy'
import { siteHealth } from '../../electron/services/features/site-health'

const notConfigured = async (): Promise<never> => {
  throw new KioskError('NOT_CONFIGURED', 'No server in this test.')
}
const noAudit = (): never => {
  throw new KioskError('AUDIT_UNAVAILABLE', 'No audit trail in this test.')
}

/**
 * The kiosk's own front desk (by default in a fresh folder, as kiosk 'test-kiosk', on the real
 * clock, its invitation keys in the database), and the upkeep a kiosk on its own does on it.
 */
export function testFrontDesk(options: { dataDir?: string; kioskId?: string } & Pick<FrontDeskOptions, 'now' | 'inviteKeys' | 'sessionIdleMs'> = {}) {
  const { dataDir = mkdtempSync(join(tmpdir(), 'kiosk-frontdesk-')), kioskId = 'test-kiosk', ...frontDeskOptions } = options
  const shared = sharedLocalFrontDesk(() => openLocalFrontDesk({ dataDir, ...frontDeskOptions }))
  const own = ownDesk(shared.open, () => kioskId)
  return { dataDir, records: ownVisitRecords(own, shared.frontDesk), database: shared.database, ...own }
}
export type TestFrontDesk = ReturnType<typeof testFrontDesk>

/** The front desk each test staff feature signs in at: the visits and invites features use the same. */
const staffDesks = new WeakMap<StaffFeature, TestFrontDesk>()

/** Real staff accounts (on a front desk of its own, in a fresh folder) and sessions, as the services compose them. */
export function testStaff(frontDesk = testFrontDesk()): StaffFeature {
  const staff = staffFeature({
    desk: async () => frontDesk.desk,
    kiosk: async () => ({ idleTimeoutSeconds: 90, templateType: 'Face:HumanFaceRes' }),
    idleMs: () => 90_000,
    audit: auditTrail({ open: noAudit, settings: notConfigured, log: () => {} }),
    log: () => {},
  })
  staffDesks.set(staff, frontDesk)
  return staff
}

export interface ServicesInTest {
  backend?: () => Promise<Backend>
  liveness?: LivenessGate
  staff?: StaffFeature
  audit?: () => AuditLog
  /** An open outbox (never started by these handlers): enrollments queue there. */
  outbox?: Outbox
  /** Makes the visits feature from these handlers' parts (by default: one on the staff's front desk, retention off). */
  visits?: (parts: Pick<VisitsDeps, 'desk' | 'staffDesk' | 'own' | 'backend' | 'liveness' | 'decisions' | 'audit' | 'log'>) => VisitsFeature
  /** The watchlist (by default the staff's front desk's, with nobody on it). */
  watchlist?: WatchlistFeature
}

/** The real handler table over features with no servers behind them: for transport-level tests. */
export function handlersWithoutServers(engineStatus: () => EngineStatus, given: ServicesInTest = {}) {
  const backend = given.backend ?? notConfigured
  const log = () => {}
  const audit = auditTrail({ open: given.audit ?? noAudit, settings: async () => ({ ...defaultSettings }), log })
  // Embedded mode: the servers decide, and the offline replica stays off.
  const offline = replicaFeature({
    own: { replicaDir: join(tmpdir(), 'kiosk-no-replica'), backend: notConfigured, eraseReplica: async () => {} },
    settings: async () => ({ ...defaultSettings }),
    backend,
    pending: async () => new Set(),
    reachable: () => {},
    audit,
    now: Date.now,
    log,
  })
  const { replica, decisions } = offline
  // No servers: the policy cannot be read, so it fails closed, and no engine can judge a burst.
  const liveness =
    given.liveness ?? livenessGate({ backend: notConfigured, tenantCode: async () => 'KIOSK', policy: livenessPolicy(), challenges: createChallengeStore(), evaluate: notConfigured, stepSeconds: async () => 8 })
  const outbox = async () => given.outbox ?? notConfigured()
  const staff = given.staff ?? testStaff()
  // Visits, hosts and invites are the staff's front desk's (a test's own, or a fresh one): they need no server.
  const frontDesk = staffDesks.get(staff)
  if (!frontDesk) throw new Error('a staff feature made by testStaff is needed: its front desk keeps the visits')
  const invites = invitesFeature({ desk: staff.desk, staffDesk: staff.staffDesk, own: frontDesk.records, emit: () => {}, now: Date.now, log })
  const watchlist = given.watchlist ?? watchlistFeature({ desk: staff.desk, staffDesk: staff.staffDesk, backend, audit, emit: () => {}, log })
  const engine = { getStatus: engineStatus, onChange: () => () => {}, stop: async () => {} }
  const settings = settingsFeature({
    saved: savedSettings({ file: '', load: notConfigured, save: notConfigured, update: notConfigured }),
    credentials: { credentialStatus: notConfigured, setServerCredentials: notConfigured, clearServerCredentials: notConfigured },
    backend,
    resetServers: async () => {},
    own: { start: notConfigured, supervisor: engine },
    replica,
    sendOutbox: () => {},
    branding: { get: notConfigured, setLogo: notConfigured, settingsSaved: notConfigured, siteLookChanged: notConfigured },
    site: { current: async () => null, known: () => null, settings: notConfigured, changed: () => {} },
    staffDesk: staff.staffDesk,
    purgeExpired: async () => {},
    log,
  })
  const parts = { desk: staff.desk, staffDesk: staff.staffDesk, own: frontDesk.records, backend, liveness, decisions, audit, log }
  const visits = given.visits ? given.visits(parts) : visitsFeature({ ...parts, retentionDays: async () => null })
  const forgetting = {
    forget: async (userId: string) => {
      await replica.forget(userId)
      await visits.forget({ userId })
    },
  }
  const table = handlerTable(
    combine(
      kioskEngine({ shell: 'web', version: '1.2.3', own: { supervisor: engine, close: async () => {} }, known: () => null, backend, resetServers: async () => {}, emit: () => {} }),
      livenessChallenges(liveness),
      offline,
      audit,
      watchlist,
      { handlers: outboxHandlers(outbox) },
      // The kiosk's own front desk's notices, their runner never started; no keychain behind it.
      { handlers: hostNotices({ database: frontDesk.database, keychain: { get: notConfigured, set: notConfigured, delete: notConfigured }, log }).handlers },
      settings,
      // A kiosk on its own: joining a site reaches for one (none answers here).
      siteFeature({ settings: async () => ({ ...defaultSettings }), desk: staff.desk, staffDesk: staff.staffDesk, credentials: { setServerCredentials: notConfigured }, saveSettings: notConfigured, events: null }),
      siteSyncFeature(null),
      // Not on a site: no report goes anywhere.
      siteHealth({ connection: async () => null, gather: notConfigured, log }),
      staff,
      enrollment({ backend, templateType: async () => 'Face:HumanFaceRes', liveness, outbox, replica, reachable: () => {}, audit, watchlist }),
      verification({ liveness, decisions }),
      faceMatch({ liveness, decisions }),
      persons({ backend, replica: forgetting }),
      tenantAdmin({ backend }),
      visits,
      invites,
    ).handlers,
  )
  return visits.withVisitorRemoval(visits.rememberEnrollments(table))
}

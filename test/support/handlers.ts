import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { KioskError } from '../../electron/shared/errors'
import type { EngineStatus } from '../../electron/shared/contract'
import { createHandlers, type ServiceContext } from '../../electron/services/handlers'
import { offlineDecisions } from '../../electron/services/replica/offline-decisions'
import { createReplica } from '../../electron/services/replica/replica'
import { defaultSettings } from '../../electron/shared/settings'
import { createChallengeStore } from '../../electron/services/liveness/challenge-store'
import { livenessGate } from '../../electron/services/liveness/gate'
import { livenessPolicy } from '../../electron/services/liveness/policy'
import { openAccounts, type Accounts } from '../../electron/services/staff/accounts'
import { Sessions } from '../../electron/services/staff/sessions'
import { createStaff, type Staff } from '../../electron/services/staff/staff-service'

const notConfigured = async (): Promise<never> => {
  throw new KioskError('NOT_CONFIGURED', 'No server in this test.')
}

/** Real staff accounts (in a fresh folder) and sessions, as the services compose them. */
export function testStaff(): Staff & { accounts: () => Accounts; sessions: Sessions } {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-staff-'))
  let accounts: Accounts | null = null
  const opened = () => (accounts ??= openAccounts({ dir }))
  const sessions = new Sessions({ idleMs: () => 90_000 })
  return { ...createStaff({ accounts: opened, sessions, kiosk: async () => ({ idleTimeoutSeconds: 90, templateType: 'Face:HumanFaceRes' }) }), accounts: opened, sessions }
}

/** The real handler table over a context with no servers behind it: for transport-level tests. */
export function handlersWithoutServers(engineStatus: () => EngineStatus, overrides: Partial<ServiceContext> = {}) {
  const backend = overrides.backend ?? notConfigured
  // Embedded mode: the servers decide, and the offline replica stays off.
  const replica = createReplica({
    dir: join(tmpdir(), 'kiosk-no-replica'),
    settings: async () => ({ ...defaultSettings }),
    local: notConfigured,
    remote: backend,
    pending: async () => new Set(),
    remove: notConfigured,
    erase: async () => {},
    now: Date.now,
    log: () => {},
  })
  return createHandlers({
    shell: 'web',
    version: '1.2.3',
    engineStatus,
    backend: notConfigured,
    enrollVisitor: notConfigured,
    // No servers: the policy cannot be read, so it fails closed, and no engine can judge a burst.
    liveness: livenessGate({ backend: notConfigured, tenantCode: async () => 'KIOSK', policy: livenessPolicy(), challenges: createChallengeStore(), evaluate: notConfigured, stepSeconds: async () => 8 }),
    settings: { get: notConfigured, update: notConfigured },
    credentials: { status: notConfigured, set: notConfigured, clear: notConfigured },
    testConnection: notConfigured,
    branding: { get: notConfigured, setLogo: notConfigured },
    outbox: { state: notConfigured, retry: notConfigured, discard: notConfigured },
    audit: () => {
      throw new KioskError('AUDIT_UNAVAILABLE', 'No audit trail in this test.')
    },
    staff: testStaff(),
    decisions: offlineDecisions({ backend, remoteMode: async () => false, replica, localEngine: notConfigured, reachable: () => {} }),
    replica,
    ...overrides,
  })
}

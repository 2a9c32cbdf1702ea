import { usesRemoteServers, type KioskSettings } from '../../shared/settings'
import { syncWords } from '../audited-handlers'
import type { Backend } from '../backend'
import type { ownEngine } from '../own-engine'
import { offlineDecisions, type OfflineDecisions } from '../replica/offline-decisions'
import { createReplica, type Replica } from '../replica/replica'
import { removeVisitor } from '../workflows/remove-visitor'
import type { AuditTrail } from './audit'
import type { Feature } from './feature'

export interface ReplicaDeps {
  own: Pick<ReturnType<typeof ownEngine>, 'replicaDir' | 'backend' | 'eraseReplica'>
  settings: () => Promise<KioskSettings>
  backend: () => Promise<Backend>
  /** The e-mails whose enrollments wait in the outbox. */
  pending: () => Promise<Set<string>>
  reachable: (answered: boolean) => void
  audit: Pick<AuditTrail, 'systemAct'>
  now: () => number
  log: (line: string) => void
}

export interface ReplicaFeature extends Feature {
  replica: Replica
  /** Verify, Identify and Face match: the servers decide, or this device when they cannot be reached. */
  decisions: OfflineDecisions
  /** The sync the kiosk runs by itself once the servers answer again after it decided offline. */
  syncAfterOffline(): void
}

/** The offline replica (remote mode, opt-in) and the offline decisions made against it; its removals are the system's acts, audited. */
export function replicaFeature(deps: ReplicaDeps): ReplicaFeature {
  const replica = createReplica({
    dir: deps.own.replicaDir,
    settings: deps.settings,
    local: deps.own.backend,
    remote: deps.backend,
    pending: deps.pending,
    remove: (local, record) =>
      deps.audit.systemAct({ action: 'remove', subject: { userId: record.userId }, detail: record.why }, () => removeVisitor(local, record.userId), (result) => ({
        detail: `${record.why}: ${result.outcome}`,
      })),
    erase: deps.own.eraseReplica,
    now: deps.now,
    log: deps.log,
  })
  return {
    replica,
    decisions: offlineDecisions({ backend: deps.backend, remoteMode: async () => usesRemoteServers((await deps.settings()).mode), replica, localEngine: deps.own.backend, reachable: deps.reachable }),
    syncAfterOffline: () =>
      void deps.audit
        .systemAct({ action: 'replica-sync', detail: 'the servers answer again' }, () => replica.sync(), (o) => ({ detail: `the servers answer again: ${syncWords(o)}` }))
        .catch(() => undefined),
    handlers: {
      getReplicaStatus: () => replica.status(),
      syncReplica: () => replica.sync(),
      confirmReplicaRemovals: () => replica.sync({ confirmed: true }),
      wipeReplica: async () => {
        await replica.wipe()
        return { ok: true }
      },
    },
    // Writes still under way finish before the engine under them stops.
    stop: () => replica.idle(),
  }
}

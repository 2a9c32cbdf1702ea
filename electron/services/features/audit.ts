import type { KioskSettings } from '../../shared/settings'
import type { AuditLog } from '../audit'
import { auditView } from '../audit-view'
import { audited, type Actor } from '../audited-handlers'
import type { Feature } from './feature'

// What the kiosk does on its own (queued deliveries, retention, replica upkeep) is recorded as the system's.
const SYSTEM: Actor = { role: 'system', account: null }

export interface AuditTrail extends Feature {
  /** The trail, opened on first use and kept; throws while it cannot be opened (audited acts then do not happen). */
  log(): AuditLog
  /** An act of the system, audited before and after like a caller's (no entry, no act). */
  systemAct: <T>(entry: Parameters<typeof audited<T>>[3], act: () => Promise<T>, result?: Parameters<typeof audited<T>>[5]) => Promise<T>
  /** A record of something that already happened (a session ended): logged if it cannot be written. */
  record(entry: Omit<Parameters<AuditLog['append']>[0], 'outcome'>): void
}

/** The audit trail: staff read, verify and export it; at start its chain is checked and old entries pruned. */
export function auditTrail(deps: { open: () => AuditLog; settings: () => Promise<KioskSettings>; log: (line: string) => void }): AuditTrail {
  let opened: AuditLog | null = null
  const log = (): AuditLog => (opened ??= deps.open())
  let view: ReturnType<typeof auditView> | null = null
  const staffView = () => (view ??= auditView(log()))
  return {
    log,
    systemAct: (entry, act, result) => audited(log, deps.log, SYSTEM, entry, act, result),
    record(entry) {
      try {
        log().append({ ...entry, outcome: 'ok' })
      } catch (error) {
        deps.log(`audit: ${entry.action} not recorded: ${error instanceof Error ? error.message : 'unknown error'}`)
      }
    },
    handlers: {
      getAuditLog: async (input) => staffView().log(input),
      verifyAuditLog: async () => staffView().verify(),
      exportAuditLog: async (input) => staffView().export(input),
    },
    async start() {
      const { auditRetentionDays } = await deps.settings()
      try {
        const verdict = log().startVerdict
        if (!verdict.ok) deps.log(`audit: the chain is broken at entry ${verdict.firstBadSeq}: ${verdict.reason}`)
        log().prune(Date.now(), auditRetentionDays)
      } catch (error) {
        deps.log(`audit trail not opened: ${error instanceof Error ? error.message : 'unknown error'}`)
      }
    },
    stop() {
      opened?.close()
      opened = null
    },
  }
}

import type { KioskSettings } from '../../shared/settings'
import type { AuditLog } from '../audit'
import { auditView } from '../audit-view'
import { audited, type Actor } from '../audited-handlers'
import type { Call } from '../dispatch'
import type { StaffAuditView } from '../site/site-audit'
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

export interface AuditTrailDeps {
  open: () => AuditLog
  settings: () => Promise<KioskSettings>
  log: (line: string) => void
  /**
   * The trail staff read for a call: on a site, the site's (site/site-audit.ts's siteAuditFor);
   * null for the kiosk's own (a kiosk on its own, or `trail: 'kiosk'` asked). Absent: always its own.
   */
  site?: (call: Call, trail?: 'site' | 'kiosk') => Promise<StaffAuditView | null>
}

/**
 * The kiosk's audit trail: its acts are appended to its own (on a site too); staff read, verify
 * and export the trail of record, the kiosk's own or, on a site, the site's. At start the kiosk's
 * chain is checked and old entries pruned.
 */
export function auditTrail(deps: AuditTrailDeps): AuditTrail {
  let opened: AuditLog | null = null
  const log = (): AuditLog => (opened ??= deps.open())
  let view: ReturnType<typeof auditView> | null = null
  const ownView = () => (view ??= auditView(log()))
  const siteView = async (call: Call, trail: 'site' | 'kiosk' | undefined) => (deps.site ? deps.site(call, trail) : null)
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
      async getAuditLog({ trail, ...query }, call) {
        const site = await siteView(call, trail)
        return site ? site.log(query) : ownView().log(query)
      },
      async verifyAuditLog(input, call) {
        const site = await siteView(call, input.trail)
        return site ? site.verify() : ownView().verify()
      },
      async exportAuditLog({ trail, ...input }, call) {
        const site = await siteView(call, trail)
        return site ? site.export(input) : ownView().export(input)
      },
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

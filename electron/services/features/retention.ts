import type { EngineStatus } from '../../shared/contract'
import type { KioskSettings } from '../../shared/settings'
import type { Backend } from '../backend'
import type { Replica } from '../replica/replica'
import { removeVisitor } from '../workflows/remove-visitor'
import { visitorRetention } from '../workflows/retention-purge'
import type { AuditTrail } from './audit'
import type { Feature } from './feature'
import type { InvitesFeature } from './invites'

export interface RetentionDeps {
  settings: () => Promise<KioskSettings>
  backend: () => Promise<Backend>
  replica: Pick<Replica, 'forget' | 'purge'>
  /** A removed visitor's invites go with them. */
  invites: Pick<InvitesFeature, 'forget'>
  /** The kiosk's own engine: retention is applied when it starts running. */
  engine: { onChange(listener: (status: EngineStatus) => void): unknown }
  audit: Pick<AuditTrail, 'systemAct'>
  now: () => number
  log: (line: string) => void
}

/**
 * Visitors enrolled longer ago than the retention setting go by the removal rule, audited as the
 * system's act, and the offline replica's own limits apply: when the engine starts running, every
 * hour, and when asked (settings saved).
 */
export function retention(deps: RetentionDeps): Feature & { purgeExpired(): Promise<void> } {
  const visitors = visitorRetention({
    days: async () => (await deps.settings()).visitorRetentionDays,
    backend: deps.backend,
    now: deps.now,
    remove: (servers, expired, days) =>
      deps.audit.systemAct(
        { action: 'retention-purge', subject: { userId: expired.userId, personUuid: expired.personUuid }, detail: `older than ${days} days` },
        async () => {
          const result = await removeVisitor(servers, expired.userId)
          await deps.replica.forget(expired.userId)
          deps.invites.forget(expired.userId)
          return result
        },
        (result) => ({ detail: `older than ${days} days: ${result.outcome}` }),
      ),
    log: deps.log,
  })
  const purgeExpired = async () => {
    await visitors.run()
    await deps.replica.purge()
  }
  deps.engine.onChange((status) => status.state === 'running' && void purgeExpired())
  const hourly = setInterval(() => void purgeExpired(), 60 * 60_000)
  hourly.unref()
  return { purgeExpired, handlers: {}, stop: () => clearInterval(hourly) }
}

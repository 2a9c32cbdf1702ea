import type { IdentifyVisitorResult } from '../../electron/shared/workflows'
import { visitsFeature, type VisitsFeature } from '../../electron/services/features/visits'
import { watchlistFeature, type WatchlistFeature } from '../../electron/services/features/watchlist'
import type { KioskDesk, StaffDesk } from '../../electron/services/front-desk/desk'

/**
 * The watchlist and visits features over a site kiosk's desk while its servers are away, as
 * kiosk-services wires them: the audit and the servers are stand-ins nothing here asks of, and
 * Identify answers what `identified()` says (as the offline replica does).
 */
export function awayFeatures(deps: { desk: KioskDesk; staff: StaffDesk; identified: () => IdentifyVisitorResult; log?: (line: string) => void }): { watchlist: WatchlistFeature; visits: VisitsFeature } {
  const watchlist = watchlistFeature({
    desk: async () => deps.desk,
    staffDesk: async () => deps.staff,
    backend: async () => Promise.reject(new Error('not used')),
    audit: { log: () => ({ append: () => undefined }) } as never,
    emit: () => {},
    log: () => {},
  })
  const visits = visitsFeature({
    desk: async () => deps.desk,
    staffDesk: async () => deps.staff,
    own: {} as never,
    // Only asked whether the tenant keeps face crops (no: no badge photo).
    backend: async () => Promise.reject(new Error('the servers are away')),
    liveness: { judge: async () => null } as never,
    decisions: { identify: async () => deps.identified() },
    retentionDays: async () => null,
    audit: { systemAct: async () => undefined } as never,
    log: deps.log ?? (() => {}),
    hooks: { screenPerson: (person) => watchlist.screenPerson(person) },
  })
  return { watchlist, visits }
}

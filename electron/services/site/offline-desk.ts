import { emailKey } from '../../records/frontdesk/watchlist-repository'
import { KIOSK_CLIENT_PREFIX, type ScreenResult } from '../../shared/frontdesk-api'
import type { OnSiteCopy, Visit } from '../../shared/visits'
import type { WatchlistAlert } from '../../shared/watchlist'
import type { KioskDesk, ScreeningSubject, StaffDesk } from '../front-desk/desk'
import type { SiteCopy } from './site-copy'
import { siteAway } from './site-away'
import type { SiteSync } from './site-sync'

export interface OfflineDeskDeps {
  sync: Pick<SiteSync, 'copy' | 'queue'>
  /** This kiosk's id on its site (see siteKioskId): it is not one of the kiosks "not heard from". */
  selfId: () => Promise<string | null>
  /** This kiosk's name on its site, for the alerts it raised itself. */
  kioskName: () => Promise<string>
  /** An alert raised here from the copy: staff here are told at once (the site tells everyone once it has it). */
  alerted: (alertId: string) => void
  log: (line: string) => void
}

/** The kiosk's id on its site: pairing named its client after it. */
export function siteKioskId(clientId: string | null): string | null {
  return clientId?.startsWith(KIOSK_CLIENT_PREFIX) ? clientId.slice(KIOSK_CLIENT_PREFIX.length) : null
}

/**
 * A site's front desk that keeps its kiosk working while the site is away (siteAway: the network,
 * a timeout, a 5xx, a reply that is not the site's), from the kiosk's copy (site-copy.ts):
 * - screening: a listed person is stopped from the copy, the alert queued for the site (it keeps
 *   the act's id) and raised here at once; a kiosk with no copy yet refuses to screen, as before.
 *   Nobody listed is admitted because the network is down.
 * - the evacuation list: the copy's open visits, with when the copy was last filled and the other
 *   kiosks (whoever they admitted since is missing).
 * - staff's alerts: this kiosk's alerts the site does not have yet, beside the site's.
 * Everything else, and every refusal the site made in its own words, is the site's as it was.
 */
export function offlineDesk(live: KioskDesk, deps: OfflineDeskDeps): KioskDesk {
  /** The copy to answer from instead; the site's failure stands when there is none (or it was never filled). */
  async function filledCopy(failure: unknown): Promise<SiteCopy> {
    const found = await deps.sync.copy().catch(() => null)
    if (!found || found.state().pulledAt === null) throw failure
    return found
  }

  async function screenFromCopy(subject: ScreeningSubject, failure: unknown): Promise<ScreenResult> {
    const found = await filledCopy(failure)
    const entry = found.listed(subject.personUuids, subject.givenEmail)
    if (!entry) return { screening: 'clear' }
    // As the site's rules: the e-mail typed is kept only when it differs from the listed one.
    const givenEmail = subject.givenEmail !== null && emailKey(subject.givenEmail) !== emailKey(entry.email) ? subject.givenEmail : null
    const act = await deps.sync.queue({ kind: 'watchlist-alert', args: { place: subject.place, personUuid: entry.personUuid, email: entry.email, givenEmail, reason: entry.reason } })
    deps.log(`watchlist: ${subject.place} stopped from the site copy (the site is away); alert ${act.id} waits for the site`)
    deps.alerted(act.id)
    return { screening: 'watchlisted', alertId: act.id, personUuid: entry.personUuid, email: entry.email }
  }

  /** This kiosk's alerts the site has not acknowledged, newest first, as staff see alerts. */
  async function waitingAlerts(found: SiteCopy): Promise<WatchlistAlert[]> {
    const waiting = found.waiting().filter((act) => act.kind === 'watchlist-alert')
    // Nearly always none: the keychain and settings are read only when there is an alert to name.
    if (waiting.length === 0) return []
    const [kioskId, kioskName] = await Promise.all([deps.selfId().catch(() => null), deps.kioskName().catch(() => '')])
    return waiting
      .map((act) => ({ id: act.id, at: act.at, kioskId: kioskId ?? '', kioskName: kioskName || null, ...act.args, firstName: null }))
      .sort((a, b) => b.at - a.at)
  }

  async function onSiteFromCopy(failure: unknown): Promise<{ visits: Visit[]; offline: OnSiteCopy }> {
    const found = await deps.sync.copy().catch(() => null)
    if (!found) throw failure
    const self = await deps.selfId().catch(() => null)
    const { pulledAt } = found.state()
    const unheardKiosks = found
      .kiosks()
      .filter((kiosk) => kiosk.id !== self)
      .map((kiosk) => kiosk.name)
      .sort((a, b) => a.localeCompare(b))
    return { visits: found.openVisits(), offline: { asOf: pulledAt === null ? null : new Date(pulledAt).toISOString(), unheardKiosks } }
  }

  return {
    ...live,
    async screen(subject) {
      try {
        return await live.screen(subject)
      } catch (error) {
        if (!siteAway(error)) throw error
        return screenFromCopy(subject, error)
      }
    },
    as(session): StaffDesk {
      const staff = live.as(session)
      return {
        ...staff,
        async onSite() {
          try {
            return await staff.onSite()
          } catch (error) {
            if (!siteAway(error)) throw error
            return onSiteFromCopy(error)
          }
        },
        async watchlistAlerts() {
          let alerts: WatchlistAlert[]
          try {
            alerts = await staff.watchlistAlerts()
          } catch (error) {
            if (!siteAway(error)) throw error
            const found = await deps.sync.copy().catch(() => null)
            if (!found) throw error
            return waitingAlerts(found)
          }
          // Raised here and not pushed yet (a moment after the site came back): shown beside the site's.
          const found = await deps.sync.copy().catch(() => null)
          const known = new Set(alerts.map((alert) => alert.id))
          const waiting = found ? (await waitingAlerts(found)).filter((alert) => !known.has(alert.id)) : []
          return [...waiting, ...alerts]
        },
      }
    },
  }
}

import { KioskError } from '../../shared/errors'
import type { KioskEvent } from '../../shared/events'
import type { WatchlistPlace } from '../../shared/watchlist'
import type { Backend } from '../backend'
import { openWatchlist, type WatchlistStore } from '../watchlist/store'
import type { AuditTrail } from './audit'
import type { Feature } from './feature'

export type Screening = 'clear' | 'watchlisted'

/** How long a dismissed alert stays in watchlist.db: the audit trail is the lasting record of the stop and the dismissal. */
export const DISMISSED_ALERTS_KEPT_DAYS = 30

/** Who is about to be admitted: the persons their face or e-mail points to, and the e-mail they gave. */
export interface ScreeningSubject {
  personUuids: readonly string[]
  givenEmail: string | null
  place: WatchlistPlace
}

export interface WatchlistDeps {
  dataDir: string
  kioskId: () => string
  backend: () => Promise<Backend>
  audit: Pick<AuditTrail, 'log'>
  emit: (event: KioskEvent) => void
  log: (line: string) => void
  now?: () => number
}

export interface WatchlistFeature extends Feature {
  /**
   * Before a check-in is stored (the visits feature): 'watchlisted' when this person is on the
   * list, and then staff are already alerted and the stop audited; the caller only shows the
   * visitor "Please see the front desk".
   */
  screenPerson(personUuid: string, place?: WatchlistPlace): Promise<Screening>
  /** The same for an enrollment: the persons its 1:N and e-mail look-up found, and the e-mail typed. */
  screen(subject: ScreeningSubject): Promise<Screening>
}

/**
 * The watchlist: administrators put a person on it (with a reason) and take them off; operators
 * see it and its alerts. A listed person who enrolls or checks in is stopped, staff signed in
 * anywhere are told at once (a pushed event carrying only the alert's id), and the stop is audited.
 */
export function watchlistFeature(deps: WatchlistDeps): WatchlistFeature {
  let opened: WatchlistStore | null = null
  const store = (): WatchlistStore => (opened ??= openWatchlist({ dir: deps.dataDir, ...(deps.now && { now: deps.now }) }))

  async function screen(subject: ScreeningSubject): Promise<Screening> {
    const entry = store().match(
      subject.personUuids.map((uuid) => uuid.toLowerCase()),
      subject.givenEmail,
    )
    if (!entry) return 'clear'
    const givenEmail = subject.givenEmail && subject.givenEmail.toLowerCase() !== entry.email.toLowerCase() ? subject.givenEmail : null
    const alert = store().raise({ kioskId: deps.kioskId(), place: subject.place, personUuid: entry.personUuid, email: entry.email, givenEmail, reason: entry.reason })
    // The stop is recorded as the kiosk's own act; an audit that cannot be written does not let the person through.
    try {
      deps.audit.log().append({
        action: 'watchlist-hit',
        outcome: 'refused',
        role: 'system',
        account: null,
        subject: { personUuid: entry.personUuid, userId: subject.givenEmail ?? entry.email },
        detail: `${subject.place} stopped: on the watchlist${givenEmail ? ` (listed as ${entry.email})` : ''}; alert ${alert.id}`.slice(0, 256),
      })
    } catch (error) {
      deps.log(`audit: a watchlist stop was not recorded: ${error instanceof Error ? error.message : 'unknown error'}`)
    }
    deps.emit({ type: 'watchlist-alert', alertId: alert.id })
    return 'watchlisted'
  }

  return {
    screen,
    screenPerson: (personUuid, place = 'check-in') => screen({ personUuids: [personUuid], givenEmail: null, place }),
    handlers: {
      async addToWatchlist(input, call) {
        const backend = await deps.backend()
        const person = input.personUuid ? await backend.persons.getPerson(input.personUuid) : await backend.persons.findPersonByUserId(input.email!)
        if (!person) throw new KioskError('NOT_FOUND', 'No enrolled person has this id or e-mail: enroll them first, or check the address.')
        return store().add({ personUuid: person.uuid, email: person.userId, reason: input.reason, addedBy: call.actor.account ?? call.actor.role })
      },
      async removeFromWatchlist(input) {
        if (!store().remove(input.personUuid)) throw new KioskError('NOT_FOUND', 'This person is not on the watchlist (someone may have just removed them).')
        return { ok: true }
      },
      listWatchlist: async () => store().list(),
      getWatchlistAlerts: async () => store().openAlerts(),
      async dismissWatchlistAlert(input, call) {
        if (!store().dismiss(input.id, call.actor.account ?? call.actor.role)) throw new KioskError('NOT_FOUND', 'This alert was already dismissed.')
        return { ok: true }
      },
    },
    start() {
      try {
        store().pruneDismissed(DISMISSED_ALERTS_KEPT_DAYS)
      } catch (error) {
        deps.log(`watchlist not opened yet: ${error instanceof Error ? error.message : 'unknown error'}`)
      }
    },
    stop() {
      opened?.close()
      opened = null
    },
  }
}

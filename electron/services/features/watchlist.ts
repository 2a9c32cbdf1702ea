import { KioskError } from '../../shared/errors'
import type { KioskEvent } from '../../shared/events'
import type { WatchlistPlace } from '../../shared/watchlist'
import type { Backend } from '../backend'
import type { Call } from '../dispatch'
import type { KioskDesk, KioskPerson, ScreeningSubject, StaffDesk } from '../front-desk/desk'
import type { AuditTrail } from './audit'
import type { Feature } from './feature'

export type Screening = 'clear' | 'watchlisted'
/** A person about to be checked in, with their face samples when they showed their face. */
export type ScreenedPerson = KioskPerson & Pick<ScreeningSubject, 'samples'>
export type { ScreeningSubject }

/** How long a dismissed alert stays in the kiosk's own front desk: the audit trail is the lasting record of the stop and the dismissal. */
export const DISMISSED_ALERTS_KEPT_DAYS = 30

export interface WatchlistDeps {
  /** The front desk in use now: the kiosk's own list, or its site's (one list for every kiosk). */
  desk: () => Promise<KioskDesk>
  /** The front desk as the caller's staff session. */
  staffDesk: (call: Call) => Promise<StaffDesk>
  /** The kiosk's own front desk's upkeep (a site keeps its own). */
  pruneDismissed?: (keepDays: number) => Promise<number>
  backend: () => Promise<Backend>
  audit: Pick<AuditTrail, 'log'>
  emit: (event: KioskEvent) => void
  log: (line: string) => void
}

export interface WatchlistFeature extends Feature {
  /**
   * Before a check-in is stored (the visits feature): 'watchlisted' when this person is on the
   * list, and then staff are already alerted and the stop audited; the caller only shows the
   * visitor "Please see the front desk".
   */
  screenPerson(person: ScreenedPerson, place?: WatchlistPlace): Promise<Screening>
  /** The same for an enrollment: the persons its 1:N and e-mail look-up found, and the e-mail typed. */
  screen(subject: ScreeningSubject): Promise<Screening>
}

/**
 * The watchlist: administrators put a person on it (with a reason) and take them off; operators
 * see it and its alerts. A listed person who enrolls or checks in is stopped, staff signed in
 * anywhere are told at once (a pushed event carrying only the alert's id), and the stop is audited.
 * The list and its alerts are the front desk's: on a site, one list screens every kiosk, and the
 * site announces each alert to all of them (this one too, by its event stream).
 */
export function watchlistFeature(deps: WatchlistDeps): WatchlistFeature {
  async function screen(subject: ScreeningSubject): Promise<Screening> {
    const desk = await deps.desk()
    const found = await desk.screen({ ...subject, personUuids: subject.personUuids.map((uuid) => uuid.toLowerCase()) })
    if (found.screening === 'clear') return 'clear'
    const givenEmail = subject.givenEmail && subject.givenEmail.toLowerCase() !== found.email.toLowerCase() ? subject.givenEmail : null
    // The stop is recorded as the kiosk's own act; an audit that cannot be written does not let the person through.
    try {
      deps.audit.log().append({
        action: 'watchlist-hit',
        outcome: 'refused',
        role: 'system',
        account: null,
        subject: { personUuid: found.personUuid, userId: subject.givenEmail ?? found.email },
        detail: `${subject.place} stopped: on the watchlist${givenEmail ? ` (listed as ${found.email})` : ''}; alert ${found.alertId}`.slice(0, 256),
      })
    } catch (error) {
      deps.log(`audit: a watchlist stop was not recorded: ${error instanceof Error ? error.message : 'unknown error'}`)
    }
    // On a site the alert comes back by the site's events, to this kiosk as to every other: told once.
    if (!desk.onSite) deps.emit({ type: 'watchlist-alert', alertId: found.alertId })
    return 'watchlisted'
  }

  return {
    screen,
    // By the e-mail too: offline, a site kiosk's copy knows a visitor named by e-mail alone (no id yet);
    // the desk keeps the e-mail on the alert only when it is not the listed one.
    // With the face samples of a check-in by face: a site kiosk away from its site compares them with the listed faces.
    screenPerson: ({ personUuid, email, samples }, place = 'check-in') => screen({ personUuids: personUuid ? [personUuid] : [], givenEmail: email, place, ...(samples ? { samples } : {}) }),
    handlers: {
      async addToWatchlist(input, call) {
        const backend = await deps.backend()
        const person = input.personUuid ? await backend.persons.getPerson(input.personUuid) : await backend.persons.findPersonByUserId(input.email!)
        if (!person) throw new KioskError('NOT_FOUND', 'No enrolled person has this id or e-mail: enroll them first, or check the address.')
        return (await deps.staffDesk(call)).addToWatchlist({ personUuid: person.uuid.toLowerCase(), email: person.userId, reason: input.reason })
      },
      async removeFromWatchlist(input, call) {
        if (!(await (await deps.staffDesk(call)).removeFromWatchlist(input.personUuid.toLowerCase()))) {
          throw new KioskError('NOT_FOUND', 'This person is not on the watchlist (someone may have just removed them).')
        }
        return { ok: true }
      },
      listWatchlist: async (_input, call) => (await deps.staffDesk(call)).listWatchlist(),
      getWatchlistAlerts: async (_input, call) => (await deps.staffDesk(call)).watchlistAlerts(),
      async dismissWatchlistAlert(input, call) {
        const desk = await deps.staffDesk(call)
        if (!(await desk.dismissAlert(input.id))) throw new KioskError('NOT_FOUND', 'This alert was already dismissed.')
        // On a site every kiosk (this one too) hears of it by the site's events.
        if (!(await deps.desk()).onSite) deps.emit({ type: 'watchlist-alert-dismissed', alertId: input.id })
        return { ok: true }
      },
    },
    async start() {
      try {
        await deps.pruneDismissed?.(DISMISSED_ALERTS_KEPT_DAYS)
      } catch (error) {
        deps.log(`watchlist not opened yet: ${error instanceof Error ? error.message : 'unknown error'}`)
      }
    },
  }
}

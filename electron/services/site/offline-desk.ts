import type { CheckInOutcome } from '../../records/frontdesk/visit-types'
import { emailKey } from '../../records/frontdesk/watchlist-repository'
import { KioskError } from '../../shared/errors'
import { KIOSK_CLIENT_PREFIX, type ScreenResult } from '../../shared/frontdesk-api'
import type { HostName, OnSiteCopy, Visit } from '../../shared/visits'
import type { WatchlistAlert } from '../../shared/watchlist'
import type { KioskCheckIn, KioskDesk, KioskPerson, ScreeningSubject, StaffDesk } from '../front-desk/desk'
import { AWAY_SESSION_PREFIX, offlineSignIn } from './offline-sign-in'
import { inviteFromCopy } from './offline-invites'
import { offlineVisits } from './offline-visits'
import type { ListedFaces } from './listed-face-match'
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
  /**
   * How long after the last pull the site answered an operator may still sign in from the copy
   * (the offlineSignInHours setting); past it, only an administrator. Absent: the setting's default.
   */
  offlineSignInMs?: () => Promise<number>
  /**
   * Whom of the listed persons (the copy's faces) a visitor's samples match, by the kiosk's own
   * engine (listed-face-match.ts). Absent, or failing, while the copy holds faces: the screening
   * fails closed (nobody is admitted unscreened).
   */
  matchListedFaces?: (samples: readonly string[], listed: readonly ListedFaces[]) => Promise<string[]>
  /** The clock the copy's age is read by (the copy's pulledAt is site-sync's). */
  now?: () => number
  log: (line: string) => void
}

/** What stands for a visitor known by e-mail alone when the copy was never filled (nothing was sent to the site). */
const notOnServersYet = () => new KioskError('UNREACHABLE', 'This visitor is not on the servers yet and the site has never been reached from this kiosk: check in once the site is back.')

/** The copy's faces could not be compared: the act stops here, nothing is kept for the site. */
const facesUnchecked = (why: string) =>
  new KioskError('INTERNAL', `The watchlist's faces could not be checked while the site is away (${why}). Nobody is admitted unscreened: please see the front desk.`)

/** The kiosk's id on its site: pairing named its client after it. */
export function siteKioskId(clientId: string | null): string | null {
  return clientId?.startsWith(KIOSK_CLIENT_PREFIX) ? clientId.slice(KIOSK_CLIENT_PREFIX.length) : null
}

/**
 * A site's front desk that keeps its kiosk working while the site is away (siteAway: the network,
 * a timeout, a 5xx, a reply that is not the site's), from the kiosk's copy (site-copy.ts):
 * - screening: a listed person is stopped from the copy, by the ids and e-mail the act names and
 *   by face (the visitor's samples against the listed persons' faces the site sent, compared by the
 *   kiosk's own engine), the alert queued for the site (it keeps the act's id) and raised here at
 *   once; a kiosk with no copy yet refuses to screen, as before.
 *   Nobody listed is admitted because the network is down.
 * - the evacuation list: the copy's open visits, with when the copy was last filled and the other
 *   kiosks (whoever they admitted since is missing).
 * - staff's alerts: this kiosk's alerts the site does not have yet, beside the site's; no
 *   invitation alerts (only the site finds them, as it applies the acts kiosks send in).
 * - check-in and check-out: kept as acts for the site (the visit's id is the act's), after the copy
 *   and this kiosk's own waiting acts say whether the visitor is on site; a visitor known by e-mail
 *   alone (an enrollment still in the outbox, a face the offline replica matched) is always kept
 *   so, the site up or not: site-sync learns their servers' id before it pushes (offline-visits.ts).
 *   Whom a visitor can pick: the host names the site last gave.
 * - invitations: a code is checked by the site's public key and the copy's invitation
 *   (offline-invites.ts); a check-in with it is kept with the invitation's id, and the site uses it
 *   up when it applies it.
 * - staff sign-in: from the copy's accounts (PIN hashes, as of the last pull), in the site's words
 *   and with its back-off; operators only for `offlineSignInMs` after the last pull, administrators
 *   always. The session is the kiosk's own (AWAY_SESSION_PREFIX), the sign-in an act the site audits
 *   (offline-sign-in.ts).
 * Everything else, and every refusal the site made in its own words, is the site's as it was.
 */
export function offlineDesk(live: KioskDesk, deps: OfflineDeskDeps): KioskDesk {
  const now = deps.now ?? Date.now
  const visits = offlineVisits({ queue: deps.sync.queue, selfId: deps.selfId, kioskName: deps.kioskName, log: deps.log })
  /**
   * Kept for the site. An invitation's code is checked from the copy (offline-invites.ts) and its
   * invitation's host taken when the visitor chose none; the site uses it up when it applies the act.
   */
  async function checkInFromCopy(request: KioskCheckIn, failure: unknown): Promise<CheckInOutcome> {
    const found = await filledCopy(failure)
    if (request.inviteToken === null) return visits.checkIn(request, found)
    const checked = await inviteFromCopy(found, request.inviteToken, now())
    if (!checked) throw failure
    if ('refused' in checked) return { outcome: 'invite-refused', reason: checked.refused }
    const { invite } = checked
    if (emailKey(invite.email) !== emailKey(request.person.email)) return { outcome: 'invite-refused', reason: 'other-email' }
    return visits.checkIn({ ...request, hostId: request.hostId ?? invite.hostId }, found, invite.id)
  }
  const checkOutFromCopy = async (person: KioskPerson, failure: unknown) => visits.checkOut(person, await filledCopy(failure))
  const signInFromCopy = offlineSignIn({ queue: deps.sync.queue, offlineSignInMs: deps.offlineSignInMs, now: deps.now, log: deps.log })

  /** The copy to answer from instead; the site's failure stands when there is none (or it was never filled). */
  async function filledCopy(failure: unknown): Promise<SiteCopy> {
    const found = await deps.sync.copy().catch(() => null)
    if (!found || found.state().pulledAt === null) throw failure
    return found
  }

  /** The listed persons whose faces in the copy the samples match (none when the copy holds no faces). */
  async function listedByFace(found: SiteCopy, samples: readonly string[]): Promise<string[]> {
    const listed = found.watchlist().flatMap(({ personUuid, faces }) => (faces?.length ? [{ personUuid, faces }] : []))
    if (listed.length === 0 || samples.length === 0) return []
    if (!deps.matchListedFaces) throw facesUnchecked('this kiosk has no engine to compare them')
    try {
      return await deps.matchListedFaces(samples, listed)
    } catch (error) {
      throw facesUnchecked(error instanceof Error ? error.message : 'unknown error')
    }
  }

  async function screenFromCopy(subject: ScreeningSubject, failure: unknown): Promise<ScreenResult> {
    const found = await filledCopy(failure)
    // As the site's rules: the persons the act names (and now whose listed face matches), then the e-mail given.
    const byFace = await listedByFace(found, subject.samples ?? [])
    const entry = found.listed([...subject.personUuids, ...byFace], subject.givenEmail)
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
    const open = (await visits.openVisits(found, found.openVisits())).map((o) => o.visit)
    return { visits: open, offline: { asOf: pulledAt === null ? null : new Date(pulledAt).toISOString(), unheardKiosks } }
  }

  return {
    ...live,
    async signIn(name, secret) {
      try {
        return await live.signIn(name, secret)
      } catch (error) {
        if (!siteAway(error)) throw error
        return signInFromCopy(name, secret, await filledCopy(error), error)
      }
    },
    async signOut(token) {
      // The site never issued it: nothing to end there (it is refused there anyway).
      if (token.startsWith(AWAY_SESSION_PREFIX)) return
      return live.signOut(token)
    },
    async listHostNames() {
      let list: HostName[]
      try {
        list = await live.listHostNames()
      } catch (error) {
        if (!siteAway(error)) throw error
        const kept = (await deps.sync.copy().catch(() => null))?.hostNames() ?? null
        if (!kept) throw error
        return kept
      }
      // Kept for when the site is away: a visitor can still pick whom they came to see (written only when it changed).
      const found = await deps.sync.copy().catch(() => null)
      if (found && JSON.stringify(found.hostNames()) !== JSON.stringify(list)) found.keepHostNames(list)
      return list
    },
    async checkIn(request) {
      // Known by e-mail alone: the site could not take it yet; kept until site-sync learns their id.
      if (request.person.personUuid === null) return checkInFromCopy(request, notOnServersYet())
      try {
        return await live.checkIn(request)
      } catch (error) {
        if (!siteAway(error)) throw error
        return checkInFromCopy(request, error)
      }
    },
    async checkOut(person) {
      if (person.personUuid === null) return checkOutFromCopy(person, notOnServersYet())
      try {
        return await live.checkOut(person)
      } catch (error) {
        if (!siteAway(error)) throw error
        return checkOutFromCopy(person, error)
      }
    },
    async checkInvite(token) {
      try {
        return await live.checkInvite(token)
      } catch (error) {
        if (!siteAway(error)) throw error
        const checked = await inviteFromCopy(await filledCopy(error), token, now())
        if (!checked) throw error
        if ('refused' in checked) return { status: 'refused', reason: checked.refused }
        const { email, hostId, hostName, date } = checked.invite
        return { status: 'valid', email, hostId, hostName, date }
      }
    },
    async lastVisitOf(personUuid) {
      try {
        return await live.lastVisitOf(personUuid)
      } catch (error) {
        // Only for a returning visitor's name and host: the site finds last time's host when it applies the check-in.
        if (!siteAway(error)) throw error
        return null
      }
    },
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
          let listed: Awaited<ReturnType<StaffDesk['onSite']>>
          try {
            listed = await staff.onSite()
          } catch (error) {
            if (!siteAway(error)) throw error
            return onSiteFromCopy(error)
          }
          // Acts made here the site does not have yet (an enrollment still in the outbox, a moment
          // after the site came back): an evacuation list must not miss who checked in here.
          const found = await deps.sync.copy().catch(() => null)
          return found ? { ...listed, visits: (await visits.openVisits(found, listed.visits)).map((o) => o.visit) } : listed
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
        async inviteAlerts() {
          try {
            return await staff.inviteAlerts()
          } catch (error) {
            if (!siteAway(error)) throw error
            return []
          }
        },
      }
    },
  }
}

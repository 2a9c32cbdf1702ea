import type { CheckInOutcome } from '../../records/frontdesk/visit-types'
import { emailKey, uuidKey } from '../../records/frontdesk/watchlist-repository'
import type { QueuedAct } from '../../shared/site-sync'
import type { HostName, Visit } from '../../shared/visits'
import type { KioskCheckIn, KioskPerson } from '../front-desk/desk'
import type { SiteCopy } from './site-copy'
import type { SiteSync } from './site-sync'

export interface OfflineVisitsDeps {
  queue: SiteSync['queue']
  /** This kiosk's id and name on its site: its own waiting visits name it. */
  selfId: () => Promise<string | null>
  kioskName: () => Promise<string>
  log: (line: string) => void
}

type CheckInAct = Extract<QueuedAct, { kind: 'check-in' }>

/** An open visit as this kiosk knows it, with its person as named (null: by e-mail alone, until the servers' id is learned). */
interface KnownVisit {
  visit: Visit
  personUuid: string | null
}

const isoOf = (at: number) => new Date(at).toISOString()

/** The same visitor: by the servers' id when both have one, else by e-mail (the person server's userId) in any case. */
function samePerson(person: KioskPerson, other: { personUuid: string | null; email: string }): boolean {
  if (person.personUuid !== null && other.personUuid !== null) return uuidKey(person.personUuid) === uuidKey(other.personUuid)
  return emailKey(person.email) === emailKey(other.email)
}

/**
 * Check-in and check-out at a site kiosk from its copy (offline-desk.ts decides when): kept as acts
 * for the site (the visit's id is the act's), after the copy and this kiosk's own waiting acts say
 * whether the visitor is on site; and who is on site as this kiosk knows it, its waiting acts applied.
 */
export function offlineVisits(deps: OfflineVisitsDeps) {
  /** This kiosk as its own waiting visits name it (unnamed when the keychain or settings cannot say). */
  async function thisKiosk(): Promise<Pick<Visit, 'kioskId' | 'kioskName'>> {
    const [kioskId, kioskName] = await Promise.all([deps.selfId().catch(() => null), deps.kioskName().catch(() => '')])
    return { kioskId: kioskId ?? '', kioskName: kioskName || null }
  }

  /**
   * This kiosk's waiting check-ins as visits (not ended by a waiting check-out), and the visits its
   * waiting check-outs end. A person named by e-mail alone has no uuid for the Visit schema yet: the
   * act's id (a uuid, and the visit's id) stands in for it; matching goes by KnownVisit.personUuid.
   */
  async function ownActs(found: SiteCopy): Promise<{ open: KnownVisit[]; ended: Set<string> }> {
    const acts = found.waiting()
    const ended = new Set(acts.flatMap((act) => (act.kind === 'check-out' ? [act.args.visitId] : [])))
    const checkIns = acts.filter((act): act is CheckInAct => act.kind === 'check-in' && !ended.has(act.id))
    // Nearly always none: the keychain and settings are read only when there is a visit to name.
    if (checkIns.length === 0) return { open: [], ended }
    const kiosk = await thisKiosk()
    return { open: checkIns.map((act) => ({ visit: visitOfAct(act, kiosk, found), personUuid: act.args.person.personUuid })), ended }
  }

  /** The name of a kept check-in's host: from the host names the site last gave, else from the invitation it came with. */
  function hostNameOf(act: CheckInAct, found: SiteCopy): string | null {
    const { hostId, inviteId } = act.args
    const listed = (found.hostNames() ?? []).find((host: HostName) => host.id === hostId)?.name
    if (listed !== undefined || hostId === null || inviteId === undefined) return listed ?? null
    const invite = found.invite(inviteId)
    return invite?.hostId === hostId ? invite.hostName : null
  }

  /** A check-in kept here, as the visit the site will make of it (last time's host is the site's to find). */
  function visitOfAct(act: CheckInAct, { kioskId, kioskName }: Pick<Visit, 'kioskId' | 'kioskName'>, found: SiteCopy): Visit {
    const { person, hostId, purpose } = act.args
    return {
      id: act.id,
      personUuid: person.personUuid ?? act.id,
      email: person.email,
      firstName: person.firstName,
      hostId,
      hostName: hostNameOf(act, found),
      purpose: purpose ?? '',
      checkedInAt: isoOf(act.at),
      checkedOutAt: null,
      checkedOutBy: null,
      kioskId,
      kioskName,
      inviteId: act.args.inviteId ?? null,
    }
  }

  /** Everyone on site as this kiosk knows it: the site's list (or the copy's), with its own waiting acts applied. */
  async function openVisits(found: SiteCopy, site: readonly Visit[]): Promise<KnownVisit[]> {
    const own = await ownActs(found)
    const known = new Set(site.map((visit) => visit.id))
    return [...site.filter((visit) => !own.ended.has(visit.id)).map((visit) => ({ visit, personUuid: visit.personUuid })), ...own.open.filter((o) => !known.has(o.visit.id))].sort(
      (a, b) => Date.parse(a.visit.checkedInAt) - Date.parse(b.visit.checkedInAt) || (a.visit.id < b.visit.id ? -1 : 1),
    )
  }

  /** `inviteId`: the invitation whose code the offline desk took from the copy (the site uses it up when it applies the act). */
  async function checkIn(request: KioskCheckIn, found: SiteCopy, inviteId?: string): Promise<CheckInOutcome> {
    const open = (await openVisits(found, found.openVisits())).find((o) => samePerson(request.person, { personUuid: o.personUuid, email: o.visit.email }))
    if (open) return { outcome: 'checked-in', visit: open.visit, alreadyOnSite: true, host: null, hostNotified: false }
    const { person, hostId, purpose, asLastTime } = request
    const args = { person: { personUuid: person.personUuid, email: person.email, firstName: person.firstName }, hostId, purpose, asLastTime, ...(inviteId ? { inviteId } : {}) }
    const act = await deps.queue({ kind: 'check-in', args })
    if (act.kind !== 'check-in') throw new Error('the queue kept another kind of act')
    deps.log(`visits: a check-in kept for the site (the site is away or the person not on it yet); visit ${act.id} waits for it`)
    const visit = visitOfAct(act, await thisKiosk(), found)
    // The site tells the host when it applies the act: nothing is promised here.
    return { outcome: 'checked-in', visit, alreadyOnSite: false, host: null, hostNotified: false, offline: true }
  }

  async function checkOut(person: KioskPerson, found: SiteCopy): Promise<(Visit & { offline: true }) | null> {
    const open = (await openVisits(found, found.openVisits())).find((o) => samePerson(person, { personUuid: o.personUuid, email: o.visit.email }))
    if (!open) return null
    const act = await deps.queue({ kind: 'check-out', args: { visitId: open.visit.id, person: { personUuid: open.personUuid ?? person.personUuid, email: person.email } } })
    deps.log(`visits: a check-out kept for the site (the site is away or the person not on it yet); visit ${open.visit.id} ends with act ${act.id}`)
    return { ...open.visit, checkedOutAt: isoOf(act.at), checkedOutBy: 'visitor', offline: true }
  }

  return { openVisits, checkIn, checkOut }
}

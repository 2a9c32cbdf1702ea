import type { z } from 'zod'
import type { CheckInOutcome } from '../../records/frontdesk/visit-types'
import { KioskError } from '../../shared/errors'
import type { InviteCheckInRefusal, refusalWhySchema, Visit, VisitorCheckResult } from '../../shared/visits'
import { DAY_MS } from '../workflows/retention-purge'
import type { Backend } from '../backend'
import type { Call, Handlers } from '../dispatch'
import type { KioskDesk, KioskPerson, StaffDesk } from '../front-desk/desk'
import type { LivenessGate, LivenessParts } from '../liveness/gate'
import type { OfflineDecisions } from '../replica/offline-decisions'
import { visitsCsv } from '../visits/csv'
import type { OwnVisitRecords } from '../visits/own-records'
import type { AuditTrail } from './audit'
import type { ScreenedPerson } from './watchlist'
import type { Feature } from './feature'

/**
 * The seams other parts of the kiosk plug into: the host notices' runner woken after a check-in
 * queued notices, and a person screened against the watchlist before a check-in is stored. Both
 * default to nothing.
 */
export interface VisitHooks {
  /**
   * A check-in on the kiosk's own desk stored a visit with a host: its notices were queued in the
   * same transaction, and the kiosk's runner may look now rather than at its next poll. (On a
   * site, the engine that took the check-in wakes its own.)
   */
  noticesQueued?: () => void
  /**
   * Before a check-in is stored: 'watchlisted' refuses it (the visitor reads "please see the front
   * desk"). By the e-mail too: a site kiosk's copy matches a visitor known by e-mail alone
   * (`personUuid` null: an enrollment still in the outbox, or a face the offline replica matched).
   */
  screenPerson?: (person: ScreenedPerson) => Promise<'clear' | 'watchlisted'>
}

export interface VisitsDeps {
  /** The front desk in use now: the kiosk's own, or its site's (one list of who is on site for every kiosk). */
  desk: () => Promise<KioskDesk>
  /** The front desk as the caller's staff session. */
  staffDesk: (call: Call) => Promise<StaffDesk>
  /** The kiosk's own front desk's upkeep, done by the kiosk only while it is on its own. */
  own: OwnVisitRecords
  /** The servers, for the e-mail of a person staff check in by id. */
  backend: () => Promise<Backend>
  liveness: Pick<LivenessGate, 'judge'>
  /** 1:N as Identify decides it (the servers, or the offline replica when they cannot be reached). */
  decisions: Pick<OfflineDecisions, 'identify'>
  /** The visitor retention in days (null: off): visits follow it. */
  retentionDays: () => Promise<number | null>
  audit: Pick<AuditTrail, 'systemAct'>
  now?: () => number
  log: (line: string) => void
  hooks?: VisitHooks
}

export interface VisitsFeature extends Feature {
  /** The handler table with each enrollment a window makes remembered, so that window may check that person in. */
  rememberEnrollments(handlers: Handlers): Handlers
  /** The handler table with staff's removal of a visitor taking the site's visits and invites of theirs too (on a site). */
  withVisitorRemoval(handlers: Handlers): Handlers
  /** A visitor was removed (by staff or the retention): on a kiosk on its own, their visits and invites go with them. */
  forget(person: { userId?: string; personUuid?: string }): Promise<void>
  /** Applies the visitor retention to visits now (also at start and hourly). */
  purgeExpired(): Promise<void>
}

/** How long after enrolling a window may check that person in without staff. */
export const ENROLLED_CHECK_IN_MS = 15 * 60_000
/** How many faces 1:N looks at: enough to see a tie at the top. */
const CANDIDATES = 5

type Why = z.infer<typeof refusalWhySchema>
type Person = KioskPerson & { firstName: string | null }
/** A window's leave to check in the person it just enrolled; `personUuid` null: their enrollment was queued in the outbox. */
type Ticket = KioskPerson & { at: number }
/** The person's id in a result (staff only, by roleViews); none for a person known by e-mail alone. */
const idOf = (personUuid: string | null | undefined) => (personUuid ? { personUuid } : {})
/** Kept at this kiosk for its site: the visitor is told so. */
const offlineOf = (offline: true | undefined) => (offline ? { offline } : {})
const seeFrontDesk = (why: Why, personUuid?: string | null): VisitorCheckResult => ({ outcome: 'refused', reason: 'see-front-desk', why, ...idOf(personUuid) })
const inviteRefused = (invite: InviteCheckInRefusal, personUuid: string | null): VisitorCheckResult => ({ outcome: 'refused', reason: 'invite', invite, ...idOf(personUuid) })
const greetingOf = (visit: Pick<Visit, 'firstName' | 'email'>) => visit.firstName ?? visit.email
const errorText = (error: unknown) => (error instanceof Error ? error.message : 'unknown error')

/**
 * Visits: a visitor checks in after enrolling or by face alone, and out by face; staff see who is on
 * site, the log, and end visits; the hosts directory. The kiosk recognises the person, screens them
 * and tells the host; the records are the front desk's (the kiosk's own frontdesk.db, so the
 * evacuation list needs no server, or its site's, one list for every kiosk).
 */
export function visitsFeature(deps: VisitsDeps): VisitsFeature {
  const now = deps.now ?? Date.now
  const enrolled = new Map<string, Ticket>()
  const hooks = deps.hooks ?? {}

  /** The host the visitor chose must still be in the directory (checked before anything else is done). */
  async function checkChosenHost(desk: KioskDesk, hostId: string | null | undefined): Promise<void> {
    if (!hostId) return
    if (!(await desk.listHostNames()).some((host) => host.id === hostId)) throw new KioskError('INVALID_INPUT', 'That host is not in the directory any more: choose another.')
  }

  /**
   * The tenant keeps face crops (the person server says so; a server that does not say, or cannot be
   * reached, counts as no): only then may a badge carry the visitor's photo.
   */
  async function keepsFaceCrops(): Promise<boolean> {
    try {
      const backend = await deps.backend()
      return (await backend.persons.getTenant(backend.tenantCode)).keepFaceCrops === true
    } catch {
      return false
    }
  }

  /** A check-in's result, with leave to put the photo on the badge when the visitor agreed and the tenant keeps face crops. */
  async function withBadgePhoto(result: VisitorCheckResult, consent: boolean | undefined): Promise<VisitorCheckResult> {
    return result.outcome === 'checked-in' && consent === true && (await keepsFaceCrops()) ? { ...result, badgePhoto: true } : result
  }

  /** Screens, has the front desk store the visit (or give the open one back) with its host's notices: the one path every check-in takes. */
  async function admit(desk: KioskDesk, person: Person, choice: { hostId: string | null; purpose: string | null; inviteToken: string | null; asLastTime: boolean }, samples?: readonly string[]): Promise<VisitorCheckResult> {
    // Screened first, even when already on site: someone watchlisted since is sent to the desk, not waved through.
    if (hooks.screenPerson && (await hooks.screenPerson({ personUuid: person.personUuid, email: person.email, ...(samples ? { samples } : {}) })) === 'watchlisted') return seeFrontDesk('watchlisted', person.personUuid)
    // One transaction at the desk: the open visit given back, or the invitation used up with the visit stored
    // (used a moment before at another kiosk or tab: refused, nothing stored, the host not told).
    const done: CheckInOutcome = await desk.checkIn({ person, ...choice })
    if (done.outcome === 'invite-refused') return inviteRefused(done.reason, person.personUuid)
    const { visit, alreadyOnSite, hostNotified } = done
    if (!alreadyOnSite && visit.hostId !== null && !desk.onSite) hooks.noticesQueued?.()
    // The desk's word on the host: a visitor is promised only a notice that was queued and can be sent.
    // The visit's own person id (not a stand-in for one known by e-mail alone: see offline-desk.ts).
    return {
      outcome: 'checked-in',
      visitId: visit.id,
      greeting: greetingOf(visit),
      hostName: visit.hostName,
      checkedInAt: visit.checkedInAt,
      alreadyOnSite,
      hostNotified,
      ...idOf(person.personUuid),
      ...offlineOf(done.offline),
    }
  }

  /** Why the invitation `token` cannot be used for this person's check-in (any case of their e-mail), or null when it can. */
  async function inviteRefusal(desk: KioskDesk, token: string, email: string): Promise<InviteCheckInRefusal | null> {
    const checked = await desk.checkInvite(token)
    if (checked.status === 'refused') return checked.reason
    return checked.email.toLowerCase() === email.toLowerCase() ? null : 'other-email'
  }

  /** 1:N at the caller's role, liveness first where the tenant asks: one clear match with an e-mail, or why not. */
  async function recognise(input: { sample: string } & LivenessParts, role: Parameters<LivenessGate['judge']>[3]): Promise<KioskPerson | Why> {
    await deps.liveness.judge('verify', input, [input.sample], role)
    const identified = await deps.decisions.identify({ sample: input.sample, maxResults: CANDIDATES })
    if (identified.decision !== 'match') return identified.decision
    const [best] = identified.candidates
    if (!best?.userId) return 'no-email'
    // Decided by the offline replica: its person ids are its own, not the servers' (the site's
    // kiosk learns the servers' id by the e-mail before its site hears of the visit).
    return { personUuid: identified.offline ? null : best.personUuid, email: best.userId }
  }

  /** On its own: the retention applied to the kiosk's own visits. On a site the site purges its own. */
  async function purgeExpired(): Promise<void> {
    try {
      if ((await deps.desk()).onSite) return
      const days = await deps.retentionDays()
      if (days === null) return
      const cutoff = now() - days * DAY_MS
      if (!(await deps.own.anyCheckedInBefore(cutoff))) return
      await deps.audit.systemAct(
        { action: 'visits-purge', detail: `visits older than ${days} days` },
        async () => (await deps.own.purgeVisitsBefore(cutoff)).length,
        (removed) => ({ detail: `${removed} visits older than ${days} days removed` }),
      )
    } catch (error) {
      deps.log(`visits: retention not applied this time: ${errorText(error)}`)
    }
  }
  let hourly: NodeJS.Timeout | null = null

  return {
    handlers: {
      async checkIn(input, call) {
        const staff = call.actor.role !== 'visitor'
        let person: KioskPerson
        if (staff) {
          if (input.personUuid === undefined) throw new KioskError('INVALID_INPUT', 'Name the enrolled person to check in.')
          const found = await (await deps.backend()).persons.getPerson(input.personUuid)
          if (!found) throw new KioskError('NOT_FOUND', 'No enrolled person has that id.')
          person = { personUuid: found.uuid, email: found.userId }
        } else {
          // A visitor checks in only the person this window just enrolled: a person id alone is no proof.
          // No id given: the person whose enrollment this window queued in the outbox.
          const ticket = call.key === null ? undefined : enrolled.get(call.key)
          // No id, and no enrollment queued here: the request names nobody (as it would without the field).
          if (input.personUuid === undefined && ticket?.personUuid !== null) throw new KioskError('INVALID_INPUT', 'Name the enrolled person to check in: no enrollment at this screen waits for its check-in.')
          if (!ticket || ticket.personUuid !== (input.personUuid ?? null) || now() - ticket.at > ENROLLED_CHECK_IN_MS) {
            throw new KioskError('FORBIDDEN', 'Only the person just enrolled at this screen can check in here. Please see the front desk.')
          }
          person = { personUuid: ticket.personUuid, email: ticket.email }
        }
        const desk = await deps.desk()
        // The code is checked before anything else (a used code is refused even for someone on site);
        // the desk checks it again and uses it up in the check-in's transaction.
        const refused = input.inviteToken === undefined ? null : await inviteRefusal(desk, input.inviteToken, person.email)
        if (refused) return inviteRefused(refused, person.personUuid)
        await checkChosenHost(desk, input.hostId)
        // The host the visitor chose; else the invitation's (none if it has left the directory since).
        const result = await admit(
          desk,
          { personUuid: person.personUuid, email: person.email, firstName: input.firstName ?? null },
          { hostId: input.hostId ?? null, purpose: input.purpose ?? '', inviteToken: input.inviteToken ?? null, asLastTime: false },
        )
        if (!staff && call.key !== null && result.outcome === 'checked-in') enrolled.delete(call.key)
        return withBadgePhoto(result, input.badgePhoto)
      },

      async checkInByFace(input, call) {
        const desk = await deps.desk()
        await checkChosenHost(desk, input.hostId)
        const found = await recognise(input, call.actor.role)
        if (typeof found === 'string') return seeFrontDesk(found)
        // A returning visitor who names no host comes to see whom they saw last time, for the same reason.
        // Known by e-mail alone (offline): the site finds last time's host when it applies the check-in.
        const last = found.personUuid === null ? null : await desk.lastVisitOf(found.personUuid)
        const chosen = input.hostId ?? null
        const result = await admit(desk, { ...found, firstName: last?.firstName ?? null }, { hostId: chosen, purpose: input.purpose ?? (chosen ? '' : null), inviteToken: null, asLastTime: chosen === null }, [input.sample])
        return withBadgePhoto(result, input.badgePhoto)
      },

      async checkOutByFace(input, call) {
        const found = await recognise(input, call.actor.role)
        if (typeof found === 'string') return seeFrontDesk(found)
        const ended = await (await deps.desk()).checkOut(found)
        if (!ended) return { outcome: 'refused', reason: 'not-on-site', why: 'not-on-site', ...idOf(found.personUuid) }
        return { outcome: 'checked-out', visitId: ended.id, greeting: greetingOf(ended), checkedOutAt: ended.checkedOutAt!, ...idOf(found.personUuid), ...offlineOf(ended.offline) }
      },

      listHostNames: async () => (await deps.desk()).listHostNames(),
      getBadgePolicy: async () => ({ photo: await keepsFaceCrops() }),
      listOnSite: async (_input, call) => ({ ...(await (await deps.staffDesk(call)).onSite()), at: new Date(now()).toISOString() }),
      visitLog: async ({ pageNo, pageSize, ...filter }, call) => ({ ...(await (await deps.staffDesk(call)).visitLog(filter, pageNo, pageSize)), pageNo, pageSize }),
      visitOverview: async (range, call) => (await deps.staffDesk(call)).visitOverview(range),
      async exportVisitsCsv(filter, call) {
        const visits = await (await deps.staffDesk(call)).exportVisits(filter)
        return { fileName: `visits-${new Date(now()).toISOString().slice(0, 10)}.csv`, content: visitsCsv(visits), visits: visits.length }
      },
      endVisit: async (input, call) => (await deps.staffDesk(call)).endVisit(input.id),

      listHosts: async (_input, call) => (await deps.staffDesk(call)).listHosts(),
      addHost: async (input, call) => (await deps.staffDesk(call)).addHost({ name: input.name, email: input.email ?? null, webhookUrl: input.webhookUrl ?? null }),
      updateHost: async (input, call) => (await deps.staffDesk(call)).updateHost(input.id, { name: input.name, email: input.email ?? null, webhookUrl: input.webhookUrl ?? null }),
      async removeHost(input, call) {
        if (!(await (await deps.staffDesk(call)).removeHost(input.id))) throw new KioskError('NOT_FOUND', 'There is no such host.')
        return { ok: true }
      },
    },

    rememberEnrollments(handlers) {
      return {
        ...handlers,
        enrollVisitor: async (input, call) => {
          const result = await handlers.enrollVisitor(input, call)
          for (const [key, ticket] of enrolled) if (now() - ticket.at > ENROLLED_CHECK_IN_MS) enrolled.delete(key)
          if (result.outcome === 'enrolled' && call.key !== null) enrolled.set(call.key, { personUuid: result.person.uuid, email: result.person.userId, at: now() })
          // Queued in the outbox: no servers' id yet. A site's kiosk keeps the check-in until it is
          // delivered, and says the screen may offer it; the kiosk on its own checks in after delivery.
          if (result.outcome === 'queued' && call.key !== null && (await deps.desk()).onSite) {
            enrolled.set(call.key, { personUuid: null, email: input.userId, at: now() })
            return { ...result, checkIn: true }
          }
          return result
        },
      }
    },

    withVisitorRemoval(handlers) {
      return {
        ...handlers,
        // On its own, forget() below takes the visits (staff's removal and the retention's alike);
        // on a site, staff's removal takes the site's records by the staff session (the retention's
        // removals on a site are the site's business).
        removeVisitor: async (input, call) => {
          const result = await handlers.removeVisitor(input, call)
          if ((await deps.desk()).onSite) await (await deps.staffDesk(call)).forgetPerson({ userId: input.userId })
          return result
        },
      }
    },

    async forget(person) {
      if ((await deps.desk()).onSite) return
      const gone = await deps.own.forgetPerson(person)
      const removed = gone.visitIds.length
      if (removed > 0) deps.log(`visits: ${removed} visits removed with their visitor`)
      if (gone.invites > 0) deps.log(`invites: ${gone.invites} removed with their person`)
    },

    purgeExpired,
    async start() {
      await purgeExpired()
      hourly = setInterval(() => void purgeExpired(), 60 * 60_000)
      hourly.unref()
    },
    stop() {
      if (hourly) clearInterval(hourly)
      hourly = null
    },
  }
}

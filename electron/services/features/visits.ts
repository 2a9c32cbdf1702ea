import type { z } from 'zod'
import { KioskError } from '../../shared/errors'
import type { ArrivalNotice, Host, InviteCheckInRefusal, refusalWhySchema, Visit, VisitorCheckResult } from '../../shared/visits'
import { DAY_MS } from '../workflows/retention-purge'
import type { Backend } from '../backend'
import type { Handlers } from '../dispatch'
import type { LivenessGate, LivenessParts } from '../liveness/gate'
import type { OfflineDecisions } from '../replica/offline-decisions'
import { visitsCsv } from '../visits/csv'
import { openVisitStore, type VisitStore } from '../visits/store'
import type { AuditTrail } from './audit'
import type { Feature } from './feature'
import type { InvitesFeature } from './invites'

/**
 * The seams other parts of the front desk plug into (issue 31): the host told of an arrival, and a
 * person screened against the watchlist before a check-in is stored. Both default to nothing.
 */
export interface VisitHooks {
  /**
   * After a check-in with a host is stored: false (or a throw) when the arrival could not be queued.
   * A failure is logged and the visitor is checked in anyway; an arrival not queued is offered again
   * at the next start, so it must be idempotent per visit.
   */
  onArrival?: (notice: ArrivalNotice) => boolean | void | Promise<boolean | void>
  /** Before a check-in is stored: 'watchlisted' refuses it (the visitor reads "please see the front desk"). */
  screenPerson?: (personUuid: string) => Promise<'clear' | 'watchlisted'>
  /** Visits removed (with their visitor, or by the retention): what was kept about them elsewhere goes too. */
  onForget?: (visitIds: readonly string[]) => void
}

export interface VisitsDeps {
  dataDir: string
  kioskId: string
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
  /** Invitations a check-in after enrolling may bring: checked before the visit is stored, used up after. */
  invites?: Pick<InvitesFeature, 'verify' | 'use'>
}

export interface VisitsFeature extends Feature {
  /** The handler table with each enrollment a window makes remembered, so that window may check that person in. */
  rememberEnrollments(handlers: Handlers): Handlers
  /** A visitor was removed: their visits go with them. */
  forget(person: { userId?: string; personUuid?: string }): void
  /** A host of the directory, or null (invites name the host they were made for). */
  host(id: string): Host | null
  /** Applies the visitor retention to visits now (also at start and hourly). */
  purgeExpired(): Promise<void>
}

/** How long after enrolling a window may check that person in without staff. */
export const ENROLLED_CHECK_IN_MS = 15 * 60_000
/**
 * How far back an arrival not queued (the kiosk stopped between storing the visit and queueing its
 * notices) is still worth telling the host at the next start: a day, well inside the host notices'
 * 7 days, so a notice already delivered and pruned is never sent again.
 */
export const ARRIVAL_RECOVERY_MS = 24 * 60 * 60_000
/** How many faces 1:N looks at: enough to see a tie at the top. */
const CANDIDATES = 5

type Why = z.infer<typeof refusalWhySchema>
const seeFrontDesk = (why: Why, personUuid?: string): VisitorCheckResult => ({ outcome: 'refused', reason: 'see-front-desk', why, ...(personUuid && { personUuid }) })
const inviteRefused = (invite: InviteCheckInRefusal, personUuid: string): VisitorCheckResult => ({ outcome: 'refused', reason: 'invite', invite, personUuid })
/** An invitation that may be used for this check-in: its id and token, and the host it names. */
type UsableInvite = { id: string; token: string; hostId: string | null }
const greetingOf = (visit: Pick<Visit, 'firstName' | 'email'>) => visit.firstName ?? visit.email

/**
 * Visits: a visitor checks in after enrolling or by face alone, and out by face; staff see who is on
 * site, the log, and end visits; the hosts directory. Everything lives in the kiosk's own store,
 * so the evacuation list needs no server.
 */
export function visitsFeature(deps: VisitsDeps): VisitsFeature {
  const now = deps.now ?? Date.now
  let opened: VisitStore | null = null
  const store = (): VisitStore => (opened ??= openVisitStore({ dir: deps.dataDir, now }))
  const enrolled = new Map<string, { personUuid: string; email: string; at: number }>()
  const hooks = deps.hooks ?? {}

  const hostFor = (hostId: string | null | undefined): Host | null => {
    if (!hostId) return null
    const host = store().hosts.get(hostId)
    if (!host) throw new KioskError('INVALID_INPUT', 'That host is not in the directory any more: choose another.')
    return host
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

  /** Screens, stores, then tells the host: the one path every check-in takes. */
  async function admit(person: { personUuid: string; email: string; firstName: string | null }, host: Host | null, purpose: string, invite?: UsableInvite): Promise<VisitorCheckResult> {
    // Screened first, even when already on site: someone watchlisted since is sent to the desk, not waved through.
    if (hooks.screenPerson && (await hooks.screenPerson(person.personUuid)) === 'watchlisted') return seeFrontDesk('watchlisted', person.personUuid)
    const open = store().openVisitOf(person.personUuid)
    if (open) return { outcome: 'checked-in', visitId: open.id, greeting: greetingOf(open), hostName: open.hostName, checkedInAt: open.checkedInAt, alreadyOnSite: true, personUuid: person.personUuid }
    const visit = store().checkIn({ ...person, host, purpose, kioskId: deps.kioskId, inviteId: invite?.id ?? null })
    if (invite) {
      // Used up only now the visit is stored, so a check-in that never happens leaves the code good;
      // used a moment before (another kiosk, another tab): this visit goes, and the host is not told.
      const used = await deps.invites!.use(invite.token, visit.id).catch((error: unknown) => {
        store().remove(visit.id)
        throw error
      })
      if (!used.ok) {
        store().remove(visit.id)
        return inviteRefused(used.reason, person.personUuid)
      }
    }
    if (host) await tellHost(visit, host)
    return { outcome: 'checked-in', visitId: visit.id, greeting: greetingOf(visit), hostName: visit.hostName, checkedInAt: visit.checkedInAt, alreadyOnSite: false, personUuid: person.personUuid }
  }

  /** The invitation `token` names, if it is good and made out to this person's e-mail (any case), or why not. */
  async function invitation(token: string, email: string): Promise<UsableInvite | InviteCheckInRefusal> {
    if (!deps.invites) throw new KioskError('INVALID_INPUT', 'This kiosk does not take invitations. Please see the front desk.')
    const verified = await deps.invites.verify(token)
    if (!verified.ok) return verified.reason
    if (verified.result.email.toLowerCase() !== email.toLowerCase()) return 'other-email'
    return { id: verified.id, token, hostId: verified.result.hostId }
  }

  /** Hands the arrival to the host notices and marks the visit once they took it. */
  async function tellHost(visit: Visit, host: Host): Promise<void> {
    if (!hooks.onArrival) return
    const notice: ArrivalNotice = { visitId: visit.id, host, visitorName: greetingOf(visit), purpose: visit.purpose, arrivedAt: visit.checkedInAt, kioskId: visit.kioskId }
    try {
      if ((await hooks.onArrival(notice)) !== false) store().arrivalQueued(visit.id)
      else deps.log(`visits: the arrival of visit ${visit.id} was not queued; it is offered again at the next start`)
    } catch (error) {
      deps.log(`visits: the host was not told of visit ${visit.id}: ${error instanceof Error ? error.message : 'unknown error'}`)
    }
  }

  /** At start: arrivals stored but never queued (the kiosk stopped in between) are queued now, while their visitor is on site. */
  async function queueMissedArrivals(): Promise<void> {
    for (const visit of store().arrivalsNotQueued(now() - ARRIVAL_RECOVERY_MS)) {
      const host = store().hosts.get(visit.hostId!)
      // A host removed since has nobody to tell.
      if (host) await tellHost(visit, host)
    }
  }

  /** 1:N at the caller's role, liveness first where the tenant asks: one clear match with an e-mail, or why not. */
  async function recognise(input: { sample: string } & LivenessParts, role: Parameters<LivenessGate['judge']>[3]): Promise<{ personUuid: string; email: string } | Why> {
    await deps.liveness.judge('verify', input, [input.sample], role)
    const identified = await deps.decisions.identify({ sample: input.sample, maxResults: CANDIDATES })
    if (identified.decision !== 'match') return identified.decision
    const [best] = identified.candidates
    if (!best?.userId) return 'no-email'
    return { personUuid: best.personUuid, email: best.userId }
  }

  /** Tells the hook which visits went; returns how many. */
  function forgotten(visitIds: string[]): number {
    if (visitIds.length > 0) hooks.onForget?.(visitIds)
    return visitIds.length
  }

  async function purgeExpired(): Promise<void> {
    const days = await deps.retentionDays()
    if (days === null) return
    const cutoff = now() - days * DAY_MS
    if (store().countBefore(cutoff) === 0) return
    await deps.audit
      .systemAct({ action: 'visits-purge', detail: `visits older than ${days} days` }, async () => forgotten(store().purgeBefore(cutoff)), (removed) => ({ detail: `${removed} visits older than ${days} days removed` }))
      .catch((error: unknown) => deps.log(`visits: retention not applied this time: ${error instanceof Error ? error.message : 'unknown error'}`))
  }
  let hourly: NodeJS.Timeout | null = null

  return {
    handlers: {
      async checkIn(input, call) {
        const staff = call.actor.role !== 'visitor'
        let person: { personUuid: string; email: string }
        if (staff) {
          const found = await (await deps.backend()).persons.getPerson(input.personUuid)
          if (!found) throw new KioskError('NOT_FOUND', 'No enrolled person has that id.')
          person = { personUuid: found.uuid, email: found.userId }
        } else {
          // A visitor checks in only the person this window just enrolled: a person id alone is no proof.
          const ticket = call.key === null ? undefined : enrolled.get(call.key)
          if (!ticket || ticket.personUuid !== input.personUuid || now() - ticket.at > ENROLLED_CHECK_IN_MS) {
            throw new KioskError('FORBIDDEN', 'Only the person just enrolled at this screen can check in here. Please see the front desk.')
          }
          person = ticket
        }
        const invite = input.inviteToken === undefined ? undefined : await invitation(input.inviteToken, person.email)
        if (typeof invite === 'string') return inviteRefused(invite, person.personUuid)
        // The host the visitor chose; else the invitation's (none if it has left the directory since).
        const host = hostFor(input.hostId) ?? (invite?.hostId ? store().hosts.get(invite.hostId) : null)
        const result = await admit({ ...person, firstName: input.firstName ?? null }, host, input.purpose ?? '', invite)
        if (!staff && call.key !== null && result.outcome === 'checked-in') enrolled.delete(call.key)
        return withBadgePhoto(result, input.badgePhoto)
      },

      async checkInByFace(input, call) {
        const host = hostFor(input.hostId)
        const found = await recognise(input, call.actor.role)
        if (typeof found === 'string') return seeFrontDesk(found)
        // A returning visitor who names no host comes to see whom they saw last time, for the same reason.
        const last = store().lastVisitOf(found.personUuid)
        const lastHost = host ?? (last?.hostId ? store().hosts.get(last.hostId) : null)
        return withBadgePhoto(await admit({ ...found, firstName: last?.firstName ?? null }, lastHost, input.purpose ?? (host ? '' : (last?.purpose ?? ''))), input.badgePhoto)
      },

      async checkOutByFace(input, call) {
        const found = await recognise(input, call.actor.role)
        if (typeof found === 'string') return seeFrontDesk(found)
        const open = store().openVisitOf(found.personUuid)
        if (!open) return { outcome: 'refused', reason: 'not-on-site', why: 'not-on-site', personUuid: found.personUuid }
        const ended = store().checkOut(open.id, 'visitor')!
        return { outcome: 'checked-out', visitId: ended.id, greeting: greetingOf(ended), checkedOutAt: ended.checkedOutAt!, personUuid: found.personUuid }
      },

      listHostNames: async () => store().hosts.list().map(({ id, name }) => ({ id, name })),
      getBadgePolicy: async () => ({ photo: await keepsFaceCrops() }),
      listOnSite: async () => ({ visits: store().onSite(), at: new Date(now()).toISOString() }),
      visitLog: async ({ pageNo, pageSize, ...filter }) => ({ ...store().log(filter, pageNo, pageSize), pageNo, pageSize }),
      async exportVisitsCsv(filter) {
        const visits = store().all(filter)
        return { fileName: `visits-${new Date(now()).toISOString().slice(0, 10)}.csv`, content: visitsCsv(visits), visits: visits.length }
      },
      async endVisit(input) {
        const ended = store().checkOut(input.id, 'staff')
        if (ended) return ended
        throw store().visit(input.id) ? new KioskError('INVALID_INPUT', 'That visit has already ended.') : new KioskError('NOT_FOUND', 'There is no such visit.')
      },

      listHosts: async () => store().hosts.list(),
      addHost: async (input) => store().hosts.add({ name: input.name, email: input.email ?? null, webhookUrl: input.webhookUrl ?? null }),
      async updateHost(input) {
        const host = store().hosts.update(input.id, { name: input.name, email: input.email ?? null, webhookUrl: input.webhookUrl ?? null })
        if (!host) throw new KioskError('NOT_FOUND', 'There is no such host.')
        return host
      },
      async removeHost(input) {
        if (!store().hosts.remove(input.id)) throw new KioskError('NOT_FOUND', 'There is no such host.')
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
          return result
        },
      }
    },

    host: (id) => store().hosts.get(id),

    forget(person) {
      const removed = forgotten(store().forget(person))
      if (removed > 0) deps.log(`visits: ${removed} visits removed with their visitor`)
    },

    purgeExpired,
    async start() {
      try {
        store()
      } catch (error) {
        deps.log(`visits: store not opened: ${error instanceof Error ? error.message : 'unknown error'}`)
        return
      }
      await purgeExpired()
      await queueMissedArrivals()
      hourly = setInterval(() => void purgeExpired(), 60 * 60_000)
      hourly.unref()
    },
    stop() {
      if (hourly) clearInterval(hourly)
      hourly = null
      opened?.close()
      opened = null
    },
  }
}

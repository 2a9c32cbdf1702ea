import { randomUUID } from 'node:crypto'
import { KioskError } from '../../shared/errors'
import type { NoticeChannel } from '../../shared/host-notices'
import type { ArrivalNotice, Host, InviteCheckInRefusal, Visit } from '../../shared/visits'
import { UniqueViolationError, type Sql } from '../sql/types'
import type { FrontDesk } from './front-desk'
import type { TokenClaims } from './invite-tokens'
import { claimsOf, inviteOf } from './invites-rules'
import { addArrival, noticeJobs } from './notices/notice-jobs'
import { readyChannels } from './notices/readiness'
import type { NoticeSecrets } from './notices/settings'
import { foldRemovals, type FrontDeskRecords, type RulesContext } from './records'
import { VISIT_EXPORT_MAX, type CheckInOutcome, type CheckInRequest, type InviteKeyring } from './visit-types'
import { emailKey, uuidKey } from './watchlist-repository'

type VisitRules = Pick<FrontDesk, 'checkIn' | 'checkOut' | 'endVisit' | 'lastVisitOf' | 'onSite' | 'visitLog' | 'visitOverview' | 'exportVisits' | 'forgetPerson' | 'purgeVisitsBefore'>

const alreadyOnSite = (visit: Visit): CheckInOutcome => ({ outcome: 'checked-in', visit, alreadyOnSite: true, host: null, hostNotified: false })
const inviteRefused = (reason: InviteCheckInRefusal): CheckInOutcome => ({ outcome: 'invite-refused', reason })

/** A check-in's outcome, with the channels its transaction queued host notices on. */
export interface Admitted {
  outcome: CheckInOutcome
  queued: readonly NoticeChannel[]
}
const nothingQueued = (outcome: CheckInOutcome): Admitted => ({ outcome, queued: [] })

/** What the host is told of a visitor's arrival (the name they gave, else the e-mail their host knows them by). */
const arrivalOf = (visit: Visit, host: Host): ArrivalNotice => ({
  visitId: visit.id,
  host,
  visitorName: visit.firstName ?? visit.email,
  purpose: visit.purpose,
  arrivedAt: visit.checkedInAt,
  kioskId: visit.kioskId,
})

/** The host of a new visit: the one chosen, else the invitation's, else (a returning visitor) last time's. Gone from the directory since: none. */
async function hostOf(tx: FrontDeskRecords, request: CheckInRequest, inviteHostId: string | null, last: Visit | null): Promise<Host | null> {
  if (request.hostId !== null) {
    const chosen = await tx.hosts.get(request.hostId)
    if (!chosen) throw new KioskError('INVALID_INPUT', 'That host is not in the directory any more: choose another.')
    return chosen
  }
  if (inviteHostId !== null) return tx.hosts.get(inviteHostId)
  if (last?.hostId) return tx.hosts.get(last.hostId)
  return null
}

/** The new visit's id and time, and whether its host's notices are queued with it (see visitRules' `notifyHosts`). */
export interface NewVisit {
  id: string
  at: number
  notifyHosts: boolean
}

/**
 * A check-in in the caller's transaction: the person's open visit given back, or the invitation
 * (`claims`: what the request's code says, read before the transaction; undefined: no code given)
 * checked and used up and the visit stored, with its host's notices when `made.notifyHosts`.
 * A kiosk's check-in made while its site was away (sync-rules.ts) brings its own id and time.
 */
export async function admitVisit(tx: FrontDeskRecords, sql: Sql, request: CheckInRequest, claims: TokenClaims | null | undefined, made: NewVisit): Promise<Admitted> {
  const { person } = request
  const open = await tx.visits.openOf(person.personUuid)
  if (open) return nothingQueued(alreadyOnSite(open))

  let invite = null
  if (claims !== undefined) {
    const checked = await inviteOf(tx, claims, made.at)
    if (!checked.ok) return nothingQueued(inviteRefused(checked.reason))
    if (emailKey(checked.invite.email) !== emailKey(person.email)) return nothingQueued(inviteRefused('other-email'))
    invite = checked.invite
  }

  // A returning visitor who named no host comes to see whom they saw last time, for the same reason.
  const last = request.asLastTime ? await tx.visits.lastOf(person.personUuid) : null
  const host = await hostOf(tx, request, invite?.hostId ?? null, last)
  const purpose = request.purpose ?? (request.asLastTime && request.hostId === null ? (last?.purpose ?? '') : '')
  const firstName = person.firstName ?? (request.asLastTime ? (last?.firstName ?? null) : null)

  const { id, at } = made
  // Used up before the visit is stored, by a conditional update: of two check-ins racing on one
  // code, the second finds it used (on PostgreSQL it waits on the row) and stores nothing.
  if (invite && !(await tx.invites.use(invite.id, id, at))) return nothingQueued(inviteRefused('used'))
  await tx.visits.insert({
    id,
    personUuid: person.personUuid,
    email: person.email,
    firstName,
    hostId: host?.id ?? null,
    hostName: host?.name ?? null,
    purpose,
    checkedInAt: at,
    kioskId: request.kioskId ?? '',
    inviteId: invite?.id ?? null,
  })
  const visit = (await tx.visits.byId(id))!
  if (made.notifyHosts && host) {
    // With the visit or not at all: a visit stored is an arrival told, whichever engine took it.
    const queued = await addArrival(sql, arrivalOf(visit, host), at)
    return { outcome: { outcome: 'checked-in', visit, alreadyOnSite: false, host: null, hostNotified: false }, queued: queued.map((notice) => notice.channel) }
  }
  return nothingQueued({ outcome: 'checked-in', visit, alreadyOnSite: false, host, hostNotified: false })
}

/**
 * Visits: one list of who is on site, whichever kiosk they came through. A check-in is one
 * transaction: the person's open visit given back, or the invitation checked and used up and the
 * visit stored together, so a code is used once site-wide and a person has one open visit even
 * when two kiosks check them in at the same moment.
 */
/**
 * `notifyHosts` (a site, and a kiosk on its own): the arrival's host notices are queued in the
 * check-in's transaction, one job per channel (notices/notice-jobs.ts; sent by whichever runner
 * claims it, notices/service.ts) and the caller is given no host to tell; `noticeSecrets` (where the
 * notices' secrets are kept) lets the outcome say whether the host will hear. Without it, the host
 * is given back and nothing is queued.
 */
export function visitRules(context: RulesContext, keyring: InviteKeyring, notifyHosts = false, noticeSecrets: Pick<NoticeSecrets, 'status'> | null = null): VisitRules {
  const { records, now } = context

  /**
   * The outcome says the host will hear only when a notice was queued on a channel that is set up
   * (read after the commit: the visit stands whatever the settings say). A notice on a channel that
   * is not is still queued: it needs attention, so staff see it.
   */
  async function withPromise({ outcome, queued }: Admitted): Promise<CheckInOutcome> {
    if (outcome.outcome !== 'checked-in' || queued.length === 0) return outcome
    const ready = await readyChannels(context.db, noticeSecrets)
    return { ...outcome, hostNotified: queued.some((channel) => ready.includes(channel)) }
  }

  return {
    async checkIn(request) {
      const claims = request.inviteToken === null ? undefined : await claimsOf(keyring, request.inviteToken)
      try {
        return await withPromise(await context.transaction((tx, sql) => admitVisit(tx, sql, request, claims, { id: randomUUID(), at: now(), notifyHosts })))
      } catch (error) {
        // Another kiosk checked this person in between our read and our insert: theirs is the
        // visit (ours rolled back, its invitation use with it).
        if (!(error instanceof UniqueViolationError)) throw error
        const open = await records.visits.openOf(request.person.personUuid)
        if (!open) throw error
        return alreadyOnSite(open)
      }
    },

    async checkOut(personUuid) {
      const id = await records.visits.endOpenOf(personUuid, 'visitor', now())
      return id === null ? null : records.visits.byId(id)
    },

    async endVisit(id) {
      if (await records.visits.end(id, 'staff', now())) return (await records.visits.byId(id))!
      throw (await records.visits.byId(id)) ? new KioskError('INVALID_INPUT', 'That visit has already ended.') : new KioskError('NOT_FOUND', 'There is no such visit.')
    },

    lastVisitOf: (personUuid) => records.visits.lastOf(personUuid),
    onSite: () => records.visits.onSite(),

    async visitLog(filter, pageNo, pageSize) {
      const [total, visits] = await Promise.all([records.visits.count(filter), records.visits.page(filter, pageSize, pageNo * pageSize)])
      return { visits, total }
    },

    visitOverview: ({ from, to }) => records.visits.overview(Date.parse(from), Date.parse(to)),

    async exportVisits(filter) {
      const total = await records.visits.count(filter)
      if (total > VISIT_EXPORT_MAX) {
        throw new KioskError('INVALID_INPUT', `${total} visits match, more than one export holds (${VISIT_EXPORT_MAX}): narrow the filter (a shorter date range, a host or a search).`)
      }
      return records.visits.page(filter, VISIT_EXPORT_MAX, 0)
    },

    async forgetPerson(person) {
      const forgotten = await context.transaction(async (tx, sql) => {
        const visits = await tx.visits.forget({ emailKey: person.userId ? emailKey(person.userId) : null, personUuid: person.personUuid ? uuidKey(person.personUuid) : null })
        // Their hosts' notices (which name them until delivered) go with the visits.
        await noticeJobs(sql).forgetSubjects(visits.ids)
        // And the invitation alerts naming their visits.
        await tx.inviteAlerts.forgetVisits(visits.ids)
        // Their invites: made out to the e-mail given, or to any e-mail their visits were under.
        const invites = await tx.invites.forget([...(person.userId ? [emailKey(person.userId)] : []), ...visits.emailKeys])
        return { visitIds: visits.ids, invites }
      })
      if (forgotten.visitIds.length > 0 || forgotten.invites > 0) await foldRemovals(context.db)
      return forgotten
    },

    async purgeVisitsBefore(cutoff) {
      const ids = await context.transaction(async (tx, sql) => {
        const purged = await tx.visits.purgeBefore(cutoff)
        await noticeJobs(sql).forgetSubjects(purged)
        // An alert names the visitor's visit (and the invitation's e-mail): it goes with it, dismissed or not.
        await tx.inviteAlerts.forgetVisits(purged)
        return purged
      })
      if (ids.length > 0) await foldRemovals(context.db)
      return ids
    },

  }
}

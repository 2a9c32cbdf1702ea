import type { EngineStatus } from '../shared/contract'
import type { KioskEvent } from '../shared/events'
import type { OutboxState } from '../shared/outbox'
import { roleAllows, type Role } from '../shared/staff'
import { KioskError } from '../shared/errors'
import type { VisitorCheckResult } from '../shared/visits'
import type { EnrollVisitorResult, VerifyVisitorResult } from '../shared/workflows'
import type { Handlers } from './dispatch'

/**
 * What each role may see. Results are shaped here, outside the audit (which records the full
 * result), so a visitor's answer carries no other person's identifiers and nothing that tells
 * whether an e-mail is registered.
 */

/** A visitor sees that enrollments are waiting, never whose: the outbox's items (e-mails, errors) are for staff. */
export function outboxFor(role: Role, state: OutboxState): OutboxState {
  return roleAllows(role, 'operator') ? state : { ...state, items: [], truncated: false }
}

/**
 * A visitor's verification: confirmed, or not; an unknown e-mail, one without a face and a
 * different face all read 'no-match', and no person record comes back. No score either way, nor
 * the liveness outcome: a visitor reads the decision, staff the numbers and the check's limits.
 */
export function verifyFor(role: Role, result: VerifyVisitorResult): VerifyVisitorResult {
  if (roleAllows(role, 'operator')) return result
  const match = result.decision === 'match'
  // Offline, a record's age would tell that the e-mail is known here: shown only with a match.
  const offline = result.offline && (match ? result.offline : { ...result.offline, recordAt: null })
  return { ...result, decision: match ? 'match' : 'no-match', score: null, person: null, liveness: null, ...(offline && { offline }) }
}

/** A visitor's enrollment: done, or saved for later; the photo quality, server status, queue reason and liveness outcome are for staff. */
export function enrollFor(role: Role, result: EnrollVisitorResult): EnrollVisitorResult {
  if (roleAllows(role, 'operator')) return result
  if (result.outcome === 'enrolled') return { ...result, quality: null, enrollmentStatus: null, liveness: null }
  if (result.outcome === 'queued') return { ...result, reason: '', liveness: null }
  return result
}

/** A visitor's check-in or check-out: their own greeting and visit; whom it matched and why it was refused are for staff. */
export function visitorCheckFor(role: Role, result: VisitorCheckResult): VisitorCheckResult {
  if (roleAllows(role, 'operator')) return result
  const { personUuid: _person, ...rest } = result
  if (rest.outcome === 'refused') {
    const { why: _why, ...refusal } = rest
    return refusal
  }
  return rest
}

/** A visitor sees whether the engine runs, not where, as which process, or its last error. */
export function engineFor(role: Role, status: EngineStatus): EngineStatus {
  return roleAllows(role, 'operator') ? status : { ...status, url: null, pid: null, lastError: null }
}

/** A pushed event as the session at that window may see it; null: not for this session at all. */
export function eventFor(role: Role, event: KioskEvent): KioskEvent | null {
  switch (event.type) {
    case 'watchlist-alert':
    case 'watchlist-alert-dismissed':
    case 'invite-alert':
    case 'invite-alert-dismissed':
    case 'site-sync':
      return roleAllows(role, 'operator') ? event : null
    case 'outbox':
      return { ...event, state: outboxFor(role, event.state) }
    case 'engine':
      return { ...event, status: engineFor(role, event.status) }
    case 'branding':
      return event // what every visitor sees on the screen anyway
  }
}

/** The handler table with each result shaped for the calling session's role. */
export function roleViews(handlers: Handlers): Handlers {
  return {
    ...handlers,
    getOutbox: async (input, call) => outboxFor(call.actor.role, await handlers.getOutbox(input, call)),
    getEngineStatus: async (input, call) => engineFor(call.actor.role, await handlers.getEngineStatus(input, call)),
    enrollVisitor: async (input, call) => enrollFor(call.actor.role, await handlers.enrollVisitor(input, call)),
    checkIn: async (input, call) => visitorCheckFor(call.actor.role, await handlers.checkIn(input, call)),
    checkInByFace: async (input, call) => visitorCheckFor(call.actor.role, await handlers.checkInByFace(input, call)),
    checkOutByFace: async (input, call) => visitorCheckFor(call.actor.role, await handlers.checkOutByFace(input, call)),
    verifyVisitor: async (input, call) => {
      // A visitor names themselves by e-mail; trying person ids is for staff.
      if (input.personUuid !== undefined && !roleAllows(call.actor.role, 'operator')) throw new KioskError('FORBIDDEN', 'Staff must sign in to do this.')
      return verifyFor(call.actor.role, await handlers.verifyVisitor(input, call))
    },
  }
}

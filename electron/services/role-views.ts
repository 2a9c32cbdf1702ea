import type { KioskEvent } from '../shared/events'
import type { OutboxState } from '../shared/outbox'
import { roleAllows, type Role } from '../shared/staff'

/**
 * What each role may see of shared state. A visitor sees that enrollments are waiting, never whose:
 * the outbox's items (e-mails, errors) are for staff.
 */
export function outboxFor(role: Role, state: OutboxState): OutboxState {
  return roleAllows(role, 'operator') ? state : { ...state, items: [], truncated: false }
}

/** A pushed event as the session at that window may see it. */
export function eventFor(role: Role, event: KioskEvent): KioskEvent {
  return event.type === 'outbox' ? { ...event, state: outboxFor(role, event.state) } : event
}

import { KioskError } from '../../shared/errors'
import type { KioskEvent } from '../../shared/events'
import type { Call } from '../dispatch'
import type { KioskDesk, StaffDesk } from '../front-desk/desk'
import type { OwnVisitRecords } from '../visits/own-records'
import type { Feature } from './feature'

/** How long an ended invite (and the e-mail in it) is kept for staff to look back at. */
export const INVITE_KEEP_MS = 30 * 24 * 3600_000

export interface InvitesDeps {
  /** The front desk in use now: the kiosk's own, or its site's (codes good at every kiosk of the site). */
  desk: () => Promise<KioskDesk>
  /** The front desk as the caller's staff session. */
  staffDesk: (call: Call) => Promise<StaffDesk>
  /** The kiosk's own front desk's upkeep, done by the kiosk only while it is on its own (a site purges its own). */
  own: Pick<OwnVisitRecords, 'purgeInvitesBefore'>
  emit: (event: KioskEvent) => void
  now: () => number
  log: (line: string) => void
}

/** The end of a calendar day in the kiosk's time zone, to the second (what the token carries); null for a day that does not exist. */
export function endOfDay(date: string): number | null {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number]
  const end = new Date(year, month - 1, day, 23, 59, 59)
  if (end.getFullYear() !== year || end.getMonth() !== month - 1 || end.getDate() !== day) return null
  return end.getTime()
}

/**
 * Invites: staff pre-register a visitor and get a signed, single-use, expiring code; a kiosk checks
 * a code for the visitor's form; the check-in uses it up (the visits feature, at the front desk).
 * The invites are the front desk's; the kiosk only knows its own time zone, so it says when the
 * visit's day ends. Staff see and dismiss the invitation alerts a site raises for codes it would
 * not count (electron/shared/invite-alerts.ts).
 */
export function invitesFeature(deps: InvitesDeps): InvitesFeature {
  return {
    handlers: {
      async createInvite(input, call) {
        const expiresAt = endOfDay(input.date)
        if (expiresAt === null) throw new KioskError('INVALID_INPUT', `${input.date} is not a day of the calendar.`)
        return (await deps.staffDesk(call)).createInvite({ email: input.email, hostId: input.hostId, date: input.date, expiresAt })
      },
      listInvites: async (input, call) => (await deps.staffDesk(call)).listInvites(input.state),
      revokeInvite: async (input, call) => (await deps.staffDesk(call)).revokeInvite(input.id),
      checkInvite: async (input) => (await deps.desk()).checkInvite(input.token),
      getInviteAlerts: async (_input, call) => (await deps.staffDesk(call)).inviteAlerts(),
      async dismissInviteAlert(input, call) {
        if (!(await (await deps.staffDesk(call)).dismissInviteAlert(input.id))) throw new KioskError('NOT_FOUND', 'This invitation alert was already dismissed.')
        // On a site every kiosk (this one too) hears of it by the site's events.
        if (!(await deps.desk()).onSite) deps.emit({ type: 'invite-alert-dismissed', alertId: input.id })
        return { ok: true }
      },
    },
    async start() {
      try {
        if ((await deps.desk()).onSite) return
        const removed = await deps.own.purgeInvitesBefore(deps.now() - INVITE_KEEP_MS)
        if (removed > 0) deps.log(`invites: ${removed} ended more than 30 days ago removed`)
      } catch (error) {
        deps.log(`invites not opened yet: ${error instanceof Error ? error.message : 'unknown error'}`)
      }
    },
  }
}

export type InvitesFeature = Feature

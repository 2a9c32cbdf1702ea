import { z } from 'zod'
import { inviteCheckInRefusal } from './visits'

/**
 * An invitation code the site would not count when a kiosk away from it had taken the code: most
 * often one code used at two kiosks while both were cut off. The visitor was let in, so the visit
 * stands without the invitation; staff are told, to see who came in on it. Staff views only.
 */

/** A visit an invitation alert names: which kiosk let the visitor in, and when. */
const alertVisitSchema = z.object({
  id: z.string().max(64),
  kioskId: z.string().max(128),
  /** The kiosk's name on the site (null: a kiosk the site no longer knows). */
  kioskName: z.string().max(64).nullable(),
  at: z.number(),
})
export type InviteAlertVisit = z.infer<typeof alertVisitSchema>

export const inviteAlertSchema = z.object({
  id: z.uuid(),
  /** When the site found it: as it applied the later check-in, sent by a kiosk back in touch. */
  at: z.number(),
  inviteId: z.string().max(64),
  /** The invitation's e-mail and host, as they were when it was found. */
  email: z.string().max(254),
  hostName: z.string().max(120).nullable(),
  /** Why the site would not count the code for this visit: `used` (by `firstVisit`), revoked, expired. */
  reason: inviteCheckInRefusal,
  /** The visit a kiosk let in with the code while the site was away: it stands, without the invitation. */
  visit: alertVisitSchema,
  /** The visit the code was used for first (reason `used`), when the site still has it. */
  firstVisit: alertVisitSchema.nullable(),
})
export type InviteAlert = z.infer<typeof inviteAlertSchema>

export const dismissInviteAlertInput = z.strictObject({ id: z.uuid() })

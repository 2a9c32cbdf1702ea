import { z } from 'zod'
import { email } from './email'

/**
 * Invites: staff pre-register a visitor; the visitor shows the invite's QR code
 * to the kiosk's camera, and the enrollment form fills itself. The code carries a signed token; the
 * services check it, and a check-in uses it up (once).
 */

const id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'not an id')
/** A calendar day, YYYY-MM-DD, in the kiosk's own time zone. */
export const visitDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD')

/** The longest token the kiosk accepts (a real one is about 90 characters, 135 signed by a site's Ed25519 key). */
export const INVITE_TOKEN_MAX = 256
/** What a QR code carrying an invite starts with: anything else held up to the camera is not an invite. */
export const INVITE_TOKEN_PREFIX = 'KI1.'

export const inviteStates = ['open', 'used', 'revoked', 'expired'] as const
export type InviteState = (typeof inviteStates)[number]

export const inviteSchema = z.object({
  id,
  email,
  hostId: id.nullable(),
  hostName: z.string().max(120).nullable(),
  date: visitDate,
  createdAt: z.number(),
  /** The end of the visit's day (kiosk time): the code is refused after it. */
  expiresAt: z.number(),
  createdBy: z.string().nullable(),
  state: z.enum(inviteStates),
  usedAt: z.number().nullable(),
  /** The visit the invite was used for. */
  visitId: id.nullable(),
  revokedAt: z.number().nullable(),
})
export type Invite = z.infer<typeof inviteSchema>

export const createInviteInput = z.strictObject({
  email,
  /** The host in the hosts directory; null when the visitor comes to the front desk itself. */
  hostId: id.nullable(),
  date: visitDate,
})
export type CreateInviteInput = z.infer<typeof createInviteInput>

/** The new invite and its token, which the QR code carries (shown once; staff print or send it). */
export const createInviteResult = z.object({ invite: inviteSchema, token: z.string() })

export const listInvitesInput = z.strictObject({ state: z.enum(inviteStates).optional() })
export const listInvitesResult = z.object({ invites: z.array(inviteSchema), truncated: z.boolean() })

export const revokeInviteInput = z.strictObject({ id })

export const checkInviteInput = z.strictObject({ token: z.string().min(1).max(INVITE_TOKEN_MAX) })

/** Why a code is refused: the visitor reads each in plain words. */
export const inviteRefusals = ['invalid', 'used', 'revoked', 'expired'] as const
export type InviteRefusal = (typeof inviteRefusals)[number]

/** What the visitor's form needs from a good code, and nothing more (no ids of staff, no other visits). */
export const checkInviteResult = z.discriminatedUnion('status', [
  z.object({ status: z.literal('valid'), email, hostId: id.nullable(), hostName: z.string().nullable(), date: visitDate }),
  z.object({ status: z.literal('refused'), reason: z.enum(inviteRefusals) }),
])
export type CheckInviteResult = z.infer<typeof checkInviteResult>

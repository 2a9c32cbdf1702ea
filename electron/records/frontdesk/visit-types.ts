import type { CheckInviteResult } from '../../shared/invites'
import type { Host, InviteCheckInRefusal, Visit } from '../../shared/visits'
import type { InviteKey } from './invite-tokens'

/** A host's fields as staff type them. */
export type HostFields = Omit<Host, 'id'>

/** Who is checking in: the person the kiosk recognised or enrolled (the person server's uuid and e-mail). */
export interface CheckInPerson {
  personUuid: string
  email: string
  firstName: string | null
}

export interface CheckInRequest {
  person: CheckInPerson
  /** The host the visitor chose (INVALID_INPUT when the directory no longer has it); null: none chosen. */
  hostId: string | null
  /** null: none given (a returning visitor `asLastTime` then keeps their last purpose). */
  purpose: string | null
  /** An invitation made out to this person's e-mail: checked, and used up in the check-in's transaction. */
  inviteToken: string | null
  /** A returning visitor who named no host comes to see whom they saw last time, for the same reason. */
  asLastTime: boolean
  /** The kiosk the visitor stands at (null: a tool on the site). */
  kioskId: string | null
}

export type CheckInOutcome =
  /**
   * `offline`: a site kiosk kept it for its site, which could not be reached (the visit is the
   * kiosk's own record of it until the site applies it).
   * `host` (with its contacts) is given only for a new visit with a host when the desk does not tell
   * hosts itself: whom to tell of the arrival. `hostNotified`: the desk queued a notice of this
   * arrival on a channel that is set up, so the host will hear.
   */
  | { outcome: 'checked-in'; visit: Visit; alreadyOnSite: boolean; host: Host | null; hostNotified: boolean; offline?: true }
  | { outcome: 'invite-refused'; reason: InviteCheckInRefusal }

/** What the visitor's form needs from a good code, or why it is refused (the contract's CheckInviteResult). */
export type InviteCheck = CheckInviteResult

export interface NewInviteRequest {
  email: string
  hostId: string | null
  /** The visit's day, YYYY-MM-DD, as staff chose it. */
  date: string
  /** The end of that day in the inviting kiosk's time zone (the kiosk knows its zone; the site may not). */
  expiresAt: number
  createdBy: string | null
}

/** A person, by e-mail (the person server's userId) and/or uuid. */
export interface PersonKeys {
  userId?: string
  personUuid?: string
}

/**
 * The keys invitation codes are signed with. A site keeps them in its database (rotated, each code
 * naming its key); a kiosk on its own keeps its one key in its keychain.
 */
export interface InviteKeyring {
  /** The key new codes are signed with (made on first use). */
  current(): Promise<InviteKey>
  /**
   * A key by its id; null names the key of codes made before codes named their key. Null when
   * unknown. `inviteId` is the invite the code names: a site finds the key of a code a kiosk
   * printed before it joined (key id 'kc00' or none) through that invite (merge-rules.ts).
   */
  byId(kid: string | null, inviteId?: string): Promise<InviteKey | null>
  /** A new current key; older keys stay for the codes they signed. Returns its id. */
  rotate(): Promise<string>
}

/** The most visits one export returns: more is refused with words that say to narrow the filter. */
export const VISIT_EXPORT_MAX = 100_000

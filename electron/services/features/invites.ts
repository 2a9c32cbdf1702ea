import { KioskError } from '../../shared/errors'
import type { CheckInviteResult, InviteRefusal } from '../../shared/invites'
import { openInviteStore, type InviteStore } from '../invites/store'
import { newInviteId, readInviteToken, signInviteToken } from '../invites/tokens'
import type { Feature } from './feature'

/** How long an ended invite (and the e-mail in it) is kept for staff to look back at. */
export const INVITE_KEEP_MS = 30 * 24 * 3600_000
/** The furthest ahead staff may invite someone. */
const MOST_DAYS_AHEAD = 366

export interface InvitesDeps {
  dataDir: string
  /** The key tokens are signed with (the keychain's). */
  key: () => Promise<Buffer>
  /**
   * The hosts directory: a host's name by id, null for an id it does not know. Null while the
   * kiosk has no directory (then the invite keeps the id and no name).
   */
  hosts: ((hostId: string) => Promise<{ name: string } | null>) | null
  now: () => number
  log: (line: string) => void
}

export type UseInviteResult = { ok: true; inviteId: string } | { ok: false; reason: InviteRefusal }
/** A token checked: the invite it names and what it says, or why it cannot be used. */
export type VerifiedInvite = { ok: true; id: string; result: Extract<CheckInviteResult, { status: 'valid' }> } | { ok: false; reason: InviteRefusal }

export interface InvitesFeature extends Feature {
  /** For the check-in, before the visit is stored: the invite a token names if it can still be used. Uses nothing up. */
  verify(token: string): Promise<VerifiedInvite>
  /**
   * For the check-in: uses the invite in `token` up for the visit just stored, once. A code that
   * was used (here or at another kiosk a moment before), revoked or has expired is refused.
   */
  use(token: string, visitId: string): Promise<UseInviteResult>
  /** A person was removed (by staff or the visitor retention): their invites go with them. */
  forget(email: string): void
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
 * a code for the visitor's form; the check-in uses it up. The store opens on first use.
 */
export function invitesFeature(deps: InvitesDeps): InvitesFeature {
  let store: InviteStore | null = null
  const opened = () => (store ??= openInviteStore(deps.dataDir))

  /** The invite a token names, or why it is refused. Every refusal of a code not ours reads 'invalid'. */
  async function check(token: string): Promise<VerifiedInvite> {
    const claims = readInviteToken(await deps.key(), token)
    const now = deps.now()
    const invite = claims && opened().get(claims.inviteId, now)
    // Signed by this kiosk's key but gone from the store (purged, or another data folder): not an invite here.
    if (!claims || !invite || invite.expiresAt !== claims.expiresAt) return { ok: false, reason: 'invalid' }
    if (invite.state !== 'open') return { ok: false, reason: invite.state }
    return { ok: true, id: invite.id, result: { status: 'valid', email: invite.email, hostId: invite.hostId, hostName: invite.hostName, date: invite.date } }
  }

  return {
    verify: check,
    forget(email) {
      const removed = opened().forget(email)
      if (removed > 0) deps.log(`invites: ${removed} removed with their person`)
    },
    async use(token, visitId) {
      const checked = await check(token)
      if (!checked.ok) return checked
      return opened().use(checked.id, visitId, deps.now()) ? { ok: true, inviteId: checked.id } : { ok: false, reason: 'used' }
    },
    handlers: {
      async createInvite(input, call) {
        const now = deps.now()
        const expiresAt = endOfDay(input.date)
        if (expiresAt === null) throw new KioskError('INVALID_INPUT', `${input.date} is not a day of the calendar.`)
        if (expiresAt <= now) throw new KioskError('INVALID_INPUT', 'The visit date is in the past: choose today or a later day.')
        if (expiresAt - now > MOST_DAYS_AHEAD * 24 * 3600_000) throw new KioskError('INVALID_INPUT', `Invite at most ${MOST_DAYS_AHEAD} days ahead.`)
        let hostName: string | null = null
        if (input.hostId !== null && deps.hosts) {
          const host = await deps.hosts(input.hostId)
          if (!host) throw new KioskError('NOT_FOUND', 'No host with that id in the hosts directory.')
          hostName = host.name
        }
        const id = newInviteId()
        const token = signInviteToken(await deps.key(), { inviteId: id, expiresAt })
        opened().add({ id, email: input.email, hostId: input.hostId, hostName, date: input.date, createdAt: now, expiresAt, createdBy: call.actor.account })
        return { invite: opened().get(id, now)!, token }
      },
      listInvites: async (input) => opened().list(deps.now(), input.state),
      async revokeInvite(input) {
        const now = deps.now()
        const found = opened().get(input.id, now)
        if (!found) throw new KioskError('NOT_FOUND', 'No such invite (it may have been removed after it ended).')
        if (found.state === 'used') throw new KioskError('INVALID_INPUT', 'This invite was already used for a visit; there is nothing to revoke.')
        return opened().revoke(input.id, now)!
      },
      async checkInvite(input) {
        const checked = await check(input.token)
        return checked.ok ? checked.result : { status: 'refused', reason: checked.reason }
      },
    },
    start() {
      try {
        const removed = opened().purge(deps.now() - INVITE_KEEP_MS)
        if (removed > 0) deps.log(`invites: ${removed} ended more than 30 days ago removed`)
      } catch (error) {
        deps.log(`invites not opened yet: ${error instanceof Error ? error.message : 'unknown error'}`)
      }
    },
    stop() {
      store?.close()
      store = null
    },
  }
}

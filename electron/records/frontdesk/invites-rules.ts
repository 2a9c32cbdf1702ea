import { KioskError } from '../../shared/errors'
import type { Invite, InviteRefusal } from '../../shared/invites'
import type { FrontDesk } from './front-desk'
import { newInviteId, readInviteToken, signInviteToken, type TokenClaims } from './invite-tokens'
import { announceSafely, foldRemovals, type FrontDeskRecords, type RulesContext } from './records'
import type { InviteKeyring } from './visit-types'

type InviteRules = Pick<FrontDesk, 'createInvite' | 'listInvites' | 'revokeInvite' | 'checkInvite' | 'purgeInvitesBefore' | 'rotateInviteKey' | 'inviteAlerts' | 'dismissInviteAlert'>

/** The furthest ahead staff may invite someone. */
export const MOST_DAYS_AHEAD = 366
const DAY_MS = 24 * 3600_000

/** A code checked: the open invite it names, or why it cannot be used. */
export type CheckedInvite = { ok: true; invite: Invite } | { ok: false; reason: InviteRefusal }

/**
 * What a code claims, if one of our keys signed it (null: it reads 'invalid'). Read before any
 * transaction: the key may come from the keychain or from the database's own connection.
 */
export const claimsOf = (keyring: InviteKeyring, token: string): Promise<TokenClaims | null> => readInviteToken(token, (kid, inviteId) => keyring.byId(kid, inviteId))

/**
 * The invite signed claims name, if it can still be used; read in the caller's records (a
 * check-in's transaction). A code whose invite we no longer hold (purged, or forgotten with its
 * visitor) reads 'invalid', as does a code not ours.
 */
export async function inviteOf(records: FrontDeskRecords, claims: TokenClaims | null, now: number): Promise<CheckedInvite> {
  const invite = claims && (await records.invites.get(claims.inviteId, now))
  if (!claims || !invite || invite.expiresAt !== claims.expiresAt) return { ok: false, reason: 'invalid' }
  if (invite.state !== 'open') return { ok: false, reason: invite.state }
  return { ok: true, invite }
}

/**
 * Invites: staff pre-register a visitor and get a signed, single-use, expiring code valid at every
 * kiosk of the site; a kiosk checks a code for the visitor's form; a check-in uses it up, once
 * site-wide (visits-rules.ts). A code a kiosk took while the site was away and the site would not
 * count raises an alert (sync-rules.ts), kept until staff dismiss it, once for all kiosks.
 */
export function inviteRules(context: RulesContext, keyring: InviteKeyring): InviteRules {
  const { records, now } = context
  const announce = announceSafely(context.announce)
  const notFound = () => new KioskError('NOT_FOUND', 'No such invite (it may have been removed after it ended).')
  const wasUsed = () => new KioskError('INVALID_INPUT', 'This invite was already used for a visit; there is nothing to revoke.')

  return {
    async createInvite(request) {
      const at = now()
      // The code carries whole seconds: the invite keeps the same time, so the two agree when checked.
      const expiresAt = Math.floor(request.expiresAt / 1000) * 1000
      if (expiresAt <= at) throw new KioskError('INVALID_INPUT', 'The visit date is in the past: choose today or a later day.')
      if (expiresAt - at > MOST_DAYS_AHEAD * DAY_MS) throw new KioskError('INVALID_INPUT', `Invite at most ${MOST_DAYS_AHEAD} days ahead.`)
      let hostName: string | null = null
      if (request.hostId !== null) {
        const host = await records.hosts.get(request.hostId)
        if (!host) throw new KioskError('NOT_FOUND', 'No host with that id in the hosts directory.')
        hostName = host.name
      }
      const id = newInviteId()
      const token = signInviteToken(await keyring.current(), { inviteId: id, expiresAt })
      await records.invites.insert({ id, email: request.email, hostId: request.hostId, hostName, date: request.date, createdAt: at, expiresAt, createdBy: request.createdBy })
      return { invite: (await records.invites.get(id, at))!, token }
    },

    listInvites: (state) => records.invites.list(now(), state),

    async revokeInvite(id) {
      const found = await records.invites.get(id, now())
      if (!found) throw notFound()
      if (found.state === 'used') throw wasUsed()
      await records.invites.revoke(id, now())
      const after = await records.invites.get(id, now())
      if (!after) throw notFound()
      // Used at another kiosk between the read and the revocation: the conditional update left it.
      if (after.state === 'used') throw wasUsed()
      return after
    },

    async checkInvite(token) {
      const checked = await inviteOf(records, await claimsOf(keyring, token), now())
      if (!checked.ok) return { status: 'refused', reason: checked.reason }
      const { email, hostId, hostName, date } = checked.invite
      return { status: 'valid', email, hostId, hostName, date }
    },

    async purgeInvitesBefore(cutoff) {
      const removed = await records.invites.purge(cutoff)
      if (removed > 0) await foldRemovals(context.db)
      return removed
    },

    rotateInviteKey: () => keyring.rotate(),

    inviteAlerts: () => records.inviteAlerts.open(),

    async dismissInviteAlert(id, by) {
      const dismissed = await records.inviteAlerts.dismiss(id, by, now())
      if (dismissed) announce({ type: 'invite-alert-dismissed', alertId: id })
      return dismissed
    },
  }
}

import { readInviteToken } from '../../records/frontdesk/invite-tokens'
import type { InviteRefusal } from '../../shared/invites'
import type { CopiedInvite } from '../../shared/site-sync'
import type { SiteCopy } from './site-copy'

/** What the copy says of an invitation's code: its invitation, why it is refused, or nothing (only the site can tell). */
export type CopiedInviteCheck = { invite: CopiedInvite } | { refused: InviteRefusal } | null

/**
 * An invitation's code checked at a site kiosk while the site is away: its Ed25519 signature by the
 * site's public key the code names, then the copy's invitation: revoked, used (at the site as of the
 * last pull, or by a check-in waiting here), ended by this kiosk's clock. A key or an invitation the
 * copy does not have (made since the last pull, or an HMAC key's code from before) is the site's to
 * judge: null, and the caller's failure stands.
 */
export async function inviteFromCopy(found: SiteCopy, token: string, now: number): Promise<CopiedInviteCheck> {
  let keyKnown = false
  const claims = await readInviteToken(token, async (kid) => {
    const key = kid === null ? null : found.inviteKey(kid)
    keyKnown = key !== null
    return key && { secret: null, publicKey: Buffer.from(key.publicKey, 'base64') }
  })
  if (!claims) return keyKnown ? { refused: 'invalid' } : null
  const invite = found.invite(claims.inviteId)
  if (!invite) return null
  if (invite.revokedAt !== null) return { refused: 'revoked' }
  const usedHere = found.waiting().some((act) => act.kind === 'check-in' && act.args.inviteId === invite.id)
  if (invite.usedAt !== null || usedHere) return { refused: 'used' }
  if (now >= invite.expiresAt) return { refused: 'expired' }
  return { invite }
}

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { INVITE_TOKEN_MAX, INVITE_TOKEN_PREFIX } from '../../shared/invites'

/**
 * An invite's code: `KI1.<key id>.<invite id>.<expiry, seconds in base 36>.<HMAC-SHA256>`, the MAC
 * over everything before it under the key the key id names (a site rotates its keys; a code names
 * the one that signed it). Codes made before codes named their key read `KI1.<invite id>.<expiry>.<mac>`
 * and are checked with the key of no id. Short on purpose: a QR code of ~90 characters stays
 * readable by a kiosk's camera at arm's length. What it is for (single use, revocation) is the
 * records'; the code only proves the front desk made it and when it ends.
 */

const KID = /^[a-z0-9]{4,12}$/
const ID = /^[A-Za-z0-9_-]{22}$/
const EXPIRY = /^[0-9a-z]{1,10}$/
const MAC = /^[A-Za-z0-9_-]{43}$/

export interface TokenClaims {
  inviteId: string
  /** Milliseconds since the epoch (whole seconds). */
  expiresAt: number
}

export const isKeyId = (kid: string): boolean => KID.test(kid)

export const newInviteId = (): string => randomBytes(16).toString('base64url')

const mac = (key: Buffer, body: string): Buffer => createHmac('sha256', key).update(body, 'utf8').digest()

export function signInviteToken(key: Buffer, kid: string, claims: TokenClaims): string {
  if (!KID.test(kid)) throw new Error('a key id is 4 to 12 lower-case letters and digits')
  if (!ID.test(claims.inviteId)) throw new Error('an invite id is 16 random bytes in base64url')
  const body = `${INVITE_TOKEN_PREFIX}${kid}.${claims.inviteId}.${Math.floor(claims.expiresAt / 1000).toString(36)}`
  return `${body}.${mac(key, body).toString('base64url')}`
}

/**
 * The claims of a code one of our keys signed; null for anything else (malformed, altered, a key
 * we do not know). `keyOf` finds the key by the code's key id (null: a code of the older form),
 * told the invite the code names (a kiosk's codes brought to a site are found by their invite).
 */
export async function readInviteToken(token: string, keyOf: (kid: string | null, inviteId: string) => Promise<Buffer | null>): Promise<TokenClaims | null> {
  if (token.length > INVITE_TOKEN_MAX || !token.startsWith(INVITE_TOKEN_PREFIX)) return null
  const parts = token.slice(INVITE_TOKEN_PREFIX.length).split('.')
  if (parts.length !== 3 && parts.length !== 4) return null
  const [kid, inviteId, expiry, signature] = (parts.length === 4 ? parts : [null, ...parts]) as [string | null, string, string, string]
  if ((kid !== null && !KID.test(kid)) || !ID.test(inviteId) || !EXPIRY.test(expiry) || !MAC.test(signature)) return null
  const key = await keyOf(kid, inviteId)
  if (!key) return null
  // The MAC's text, not its bytes: the last base64url character has unused bits, so decoding would
  // take four spellings of one MAC, and a code must be one text (it is what a person or a log shows).
  const given = Buffer.from(signature, 'ascii')
  const expected = Buffer.from(mac(key, token.slice(0, token.lastIndexOf('.'))).toString('base64url'), 'ascii')
  // Constant time: how much of a forged MAC was right must not show in the time taken.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
  return { inviteId, expiresAt: parseInt(expiry, 36) * 1000 }
}

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { INVITE_TOKEN_MAX, INVITE_TOKEN_PREFIX } from '../../shared/invites'

/**
 * An invite's token: `KI1.<invite id>.<expiry, seconds in base 36>.<HMAC-SHA256>`, the MAC over
 * everything before it under a key kept in the keychain. Short on purpose: a QR code of ~80
 * characters stays readable by a kiosk's camera at arm's length. What it is for (single use,
 * revocation) is the store's; the token only proves the kiosk made it and when it ends.
 */

const ID = /^[A-Za-z0-9_-]{22}$/
const EXPIRY = /^[0-9a-z]{1,10}$/
const MAC = /^[A-Za-z0-9_-]{43}$/

export interface TokenClaims {
  inviteId: string
  /** Milliseconds since the epoch (whole seconds). */
  expiresAt: number
}

export const newInviteId = (): string => randomBytes(16).toString('base64url')

const mac = (key: Buffer, body: string): Buffer => createHmac('sha256', key).update(body, 'utf8').digest()

export function signInviteToken(key: Buffer, claims: TokenClaims): string {
  if (!ID.test(claims.inviteId)) throw new Error('an invite id is 16 random bytes in base64url')
  const body = `${INVITE_TOKEN_PREFIX}${claims.inviteId}.${Math.floor(claims.expiresAt / 1000).toString(36)}`
  return `${body}.${mac(key, body).toString('base64url')}`
}

/** The claims of a token this kiosk's key signed; null for anything else (malformed, altered, another key). */
export function readInviteToken(key: Buffer, token: string): TokenClaims | null {
  if (token.length > INVITE_TOKEN_MAX || !token.startsWith(INVITE_TOKEN_PREFIX)) return null
  const parts = token.slice(INVITE_TOKEN_PREFIX.length).split('.')
  if (parts.length !== 3) return null
  const [inviteId, expiry, signature] = parts as [string, string, string]
  if (!ID.test(inviteId) || !EXPIRY.test(expiry) || !MAC.test(signature)) return null
  // The MAC's text, not its bytes: the last base64url character has unused bits, so decoding would
  // take four spellings of one MAC, and a code must be one text (it is what a person or a log shows).
  const given = Buffer.from(signature, 'ascii')
  const expected = Buffer.from(mac(key, token.slice(0, token.lastIndexOf('.'))).toString('base64url'), 'ascii')
  // Constant time: how much of a forged MAC was right must not show in the time taken.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null
  return { inviteId, expiresAt: parseInt(expiry, 36) * 1000 }
}

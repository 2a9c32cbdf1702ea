import { createHmac, createPrivateKey, createPublicKey, randomBytes, sign, timingSafeEqual, verify } from 'node:crypto'
import { INVITE_TOKEN_MAX, INVITE_TOKEN_PREFIX } from '../../shared/invites'

/**
 * An invite's code: `KI1.<key id>.<invite id>.<expiry, seconds in base 36>.<signature>`, signed over
 * everything before it by the key the key id names (a site rotates its keys; a code names the one
 * that signed it). A site's keys are Ed25519: the signature (86 characters) is checked with the
 * public key alone, so a site's kiosks check codes while the site is away. A kiosk on its own, and
 * keys made before, use HMAC-SHA256 (43 characters), checked with the secret. Codes made before
 * codes named their key read `KI1.<invite id>.<expiry>.<mac>` and are checked with the key of no
 * id. Short on purpose: a QR code of ~130 characters stays readable by a kiosk's camera at arm's
 * length. What it is for (single use, revocation) is the records'; the code only proves the front
 * desk made it and when it ends.
 */

const KID = /^[a-z0-9]{4,12}$/
const ID = /^[A-Za-z0-9_-]{22}$/
const EXPIRY = /^[0-9a-z]{1,10}$/
const SIGNATURE = /^(?:[A-Za-z0-9_-]{43}|[A-Za-z0-9_-]{86})$/
/** An Ed25519 signature's length in base64url (64 bytes); an HMAC-SHA256's is 43. */
const ED25519_CHARS = 86

export interface TokenClaims {
  inviteId: string
  /** Milliseconds since the epoch (whole seconds). */
  expiresAt: number
}

/**
 * A key codes are signed and checked with: `publicKey` (SPKI DER) set, `secret` is its Ed25519
 * private key (PKCS8 DER); null, `secret` is an HMAC key.
 */
export interface InviteKey {
  kid: string
  secret: Buffer
  publicKey: Buffer | null
}

/** What checks a code: an HMAC key's secret, or an Ed25519 key's public half (a kiosk holds no more). */
export type CheckingKey = Pick<InviteKey, 'publicKey'> & { secret: Buffer | null }

export const isKeyId = (kid: string): boolean => KID.test(kid)

export const newInviteId = (): string => randomBytes(16).toString('base64url')

const mac = (key: Buffer, body: string): Buffer => createHmac('sha256', key).update(body, 'utf8').digest()

export function signInviteToken(key: InviteKey, claims: TokenClaims): string {
  if (!KID.test(key.kid)) throw new Error('a key id is 4 to 12 lower-case letters and digits')
  if (!ID.test(claims.inviteId)) throw new Error('an invite id is 16 random bytes in base64url')
  const body = `${INVITE_TOKEN_PREFIX}${key.kid}.${claims.inviteId}.${Math.floor(claims.expiresAt / 1000).toString(36)}`
  const signature = key.publicKey ? sign(null, Buffer.from(body, 'utf8'), createPrivateKey({ key: key.secret, format: 'der', type: 'pkcs8' })) : mac(key.secret, body)
  return `${body}.${signature.toString('base64url')}`
}

/**
 * The claims of a code one of our keys signed; null for anything else (malformed, altered, a key
 * we do not know, a signature of the other kind than its key's). `keyOf` finds the key by the
 * code's key id (null: a code of the older form), told the invite the code names (a kiosk's codes
 * brought to a site are found by their invite).
 */
export async function readInviteToken(token: string, keyOf: (kid: string | null, inviteId: string) => Promise<CheckingKey | null>): Promise<TokenClaims | null> {
  if (token.length > INVITE_TOKEN_MAX || !token.startsWith(INVITE_TOKEN_PREFIX)) return null
  const parts = token.slice(INVITE_TOKEN_PREFIX.length).split('.')
  if (parts.length !== 3 && parts.length !== 4) return null
  const [kid, inviteId, expiry, signature] = (parts.length === 4 ? parts : [null, ...parts]) as [string | null, string, string, string]
  if ((kid !== null && !KID.test(kid)) || !ID.test(inviteId) || !EXPIRY.test(expiry) || !SIGNATURE.test(signature)) return null
  const key = await keyOf(kid, inviteId)
  if (!key) return null
  const body = token.slice(0, token.lastIndexOf('.'))
  const good = signature.length === ED25519_CHARS ? signedBy(key.publicKey, body, signature) : macOf(key.publicKey === null ? key.secret : null, body, signature)
  return good ? { inviteId, expiresAt: parseInt(expiry, 36) * 1000 } : null
}

/** An Ed25519 signature by the key's public half, in its one spelling (see macOf). */
function signedBy(publicKey: Buffer | null, body: string, signature: string): boolean {
  if (!publicKey) return false
  const bytes = Buffer.from(signature, 'base64url')
  if (bytes.toString('base64url') !== signature) return false
  return verify(null, Buffer.from(body, 'utf8'), createPublicKey({ key: publicKey, format: 'der', type: 'spki' }), bytes)
}

function macOf(secret: Buffer | null, body: string, signature: string): boolean {
  if (!secret) return false
  // The MAC's text, not its bytes: the last base64url character has unused bits, so decoding would
  // take four spellings of one MAC, and a code must be one text (it is what a person or a log shows).
  const given = Buffer.from(signature, 'ascii')
  const expected = Buffer.from(mac(secret, body).toString('base64url'), 'ascii')
  // Constant time: how much of a forged MAC was right must not show in the time taken.
  return given.length === expected.length && timingSafeEqual(given, expected)
}

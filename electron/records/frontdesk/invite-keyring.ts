import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { KioskError } from '../../shared/errors'
import type { Database } from '../sql/types'
import { InviteKeyRepository, type InviteKeyRow } from './invite-keys-repository'
import type { InviteKey } from './invite-tokens'
import type { InviteKeyring } from './visit-types'

/** The one key id of a kiosk on its own (its keychain's key). */
export const SINGLE_KEY_ID = 'kc00'

/** A new key id: 12 lower-case hex digits (never 'kc00'). */
export const newKeyId = (): string => randomBytes(6).toString('hex')

/** A new Ed25519 key pair: the private half signs at the site, the public half checks at its kiosks. */
function ed25519Pair(): Pick<InviteKeyRow, 'secret' | 'public_key'> {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519')
  return { secret: privateKey.export({ format: 'der', type: 'pkcs8' }), public_key: publicKey.export({ format: 'der', type: 'spki' }) }
}

const keyOf = (row: InviteKeyRow): InviteKey => ({ kid: row.kid, secret: row.secret, publicKey: row.public_key })

/**
 * A site's invitation keys, in its database: the newest signs new codes, and each code names the
 * key that signed it, so a rotation leaves older codes good until they expire. Keys are Ed25519
 * (a kiosk checks a code with the public half while the site is away); a site whose newest key is
 * an older HMAC key makes an Ed25519 one on first use, and the HMAC key still checks its codes. The
 * first key is made on first use, under a transaction lock, so engines starting together make one. Codes of a
 * kiosk's form (key id 'kc00', or the older form naming no key) are a site's only when a kiosk
 * brought them when it joined: checked with the key it brought, found through their invite.
 */
export function databaseKeyring(db: Database, now: () => number): InviteKeyring {
  const known = new Map<string, InviteKey>()

  /** A new key, dated after the newest (two keys made within one millisecond still have an order). */
  const make = (forceNew: boolean) =>
    db.transaction(async (tx) => {
      const keys = new InviteKeyRepository(tx)
      await keys.lock()
      const newest = await keys.newest()
      if (newest?.public_key && !forceNew) return newest
      const row: InviteKeyRow = { kid: newKeyId(), ...ed25519Pair(), created_at: Math.max(now(), (newest?.created_at ?? 0) + 1) }
      await keys.insert(row)
      return row
    })

  return {
    async current() {
      const newest = await new InviteKeyRepository(db).newest()
      const key = keyOf(newest?.public_key ? newest : await make(false))
      known.set(key.kid, key)
      return key
    },
    async byId(kid, inviteId) {
      // A code of a kiosk's own form (its one key, or no key named) can only be one a kiosk printed
      // before it joined: its key came with it, and is found through the invite it signed.
      if (kid === null || kid === SINGLE_KEY_ID) {
        const secret = inviteId === undefined ? null : await new InviteKeyRepository(db).byInvite(inviteId)
        return secret && { kid: kid ?? SINGLE_KEY_ID, secret, publicKey: null }
      }
      const cached = known.get(kid)
      if (cached) return cached
      // A key never changes once made: kept here after the first read.
      const row = await new InviteKeyRepository(db).byKid(kid)
      if (!row) return null
      known.set(kid, keyOf(row))
      return keyOf(row)
    },
    async rotate() {
      return (await make(true)).kid
    },
  }
}

/**
 * A kiosk on its own: one key, its keychain's, which also checks the codes it made before codes
 * named their key. It cannot be rotated here (the keychain holds one).
 */
export function singleKeyring(key: () => Promise<Buffer>): InviteKeyring {
  return {
    current: async () => ({ kid: SINGLE_KEY_ID, secret: await key(), publicKey: null }),
    byId: async (kid) => (kid === null || kid === SINGLE_KEY_ID ? { kid: SINGLE_KEY_ID, secret: await key(), publicKey: null } : null),
    rotate: async () => {
      throw new KioskError('NOT_CONFIGURED', 'A kiosk on its own keeps one invitation key in its keychain.')
    },
  }
}

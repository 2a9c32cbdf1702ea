import { randomBytes } from 'node:crypto'
import { KioskError } from '../../shared/errors'
import type { Database } from '../sql/types'
import { InviteKeyRepository } from './invite-keys-repository'
import type { InviteKeyring } from './visit-types'

/** The one key id of a kiosk on its own (its keychain's key). */
export const SINGLE_KEY_ID = 'kc00'

/** A new key id: 12 lower-case hex digits (never 'kc00'). */
export const newKeyId = (): string => randomBytes(6).toString('hex')

/**
 * A site's invitation keys, in its database: the newest signs new codes, and each code names the
 * key that signed it, so a rotation leaves older codes good until they expire. The first key is
 * made on first use, under a transaction lock, so engines starting together make one. Codes of a
 * kiosk's form (key id 'kc00', or the older form naming no key) are a site's only when a kiosk
 * brought them when it joined: checked with the key it brought, found through their invite.
 */
export function databaseKeyring(db: Database, now: () => number): InviteKeyring {
  const known = new Map<string, Buffer>()

  /** A new key, dated after the newest (two keys made within one millisecond still have an order). */
  const make = (forceNew: boolean) =>
    db.transaction(async (tx) => {
      const keys = new InviteKeyRepository(tx)
      await keys.lock()
      const newest = await keys.newest()
      if (newest && !forceNew) return newest
      const row = { kid: newKeyId(), secret: randomBytes(32), created_at: Math.max(now(), (newest?.created_at ?? 0) + 1) }
      await keys.insert(row)
      return row
    })

  return {
    async current() {
      const row = (await new InviteKeyRepository(db).newest()) ?? (await make(false))
      known.set(row.kid, row.secret)
      return { kid: row.kid, key: row.secret }
    },
    async byId(kid, inviteId) {
      // A code of a kiosk's own form (its one key, or no key named) can only be one a kiosk printed
      // before it joined: its key came with it, and is found through the invite it signed.
      if (kid === null || kid === SINGLE_KEY_ID) return inviteId === undefined ? null : new InviteKeyRepository(db).byInvite(inviteId)
      const cached = known.get(kid)
      if (cached) return cached
      // A key never changes once made: kept here after the first read.
      const row = await new InviteKeyRepository(db).byKid(kid)
      if (row) known.set(kid, row.secret)
      return row?.secret ?? null
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
    current: async () => ({ kid: SINGLE_KEY_ID, key: await key() }),
    byId: async (kid) => (kid === null || kid === SINGLE_KEY_ID ? key() : null),
    rotate: async () => {
      throw new KioskError('NOT_CONFIGURED', 'A kiosk on its own keeps one invitation key in its keychain.')
    },
  }
}

import { randomBytes, randomUUID } from 'node:crypto'
import type { Database } from '../../records/sql/types'

export interface SigningKey {
  kid: string
  secret: Buffer
}

const KEY_LOCK = 0x6b696f736b03

/**
 * The site's JWT signing key: made once, kept in the database, so a token issued by any engine
 * process is accepted by every other. Engines starting together make it once (a transaction lock).
 */
export function signingKey(db: Database): Promise<SigningKey> {
  return db.transaction(async (sql) => {
    if (sql.dialect === 'postgres') await sql.get('SELECT pg_advisory_xact_lock(?)', [KEY_LOCK])
    const existing = await sql.get<SigningKey>('SELECT kid, secret FROM signing_keys ORDER BY created DESC LIMIT 1')
    if (existing) return existing
    const key = { kid: randomUUID(), secret: randomBytes(32) }
    await sql.run('INSERT INTO signing_keys (kid, secret, created) VALUES (?, ?, ?)', [key.kid, key.secret, Date.now()])
    return key
  })
}

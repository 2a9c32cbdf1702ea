import { randomBytes, randomUUID } from 'node:crypto'
import type { Db } from './database'

export interface SigningKey {
  kid: string
  secret: Buffer
}

/** The engine's JWT signing key: made once per install, kept in the database. */
export function signingKey(db: Db): SigningKey {
  const existing = db.prepare<[], SigningKey>('SELECT kid, secret FROM signing_keys ORDER BY created DESC LIMIT 1').get()
  if (existing) return existing
  const key = { kid: randomUUID(), secret: randomBytes(32) }
  db.prepare('INSERT INTO signing_keys (kid, secret, created) VALUES (?, ?, ?)').run(key.kid, key.secret, Date.now())
  return key
}

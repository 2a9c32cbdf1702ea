import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto'
import type { Db } from './database'

export const SCOPE_TENANT_ADMIN = 'SCOPE_TENANT_ADMIN'

/** OAuth2 clients of the person server; secrets are kept only as scrypt hashes. */
export class ClientStore {
  constructor(private readonly db: Db) {}

  /** Creates the client, or resets its secret and scope if it exists (the --client-id flags). */
  ensure(clientId: string, secret: string, scope = SCOPE_TENANT_ADMIN): void {
    const salt = randomBytes(16)
    this.db
      .prepare(
        `INSERT INTO oauth_clients (client_id, secret_hash, salt, scope, created) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(client_id) DO UPDATE SET secret_hash = excluded.secret_hash, salt = excluded.salt, scope = excluded.scope`,
      )
      .run(clientId, hash(secret, salt), salt, scope, Date.now())
  }

  /** The client's scopes when the secret is right, else null. */
  verify(clientId: string, secret: string): string[] | null {
    const row = this.db
      .prepare<[string], { secret_hash: Buffer; salt: Buffer; scope: string }>('SELECT secret_hash, salt, scope FROM oauth_clients WHERE client_id = ?')
      .get(clientId)
    // Hash even for unknown clients so timing does not reveal which client ids exist.
    const expected = row?.secret_hash ?? hash('', Buffer.alloc(16))
    const given = hash(secret, row?.salt ?? Buffer.alloc(16))
    return row && timingSafeEqual(expected, given) ? row.scope.split(' ') : null
  }
}

function hash(secret: string, salt: Buffer): Buffer {
  return scryptSync(secret, salt, 32)
}

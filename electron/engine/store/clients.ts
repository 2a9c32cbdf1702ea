import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto'
import { SCOPE_TENANT_ADMIN } from '../../shared/api-requests'
import type { Sql } from '../../records/sql/types'

/**
 * Every stored hash is scrypt at node's defaults (N=2^14, r=8, p=1: about 16 MB and tens of
 * milliseconds a try) over a 16-byte salt, 32 bytes long. Changing them would strand those hashes.
 */
const KEY_LENGTH = 32
const SALT_LENGTH = 16

/** Derives the stored form of a secret. */
export type DeriveKey = (secret: string, salt: Buffer) => Promise<Buffer>

/** scrypt in libuv's thread pool: the event loop keeps serving while it runs. */
export const scryptKey: DeriveKey = (secret, salt) =>
  new Promise((resolve, reject) => scrypt(secret, salt, KEY_LENGTH, (error, key) => (error ? reject(error) : resolve(key))))

/** OAuth2 clients of the person server; secrets are kept only as scrypt hashes. */
export class ClientRepository {
  // What an unknown id is checked against: the same scrypt as a known id, and never a match.
  private readonly decoySalt = randomBytes(SALT_LENGTH)
  private readonly decoyHash = randomBytes(KEY_LENGTH)

  /** `derive` runs once per verify, whichever the id; tests count or hold it. */
  constructor(
    private readonly sql: Sql,
    readonly derive: DeriveKey = scryptKey,
  ) {}

  /** Creates the client, or resets its secret and scope if it exists (the --client-id flags). */
  async ensure(clientId: string, secret: string, scope = SCOPE_TENANT_ADMIN): Promise<void> {
    const salt = randomBytes(SALT_LENGTH)
    const hash = await scryptKey(secret, salt)
    await this.sql.run(
      `INSERT INTO oauth_clients (client_id, secret_hash, salt, scope, created) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(client_id) DO UPDATE SET secret_hash = excluded.secret_hash, salt = excluded.salt, scope = excluded.scope`,
      [clientId, hash, salt, scope, Date.now()],
    )
  }

  /** Whether the client exists (no secret involved: for bookkeeping, never for an answer). */
  async has(clientId: string): Promise<boolean> {
    return (await this.sql.get('SELECT 1 AS one FROM oauth_clients WHERE client_id = ?', [clientId])) !== undefined
  }

  /** Deletes the client (a removed kiosk's): no token is issued to it again. False when there was none. */
  async remove(clientId: string): Promise<boolean> {
    return (await this.sql.run('DELETE FROM oauth_clients WHERE client_id = ?', [clientId])) > 0
  }

  /** The client's scopes when the secret is right, else null. Exactly one scrypt, known id or not. */
  async verify(clientId: string, secret: string): Promise<string[] | null> {
    const row = await this.sql.get<{ secret_hash: Buffer; salt: Buffer; scope: string }>('SELECT secret_hash, salt, scope FROM oauth_clients WHERE client_id = ?', [
      clientId,
    ])
    const given = await this.derive(secret, row?.salt ?? this.decoySalt)
    const expected = row?.secret_hash ?? this.decoyHash
    return row && given.length === expected.length && timingSafeEqual(given, expected) ? row.scope.split(' ') : null
  }
}

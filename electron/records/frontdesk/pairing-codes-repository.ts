import type { Sql } from '../sql/types'

export interface PairingCodeRow {
  code_hash: string
  created_by: string
  created_at: number
  expires_at: number
  used_at: number | null
  used_by_kiosk: string | null
}

/** How long a used or expired code is kept (who made it, which kiosk used it) before it is forgotten. */
const KEPT_MS = 30 * 86_400_000

/** One-time pairing codes, by the SHA-256 of the code (the code itself is never stored). */
export class PairingCodeRepository {
  constructor(private readonly sql: Sql) {}

  async insert(code: { codeHash: string; createdBy: string; createdAt: number; expiresAt: number }): Promise<void> {
    await this.sql.run('INSERT INTO pairing_codes (code_hash, created_by, created_at, expires_at) VALUES (?, ?, ?, ?)', [
      code.codeHash,
      code.createdBy,
      code.createdAt,
      code.expiresAt,
    ])
  }

  get(codeHash: string): Promise<PairingCodeRow | undefined> {
    return this.sql.get<PairingCodeRow>('SELECT * FROM pairing_codes WHERE code_hash = ?', [codeHash])
  }

  /**
   * Uses the code up when it is unused and unexpired. One statement: on PostgreSQL a second redeem
   * of the same code waits on this row and then finds it used, so a code pairs one kiosk only.
   */
  async use(codeHash: string, at: number, kioskId: string): Promise<boolean> {
    return (await this.sql.run('UPDATE pairing_codes SET used_at = ?, used_by_kiosk = ? WHERE code_hash = ? AND used_at IS NULL AND expires_at > ?', [at, kioskId, codeHash, at])) > 0
  }

  async prune(now: number): Promise<number> {
    return this.sql.run('DELETE FROM pairing_codes WHERE expires_at < ?', [now - KEPT_MS])
  }
}

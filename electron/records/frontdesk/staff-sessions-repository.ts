import type { Sql } from '../sql/types'

export interface StaffSessionRow {
  token_hash: string
  account_key: string
  kiosk_id: string | null
  created_at: number
  last_active_at: number
}

/** Staff sessions the front desk issued, by the SHA-256 of their token (the token itself is never stored). */
export class StaffSessionRepository {
  constructor(private readonly sql: Sql) {}

  async insert(session: { tokenHash: string; accountKey: string; kioskId: string | null; at: number }): Promise<void> {
    await this.sql.run('INSERT INTO staff_sessions (token_hash, account_key, kiosk_id, created_at, last_active_at) VALUES (?, ?, ?, ?, ?)', [
      session.tokenHash,
      session.accountKey,
      session.kioskId,
      session.at,
      session.at,
    ])
  }

  get(tokenHash: string): Promise<StaffSessionRow | undefined> {
    return this.sql.get<StaffSessionRow>('SELECT * FROM staff_sessions WHERE token_hash = ?', [tokenHash])
  }

  /** Counts a call as activity, unless the session went idle before `activeSince`; false then (or when there is none). */
  async touch(tokenHash: string, at: number, activeSince: number): Promise<boolean> {
    return (await this.sql.run('UPDATE staff_sessions SET last_active_at = ? WHERE token_hash = ? AND last_active_at >= ?', [at, tokenHash, activeSince])) > 0
  }

  async delete(tokenHash: string): Promise<void> {
    await this.sql.run('DELETE FROM staff_sessions WHERE token_hash = ?', [tokenHash])
  }

  async deleteForAccount(accountKey: string): Promise<number> {
    return this.sql.run('DELETE FROM staff_sessions WHERE account_key = ?', [accountKey])
  }

  async deleteForKiosk(kioskId: string): Promise<number> {
    return this.sql.run('DELETE FROM staff_sessions WHERE kiosk_id = ?', [kioskId])
  }

  /** Forgets sessions idle since before `activeSince` (they would be refused anyway). */
  async deleteIdle(activeSince: number): Promise<number> {
    return this.sql.run('DELETE FROM staff_sessions WHERE last_active_at < ?', [activeSince])
  }
}

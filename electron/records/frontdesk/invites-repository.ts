import type { Invite, InviteState } from '../../shared/invites'
import type { Sql } from '../sql/types'
import { emailKey } from './watchlist-repository'

export interface InviteRow {
  id: string
  email: string
  host_id: string | null
  host_name: string | null
  visit_date: string
  created_at: number
  expires_at: number
  created_by: string | null
  used_at: number | null
  visit_id: string | null
  revoked_at: number | null
}

export type NewInvite = Omit<Invite, 'state' | 'usedAt' | 'visitId' | 'revokedAt'>

/** The most invites one list returns (newest first). */
export const INVITE_LIST_LIMIT = 500

export function stateOf(row: Pick<InviteRow, 'used_at' | 'revoked_at' | 'expires_at'>, now: number): InviteState {
  if (row.revoked_at !== null) return 'revoked'
  if (row.used_at !== null) return 'used'
  return now >= row.expires_at ? 'expired' : 'open'
}

const inviteOf = (row: InviteRow, now: number): Invite => ({
  id: row.id,
  email: row.email,
  hostId: row.host_id,
  hostName: row.host_name,
  date: row.visit_date,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  createdBy: row.created_by,
  state: stateOf(row, now),
  usedAt: row.used_at,
  visitId: row.visit_id,
  revokedAt: row.revoked_at,
})

/** Each state as a condition on a row at `?` = now (only 'open' and 'expired' need it). */
const STATE_SQL: Record<InviteState, { sql: string; needsNow: boolean }> = {
  open: { sql: 'revoked_at IS NULL AND used_at IS NULL AND expires_at > ?', needsNow: true },
  used: { sql: 'revoked_at IS NULL AND used_at IS NOT NULL', needsNow: false },
  revoked: { sql: 'revoked_at IS NOT NULL', needsNow: false },
  expired: { sql: 'revoked_at IS NULL AND used_at IS NULL AND expires_at <= ?', needsNow: true },
}

const COLUMNS = 'id, email, email_key, host_id, host_name, visit_date, created_at, expires_at, created_by, used_at, visit_id, revoked_at'

/** The invites; an invite's state is worked out from its times at the moment it is read. */
export class InviteRepository {
  constructor(private readonly sql: Sql) {}

  async insert(invite: NewInvite): Promise<void> {
    await this.sql.run(`INSERT INTO invites (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, NULL)`, [
      invite.id,
      invite.email,
      emailKey(invite.email),
      invite.hostId,
      invite.hostName,
      invite.date,
      invite.createdAt,
      invite.expiresAt,
      invite.createdBy,
    ])
  }

  /** An invite as another store kept it (the import of a kiosk's invites.db); one already here is kept. */
  async insertImported(row: InviteRow): Promise<boolean> {
    const changed = await this.sql.run(`INSERT INTO invites (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, [
      row.id,
      row.email,
      emailKey(row.email),
      row.host_id,
      row.host_name,
      row.visit_date,
      row.created_at,
      row.expires_at,
      row.created_by,
      row.used_at,
      row.visit_id,
      row.revoked_at,
    ])
    return changed > 0
  }

  async get(id: string, now: number): Promise<Invite | null> {
    const row = await this.sql.get<InviteRow>('SELECT * FROM invites WHERE id = ?', [id])
    return row ? inviteOf(row, now) : null
  }

  async list(now: number, state?: InviteState): Promise<{ invites: Invite[]; truncated: boolean }> {
    const condition = state ? STATE_SQL[state] : null
    const rows = await this.sql.all<InviteRow>(`SELECT * FROM invites ${condition ? `WHERE ${condition.sql}` : ''} ORDER BY created_at DESC, id LIMIT ?`, [
      ...(condition?.needsNow ? [now] : []),
      INVITE_LIST_LIMIT + 1,
    ])
    return { invites: rows.slice(0, INVITE_LIST_LIMIT).map((row) => inviteOf(row, now)), truncated: rows.length > INVITE_LIST_LIMIT }
  }

  /** Every invitation not expired by `now` (open, used or revoked), for a site's kiosks' copies. */
  async unexpired(now: number): Promise<Invite[]> {
    return (await this.sql.all<InviteRow>('SELECT * FROM invites WHERE expires_at > ? ORDER BY created_at, id', [now])).map((row) => inviteOf(row, now))
  }

  /** Marks it revoked unless it was used (or revoked already); false when nothing changed. */
  async revoke(id: string, at: number): Promise<boolean> {
    return (await this.sql.run('UPDATE invites SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL AND used_at IS NULL', [at, id])) > 0
  }

  /**
   * Uses it up for `visitId`, in one conditional statement: false when it is used, revoked or
   * expired by `at`. Two check-ins racing on one code: on PostgreSQL the second waits on the row,
   * then finds it used; on SQLite the write lock orders them.
   */
  async use(id: string, visitId: string, at: number): Promise<boolean> {
    return (
      (await this.sql.run('UPDATE invites SET used_at = ?, visit_id = ? WHERE id = ? AND used_at IS NULL AND revoked_at IS NULL AND expires_at > ?', [at, visitId, id, at])) === 1
    )
  }

  /** Removes every invite made out to these e-mails (folded); returns how many. */
  async forget(emailKeys: readonly string[]): Promise<number> {
    let removed = 0
    for (const key of new Set(emailKeys)) removed += await this.sql.run('DELETE FROM invites WHERE email_key = ?', [key])
    return removed
  }

  /** Removes invites that ended before `before`; returns how many. */
  async purge(before: number): Promise<number> {
    return this.sql.run('DELETE FROM invites WHERE expires_at < ?', [before])
  }
}

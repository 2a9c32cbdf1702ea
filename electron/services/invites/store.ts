import type { Invite, InviteState } from '../../shared/invites'
import { openPrivateDatabase, type Db } from '../private-database'

/** The invites, in `invites.db` in the kiosk's data folder (0600): e-mails are personal data. */

const migrations = [
  `CREATE TABLE invites (
     id TEXT PRIMARY KEY,
     email TEXT NOT NULL,
     host_id TEXT,
     host_name TEXT,
     visit_date TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     expires_at INTEGER NOT NULL,
     created_by TEXT,
     used_at INTEGER,
     visit_id TEXT,
     revoked_at INTEGER
   );
   CREATE INDEX invites_created ON invites (created_at);`,
]

interface Row {
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

export interface InviteStore {
  add(invite: NewInvite): void
  get(id: string, now: number): Invite | null
  list(now: number, state?: InviteState): { invites: Invite[]; truncated: boolean }
  /** Marks it revoked; null when there is no such invite. */
  revoke(id: string, now: number): Invite | null
  /** Uses it up for `visitId`, in one statement: false when it is used, revoked or expired by now (two kiosks racing: one wins). */
  use(id: string, visitId: string, now: number): boolean
  /** Removes every invite for this e-mail (any case): the person was removed. Returns how many. */
  forget(email: string): number
  /** Removes invites that ended before `before`; returns how many. */
  purge(before: number): number
  close(): void
}

export function stateOf(row: Pick<Row, 'used_at' | 'revoked_at' | 'expires_at'>, now: number): InviteState {
  if (row.revoked_at !== null) return 'revoked'
  if (row.used_at !== null) return 'used'
  return now >= row.expires_at ? 'expired' : 'open'
}

const toInvite = (row: Row, now: number): Invite => ({
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

const STATE_SQL: Record<InviteState, string> = {
  open: 'revoked_at IS NULL AND used_at IS NULL AND expires_at > @now',
  used: 'revoked_at IS NULL AND used_at IS NOT NULL',
  revoked: 'revoked_at IS NOT NULL',
  expired: 'revoked_at IS NULL AND used_at IS NULL AND expires_at <= @now',
}

export function openInviteStore(dir: string): InviteStore {
  const db: Db = openPrivateDatabase(dir, 'invites.db', migrations)
  /**
   * After a removal: the WAL folded back and truncated, so the e-mail does not linger in old WAL
   * frames (secure_delete zeroes it in the database itself). Best effort: a reader may keep it busy.
   */
  const checkpoint = () => {
    try {
      db.pragma('wal_checkpoint(TRUNCATE)')
    } catch {
      // busy: the next removal or the next start tries again
    }
  }
  const byId = db.prepare<[string], Row>('SELECT * FROM invites WHERE id = ?')
  return {
    add(invite) {
      db.prepare(
        `INSERT INTO invites (id, email, host_id, host_name, visit_date, created_at, expires_at, created_by)
         VALUES (@id, @email, @hostId, @hostName, @date, @createdAt, @expiresAt, @createdBy)`,
      ).run(invite)
    },
    get(id, now) {
      const row = byId.get(id)
      return row ? toInvite(row, now) : null
    },
    list(now, state) {
      const where = state ? `WHERE ${STATE_SQL[state]}` : ''
      const rows = db.prepare<{ now: number; limit: number }, Row>(`SELECT * FROM invites ${where} ORDER BY created_at DESC, id LIMIT @limit`).all({ now, limit: INVITE_LIST_LIMIT + 1 })
      return { invites: rows.slice(0, INVITE_LIST_LIMIT).map((row) => toInvite(row, now)), truncated: rows.length > INVITE_LIST_LIMIT }
    },
    revoke(id, now) {
      db.prepare('UPDATE invites SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now, id)
      const row = byId.get(id)
      return row ? toInvite(row, now) : null
    },
    use(id, visitId, now) {
      const changed = db
        .prepare('UPDATE invites SET used_at = ?, visit_id = ? WHERE id = ? AND used_at IS NULL AND revoked_at IS NULL AND expires_at > ?')
        .run(now, visitId, id, now).changes
      return changed === 1
    },
    forget(email) {
      const removed = db.prepare('DELETE FROM invites WHERE lower(email) = lower(?)').run(email).changes
      if (removed > 0) checkpoint()
      return removed
    },
    purge(before) {
      const removed = db.prepare('DELETE FROM invites WHERE expires_at < ?').run(before).changes
      if (removed > 0) checkpoint()
      return removed
    },
    close: () => db.close(),
  }
}

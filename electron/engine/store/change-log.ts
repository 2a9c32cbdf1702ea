import type { Sql } from '../../records/sql/types'

/** What identify can find changed: one template (re-read it), or a whole type (personId null: reload it). */
export interface Change {
  templateType: string
  personId: string | null
  templateContext: string | null
}

export interface LoggedChange extends Change {
  seq: number
}

/** The PostgreSQL channel whose payload is only the newest seq (payloads are capped; the log is the record). */
export const CHANGES_CHANNEL = 'engine_changes'
/**
 * Appends take this transaction lock, so seqs are handed out in commit order: a reader that has
 * applied seq n never later finds a committed change below n.
 */
const APPEND_LOCK = 0x6b696f736b02

/**
 * Appends changes to the log in the caller's transaction. In PostgreSQL the notification is sent
 * inside it too, so it is delivered at commit, and never for a rolled-back change.
 */
export async function changed(sql: Sql, changes: readonly Change[]): Promise<void> {
  if (changes.length === 0) return
  if (sql.dialect === 'postgres') await sql.get('SELECT pg_advisory_xact_lock(?)', [APPEND_LOCK])
  const values = changes.map(() => '(?, ?, ?)').join(', ')
  const rows = await sql.all<{ seq: number }>(
    `INSERT INTO change_log (template_type, person_id, template_context) VALUES ${values} RETURNING seq`,
    changes.flatMap((c) => [c.templateType, c.personId, c.templateContext]),
  )
  if (sql.dialect === 'postgres') await sql.get('SELECT pg_notify(?, ?)', [CHANGES_CHANNEL, String(Math.max(...rows.map((r) => r.seq)))])
}

export class ChangeLogRepository {
  constructor(private readonly sql: Sql) {}

  /** The newest seq (0 for an empty log). */
  async head(): Promise<number> {
    return (await this.sql.get<{ seq: number | null }>('SELECT max(seq) AS seq FROM change_log'))?.seq ?? 0
  }

  /** Every seq at or below this was pruned: a reader behind it cannot catch up and reloads. */
  async floor(): Promise<number> {
    return (await this.sql.get<{ seq: number }>('SELECT seq FROM change_log_floor WHERE id = 1'))!.seq
  }

  async after(seq: number, limit: number): Promise<LoggedChange[]> {
    const rows = await this.sql.all<{ seq: number; template_type: string; person_id: string | null; template_context: string | null }>(
      'SELECT seq, template_type, person_id, template_context FROM change_log WHERE seq > ? ORDER BY seq LIMIT ?',
      [seq, limit],
    )
    return rows.map((r) => ({ seq: r.seq, templateType: r.template_type, personId: r.person_id, templateContext: r.template_context }))
  }

  /** Drops all but the newest `keep` changes, raising the floor; returns how many went. Call in a transaction. */
  async prune(keep: number): Promise<number> {
    const upTo = (await this.head()) - keep
    if (upTo <= (await this.floor())) return 0
    await this.sql.run('UPDATE change_log_floor SET seq = ? WHERE id = 1', [upTo])
    return this.sql.run('DELETE FROM change_log WHERE seq <= ?', [upTo])
  }
}

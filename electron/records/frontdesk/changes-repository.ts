import type { SyncTopic } from '../../shared/site-sync'
import type { Sql } from '../sql/types'

/** One row of the front desk's change log: the row of `topic` keyed `key` changed (sync-migration.ts). */
export interface FrontDeskChange {
  seq: number
  topic: SyncTopic
  key: string
}

/**
 * The front desk's change log, which database triggers fill (sync-migration.ts): read by kiosks'
 * pulls, pruned by the site's retention. Over the caller's Sql, so it joins its transaction.
 */
export class ChangesRepository {
  constructor(private readonly sql: Sql) {}

  /** The newest seq; the floor when every change was pruned (seqs never go back), 0 for none ever. */
  async head(): Promise<number> {
    const row = await this.sql.get<{ seq: number | null }>(
      'SELECT coalesce((SELECT max(seq) FROM frontdesk_changes), (SELECT seq FROM frontdesk_changes_floor WHERE id = 1)) AS seq',
    )
    return row?.seq ?? 0
  }

  /** Every seq at or below this was pruned: a kiosk behind it cannot catch up and is sent everything. */
  async floor(): Promise<number> {
    return (await this.sql.get<{ seq: number }>('SELECT seq FROM frontdesk_changes_floor WHERE id = 1'))!.seq
  }

  /** Up to `limit` changes after `seq`, oldest first. */
  async after(seq: number, limit: number): Promise<FrontDeskChange[]> {
    return this.sql.all<FrontDeskChange>('SELECT seq, topic, key FROM frontdesk_changes WHERE seq > ? ORDER BY seq LIMIT ?', [seq, limit])
  }

  /** Drops all but the newest `keep` changes, raising the floor; returns how many went. Call in a transaction. */
  async prune(keep: number): Promise<number> {
    const upTo = (await this.head()) - keep
    // Under the row lock of the floor: two engines pruning at once raise it once, in order.
    const raised = await this.sql.run('UPDATE frontdesk_changes_floor SET seq = ? WHERE id = 1 AND seq < ?', [upTo, upTo])
    if (raised === 0) return 0
    return this.sql.run('DELETE FROM frontdesk_changes WHERE seq <= ?', [upTo])
  }
}

import type { Sql } from '../sql/types'

/** The last act of each kiosk the site applied (its pushes: sync-rules.ts). */
export class KioskMutationsRepository {
  constructor(private readonly sql: Sql) {}

  /** The last seq applied for the kiosk; 0 before its first act. */
  async lastSeq(kioskId: string): Promise<number> {
    return (await this.sql.get<{ last_seq: number }>('SELECT last_seq FROM kiosk_mutations WHERE kiosk_id = ?', [kioskId]))?.last_seq ?? 0
  }

  /**
   * Records `seq` as applied when it is above the last one: false when it is not (applied already,
   * perhaps by another engine this moment). Call in the transaction that applies the act: on
   * PostgreSQL the row stays locked to its commit, and a second engine's same update waits, then
   * finds it done (the WHERE read again), so the act is applied once.
   */
  async advance(kioskId: string, seq: number, at: number): Promise<boolean> {
    await this.sql.run('INSERT INTO kiosk_mutations (kiosk_id, last_seq, updated_at) VALUES (?, 0, ?) ON CONFLICT (kiosk_id) DO NOTHING', [kioskId, at])
    return (await this.sql.run('UPDATE kiosk_mutations SET last_seq = ?, updated_at = ? WHERE kiosk_id = ? AND last_seq < ?', [seq, at, kioskId, seq])) > 0
  }
}

import type { Db } from './database'

export type LeaseResult = 'acquired' | 'renewed' | 'busy'

interface LeaseRow {
  owner: string
  pid: number
  expires_at: number
}

/**
 * The dispatcher lease: one dispatcher per outbox file drains it, across processes (the kiosk and
 * the web host may share a data folder). Taking the lease over queues the previous holder's
 * in-flight rows again.
 */
export class OutboxLease {
  constructor(private readonly db: Db) {}

  /**
   * Takes or renews the single dispatcher lease. A lease is free when absent, expired, or held
   * by a process that no longer exists (a SIGKILLed kiosk must not block its successor for a
   * whole TTL). Taking it over resets the previous holder's in-flight rows to queued, in the
   * same transaction: their outcome is unknown and replaying them is idempotent.
   */
  acquire(owner: string, pid: number, now: number, ttlMs: number, isAlive: (pid: number) => boolean): LeaseResult {
    return this.db.transaction((): LeaseResult => {
      const lease = this.db.prepare('SELECT owner, pid, expires_at FROM lease WHERE id = 1').get() as LeaseRow | undefined
      if (lease && lease.owner === owner) {
        this.db.prepare('UPDATE lease SET expires_at = ? WHERE id = 1').run(now + ttlMs)
        return 'renewed'
      }
      if (lease && lease.expires_at > now && isAlive(lease.pid)) return 'busy'
      this.db.prepare('INSERT OR REPLACE INTO lease (id, owner, pid, expires_at) VALUES (1, ?, ?, ?)').run(owner, pid, now + ttlMs)
      this.resetInFlight(now, owner)
      return 'acquired'
    }).immediate()
  }

  release(owner: string): void {
    this.db.prepare('DELETE FROM lease WHERE id = 1 AND owner = ?').run(owner)
  }

  /**
   * Start-up recovery: when no live dispatcher holds the lease, every in-flight row is stale (its
   * process died mid-delivery) and goes back to queued. Returns how many were reset.
   */
  resetStale(now: number, isAlive: (pid: number) => boolean): number {
    return this.db.transaction((): number => {
      const lease = this.db.prepare('SELECT owner, pid, expires_at FROM lease WHERE id = 1').get() as LeaseRow | undefined
      if (lease && lease.expires_at > now && isAlive(lease.pid)) return 0
      this.db.prepare('DELETE FROM lease WHERE id = 1').run()
      return this.resetInFlight(now)
    }).immediate()
  }

  /** In-flight rows of any dispatcher but `keep` go back to queued, due at once. */
  private resetInFlight(now: number, keep = ''): number {
    return this.db
      .prepare(`UPDATE items SET state = 'queued', next_attempt_at = ?, claimed_by = NULL, updated_at = ? WHERE state = 'in-flight' AND IFNULL(claimed_by, '') != ?`)
      .run(now, now, keep).changes
  }
}

/** Whether `owner` holds an unexpired lease; read inside the caller's transaction (a claim). */
export function holdsLease(db: Db, owner: string, now: number): boolean {
  const lease = db.prepare('SELECT owner, expires_at FROM lease WHERE id = 1').get() as LeaseRow | undefined
  return lease !== undefined && lease.owner === owner && lease.expires_at > now
}

/** Whether a process exists (EPERM: it exists but belongs to someone else). */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

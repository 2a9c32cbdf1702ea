import { randomUUID } from 'node:crypto'
import type { ErrorCode } from '../../shared/errors'
import { NOTICE_STATE_MAX_ITEMS, smtpSettingsSchema, type HostNotice, type NoticeChannel, type NoticeCounts, type NoticeError, type NoticeState, type SmtpSettings } from '../../shared/host-notices'
import { arrivalNoticeSchema, type ArrivalNotice } from '../../shared/visits'
import { holdsLease } from '../outbox/lease'
import type { Db } from './database'

/** A notice the sender has set in-flight, with what its channel needs. */
export interface ClaimedNotice {
  id: string
  channel: NoticeChannel
  attempts: number
  createdAt: number
  /** null when the stored notice no longer reads as one (damaged): it fails as INTERNAL. */
  notice: ArrivalNotice | null
}

interface Row {
  seq: number
  id: string
  dedupe_key: string
  visit_id: string
  channel: NoticeChannel
  host_name: string
  payload: string | null
  state: NoticeState
  attempts: number
  created_at: number
  updated_at: number
  next_attempt_at: number | null
  delivered_at: number | null
  error_code: string | null
  error_message: string | null
  claimed_by: string | null
}

/**
 * Every SQL statement on the notices but the lease's (outbox/lease.ts). Each state change is one
 * statement or one transaction, so a process killed anywhere leaves each notice wholly in one state.
 * Timestamps come from the caller so tests can steer time.
 */
export class NoticeStore {
  constructor(private readonly db: Db) {}

  /**
   * One row per channel, unless that (visit, channel) is already known: the UNIQUE key makes a
   * second enqueue of the same arrival a no-op. Returns the rows created.
   */
  insert(notice: ArrivalNotice, channels: readonly NoticeChannel[], now: number): HostNotice[] {
    const created: string[] = []
    this.db.transaction(() => {
      const insert = this.db.prepare(
        `INSERT OR IGNORE INTO items (id, dedupe_key, visit_id, channel, host_name, payload, state, attempts, created_at, updated_at, next_attempt_at)
         VALUES (?, ?, ?, ?, ?, ?, 'queued', 0, ?, ?, ?)`,
      )
      for (const channel of channels) {
        const id = randomUUID()
        if (insert.run(id, `${notice.visitId}/${channel}`, notice.visitId, channel, notice.host.name, JSON.stringify(notice), now, now, now).changes === 1) created.push(id)
      }
    }).immediate()
    return created.map((id) => this.get(id)!)
  }

  get(id: string): HostNotice | null {
    const row = this.db.prepare('SELECT * FROM items WHERE id = ?').get(id) as Row | undefined
    return row ? toNotice(row) : null
  }

  list(): HostNotice[] {
    return (this.db.prepare('SELECT * FROM items ORDER BY seq').all() as Row[]).map(toNotice)
  }

  /** What staff should see first: failed, in-flight, queued (oldest first), then the latest deliveries. */
  summary(limit = NOTICE_STATE_MAX_ITEMS): { items: HostNotice[]; truncated: boolean } {
    const rows = this.db
      .prepare(
        `SELECT * FROM items
         ORDER BY CASE state WHEN 'failed' THEN 0 WHEN 'in-flight' THEN 1 WHEN 'queued' THEN 2 ELSE 3 END,
                  CASE WHEN state = 'delivered' THEN -delivered_at ELSE seq END
         LIMIT ?`,
      )
      .all(limit + 1) as Row[]
    return { items: rows.slice(0, limit).map(toNotice), truncated: rows.length > limit }
  }

  counts(): NoticeCounts {
    const counts: NoticeCounts = { queued: 0, inFlight: 0, delivered: 0, failed: 0 }
    for (const { state, n } of this.db.prepare('SELECT state, COUNT(*) AS n FROM items GROUP BY state').all() as Array<{ state: NoticeState; n: number }>) {
      if (state === 'in-flight') counts.inFlight = n
      else counts[state] = n
    }
    return counts
  }

  /** Takes the oldest due notice and sets it in-flight (attempts + 1), only while `owner` holds the lease. */
  claimNext(owner: string, now: number): ClaimedNotice | null {
    return this.db.transaction((): ClaimedNotice | null => {
      if (!holdsLease(this.db, owner, now)) return null
      const row = this.db.prepare(`SELECT * FROM items WHERE state = 'queued' AND next_attempt_at <= ? ORDER BY next_attempt_at, seq LIMIT 1`).get(now) as Row | undefined
      if (!row) return null
      this.db.prepare(`UPDATE items SET state = 'in-flight', attempts = attempts + 1, claimed_by = ?, next_attempt_at = NULL, updated_at = ? WHERE id = ?`).run(owner, now, row.id)
      return { id: row.id, channel: row.channel, attempts: row.attempts + 1, createdAt: row.created_at, notice: readNotice(row.payload) }
    }).immediate()
  }

  /** Delivered: the arrival's details are dropped in the same statement; the row stays as the record (and the dedupe key). */
  markDelivered(id: string, owner: string, now: number): void {
    this.db
      .prepare(
        `UPDATE items SET state = 'delivered', payload = NULL, delivered_at = ?, updated_at = ?, next_attempt_at = NULL, error_code = NULL, error_message = NULL, claimed_by = NULL
         WHERE id = ? AND state = 'in-flight' AND claimed_by = ?`,
      )
      .run(now, now, id, owner)
  }

  markRetry(id: string, owner: string, error: NoticeError, nextAttemptAt: number, now: number): void {
    this.db
      .prepare(`UPDATE items SET state = 'queued', next_attempt_at = ?, error_code = ?, error_message = ?, claimed_by = NULL, updated_at = ? WHERE id = ? AND state = 'in-flight' AND claimed_by = ?`)
      .run(nextAttemptAt, error.code, error.message, now, id, owner)
  }

  /** Failed for good (until staff retry it): kept with its reason and payload. */
  markFailed(id: string, owner: string, error: NoticeError, now: number): void {
    this.db
      .prepare(`UPDATE items SET state = 'failed', next_attempt_at = NULL, error_code = ?, error_message = ?, claimed_by = NULL, updated_at = ? WHERE id = ? AND state = 'in-flight' AND claimed_by = ?`)
      .run(error.code, error.message, now, id, owner)
  }

  /** A delivery abandoned without an outcome (the sender stopped): queued again, due at once. */
  release(id: string, owner: string, now: number): void {
    this.db.prepare(`UPDATE items SET state = 'queued', next_attempt_at = ?, claimed_by = NULL, updated_at = ? WHERE id = ? AND state = 'in-flight' AND claimed_by = ?`).run(now, now, id, owner)
  }

  /**
   * Staff's "try again": a failed or queued notice is due now, with a fresh backoff and a fresh
   * age (a notice retried by hand is wanted, however late). null: no such notice; 'busy': in
   * flight, or already delivered (a delivered notice is never sent again).
   */
  retry(id: string, now: number): HostNotice | 'busy' | null {
    const result = this.db
      .prepare(`UPDATE items SET state = 'queued', attempts = 0, created_at = ?, next_attempt_at = ?, updated_at = ? WHERE id = ? AND state IN ('failed', 'queued') AND payload IS NOT NULL`)
      .run(now, now, now, id)
    if (result.changes === 1) return this.get(id)
    return this.get(id) ? 'busy' : null
  }

  /** Makes queued notices due now: those whose last failure had one of `codes` (e.g. NOT_CONFIGURED after the settings are saved). */
  makeDue(now: number, codes: readonly ErrorCode[]): number {
    const marks = codes.map(() => '?').join(', ')
    return this.db.prepare(`UPDATE items SET next_attempt_at = ? WHERE state = 'queued' AND next_attempt_at > ? AND error_code IN (${marks})`).run(now, now, ...codes).changes
  }

  nextDueAt(): number | null {
    return (this.db.prepare(`SELECT MIN(next_attempt_at) AS at FROM items WHERE state = 'queued'`).get() as { at: number | null }).at
  }

  /** Removes every notice of these visits (a visitor removed with their visits), whatever its state. */
  forgetVisits(visitIds: readonly string[]): number {
    const remove = this.db.prepare('DELETE FROM items WHERE visit_id = ?')
    const removed = this.db.transaction(() => visitIds.reduce((n, id) => n + remove.run(id).changes, 0)).immediate()
    // A removed visitor's name must not stay readable in the WAL's old frames.
    if (removed > 0) this.checkpoint()
    return removed
  }

  /** Delivered records older than `deliveredMaxAgeMs`, and failed ones older than `failedMaxAgeMs`, are deleted. */
  prune(now: number, deliveredMaxAgeMs: number, failedMaxAgeMs: number): number {
    return this.db.transaction(
      () =>
        this.db.prepare(`DELETE FROM items WHERE state = 'delivered' AND delivered_at < ?`).run(now - deliveredMaxAgeMs).changes +
        this.db.prepare(`DELETE FROM items WHERE state = 'failed' AND updated_at < ?`).run(now - failedMaxAgeMs).changes,
    ).immediate()
  }

  smtp(): SmtpSettings | null {
    const row = this.db.prepare('SELECT smtp FROM config WHERE id = 1').get() as { smtp: string | null } | undefined
    if (!row?.smtp) return null
    const parsed = smtpSettingsSchema.safeParse(JSON.parse(row.smtp))
    return parsed.success ? parsed.data : null
  }

  setSmtp(smtp: SmtpSettings | null): void {
    this.db.prepare('INSERT INTO config (id, smtp) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET smtp = excluded.smtp').run(smtp === null ? null : JSON.stringify(smtp))
  }

  /** Folds the WAL back so emptied payloads do not linger in old frames. Best effort. */
  checkpoint(): void {
    try {
      this.db.pragma('wal_checkpoint(TRUNCATE)')
    } catch {
      // busy: the next idle moment tries again
    }
  }
}

function readNotice(payload: string | null): ArrivalNotice | null {
  try {
    const parsed = arrivalNoticeSchema.safeParse(payload === null ? null : JSON.parse(payload))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

function toNotice(row: Row): HostNotice {
  return {
    id: row.id,
    visitId: row.visit_id,
    channel: row.channel,
    hostName: row.host_name,
    state: row.state,
    attempts: row.attempts,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    nextAttemptAt: row.state === 'queued' ? row.next_attempt_at : null,
    deliveredAt: row.delivered_at,
    lastError: row.error_code !== null ? { code: row.error_code as ErrorCode, message: row.error_message ?? '' } : null,
  }
}

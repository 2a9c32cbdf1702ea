import { randomUUID } from 'node:crypto'
import type { ErrorCode } from '../../shared/errors'
import { JOB_STATE_MAX_ITEMS, type JobCounts, type JobError, type JobFields, type JobState } from '../../shared/jobs'
import type { Sql } from '../sql/types'

/** A job to add: the kind's summary (JSON) and payload, and optionally its id, dedupe key and subject. */
export interface NewJob {
  id?: string
  dedupeKey?: string | null
  subject?: string | null
  summary: string
  payload: Buffer | null
}

/** A stored job as the kind reads it back: the common fields, its summary and subject. */
export interface JobRecord extends JobFields {
  subject: string | null
  summary: string
}

/** A job a runner has set in-flight, with its payload. */
export interface ClaimedJob {
  id: string
  attempts: number
  createdAt: number
  subject: string | null
  summary: string
  payload: Buffer | null
}

interface Row {
  seq: number
  id: string
  kind: string
  dedupe_key: string | null
  subject: string | null
  summary: string
  payload: Buffer | null
  state: JobState
  attempts: number
  created_at: number
  updated_at: number
  next_attempt_at: number | null
  delivered_at: number | null
  error_code: string | null
  error_message: string | null
  claimed_by: string | null
  claimed_until: number | null
}

const LISTED = 'seq, id, subject, summary, state, attempts, created_at, updated_at, next_attempt_at, delivered_at, error_code, error_message'

/**
 * Every statement on one kind's jobs, over the caller's Sql: a database, or a transaction (so a job
 * is added in the same transaction as what causes it). State changes after a claim are guarded by
 * the claim (`claimed_by`): a runner whose claim was taken over changes nothing.
 */
export class JobRepository {
  constructor(
    private readonly sql: Sql,
    readonly kind: string,
  ) {}

  /** Adds a queued job, due now; false when its id or dedupe key is known already (added once). */
  async add(job: NewJob, now: number): Promise<boolean> {
    const added = await this.sql.run(
      `INSERT INTO jobs (id, kind, dedupe_key, subject, summary, payload, state, attempts, created_at, updated_at, next_attempt_at)
       VALUES (?, ?, ?, ?, ?, ?, 'queued', 0, ?, ?, ?) ON CONFLICT DO NOTHING`,
      [job.id ?? randomUUID(), this.kind, job.dedupeKey ?? null, job.subject ?? null, job.summary, job.payload, now, now, now],
    )
    return added === 1
  }

  async get(id: string): Promise<JobRecord | null> {
    const row = await this.sql.get<Row>(`SELECT ${LISTED} FROM jobs WHERE id = ? AND kind = ?`, [id, this.kind])
    return row ? toRecord(row) : null
  }

  /** Every job of the kind, in the order they were added. */
  async list(): Promise<JobRecord[]> {
    return (await this.sql.all<Row>(`SELECT ${LISTED} FROM jobs WHERE kind = ? ORDER BY seq`, [this.kind])).map(toRecord)
  }

  async bySubject(subject: string): Promise<JobRecord[]> {
    return (await this.sql.all<Row>(`SELECT ${LISTED} FROM jobs WHERE kind = ? AND subject = ? ORDER BY seq`, [this.kind, subject])).map(toRecord)
  }

  /** What staff should see first: needs-attention, in-flight, queued (oldest first), then the latest deliveries. */
  async summary(limit = JOB_STATE_MAX_ITEMS): Promise<{ items: JobRecord[]; truncated: boolean }> {
    const rows = await this.sql.all<Row>(
      `SELECT ${LISTED} FROM jobs WHERE kind = ?
       ORDER BY CASE state WHEN 'needs-attention' THEN 0 WHEN 'in-flight' THEN 1 WHEN 'queued' THEN 2 ELSE 3 END,
                CASE WHEN state = 'delivered' THEN -delivered_at ELSE seq END
       LIMIT ?`,
      [this.kind, limit + 1],
    )
    return { items: rows.slice(0, limit).map(toRecord), truncated: rows.length > limit }
  }

  async counts(): Promise<JobCounts> {
    const counts: JobCounts = { queued: 0, inFlight: 0, needsAttention: 0, delivered: 0 }
    for (const { state, n } of await this.sql.all<{ state: JobState; n: number }>('SELECT state, COUNT(*) AS n FROM jobs WHERE kind = ? GROUP BY state', [this.kind])) {
      if (state === 'in-flight') counts.inFlight = Number(n)
      else if (state === 'needs-attention') counts.needsAttention = Number(n)
      else counts[state] = Number(n)
    }
    return counts
  }

  /**
   * Within the caller's transaction: the oldest due job set in-flight for `owner` until
   * `claimedUntil` (attempts + 1). On PostgreSQL the row is locked FOR UPDATE SKIP LOCKED, so two
   * engines claiming at once take two different rows; SQLite's transaction holds the file's write
   * lock already (BEGIN IMMEDIATE), across processes.
   */
  async claimNext(owner: string, now: number, claimedUntil: number): Promise<ClaimedJob | null> {
    const lock = this.sql.dialect === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : ''
    const row = await this.sql.get<Row>(`SELECT * FROM jobs WHERE kind = ? AND state = 'queued' AND next_attempt_at <= ? ORDER BY next_attempt_at, seq LIMIT 1${lock}`, [this.kind, now])
    if (!row) return null
    const changed = await this.sql.run(
      `UPDATE jobs SET state = 'in-flight', attempts = attempts + 1, claimed_by = ?, claimed_until = ?, next_attempt_at = NULL, updated_at = ? WHERE id = ? AND state = 'queued'`,
      [owner, claimedUntil, now, row.id],
    )
    if (changed !== 1) return null
    return { id: row.id, attempts: Number(row.attempts) + 1, createdAt: Number(row.created_at), subject: row.subject, summary: row.summary, payload: row.payload }
  }

  /** The claim held a while longer (a send may outlast it); false when it is no longer this owner's. */
  async renew(id: string, owner: string, claimedUntil: number): Promise<boolean> {
    return (await this.sql.run(`UPDATE jobs SET claimed_until = ? WHERE id = ? AND state = 'in-flight' AND claimed_by = ?`, [claimedUntil, id, owner])) === 1
  }

  /** In-flight jobs whose claim ran out (their runner stopped, hung or died): queued again, due now, no penalty. */
  async requeueExpired(now: number): Promise<number> {
    return this.sql.run(
      `UPDATE jobs SET state = 'queued', next_attempt_at = ?, claimed_by = NULL, claimed_until = NULL, updated_at = ? WHERE kind = ? AND state = 'in-flight' AND claimed_until < ?`,
      [now, now, this.kind, now],
    )
  }

  /** The claimants of in-flight jobs (to find those whose process is gone). */
  async claimants(): Promise<string[]> {
    return (await this.sql.all<{ claimed_by: string }>(`SELECT DISTINCT claimed_by FROM jobs WHERE kind = ? AND state = 'in-flight' AND claimed_by IS NOT NULL`, [this.kind])).map((r) => r.claimed_by)
  }

  /** A claimant's in-flight jobs queued again, due now (its process is gone: it will not finish them). */
  async requeueClaimedBy(owner: string, now: number): Promise<number> {
    return this.sql.run(
      `UPDATE jobs SET state = 'queued', next_attempt_at = ?, claimed_by = NULL, claimed_until = NULL, updated_at = ? WHERE kind = ? AND state = 'in-flight' AND claimed_by = ?`,
      [now, now, this.kind, owner],
    )
  }

  /** Delivered: the payload is dropped in the same statement; the row stays as the record (and the dedupe key). */
  async markDelivered(id: string, owner: string, now: number): Promise<boolean> {
    return (
      (await this.sql.run(
        `UPDATE jobs SET state = 'delivered', payload = NULL, delivered_at = ?, updated_at = ?, next_attempt_at = NULL, error_code = NULL, error_message = NULL, claimed_by = NULL, claimed_until = NULL
         WHERE id = ? AND state = 'in-flight' AND claimed_by = ?`,
        [now, now, id, owner],
      )) === 1
    )
  }

  /** Back to queued, to be tried again at `nextAttemptAt`, remembering why this attempt failed. */
  async markRetry(id: string, owner: string, error: JobError, nextAttemptAt: number, now: number): Promise<boolean> {
    return (
      (await this.sql.run(
        `UPDATE jobs SET state = 'queued', next_attempt_at = ?, error_code = ?, error_message = ?, claimed_by = NULL, claimed_until = NULL, updated_at = ? WHERE id = ? AND state = 'in-flight' AND claimed_by = ?`,
        [nextAttemptAt, error.code, error.message, now, id, owner],
      )) === 1
    )
  }

  /** For staff: kept with its payload and the reason until retried or discarded. */
  async park(id: string, owner: string, error: JobError, now: number): Promise<boolean> {
    return (
      (await this.sql.run(
        `UPDATE jobs SET state = 'needs-attention', next_attempt_at = NULL, error_code = ?, error_message = ?, claimed_by = NULL, claimed_until = NULL, updated_at = ? WHERE id = ? AND state = 'in-flight' AND claimed_by = ?`,
        [error.code, error.message, now, id, owner],
      )) === 1
    )
  }

  /** A delivery abandoned without an outcome (the runner stopped): queued again, due at once, no error recorded. */
  async release(id: string, owner: string, now: number): Promise<void> {
    await this.sql.run(`UPDATE jobs SET state = 'queued', next_attempt_at = ?, claimed_by = NULL, claimed_until = NULL, updated_at = ? WHERE id = ? AND state = 'in-flight' AND claimed_by = ?`, [now, now, id, owner])
  }

  /**
   * Staff's "try again": a job that needs attention, or is waiting, is due now with a fresh backoff
   * (and a fresh age with `freshAge`: a job retried by hand is wanted, however late). null: no such
   * job; 'busy': in flight, or delivered (never sent again).
   */
  async retry(id: string, now: number, freshAge: boolean): Promise<JobRecord | 'busy' | null> {
    const changed = await this.sql.run(
      `UPDATE jobs SET state = 'queued', attempts = 0, ${freshAge ? 'created_at = ?, ' : ''}next_attempt_at = ?, updated_at = ?
       WHERE id = ? AND kind = ? AND state IN ('needs-attention', 'queued') AND payload IS NOT NULL`,
      [...(freshAge ? [now] : []), now, now, id, this.kind],
    )
    const job = await this.get(id)
    if (changed === 1) return job
    return job ? 'busy' : null
  }

  /** Deletes a job and its payload, unless it is in flight. */
  async discard(id: string): Promise<'discarded' | 'busy' | null> {
    if ((await this.sql.run(`DELETE FROM jobs WHERE id = ? AND kind = ? AND state != 'in-flight'`, [id, this.kind])) === 1) return 'discarded'
    return (await this.get(id)) ? 'busy' : null
  }

  /** Queued jobs made due now: all of them, or those whose last failure had one of `codes`. */
  async makeDue(now: number, codes?: readonly ErrorCode[]): Promise<number> {
    if (!codes) return this.sql.run(`UPDATE jobs SET next_attempt_at = ? WHERE kind = ? AND state = 'queued' AND next_attempt_at > ?`, [now, this.kind, now])
    if (codes.length === 0) return 0
    const marks = codes.map(() => '?').join(', ')
    return this.sql.run(`UPDATE jobs SET next_attempt_at = ? WHERE kind = ? AND state = 'queued' AND next_attempt_at > ? AND error_code IN (${marks})`, [now, this.kind, now, ...codes])
  }

  /** When the next queued job falls due, or null when nothing is queued. */
  async nextDueAt(): Promise<number | null> {
    const row = await this.sql.get<{ at: number | null }>(`SELECT MIN(next_attempt_at) AS at FROM jobs WHERE kind = ? AND state = 'queued'`, [this.kind])
    return row?.at === null || row?.at === undefined ? null : Number(row.at)
  }

  /** Every job about these subjects removed, whatever its state (a visitor removed with their visits). */
  async forgetSubjects(subjects: readonly string[]): Promise<number> {
    let removed = 0
    for (const subject of subjects) removed += await this.sql.run('DELETE FROM jobs WHERE kind = ? AND subject = ?', [this.kind, subject])
    return removed
  }

  /**
   * Bounds the records staff see: delivered jobs older than `deliveredMaxAgeMs` or beyond the newest
   * `deliveredMaxCount`, and jobs that needed attention untouched for `parkedMaxAgeMs`, are deleted.
   */
  async prune(now: number, keep: { deliveredMaxAgeMs: number; deliveredMaxCount?: number; parkedMaxAgeMs?: number }): Promise<number> {
    let removed = await this.sql.run(`DELETE FROM jobs WHERE kind = ? AND state = 'delivered' AND delivered_at < ?`, [this.kind, now - keep.deliveredMaxAgeMs])
    if (keep.deliveredMaxCount !== undefined) {
      removed += await this.sql.run(
        `DELETE FROM jobs WHERE kind = ? AND state = 'delivered' AND id NOT IN (
           SELECT id FROM jobs WHERE kind = ? AND state = 'delivered' ORDER BY delivered_at DESC, seq DESC LIMIT ?)`,
        [this.kind, this.kind, keep.deliveredMaxCount],
      )
    }
    if (keep.parkedMaxAgeMs !== undefined) {
      removed += await this.sql.run(`DELETE FROM jobs WHERE kind = ? AND state = 'needs-attention' AND updated_at < ?`, [this.kind, now - keep.parkedMaxAgeMs])
    }
    return removed
  }
}

const numberOrNull = (value: number | null) => (value === null ? null : Number(value))

function toRecord(row: Row): JobRecord {
  return {
    id: row.id,
    state: row.state,
    attempts: Number(row.attempts),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    nextAttemptAt: row.state === 'queued' ? numberOrNull(row.next_attempt_at) : null,
    deliveredAt: numberOrNull(row.delivered_at),
    lastError: row.error_code !== null ? { code: row.error_code as ErrorCode, message: row.error_message ?? '' } : null,
    subject: row.subject,
    summary: row.summary,
  }
}

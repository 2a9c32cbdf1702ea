import { randomUUID } from 'node:crypto'
import type { ErrorCode } from '../../shared/errors'
import { OUTBOX_STATE_MAX_ITEMS, type OutboxCounts, type OutboxError, type OutboxItem, type OutboxItemState } from '../../shared/outbox'
import type { Db } from './database'
import { holdsLease } from './lease'
import type { Sealer } from './sealer'
import { templateContextFor } from '../../shared/template-context'

/** What the dispatcher hands to `deliver`: everything the enroll workflow needs, decrypted. */
export interface DeliveryItem {
  userId: string
  templateType: string
  /** Fixed at enqueue time (derived from the item id), so every replay replaces its own template. */
  templateContext: string
  samples: string[]
}

/** An item the dispatcher has set in-flight, with its payload still sealed until it is needed. */
export interface ClaimedItem {
  id: string
  attempts: number
  templateType: string
  userSealed: Buffer
  samplesSealed: Buffer
}

interface ItemRow {
  seq: number
  id: string
  state: OutboxItemState
  template_type: string
  sample_count: number
  user_sealed: Buffer
  attempts: number
  created_at: number
  updated_at: number
  next_attempt_at: number | null
  delivered_at: number | null
  error_code: string | null
  error_message: string | null
  claimed_by: string | null
}

// The context's shape is shared: Persons reads it back as words.
export { templateContextFor } from '../../shared/template-context'

/**
 * All of the outbox's SQL but the dispatcher lease's (lease.ts). Every state change is one
 * statement or one transaction, so a process killed at any instruction leaves each item wholly in
 * one state with its payload present until it is delivered or discarded. Timestamps come from the
 * caller so tests can steer time.
 */
export class OutboxStore {
  constructor(
    private readonly db: Db,
    private readonly sealer: Sealer,
  ) {}

  /** Writes the item row and its sealed samples in ONE transaction: both or neither exist afterwards. */
  insert(request: { userId: string; templateType: string; samples: string[] }, now: number, id: string = randomUUID()): OutboxItem {
    const userSealed = this.sealer.seal(Buffer.from(request.userId, 'utf8'), aad(id, 'user'))
    const samplesSealed = this.sealer.seal(Buffer.from(JSON.stringify(request.samples), 'utf8'), aad(id, 'samples'))
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO items (id, state, template_type, sample_count, user_sealed, attempts, created_at, updated_at, next_attempt_at)
           VALUES (?, 'queued', ?, ?, ?, 0, ?, ?, ?)`,
        )
        .run(id, request.templateType, request.samples.length, userSealed, now, now, now)
      this.db.prepare('INSERT INTO payloads (item_id, samples_sealed) VALUES (?, ?)').run(id, samplesSealed)
    }).immediate()
    return this.get(id)!
  }

  get(id: string): OutboxItem | null {
    const row = this.db.prepare('SELECT * FROM items WHERE id = ?').get(id) as ItemRow | undefined
    return row ? this.toItem(row) : null
  }

  /** Every item in enqueue order. */
  list(): OutboxItem[] {
    return (this.db.prepare('SELECT * FROM items ORDER BY seq').all() as ItemRow[]).map((row) => this.toItem(row))
  }

  /** What an operator should see first: parked, in-flight, queued (oldest first), then the latest deliveries. */
  summary(limit = OUTBOX_STATE_MAX_ITEMS): { items: OutboxItem[]; truncated: boolean } {
    const rows = this.db
      .prepare(
        `SELECT * FROM items
         ORDER BY CASE state WHEN 'needs-attention' THEN 0 WHEN 'in-flight' THEN 1 WHEN 'queued' THEN 2 ELSE 3 END,
                  CASE WHEN state = 'delivered' THEN -delivered_at ELSE seq END
         LIMIT ?`,
      )
      .all(limit + 1) as ItemRow[]
    return { items: rows.slice(0, limit).map((row) => this.toItem(row)), truncated: rows.length > limit }
  }

  counts(): OutboxCounts {
    const counts: OutboxCounts = { queued: 0, inFlight: 0, needsAttention: 0, delivered: 0 }
    for (const { state, n } of this.db.prepare('SELECT state, COUNT(*) AS n FROM items GROUP BY state').all() as Array<{ state: OutboxItemState; n: number }>) {
      if (state === 'queued') counts.queued = n
      else if (state === 'in-flight') counts.inFlight = n
      else if (state === 'needs-attention') counts.needsAttention = n
      else counts.delivered = n
    }
    return counts
  }

  /**
   * Takes the oldest due queued item and sets it in-flight (attempts + 1) in one IMMEDIATE
   * transaction, only while `owner` holds the lease: a dispatcher that lost its lease cannot
   * claim anything, so two processes never deliver the same row at once.
   */
  claimNext(owner: string, now: number): ClaimedItem | null {
    return this.db.transaction((): ClaimedItem | null => {
      if (!holdsLease(this.db, owner, now)) return null
      const row = this.db
        .prepare(`SELECT * FROM items WHERE state = 'queued' AND next_attempt_at <= ? ORDER BY next_attempt_at, seq LIMIT 1`)
        .get(now) as ItemRow | undefined
      if (!row) return null
      const payload = this.db.prepare('SELECT samples_sealed FROM payloads WHERE item_id = ?').get(row.id) as { samples_sealed: Buffer } | undefined
      this.db
        .prepare(`UPDATE items SET state = 'in-flight', attempts = attempts + 1, claimed_by = ?, next_attempt_at = NULL, updated_at = ? WHERE id = ?`)
        .run(owner, now, row.id)
      return {
        id: row.id,
        attempts: row.attempts + 1,
        templateType: row.template_type,
        userSealed: row.user_sealed,
        // A row without its payload cannot happen through this store; an empty blob fails to open and parks the item.
        samplesSealed: payload?.samples_sealed ?? Buffer.alloc(0),
      }
    }).immediate()
  }

  /** Decrypts what `deliver` needs; throws when the key is wrong or the data was altered. */
  open(claimed: ClaimedItem): DeliveryItem {
    const userId = this.sealer.open(claimed.userSealed, aad(claimed.id, 'user')).toString('utf8')
    const samples = JSON.parse(this.sealer.open(claimed.samplesSealed, aad(claimed.id, 'samples')).toString('utf8')) as unknown
    if (!Array.isArray(samples) || !samples.every((s) => typeof s === 'string')) throw new Error('the stored samples are not a list of strings')
    return { userId, templateType: claimed.templateType, templateContext: templateContextFor(claimed.id), samples }
  }

  /** Delivered: the row keeps its summary (and sealed userId, until pruned); the samples are deleted in the same transaction. */
  markDelivered(id: string, now: number): void {
    this.db.transaction(() => {
      this.db
        .prepare(
          `UPDATE items SET state = 'delivered', delivered_at = ?, updated_at = ?, next_attempt_at = NULL, error_code = NULL, error_message = NULL, claimed_by = NULL
           WHERE id = ? AND state IN ('in-flight', 'queued')`,
        )
        .run(now, now, id)
      this.db.prepare('DELETE FROM payloads WHERE item_id = ?').run(id)
    }).immediate()
  }

  /** Back to queued, to be tried again at `nextAttemptAt`, remembering why this attempt failed. */
  markRetry(id: string, owner: string, error: OutboxError, nextAttemptAt: number, now: number): void {
    this.db
      .prepare(
        `UPDATE items SET state = 'queued', next_attempt_at = ?, error_code = ?, error_message = ?, claimed_by = NULL, updated_at = ?
         WHERE id = ? AND state = 'in-flight' AND claimed_by = ?`,
      )
      .run(nextAttemptAt, error.code, error.message, now, id, owner)
  }

  /** Parked for an operator: kept with its payload and the reason until retried or discarded. */
  park(id: string, owner: string, error: OutboxError, now: number): void {
    this.db
      .prepare(
        `UPDATE items SET state = 'needs-attention', next_attempt_at = NULL, error_code = ?, error_message = ?, claimed_by = NULL, updated_at = ?
         WHERE id = ? AND state = 'in-flight' AND claimed_by = ?`,
      )
      .run(error.code, error.message, now, id, owner)
  }

  /** A delivery abandoned without an outcome (the dispatcher stopped): queued again, due at once, no error recorded. */
  release(id: string, owner: string, now: number): void {
    this.db
      .prepare(`UPDATE items SET state = 'queued', next_attempt_at = ?, claimed_by = NULL, updated_at = ? WHERE id = ? AND state = 'in-flight' AND claimed_by = ?`)
      .run(now, now, id, owner)
  }

  /**
   * An operator's "try again": a parked or queued item becomes due now with a fresh backoff.
   * Returns null when there is no such item, 'busy' when it is in-flight or already delivered.
   */
  retry(id: string, now: number): OutboxItem | 'busy' | null {
    const result = this.db
      .prepare(`UPDATE items SET state = 'queued', attempts = 0, next_attempt_at = ?, updated_at = ? WHERE id = ? AND state IN ('needs-attention', 'queued')`)
      .run(now, now, id)
    if (result.changes === 1) return this.get(id)
    return this.get(id) ? 'busy' : null
  }

  /** Deletes an item and (by cascade) its payload, unless it is in-flight. */
  discard(id: string): 'discarded' | 'busy' | null {
    const result = this.db.prepare(`DELETE FROM items WHERE id = ? AND state != 'in-flight'`).run(id)
    if (result.changes === 1) return 'discarded'
    return this.get(id) ? 'busy' : null
  }

  /** Makes queued items due now: all of them, or those whose last failure had one of `codes`. */
  makeDue(now: number, codes?: readonly ErrorCode[]): number {
    if (!codes) return this.db.prepare(`UPDATE items SET next_attempt_at = ? WHERE state = 'queued' AND next_attempt_at > ?`).run(now, now).changes
    const marks = codes.map(() => '?').join(', ')
    return this.db
      .prepare(`UPDATE items SET next_attempt_at = ? WHERE state = 'queued' AND next_attempt_at > ? AND error_code IN (${marks})`)
      .run(now, now, ...codes).changes
  }

  /** When the next queued item falls due, or null when nothing is queued. */
  nextDueAt(): number | null {
    const row = this.db.prepare(`SELECT MIN(next_attempt_at) AS at FROM items WHERE state = 'queued'`).get() as { at: number | null }
    return row.at
  }

  /**
   * Bounds the delivered records an operator sees: older than `maxAgeMs`, or beyond the newest
   * `maxCount`, are deleted (with their sealed userId). Their payloads are already gone.
   */
  pruneDelivered(now: number, maxAgeMs: number, maxCount: number): number {
    return this.db.transaction((): number => {
      let removed = this.db.prepare(`DELETE FROM items WHERE state = 'delivered' AND delivered_at < ?`).run(now - maxAgeMs).changes
      removed += this.db
        .prepare(
          `DELETE FROM items WHERE state = 'delivered' AND id NOT IN (
             SELECT id FROM items WHERE state = 'delivered' ORDER BY delivered_at DESC, seq DESC LIMIT ?)`,
        )
        .run(maxCount).changes
      return removed
    }).immediate()
  }

  /**
   * Folds the WAL back into the database and truncates it, so ciphertext of delivered payloads
   * does not linger in old WAL frames. Best effort: another process's reader may keep it busy.
   */
  checkpoint(): void {
    try {
      this.db.pragma('wal_checkpoint(TRUNCATE)')
    } catch {
      // busy: the next idle moment tries again
    }
  }

  private toItem(row: ItemRow): OutboxItem {
    let userId: string
    try {
      userId = this.sealer.open(row.user_sealed, aad(row.id, 'user')).toString('utf8')
    } catch {
      // Wrong key (e.g. the keychain entry was recreated): the item stays listed so it can be discarded.
      userId = '(unreadable)'
    }
    return {
      id: row.id,
      state: row.state,
      userId,
      templateType: row.template_type,
      sampleCount: row.sample_count,
      attempts: row.attempts,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      nextAttemptAt: row.state === 'queued' ? row.next_attempt_at : null,
      deliveredAt: row.delivered_at,
      lastError: row.error_code !== null ? { code: row.error_code as ErrorCode, message: row.error_message ?? '' } : null,
    }
  }
}

/** Associated data binding a ciphertext to its item and field. */
function aad(id: string, field: 'user' | 'samples'): string {
  return `identity-kiosk/outbox/v1/${id}/${field}`
}

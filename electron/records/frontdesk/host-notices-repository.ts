import { randomUUID } from 'node:crypto'
import type { ErrorCode } from '../../shared/errors'
import { NOTICE_STATE_MAX_ITEMS, type HostNotice, type NoticeChannel, type NoticeCounts, type NoticeError, type NoticeState } from '../../shared/host-notices'
import { arrivalNoticeSchema, type ArrivalNotice } from '../../shared/visits'
import type { Sql } from '../sql/types'

/** A notice an engine has set in-flight, with what its channel needs. */
export interface ClaimedNotice {
  id: string
  channel: NoticeChannel
  attempts: number
  createdAt: number
  /** null when the stored notice no longer reads as one (damaged): it fails as INTERNAL. */
  notice: ArrivalNotice | null
}

interface Row {
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
  claimed_until: number | null
}

export interface NoticeSettingsRow {
  smtp: string | null
  smtp_password: Buffer | null
  webhook_secret: Buffer | null
}

/** The channels a host can be told on: an e-mail address, a webhook URL. */
export function channelsOf(notice: ArrivalNotice): NoticeChannel[] {
  return [...(notice.host.email ? (['email'] as const) : []), ...(notice.host.webhookUrl ? (['webhook'] as const) : [])]
}

/**
 * Every statement on the site's host notices and their settings, over the caller's Sql (so the
 * check-in's insert joins its transaction). State changes after a claim are guarded by the claim
 * (`claimed_by`): an engine whose claim was taken over changes nothing.
 */
export class HostNoticeRepository {
  constructor(private readonly sql: Sql) {}

  /** One row per channel the host has, unless that (visit, channel) is known already. Returns how many were created. */
  async insertArrival(notice: ArrivalNotice, now: number): Promise<number> {
    let created = 0
    for (const channel of channelsOf(notice)) {
      created += await this.sql.run(
        `INSERT INTO host_notices (id, dedupe_key, visit_id, channel, host_name, payload, state, attempts, created_at, updated_at, next_attempt_at)
         VALUES (?, ?, ?, ?, ?, ?, 'queued', 0, ?, ?, ?) ON CONFLICT (dedupe_key) DO NOTHING`,
        [randomUUID(), `${notice.visitId}/${channel}`, notice.visitId, channel, notice.host.name, JSON.stringify(notice), now, now, now],
      )
    }
    return created
  }

  async get(id: string): Promise<HostNotice | null> {
    const row = await this.sql.get<Row>('SELECT * FROM host_notices WHERE id = ?', [id])
    return row ? toNotice(row) : null
  }

  async byVisit(visitId: string): Promise<HostNotice[]> {
    return (await this.sql.all<Row>('SELECT * FROM host_notices WHERE visit_id = ? ORDER BY channel', [visitId])).map(toNotice)
  }

  /** What staff should see first: failed, in-flight, queued (oldest first), then the latest deliveries. */
  async summary(limit = NOTICE_STATE_MAX_ITEMS): Promise<{ items: HostNotice[]; truncated: boolean }> {
    const rows = await this.sql.all<Row>(
      `SELECT * FROM host_notices
       ORDER BY CASE state WHEN 'failed' THEN 0 WHEN 'in-flight' THEN 1 WHEN 'queued' THEN 2 ELSE 3 END,
                CASE WHEN state = 'delivered' THEN -delivered_at ELSE created_at END, id
       LIMIT ?`,
      [limit + 1],
    )
    return { items: rows.slice(0, limit).map(toNotice), truncated: rows.length > limit }
  }

  async counts(): Promise<NoticeCounts> {
    const counts: NoticeCounts = { queued: 0, inFlight: 0, delivered: 0, failed: 0 }
    for (const { state, n } of await this.sql.all<{ state: NoticeState; n: number }>('SELECT state, COUNT(*) AS n FROM host_notices GROUP BY state')) {
      if (state === 'in-flight') counts.inFlight = Number(n)
      else counts[state] = Number(n)
    }
    return counts
  }

  /**
   * Within the caller's transaction: the oldest due notice set in-flight for `owner` until
   * `claimedUntil` (attempts + 1). On PostgreSQL the row is locked FOR UPDATE SKIP LOCKED, so two
   * engines claiming at once take two different rows (or one finds none); SQLite's transaction
   * holds the file's write lock already.
   */
  async claimNext(owner: string, now: number, claimedUntil: number): Promise<ClaimedNotice | null> {
    const lock = this.sql.dialect === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : ''
    const row = await this.sql.get<Row>(`SELECT * FROM host_notices WHERE state = 'queued' AND next_attempt_at <= ? ORDER BY next_attempt_at, created_at, id LIMIT 1${lock}`, [now])
    if (!row) return null
    const changed = await this.sql.run(
      `UPDATE host_notices SET state = 'in-flight', attempts = attempts + 1, claimed_by = ?, claimed_until = ?, next_attempt_at = NULL, updated_at = ? WHERE id = ? AND state = 'queued'`,
      [owner, claimedUntil, now, row.id],
    )
    if (changed !== 1) return null
    return { id: row.id, channel: row.channel, attempts: row.attempts + 1, createdAt: row.created_at, notice: readNotice(row.payload) }
  }

  /** The claim held a while longer (a send may outlast it); false when it is no longer this owner's. */
  async renew(id: string, owner: string, claimedUntil: number): Promise<boolean> {
    return (await this.sql.run(`UPDATE host_notices SET claimed_until = ? WHERE id = ? AND state = 'in-flight' AND claimed_by = ?`, [claimedUntil, id, owner])) === 1
  }

  /** In-flight notices whose claim ran out (their engine stopped or hung): queued again, due now, no penalty. */
  async requeueExpired(now: number): Promise<number> {
    return this.sql.run(
      `UPDATE host_notices SET state = 'queued', next_attempt_at = ?, claimed_by = NULL, claimed_until = NULL, updated_at = ? WHERE state = 'in-flight' AND claimed_until < ?`,
      [now, now, now],
    )
  }

  /** Delivered: the arrival's details are dropped in the same statement; the row stays as the record (and the dedupe key). */
  async markDelivered(id: string, owner: string, now: number): Promise<boolean> {
    const changed = await this.sql.run(
      `UPDATE host_notices SET state = 'delivered', payload = NULL, delivered_at = ?, updated_at = ?, next_attempt_at = NULL, error_code = NULL, error_message = NULL, claimed_by = NULL, claimed_until = NULL
       WHERE id = ? AND state = 'in-flight' AND claimed_by = ?`,
      [now, now, id, owner],
    )
    return changed === 1
  }

  async markRetry(id: string, owner: string, error: NoticeError, nextAttemptAt: number, now: number): Promise<boolean> {
    const changed = await this.sql.run(
      `UPDATE host_notices SET state = 'queued', next_attempt_at = ?, error_code = ?, error_message = ?, claimed_by = NULL, claimed_until = NULL, updated_at = ? WHERE id = ? AND state = 'in-flight' AND claimed_by = ?`,
      [nextAttemptAt, error.code, error.message, now, id, owner],
    )
    return changed === 1
  }

  /** Failed for good (until staff retry it): kept with its reason and payload. */
  async markFailed(id: string, owner: string, error: NoticeError, now: number): Promise<boolean> {
    const changed = await this.sql.run(
      `UPDATE host_notices SET state = 'failed', next_attempt_at = NULL, error_code = ?, error_message = ?, claimed_by = NULL, claimed_until = NULL, updated_at = ? WHERE id = ? AND state = 'in-flight' AND claimed_by = ?`,
      [error.code, error.message, now, id, owner],
    )
    return changed === 1
  }

  /** A delivery abandoned without an outcome (the engine stopped): queued again, due at once. */
  async release(id: string, owner: string, now: number): Promise<void> {
    await this.sql.run(
      `UPDATE host_notices SET state = 'queued', next_attempt_at = ?, claimed_by = NULL, claimed_until = NULL, updated_at = ? WHERE id = ? AND state = 'in-flight' AND claimed_by = ?`,
      [now, now, id, owner],
    )
  }

  /**
   * Staff's "try again": a failed or queued notice is due now, with a fresh backoff and a fresh
   * age. null: no such notice; 'busy': in flight, or delivered (never sent again).
   */
  async retry(id: string, now: number): Promise<HostNotice | 'busy' | null> {
    const changed = await this.sql.run(
      `UPDATE host_notices SET state = 'queued', attempts = 0, created_at = ?, next_attempt_at = ?, updated_at = ? WHERE id = ? AND state IN ('failed', 'queued') AND payload IS NOT NULL`,
      [now, now, now, id],
    )
    const notice = await this.get(id)
    if (changed === 1) return notice
    return notice ? 'busy' : null
  }

  /** Queued notices whose last failure had one of `codes` made due now (e-mail set up, a secret stored). */
  async makeDue(now: number, codes: readonly ErrorCode[]): Promise<number> {
    const marks = codes.map(() => '?').join(', ')
    return this.sql.run(`UPDATE host_notices SET next_attempt_at = ? WHERE state = 'queued' AND next_attempt_at > ? AND error_code IN (${marks})`, [now, now, ...codes])
  }

  async nextDueAt(): Promise<number | null> {
    const row = await this.sql.get<{ at: number | null }>(`SELECT MIN(next_attempt_at) AS at FROM host_notices WHERE state = 'queued'`)
    return row?.at === null || row?.at === undefined ? null : Number(row.at)
  }

  /**
   * Delivered records older than `deliveredKeepMs`, failed ones older than `failedKeepMs`, and
   * any notice whose visit is gone (a visitor forgotten, or past the site's retention): deleted.
   */
  async prune(now: number, deliveredKeepMs: number, failedKeepMs: number): Promise<number> {
    return (
      (await this.sql.run(`DELETE FROM host_notices WHERE state = 'delivered' AND delivered_at < ?`, [now - deliveredKeepMs])) +
      (await this.sql.run(`DELETE FROM host_notices WHERE state = 'failed' AND updated_at < ?`, [now - failedKeepMs])) +
      (await this.sql.run(`DELETE FROM host_notices WHERE NOT EXISTS (SELECT 1 FROM visits WHERE visits.id = host_notices.visit_id)`))
    )
  }

  async settings(): Promise<NoticeSettingsRow | null> {
    return (await this.sql.get<NoticeSettingsRow>('SELECT smtp, smtp_password, webhook_secret FROM notice_settings WHERE id = 1')) ?? null
  }

  async setSmtp(smtp: string | null, now: number): Promise<void> {
    await this.sql.run('INSERT INTO notice_settings (id, smtp, updated_at) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET smtp = excluded.smtp, updated_at = excluded.updated_at', [smtp, now])
  }

  /** undefined leaves a secret as it is; null clears it. */
  async setSecrets(secrets: { smtpPassword: Buffer | null | undefined; webhookSecret: Buffer | null | undefined }, now: number): Promise<void> {
    await this.sql.run('INSERT INTO notice_settings (id, updated_at) VALUES (1, ?) ON CONFLICT (id) DO NOTHING', [now])
    if (secrets.smtpPassword !== undefined) await this.sql.run('UPDATE notice_settings SET smtp_password = ?, updated_at = ? WHERE id = 1', [secrets.smtpPassword, now])
    if (secrets.webhookSecret !== undefined) await this.sql.run('UPDATE notice_settings SET webhook_secret = ?, updated_at = ? WHERE id = 1', [secrets.webhookSecret, now])
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

const numberOrNull = (value: number | null) => (value === null ? null : Number(value))

function toNotice(row: Row): HostNotice {
  return {
    id: row.id,
    visitId: row.visit_id,
    channel: row.channel,
    hostName: row.host_name,
    state: row.state,
    attempts: Number(row.attempts),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    nextAttemptAt: row.state === 'queued' ? numberOrNull(row.next_attempt_at) : null,
    deliveredAt: numberOrNull(row.delivered_at),
    lastError: row.error_code !== null ? { code: row.error_code as ErrorCode, message: row.error_message ?? '' } : null,
  }
}

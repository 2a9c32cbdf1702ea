import { randomUUID } from 'node:crypto'
import { noticeChannelSchema, type HostNotice, type NoticeChannel } from '../../../shared/host-notices'
import type { JobError } from '../../../shared/jobs'
import type { ArrivalNotice } from '../../../shared/visits'
import { JobRepository, type JobRecord } from '../../queue/jobs-repository'
import type { Sql } from '../../sql/types'

/** The host notices' kind in the one delivery queue (electron/records/queue): one job per arrival and channel. */
export const HOST_NOTICE_KIND = 'host-notice'

const HOUR = 3_600_000
/** A notice not delivered within this of its arrival needs attention: a host told hours later is no use. */
export const NOTICE_MAX_AGE_MS = 24 * HOUR
/** How long delivered records, and notices that needed attention, stay for staff to see. */
export const NOTICE_KEEP_MS = 7 * 24 * HOUR

export const NOTICE_TOO_OLD: JobError = { code: 'TIMEOUT', message: `Not delivered within ${NOTICE_MAX_AGE_MS / HOUR} h of the arrival; no longer sent.` }

/** What staff see of a notice beside the queue's fields: stored as the job's summary (no visitor name). */
interface NoticeSummary {
  visitId: string
  channel: NoticeChannel
  hostName: string
}

/** The host notices' jobs over the caller's Sql (a database, or the check-in's transaction). */
export const noticeJobs = (sql: Sql) => new JobRepository(sql, HOST_NOTICE_KIND)

/** The channels a host can be told on: an e-mail address, a webhook URL. */
export function channelsOf(notice: ArrivalNotice): NoticeChannel[] {
  return [...(notice.host.email ? (['email'] as const) : []), ...(notice.host.webhookUrl ? (['webhook'] as const) : [])]
}

/**
 * Queues the arrival: one job per channel its host has (dedupe key `<visit id>/<channel>`, so an
 * arrival added twice is one job per channel), about the visit (its subject: forgotten with it),
 * the ArrivalNotice as the payload. Pass the check-in's transaction to add them with the visit.
 * Returns the notices created (none when the host has no address or the arrival was known).
 */
export async function addArrival(sql: Sql, notice: ArrivalNotice, now: number): Promise<HostNotice[]> {
  const jobs = noticeJobs(sql)
  const created: HostNotice[] = []
  for (const channel of channelsOf(notice)) {
    const id = randomUUID()
    const summary: NoticeSummary = { visitId: notice.visitId, channel, hostName: notice.host.name }
    const added = await jobs.add({ id, dedupeKey: `${notice.visitId}/${channel}`, subject: notice.visitId, summary: JSON.stringify(summary), payload: Buffer.from(JSON.stringify(notice), 'utf8') }, now)
    const job = added ? await jobs.get(id) : null
    if (job) created.push(hostNoticeOf(job))
  }
  return created
}

/** A notice as kept by an older store (a kiosk's host-notices.db), taken over with its state; false when it is known already. */
export interface ImportedNotice {
  id: string
  visitId: string
  channel: NoticeChannel
  hostName: string
  /** The ArrivalNotice as JSON; null once delivered. */
  payload: string | null
  state: 'queued' | 'delivered' | 'needs-attention'
  attempts: number
  createdAt: number
  updatedAt: number
  nextAttemptAt: number | null
  deliveredAt: number | null
  errorCode: string | null
  errorMessage: string | null
}

export async function importNotice(sql: Sql, notice: ImportedNotice): Promise<boolean> {
  const summary: NoticeSummary = { visitId: notice.visitId, channel: notice.channel, hostName: notice.hostName }
  const added = await sql.run(
    `INSERT INTO jobs (id, kind, dedupe_key, subject, summary, payload, state, attempts, created_at, updated_at, next_attempt_at, delivered_at, error_code, error_message)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    [
      notice.id,
      HOST_NOTICE_KIND,
      `${notice.visitId}/${notice.channel}`,
      notice.visitId,
      JSON.stringify(summary),
      notice.payload === null ? null : Buffer.from(notice.payload, 'utf8'),
      notice.state,
      notice.attempts,
      notice.createdAt,
      notice.updatedAt,
      notice.nextAttemptAt,
      notice.deliveredAt,
      notice.errorCode,
      notice.errorMessage,
    ],
  )
  return added === 1
}

/** The notices of visits no longer kept (a visitor forgotten, past the retention): deleted. */
export async function pruneOrphanedNotices(sql: Sql): Promise<number> {
  return sql.run('DELETE FROM jobs WHERE kind = ? AND subject IS NOT NULL AND NOT EXISTS (SELECT 1 FROM visits WHERE visits.id = jobs.subject)', [HOST_NOTICE_KIND])
}

/**
 * Notices parked for want of a setting (their last failure one of `codes`) queued again, due now:
 * an administrator changed the settings, so they may go now. Their age is kept, so one past the
 * 24 h is parked again as too late rather than sent.
 */
export async function requeueParked(sql: Sql, now: number, codes: readonly string[]): Promise<number> {
  if (codes.length === 0) return 0
  const marks = codes.map(() => '?').join(', ')
  return sql.run(
    `UPDATE jobs SET state = 'queued', attempts = 0, next_attempt_at = ?, updated_at = ? WHERE kind = ? AND state = 'needs-attention' AND payload IS NOT NULL AND error_code IN (${marks})`,
    [now, now, HOST_NOTICE_KIND, ...codes],
  )
}

/** A stored job read back as the notice staff see. */
export function hostNoticeOf(job: JobRecord): HostNotice {
  const { subject, summary, ...fields } = job
  let read: Partial<NoticeSummary> = {}
  try {
    read = JSON.parse(summary) as Partial<NoticeSummary>
  } catch {
    // a damaged summary: shown with what the row itself says
  }
  const channel = noticeChannelSchema.safeParse(read.channel)
  return {
    ...fields,
    visitId: typeof read.visitId === 'string' ? read.visitId : (subject ?? ''),
    channel: channel.success ? channel.data : 'email',
    hostName: typeof read.hostName === 'string' ? read.hostName : '',
  }
}

/** The channel a claimed job is for, from its summary. */
export function channelOf(summary: string): NoticeChannel {
  return noticeChannelSchema.parse((JSON.parse(summary) as Partial<NoticeSummary>).channel)
}

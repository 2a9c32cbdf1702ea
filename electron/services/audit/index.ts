import type { AuditAction, AuditEntryView, AuditVerdictView } from '../../shared/audit'
import { PREVIOUS_FORMAT_LISTED, auditActions, auditOutcomes, auditRoles } from '../../shared/audit'
import { GENESIS_HASH, canonicalEntry, entryHash, previousFormatHash, type SubjectFields } from './chain'
import { NO_DELETE_TRIGGER, openAuditDatabase } from './database'
import { toCsv } from './export'

export interface AuditEntryInput {
  action: AuditAction
  /** 'started' is written before an act; its result follows as its own entry. */
  outcome: AuditEntryView['outcome']
  role: AuditEntryView['role']
  account: string | null
  /** Whom it concerns; a subject with nothing said in it is stored and read back as none. */
  subject?: SubjectFields | null | undefined
  score?: number | null
  /** A short code or reason: never images, templates, tokens or secrets. */
  detail?: string | null
  /** Links an outcome entry to its 'started' entry. */
  correlationId?: string | null
}
export type AuditEntry = AuditEntryView
export type AuditVerdict = AuditVerdictView

export interface AuditQuery {
  from?: number | undefined
  to?: number | undefined
  actions?: AuditAction[] | undefined
  userId?: string | undefined
  personUuid?: string | undefined
  account?: string | undefined
  limit?: number | undefined
  /** Paging, newest first: entries before this seq. */
  beforeSeq?: number | undefined
}

export interface AuditLog {
  /** Durable when it returns; throws when the entry cannot be written (then the act must not happen). */
  append(entry: AuditEntryInput): AuditEntry
  query(query: AuditQuery): AuditEntry[]
  /** Walks the whole chain; names the first entry that does not hold. */
  verify(): AuditVerdict
  /** The chain as found when the log was opened. */
  readonly startVerdict: AuditVerdict
  exportCsv(query: AuditQuery): string
  exportJson(query: AuditQuery): string
  /** Removes entries older than the retention (a prefix of the chain), keeping the rest verifiable. */
  prune(now: number, retentionDays: number): number
  close(): void
}

interface Row {
  seq: number
  at: number
  kiosk_id: string
  action: string
  outcome: string
  role: string
  account: string | null
  user_id: string | null
  person_uuid: string | null
  outbox_id: string | null
  score: number | null
  detail: string | null
  correlation_id: string | null
  prev_hash: string
  hash: string
}

const MAX_TEXT = 256
const EXPORT_MAX = 100_000
/** Base64 JPEG and PNG openings: an image pasted into a text field never reaches the trail. */
const IMAGE_IN_TEXT = /\/9j\/|iVBORw0KGgo/

function text(value: string | null | undefined, field: string): string | null {
  if (value === null || value === undefined) return null
  if (value.length > MAX_TEXT) throw new Error(`audit ${field} is longer than ${MAX_TEXT} characters`)
  if (IMAGE_IN_TEXT.test(value)) throw new Error(`audit ${field} looks like image data`)
  return value
}

/** A row read back: the canonical form of its fields (the same that append stored and hashed). */
function toEntry(row: Row): AuditEntry {
  const entry = canonicalEntry({
    seq: row.seq,
    at: row.at,
    kioskId: row.kiosk_id,
    action: row.action,
    outcome: row.outcome,
    role: row.role,
    account: row.account,
    subject: { userId: row.user_id, personUuid: row.person_uuid, outboxId: row.outbox_id },
    score: row.score,
    detail: row.detail,
    correlationId: row.correlation_id,
    prevHash: row.prev_hash,
  })
  return { ...entry, action: entry.action as AuditAction, outcome: entry.outcome as AuditEntry['outcome'], role: entry.role as AuditEntry['role'], hash: row.hash }
}

/** Opens the kiosk's audit trail in `dir` (audit.db) and verifies its chain. */
export function openAuditLog(options: { dir: string; kioskId: string; now?: () => number }): AuditLog {
  const db = openAuditDatabase(options.dir)
  const now = options.now ?? Date.now
  const insert = db.prepare(
    `INSERT INTO entries (seq, at, kiosk_id, action, outcome, role, account, user_id, person_uuid, outbox_id, score, detail, correlation_id, prev_hash, hash)
     VALUES (@seq, @at, @kioskId, @action, @outcome, @role, @account, @userId, @personUuid, @outboxId, @score, @detail, @correlationId, @prevHash, @hash)`,
  )
  const anchor = () => db.prepare<[], { seq: number; hash: string }>('SELECT seq, hash FROM anchor WHERE id = 1').get() ?? { seq: 0, hash: GENESIS_HASH }
  const last = () => db.prepare<[], { seq: number; hash: string }>('SELECT seq, hash FROM entries ORDER BY seq DESC LIMIT 1').get() ?? anchor()

  // One IMMEDIATE transaction reads the chain's end and appends: two processes never fork it.
  const appendTx = db.transaction((input: AuditEntryInput): AuditEntry => {
    if (!auditActions.includes(input.action) || !auditOutcomes.includes(input.outcome) || !auditRoles.includes(input.role)) throw new Error('audit entry outside the known actions, outcomes or roles')
    const subject = input.subject ?? null
    const end = last()
    // Stored exactly as hashed: the canonical form (an empty subject is none, undefined is null).
    const entry = canonicalEntry({
      seq: end.seq + 1,
      at: now(),
      kioskId: options.kioskId,
      action: input.action,
      outcome: input.outcome,
      role: input.role,
      account: text(input.account, 'account'),
      subject: subject && { userId: text(subject.userId, 'userId'), personUuid: text(subject.personUuid, 'personUuid'), outboxId: text(subject.outboxId, 'outboxId') },
      score: input.score,
      detail: text(input.detail, 'detail'),
      correlationId: text(input.correlationId, 'correlationId'),
      prevHash: end.hash,
    })
    const hash = entryHash(entry)
    insert.run({ ...entry, userId: entry.subject?.userId ?? null, personUuid: entry.subject?.personUuid ?? null, outboxId: entry.subject?.outboxId ?? null, hash })
    return toEntry(db.prepare<[number], Row>('SELECT * FROM entries WHERE seq = ?').get(entry.seq)!)
  })

  function select(query: AuditQuery, limit: number): Row[] {
    const where: string[] = []
    const params: unknown[] = []
    const add = (sql: string, ...values: unknown[]) => {
      where.push(sql)
      params.push(...values)
    }
    if (query.from !== undefined) add('at >= ?', query.from)
    if (query.to !== undefined) add('at <= ?', query.to)
    if (query.actions?.length) add(`action IN (${query.actions.map(() => '?').join(', ')})`, ...query.actions)
    if (query.userId !== undefined) add('user_id = ? COLLATE NOCASE', query.userId)
    if (query.personUuid !== undefined) add('person_uuid = ? COLLATE NOCASE', query.personUuid)
    if (query.account !== undefined) add('account = ? COLLATE NOCASE', query.account)
    if (query.beforeSeq !== undefined) add('seq < ?', query.beforeSeq)
    const sql = `SELECT * FROM entries ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT ?`
    return db.prepare<unknown[], Row>(sql).all(...params, limit)
  }

  function verify(): AuditVerdict {
    const start = anchor()
    let previous = start
    let entries = 0
    const previousFormat: AuditVerdict['previousFormat'] = { entries: 0, seqs: [] }
    for (const row of db.prepare<[], Row>('SELECT * FROM entries ORDER BY seq').iterate()) {
      const entry = toEntry(row)
      const bad = (reason: string): AuditVerdict => ({ ok: false, entries, firstBadSeq: row.seq, reason, previousFormat })
      if (row.seq !== previous.seq + 1) return bad(`entry ${row.seq} does not follow entry ${previous.seq}`)
      if (row.prev_hash !== previous.hash) return bad(`entry ${row.seq} does not link to entry ${previous.seq}`)
      if (entryHash(entry) !== row.hash) {
        // Written by an older kiosk? Read it in the previous format, and say so.
        if (previousFormatHash(entry, { userId: row.user_id, personUuid: row.person_uuid, outboxId: row.outbox_id }) !== row.hash) return bad(`entry ${row.seq} was changed after it was written`)
        previousFormat.entries++
        if (previousFormat.seqs.length < PREVIOUS_FORMAT_LISTED) previousFormat.seqs.push(row.seq)
      }
      previous = row
      entries++
    }
    return { ok: true, entries, firstBadSeq: null, reason: null, previousFormat }
  }

  const pruneTx = db.transaction((cutoff: number): number => {
    const lastOld = db.prepare<[number], { seq: number; hash: string }>('SELECT seq, hash FROM entries WHERE at < ? ORDER BY seq DESC LIMIT 1').get(cutoff)
    if (!lastOld) return 0
    db.exec('DROP TRIGGER entries_append_only_delete')
    const removed = db.prepare('DELETE FROM entries WHERE seq <= ?').run(lastOld.seq).changes
    db.exec(NO_DELETE_TRIGGER)
    db.prepare('INSERT INTO anchor (id, seq, hash) VALUES (1, ?, ?) ON CONFLICT(id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash').run(lastOld.seq, lastOld.hash)
    return removed
  })

  const log: AuditLog = {
    append: (entry) => appendTx.immediate(entry),
    query: (query) => select(query, Math.min(query.limit ?? 200, 1000)).map(toEntry),
    verify,
    startVerdict: verify(),
    exportCsv: (query) => toCsv(select(query, EXPORT_MAX).map(toEntry)),
    exportJson: (query) => JSON.stringify(select(query, EXPORT_MAX).map(toEntry), null, 2),
    prune(at, retentionDays) {
      const removed = pruneTx.immediate(at - retentionDays * 86_400_000)
      if (removed > 0) log.append({ action: 'audit-prune', outcome: 'ok', role: 'system', account: null, detail: `${removed} entries older than ${retentionDays} days removed` })
      return removed
    },
    close: () => db.close(),
  }
  return log
}

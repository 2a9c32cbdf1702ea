import type { AuditAction } from '../../shared/audit'
import type { Sql } from '../sql/types'
import { SITE_AUDIT_GENESIS, type SiteAuditFields } from './audit-hash'

/** A stored row of the site's trail. */
export interface SiteAuditRow {
  seq: number
  at: number
  kiosk_id: string | null
  kiosk_name: string | null
  action: string
  outcome: string
  role: string
  account: string | null
  person_uuid: string | null
  detail: string | null
  prev_hash: string
  hash: string
}

/** What staff may filter the site's trail by (auditQueryInput's fields, and the kiosk). */
export interface SiteAuditQuery {
  from?: number | undefined
  to?: number | undefined
  actions?: readonly AuditAction[] | undefined
  /** The site keeps no e-mails: a filter by one finds nothing. */
  userId?: string | undefined
  personUuid?: string | undefined
  account?: string | undefined
  kioskId?: string | undefined
  /** Paging, newest first: entries before this seq. */
  beforeSeq?: number | undefined
}

/** Where the chain ends now: the last entry's seq and hash (0 and the genesis hash when empty). */
export interface ChainEnd {
  seq: number
  hash: string
}

/** The site's audit rows over the caller's connection or transaction. Append only: no update, no delete. */
export class SiteAuditRepository {
  constructor(private readonly sql: Sql) {}

  async end(): Promise<ChainEnd> {
    const row = await this.sql.get<{ seq: number; hash: string }>('SELECT seq, hash FROM site_audit ORDER BY seq DESC LIMIT 1')
    return row ? { seq: Number(row.seq), hash: row.hash } : { seq: 0, hash: SITE_AUDIT_GENESIS }
  }

  async insert(entry: SiteAuditFields, hash: string): Promise<void> {
    await this.sql.run(
      `INSERT INTO site_audit (seq, at, kiosk_id, kiosk_name, action, outcome, role, account, person_uuid, detail, prev_hash, hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [entry.seq, entry.at, entry.kioskId, entry.kioskName, entry.action, entry.outcome, entry.role, entry.account, entry.personUuid, entry.detail, entry.prevHash, hash],
    )
  }

  /** The kiosk's name on the site, removed or not; null when the site never paired it. */
  async kioskName(kioskId: string): Promise<string | null> {
    return (await this.sql.get<{ name: string }>('SELECT name FROM kiosks WHERE id = ?', [kioskId]))?.name ?? null
  }

  /** Matching entries, newest first, at most `limit`. */
  async query(query: SiteAuditQuery, limit: number): Promise<SiteAuditRow[]> {
    const where: string[] = []
    const params: unknown[] = []
    const add = (sql: string, ...values: unknown[]) => {
      where.push(sql)
      params.push(...values)
    }
    if (query.from !== undefined) add('at >= ?', query.from)
    if (query.to !== undefined) add('at <= ?', query.to)
    if (query.actions?.length) add(`action IN (${query.actions.map(() => '?').join(', ')})`, ...query.actions)
    if (query.userId !== undefined) add('1 = 0')
    if (query.personUuid !== undefined) add('person_uuid = ?', query.personUuid.toLowerCase())
    if (query.account !== undefined) add('lower(account) = ?', query.account.toLowerCase())
    if (query.kioskId !== undefined) add('kiosk_id = ?', query.kioskId.toLowerCase())
    if (query.beforeSeq !== undefined) add('seq < ?', query.beforeSeq)
    const rows = await this.sql.all<SiteAuditRow>(`SELECT * FROM site_audit ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT ?`, [...params, limit])
    return rows.map(numbers)
  }

  /** Up to `limit` entries after `afterSeq`, oldest first: the chain read in pages. */
  async after(afterSeq: number, limit: number): Promise<SiteAuditRow[]> {
    return (await this.sql.all<SiteAuditRow>('SELECT * FROM site_audit WHERE seq > ? ORDER BY seq LIMIT ?', [afterSeq, limit])).map(numbers)
  }
}

/** bigint columns as numbers, whatever the driver gave. */
function numbers(row: SiteAuditRow): SiteAuditRow {
  return { ...row, seq: Number(row.seq), at: Number(row.at) }
}

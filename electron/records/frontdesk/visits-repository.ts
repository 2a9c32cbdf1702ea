import { ARRIVAL_BUCKET_MS, VISIT_OVERVIEW_HOSTS, type Visit, type VisitFilter, type VisitOverview } from '../../shared/visits'
import type { Sql } from '../sql/types'
import { emailKey, uuidKey } from './watchlist-repository'

export interface VisitRow {
  id: string
  person_uuid: string
  email: string
  first_name: string | null
  host_id: string | null
  host_name: string | null
  purpose: string
  checked_in_at: number
  checked_out_at: number | null
  checked_out_by: 'visitor' | 'staff' | null
  kiosk_id: string
  invite_id: string | null
}

/** A visit as read: the kiosk's name joined in (null for a kiosk the site never paired, or a kiosk on its own). */
type JoinedRow = VisitRow & { kiosk_name: string | null }

const iso = (ms: number) => new Date(ms).toISOString()
const visitOf = (row: JoinedRow): Visit => ({
  id: row.id,
  personUuid: row.person_uuid,
  email: row.email,
  firstName: row.first_name,
  hostId: row.host_id,
  hostName: row.host_name,
  purpose: row.purpose,
  checkedInAt: iso(row.checked_in_at),
  checkedOutAt: row.checked_out_at === null ? null : iso(row.checked_out_at),
  checkedOutBy: row.checked_out_by,
  kioskId: row.kiosk_id,
  kioskName: row.kiosk_name,
  inviteId: row.invite_id,
})

const SELECT = 'SELECT visits.*, kiosks.name AS kiosk_name FROM visits LEFT JOIN kiosks ON kiosks.id = visits.kiosk_id'

/** A LIKE pattern that matches `text` literally (its % and _ are not wildcards). */
const literalLike = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

export interface NewVisitRow {
  id: string
  personUuid: string
  email: string
  firstName: string | null
  hostId: string | null
  hostName: string | null
  purpose: string
  checkedInAt: number
  kioskId: string
  inviteId: string | null
}

/**
 * The visits. A person's uuid is kept in lower case and their e-mail also folded (email_key), so
 * both dialects find a person the same way. At most one open visit per person: the partial unique
 * index refuses a second (UniqueViolationError), even from another engine at the same moment.
 */
export class VisitRepository {
  constructor(private readonly sql: Sql) {}

  async insert(visit: NewVisitRow): Promise<void> {
    await this.sql.run(
      `INSERT INTO visits (id, person_uuid, email, email_key, first_name, host_id, host_name, purpose, checked_in_at, kiosk_id, invite_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        visit.id,
        uuidKey(visit.personUuid),
        visit.email,
        emailKey(visit.email),
        visit.firstName,
        visit.hostId,
        visit.hostName,
        visit.purpose,
        visit.checkedInAt,
        visit.kioskId,
        visit.inviteId,
      ],
    )
  }

  /** A visit as another store kept it (the import of a kiosk's visits.db); one already here is kept. */
  async insertImported(row: VisitRow): Promise<boolean> {
    const changed = await this.sql.run(
      `INSERT INTO visits (id, person_uuid, email, email_key, first_name, host_id, host_name, purpose, checked_in_at, checked_out_at, checked_out_by, kiosk_id, invite_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      [
        row.id,
        uuidKey(row.person_uuid),
        row.email,
        emailKey(row.email),
        row.first_name,
        row.host_id,
        row.host_name,
        row.purpose,
        row.checked_in_at,
        row.checked_out_at,
        row.checked_out_by,
        row.kiosk_id,
        row.invite_id,
      ],
    )
    return changed > 0
  }

  async byId(id: string): Promise<Visit | null> {
    const row = await this.sql.get<JoinedRow>(`${SELECT} WHERE visits.id = ?`, [id])
    return row ? visitOf(row) : null
  }

  /** The person's open visit (they are on site), if any. */
  async openOf(personUuid: string): Promise<Visit | null> {
    const row = await this.sql.get<JoinedRow>(`${SELECT} WHERE visits.person_uuid = ? AND visits.checked_out_at IS NULL`, [uuidKey(personUuid)])
    return row ? visitOf(row) : null
  }

  async lastOf(personUuid: string): Promise<Visit | null> {
    const row = await this.sql.get<JoinedRow>(`${SELECT} WHERE visits.person_uuid = ? ORDER BY visits.checked_in_at DESC, visits.id DESC LIMIT 1`, [uuidKey(personUuid)])
    return row ? visitOf(row) : null
  }

  /** The first name the person gave at their latest check-in that gave one; null when none did. */
  async lastFirstNameOf(personUuid: string): Promise<string | null> {
    const row = await this.sql.get<{ first_name: string }>(
      'SELECT first_name FROM visits WHERE person_uuid = ? AND first_name IS NOT NULL ORDER BY checked_in_at DESC, id DESC LIMIT 1',
      [uuidKey(personUuid)],
    )
    return row?.first_name ?? null
  }

  /** Ends the visit if it is open; false when there is no such visit or it already ended. */
  async end(id: string, by: 'visitor' | 'staff', at: number): Promise<boolean> {
    return (await this.sql.run('UPDATE visits SET checked_out_at = ?, checked_out_by = ? WHERE id = ? AND checked_out_at IS NULL', [at, by, id])) > 0
  }

  /** Ends the person's open visit; its id, or null when they had none. */
  async endOpenOf(personUuid: string, by: 'visitor' | 'staff', at: number): Promise<string | null> {
    const rows = await this.sql.all<{ id: string }>('UPDATE visits SET checked_out_at = ?, checked_out_by = ? WHERE person_uuid = ? AND checked_out_at IS NULL RETURNING id', [
      at,
      by,
      uuidKey(personUuid),
    ])
    return rows[0]?.id ?? null
  }

  /** Everyone on site, oldest check-in first. */
  async onSite(): Promise<Visit[]> {
    return (await this.sql.all<JoinedRow>(`${SELECT} WHERE visits.checked_out_at IS NULL ORDER BY visits.checked_in_at, visits.id`)).map(visitOf)
  }

  async count(filter: VisitFilter): Promise<number> {
    const { sql, params } = this.where(filter)
    return (await this.sql.get<{ n: number }>(`SELECT count(*) AS n FROM visits ${sql}`, params))!.n
  }

  /** Newest check-in first: `limit` of them after `offset`. */
  async page(filter: VisitFilter, limit: number, offset: number): Promise<Visit[]> {
    const { sql, params } = this.where(filter)
    return (await this.sql.all<JoinedRow>(`${SELECT} ${sql} ORDER BY visits.checked_in_at DESC, visits.id LIMIT ? OFFSET ?`, [...params, limit, offset])).map(visitOf)
  }

  /** The Overview's counts for check-ins in [from, to] (ms): in the database, so 100,000 visits are a few grouped rows. */
  async overview(from: number, to: number): Promise<VisitOverview> {
    const range = [from, to]
    // PostgreSQL's avg of a bigint is numeric (a string to the driver): taken as a double instead.
    const averageStay = this.sql.dialect === 'postgres' ? 'avg(checked_out_at - checked_in_at)::float8' : 'avg(checked_out_at - checked_in_at)'
    const [arrivals, onSite, stays, hosts] = await Promise.all([
      this.sql.all<{ q: number; n: number }>(`SELECT checked_in_at / ${ARRIVAL_BUCKET_MS} AS q, count(*) AS n FROM visits WHERE checked_in_at BETWEEN ? AND ? GROUP BY q ORDER BY q`, range),
      this.sql.get<{ n: number }>('SELECT count(*) AS n FROM visits WHERE checked_out_at IS NULL'),
      this.sql.get<{ n: number; ms: number | null }>(`SELECT count(*) AS n, ${averageStay} AS ms FROM visits WHERE checked_in_at BETWEEN ? AND ? AND checked_out_at IS NOT NULL`, range),
      // Named as the directory names them now, else as the visit did.
      this.sql.all<{ host_id: string; name: string | null; n: number }>(
        `SELECT visits.host_id, coalesce(max(hosts.name), max(visits.host_name)) AS name, count(*) AS n FROM visits LEFT JOIN hosts ON hosts.id = visits.host_id
         WHERE visits.checked_in_at BETWEEN ? AND ? AND visits.host_id IS NOT NULL GROUP BY visits.host_id ORDER BY n DESC, visits.host_id LIMIT ${VISIT_OVERVIEW_HOSTS}`,
        range,
      ),
    ])
    return {
      arrivals: arrivals.map((row) => [Number(row.q) * ARRIVAL_BUCKET_MS, row.n]),
      onSiteNow: onSite!.n,
      ended: stays!.n,
      averageStaySeconds: stays!.ms === null ? null : stays!.ms / 1000,
      busiestHosts: hosts.map((row) => ({ hostId: row.host_id, name: row.name ?? '', visits: row.n })),
    }
  }

  /** Removes the visits of a person, by e-mail (folded) and/or uuid; returns their ids and the e-mails they were under. */
  async forget(person: { emailKey: string | null; personUuid: string | null }): Promise<{ ids: string[]; emailKeys: string[] }> {
    const clauses: string[] = []
    const params: unknown[] = []
    if (person.emailKey !== null) {
      clauses.push('email_key = ?')
      params.push(person.emailKey)
    }
    if (person.personUuid !== null) {
      clauses.push('person_uuid = ?')
      params.push(uuidKey(person.personUuid))
    }
    if (clauses.length === 0) return { ids: [], emailKeys: [] }
    const rows = await this.sql.all<{ id: string; email_key: string }>(`DELETE FROM visits WHERE ${clauses.join(' OR ')} RETURNING id, email_key`, params)
    return { ids: rows.map((row) => row.id), emailKeys: [...new Set(rows.map((row) => row.email_key))] }
  }

  /** Removes visits that ended (or, still open, began) before `cutoff`; returns their ids. */
  async purgeBefore(cutoff: number): Promise<string[]> {
    return (await this.sql.all<{ id: string }>('DELETE FROM visits WHERE coalesce(checked_out_at, checked_in_at) < ? RETURNING id', [cutoff])).map((row) => row.id)
  }

  /** The filter as a WHERE clause. The search is case-insensitive in both dialects (SQLite's LIKE folds ASCII; PostgreSQL's ILIKE). */
  private where(filter: VisitFilter): { sql: string; params: unknown[] } {
    const clauses: string[] = []
    const params: unknown[] = []
    if (filter.search) {
      const like = this.sql.dialect === 'postgres' ? 'ILIKE' : 'LIKE'
      const columns = ['visits.email', 'visits.first_name', 'visits.host_name', 'visits.purpose']
      clauses.push(`(${columns.map((column) => `${column} ${like} ? ESCAPE '\\'`).join(' OR ')})`)
      params.push(...columns.map(() => literalLike(filter.search!)))
    }
    const add = (clause: string, value: unknown) => {
      clauses.push(clause)
      params.push(value)
    }
    if (filter.from) add('visits.checked_in_at >= ?', Date.parse(filter.from))
    if (filter.to) add('visits.checked_in_at <= ?', Date.parse(filter.to))
    if (filter.hostId) add('visits.host_id = ?', filter.hostId)
    if (filter.onSite !== undefined) clauses.push(filter.onSite ? 'visits.checked_out_at IS NULL' : 'visits.checked_out_at IS NOT NULL')
    return { sql: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params }
  }
}

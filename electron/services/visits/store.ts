import { randomUUID } from 'node:crypto'
import type { Host, Visit, VisitFilter } from '../../shared/visits'
import { openPrivateDatabase, type Db } from '../private-database'

/**
 * The front desk's own records, in `visits.db` in the kiosk's data folder (0600): the hosts
 * directory and every visit. Local only, so who is on site is known with the network down
 * (the evacuation list reads nothing else).
 */

const migrations = [
  `CREATE TABLE hosts (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     email TEXT,
     webhook_url TEXT,
     created_at INTEGER NOT NULL
   );
   CREATE TABLE visits (
     id TEXT PRIMARY KEY,
     person_uuid TEXT NOT NULL,
     email TEXT NOT NULL,
     first_name TEXT,
     host_id TEXT,
     host_name TEXT,
     purpose TEXT NOT NULL,
     checked_in_at INTEGER NOT NULL,
     checked_out_at INTEGER,
     checked_out_by TEXT CHECK (checked_out_by IN ('visitor', 'staff')),
     kiosk_id TEXT NOT NULL,
     invite_id TEXT
   );
   CREATE INDEX visits_open ON visits (checked_out_at, checked_in_at);
   CREATE INDEX visits_person ON visits (person_uuid);
   CREATE INDEX visits_in ON visits (checked_in_at);`,
  // When a check-in with a host was handed to the host notices' queue (their own file): a visit
  // stored but never handed over (the kiosk stopped between the two) is handed over at the next start.
  `ALTER TABLE visits ADD COLUMN arrival_queued_at INTEGER;
   UPDATE visits SET arrival_queued_at = checked_in_at WHERE host_id IS NOT NULL;`,
]

interface VisitRow {
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
interface HostRow {
  id: string
  name: string
  email: string | null
  webhook_url: string | null
}

const iso = (ms: number) => new Date(ms).toISOString()
const visitOf = (row: VisitRow): Visit => ({
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
  inviteId: row.invite_id,
})
const hostOf = (row: HostRow): Host => ({ id: row.id, name: row.name, email: row.email, webhookUrl: row.webhook_url })

/** A LIKE pattern that matches `text` literally (its % and _ are not wildcards). */
const literalLike = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

export interface NewVisit {
  personUuid: string
  email: string
  firstName: string | null
  host: Pick<Host, 'id' | 'name'> | null
  purpose: string
  kioskId: string
  inviteId?: string | null
}

export type HostFields = Omit<Host, 'id'>

export function openVisitStore(options: { dir: string; now?: () => number }) {
  const now = options.now ?? Date.now
  const db: Db = openPrivateDatabase(options.dir, 'visits.db', migrations)

  const where = (filter: VisitFilter): { sql: string; params: unknown[] } => {
    const clauses: string[] = []
    const params: unknown[] = []
    if (filter.search) {
      clauses.push(`(email LIKE ? ESCAPE '\\' OR first_name LIKE ? ESCAPE '\\' OR host_name LIKE ? ESCAPE '\\' OR purpose LIKE ? ESCAPE '\\')`)
      params.push(...Array(4).fill(literalLike(filter.search)))
    }
    const add = (clause: string, value: unknown) => {
      clauses.push(clause)
      params.push(value)
    }
    if (filter.from) add('checked_in_at >= ?', Date.parse(filter.from))
    if (filter.to) add('checked_in_at <= ?', Date.parse(filter.to))
    if (filter.hostId) add('host_id = ?', filter.hostId)
    if (filter.onSite !== undefined) clauses.push(filter.onSite ? 'checked_out_at IS NULL' : 'checked_out_at IS NOT NULL')
    return { sql: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params }
  }
  const visit = (id: string): Visit | null => {
    const row = db.prepare<[string], VisitRow>('SELECT * FROM visits WHERE id = ?').get(id)
    return row ? visitOf(row) : null
  }

  return {
    hosts: {
      list: (): Host[] => db.prepare<[], HostRow>('SELECT id, name, email, webhook_url FROM hosts ORDER BY name COLLATE NOCASE, id').all().map(hostOf),
      get(id: string): Host | null {
        const row = db.prepare<[string], HostRow>('SELECT id, name, email, webhook_url FROM hosts WHERE id = ?').get(id)
        return row ? hostOf(row) : null
      },
      add(fields: HostFields): Host {
        const id = randomUUID()
        db.prepare('INSERT INTO hosts (id, name, email, webhook_url, created_at) VALUES (?, ?, ?, ?, ?)').run(id, fields.name, fields.email, fields.webhookUrl, now())
        return { id, ...fields }
      },
      /** Null when there is no such host. A visit keeps the host's name as it was at check-in. */
      update(id: string, fields: HostFields): Host | null {
        const changed = db.prepare('UPDATE hosts SET name = ?, email = ?, webhook_url = ? WHERE id = ?').run(fields.name, fields.email, fields.webhookUrl, id).changes
        return changed > 0 ? { id, ...fields } : null
      },
      remove: (id: string): boolean => db.prepare('DELETE FROM hosts WHERE id = ?').run(id).changes > 0,
    },

    visit,
    /** The person's visit still open (they are on site), if any. */
    openVisitOf(personUuid: string): Visit | null {
      const row = db.prepare<[string], VisitRow>('SELECT * FROM visits WHERE person_uuid = ? AND checked_out_at IS NULL ORDER BY checked_in_at DESC LIMIT 1').get(personUuid)
      return row ? visitOf(row) : null
    },
    lastVisitOf(personUuid: string): Visit | null {
      const row = db.prepare<[string], VisitRow>('SELECT * FROM visits WHERE person_uuid = ? ORDER BY checked_in_at DESC LIMIT 1').get(personUuid)
      return row ? visitOf(row) : null
    },
    checkIn(input: NewVisit): Visit {
      const id = randomUUID()
      db.prepare(
        `INSERT INTO visits (id, person_uuid, email, first_name, host_id, host_name, purpose, checked_in_at, kiosk_id, invite_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(id, input.personUuid, input.email, input.firstName, input.host?.id ?? null, input.host?.name ?? null, input.purpose, now(), input.kioskId, input.inviteId ?? null)
      return visit(id)!
    },
    /** The visit's arrival is in the host notices' queue. */
    arrivalQueued: (id: string): void => {
      db.prepare('UPDATE visits SET arrival_queued_at = ? WHERE id = ?').run(now(), id)
    },
    /** Open visits with a host, checked in since `since`, whose arrival never reached the host notices' queue. */
    arrivalsNotQueued: (since: number): Visit[] =>
      db
        .prepare<[number], VisitRow>('SELECT * FROM visits WHERE host_id IS NOT NULL AND arrival_queued_at IS NULL AND checked_out_at IS NULL AND checked_in_at >= ? ORDER BY checked_in_at, id')
        .all(since)
        .map(visitOf),
    /** Removes a visit just stored whose check-in could not finish (its invitation was used meanwhile). */
    remove: (id: string): boolean => db.prepare('DELETE FROM visits WHERE id = ?').run(id).changes > 0,
    /** Ends an open visit; null when there is no such visit or it already ended. */
    checkOut(id: string, by: 'visitor' | 'staff'): Visit | null {
      const changed = db.prepare('UPDATE visits SET checked_out_at = ?, checked_out_by = ? WHERE id = ? AND checked_out_at IS NULL').run(now(), by, id).changes
      return changed > 0 ? visit(id) : null
    },
    onSite: (): Visit[] => db.prepare<[], VisitRow>('SELECT * FROM visits WHERE checked_out_at IS NULL ORDER BY checked_in_at, id').all().map(visitOf),
    /** One page of the log, newest check-in first, with the count of all that match. */
    log(filter: VisitFilter, pageNo: number, pageSize: number): { visits: Visit[]; total: number } {
      const { sql, params } = where(filter)
      const total = (db.prepare(`SELECT count(*) AS n FROM visits ${sql}`).get(...params) as { n: number }).n
      const rows = db.prepare(`SELECT * FROM visits ${sql} ORDER BY checked_in_at DESC, id LIMIT ? OFFSET ?`).all(...params, pageSize, pageNo * pageSize) as VisitRow[]
      return { visits: rows.map(visitOf), total }
    },
    all(filter: VisitFilter): Visit[] {
      const { sql, params } = where(filter)
      return (db.prepare(`SELECT * FROM visits ${sql} ORDER BY checked_in_at DESC, id`).all(...params) as VisitRow[]).map(visitOf)
    },
    /** Removes every visit of a person (by e-mail, case-insensitively, and by person id); returns their ids (their host notices go with them). */
    forget(person: { userId?: string; personUuid?: string }): string[] {
      const ids = (sql: string, key: string) => (db.prepare(sql).all(key) as { id: string }[]).map((row) => row.id)
      return removed(db, [
        ...(person.userId ? ids('DELETE FROM visits WHERE lower(email) = lower(?) RETURNING id', person.userId) : []),
        ...(person.personUuid ? ids('DELETE FROM visits WHERE person_uuid = ? RETURNING id', person.personUuid) : []),
      ])
    },
    countBefore: (cutoff: number): number => (db.prepare('SELECT count(*) AS n FROM visits WHERE coalesce(checked_out_at, checked_in_at) < ?').get(cutoff) as { n: number }).n,
    /** Removes visits that ended (or, still open, began) before `cutoff`: the visitor retention. */
    purgeBefore: (cutoff: number): string[] =>
      removed(db, (db.prepare('DELETE FROM visits WHERE coalesce(checked_out_at, checked_in_at) < ? RETURNING id').all(cutoff) as { id: string }[]).map((row) => row.id)),
    close: () => db.close(),
  }
}

export type VisitStore = ReturnType<typeof openVisitStore>

/**
 * After visits are removed, folds the WAL back into the file: secure_delete clears the freed rows
 * in the database, but their old pages would stay readable in the WAL's frames until a checkpoint.
 * Best effort (a busy reader): the next removal or the WAL's own checkpoint folds them.
 */
function removed(db: Db, ids: string[]): string[] {
  if (ids.length > 0) {
    try {
      db.pragma('wal_checkpoint(TRUNCATE)')
    } catch {
      // busy: see above
    }
  }
  return ids
}

import { randomUUID } from 'node:crypto'
import type { Db } from './database'
import { canonicalPersonId } from './person-id'
import { listSql, toPage, type ListQuery, type Page } from './paging'

/**
 * A person as the person server returns it: the UUID under `id`, as the vendor's Person entity
 * carries it, and under `uuid` too, for kiosks that read that name.
 */
export interface Person {
  id: string
  uuid: string
  userId: string
  deviceId: string | null
  created: number
  modified: number
}

interface PersonRow {
  uuid: string
  user_id: string
  device_id: string | null
  created: number
  modified: number
}

export const personColumns = 'p.uuid, p.user_id, p.device_id, p.created, p.modified'

export function toPerson(row: PersonRow): Person {
  return { id: row.uuid, uuid: row.uuid, userId: row.user_id, deviceId: row.device_id, created: row.created, modified: row.modified }
}

/**
 * BioEngine templates belong to a person when their personid is the person's UUID or userId, in any
 * case: templates.person_id is COLLATE NOCASE, and as the left operand its collation applies.
 */
export const templatesOfPerson = '(t.person_id = p.uuid OR t.person_id = p.user_id)'

export class PersonStore {
  constructor(private readonly db: Db) {}

  byUuid(uuid: string): Person | null {
    const row = this.db.prepare<[string], PersonRow>(`SELECT ${personColumns} FROM persons p WHERE p.uuid = ?`).get(uuid)
    return row ? toPerson(row) : null
  }

  byUserId(userId: string): Person | null {
    const row = this.db.prepare<[string], PersonRow>(`SELECT ${personColumns} FROM persons p WHERE p.user_id = ?`).get(userId)
    return row ? toPerson(row) : null
  }

  byDeviceId(deviceId: string): Person | null {
    const row = this.db.prepare<[string], PersonRow>(`SELECT ${personColumns} FROM persons p WHERE p.device_id = ?`).get(deviceId)
    return row ? toPerson(row) : null
  }

  /** The person whose UUID or userId is this BioEngine personid, in any case, if any. */
  byBioPersonId(personId: string): Person | null {
    return this.byUuid(canonicalPersonId(personId)) ?? this.byUserId(personId)
  }

  insert(userId: string, deviceId: string | null): Person {
    const now = Date.now()
    const uuid = randomUUID()
    const person: Person = { id: uuid, uuid, userId, deviceId, created: now, modified: now }
    this.db
      .prepare('INSERT INTO persons (uuid, user_id, device_id, created, modified) VALUES (?, ?, ?, ?, ?)')
      .run(person.uuid, person.userId, person.deviceId, person.created, person.modified)
    return person
  }

  /** Deletes the person, their tenant associations (cascade), their biometric templates and kept face crops. */
  delete(person: Person): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM templates WHERE person_id = ? OR person_id = ?').run(canonicalPersonId(person.uuid), canonicalPersonId(person.userId))
      this.db.prepare('DELETE FROM face_crops WHERE person_id = ? OR person_id = ?').run(canonicalPersonId(person.uuid), canonicalPersonId(person.userId))
      this.db.prepare('DELETE FROM persons WHERE uuid = ?').run(person.uuid)
    })()
  }

  list(query: ListQuery): Page<Person> {
    const sql = listSql(query)
    const where = sql.where.length ? `WHERE ${sql.where.join(' AND ')}` : ''
    const total = this.db.prepare<unknown[], { n: number }>(`SELECT COUNT(*) AS n FROM persons p ${where}`).get(...sql.params)!.n
    const rows = this.db
      .prepare<unknown[], PersonRow>(`SELECT ${personColumns} FROM persons p ${where} ORDER BY ${sql.orderBy} LIMIT ? OFFSET ?`)
      .all(...sql.params, sql.limit, sql.offset)
    return toPage(rows.map(toPerson), total, sql)
  }
}

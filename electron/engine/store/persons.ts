import { randomUUID } from 'node:crypto'
import type { PersonRecord } from '../../shared/api-records'
import { changed } from './change-log'
import { canonicalPersonId } from './person-id'
import { listSql, toPage, type ListQuery, type Page } from './paging'
import type { Sql } from '../../records/sql/types'

/**
 * A person as the person server returns it: the UUID under `id`, as the vendor's Person entity
 * carries it, and under `uuid` too, for kiosks that read that name.
 */
export type Person = PersonRecord

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
 * case: templates.person_id is COLLATE NOCASE (citext in PostgreSQL), and as the left operand its
 * collation applies.
 */
export const templatesOfPerson = '(t.person_id = p.uuid OR t.person_id = p.user_id)'

export class PersonRepository {
  constructor(private readonly sql: Sql) {}

  private async one(where: string, value: string): Promise<Person | null> {
    const row = await this.sql.get<PersonRow>(`SELECT ${personColumns} FROM persons p WHERE ${where} = ?`, [value])
    return row ? toPerson(row) : null
  }

  byUuid(uuid: string): Promise<Person | null> {
    return this.one('p.uuid', uuid)
  }

  byUserId(userId: string): Promise<Person | null> {
    return this.one('p.user_id', userId)
  }

  byDeviceId(deviceId: string): Promise<Person | null> {
    return this.one('p.device_id', deviceId)
  }

  /** The person whose UUID or userId is this BioEngine personid, in any case, if any. */
  async byBioPersonId(personId: string): Promise<Person | null> {
    return (await this.byUuid(canonicalPersonId(personId))) ?? (await this.byUserId(personId))
  }

  /** Inserts a person; a userId or deviceId already taken is the database's UniqueViolationError. */
  async insert(userId: string, deviceId: string | null): Promise<Person> {
    const now = Date.now()
    const uuid = randomUUID()
    await this.sql.run('INSERT INTO persons (uuid, user_id, device_id, created, modified) VALUES (?, ?, ?, ?, ?)', [uuid, userId, deviceId, now, now])
    return { id: uuid, uuid, userId, deviceId, created: now, modified: now }
  }

  /**
   * Deletes the person, their tenant associations (cascade), their biometric templates and kept
   * face crops; call it inside a transaction. Each template removed is a change identify must see.
   */
  async delete(person: Person): Promise<void> {
    const ids = [canonicalPersonId(person.uuid), canonicalPersonId(person.userId)]
    const removed = await this.sql.all<{ template_type: string; person_id: string; template_context: string }>(
      'DELETE FROM templates WHERE person_id = ? OR person_id = ? RETURNING template_type, person_id, template_context',
      ids,
    )
    await changed(
      this.sql,
      removed.map((r) => ({ templateType: r.template_type, personId: r.person_id, templateContext: r.template_context })),
    )
    await this.sql.run('DELETE FROM face_crops WHERE person_id = ? OR person_id = ?', ids)
    await this.sql.run('DELETE FROM persons WHERE uuid = ?', [person.uuid])
  }

  async list(query: ListQuery): Promise<Page<Person>> {
    const sql = listSql(query, this.sql.dialect)
    const where = sql.where.length ? `WHERE ${sql.where.join(' AND ')}` : ''
    const total = (await this.sql.get<{ n: number }>(`SELECT COUNT(*) AS n FROM persons p ${where}`, sql.params))!.n
    const rows = await this.sql.all<PersonRow>(`SELECT ${personColumns} FROM persons p ${where} ORDER BY ${sql.orderBy} LIMIT ? OFFSET ?`, [
      ...sql.params,
      sql.limit,
      sql.offset,
    ])
    return toPage(rows.map(toPerson), total, sql)
  }
}

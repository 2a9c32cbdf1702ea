import type { BiometricInfoRecord } from '../../shared/api-records'
import { changed } from './change-log'
import { canonicalPersonId } from './person-id'
import type { Sealer } from './sealer'
import type { Sql } from '../../records/sql/types'

export interface StoredTemplate {
  personId: string
  templateType: string
  templateContext: string
  /** The encoded template (see bio/template-codec.ts), decrypted. */
  data: Buffer
  size: number
  created: number
}

/** BiometricInfo as the BioEngine reports it. */
export type BiometricInfo = BiometricInfoRecord

interface Row {
  person_id: string
  template_type: string
  template_context: string
  data: Buffer
  size: number
  created: number
}

/** Rows read per statement when a whole type is loaded: each page and its row buffers pass through the allocator, whose high-water mark stays resident (at 300k templates, pages of 4000 left 320 MB of it, of 256 under 80). */
const PAGE_ROWS = 256
/** A stored template as read from the database, not yet opened. */
export interface SealedTemplate {
  personId: string
  templateContext: string
  sealed: Buffer
}

/** A cache load's pages: the first, then each after the last key read (one index range each, never a sort of the type). */
export const TYPE_PAGE_FIRST = 'SELECT * FROM templates WHERE template_type = ? ORDER BY person_id, template_context LIMIT ?'
export const TYPE_PAGE_AFTER = 'SELECT * FROM templates WHERE template_type = ? AND (person_id, template_context) > (?, ?) ORDER BY person_id, template_context LIMIT ?'

/**
 * Encrypted templates by (person id, type, context). Person ids are stored and looked up in their
 * canonical form (person-id.ts); the column is COLLATE NOCASE (citext) as well. Every write logs
 * what it changed (change-log.ts) in the same transaction.
 */
export class TemplateRepository {
  constructor(
    private readonly sql: Sql,
    private readonly sealer: Sealer,
  ) {}

  /** Inserts or replaces the template for (person, type, context). */
  async put(personId: string, templateType: string, templateContext: string, data: Buffer): Promise<BiometricInfo> {
    personId = canonicalPersonId(personId)
    const created = Date.now()
    await this.sql.run(
      `INSERT INTO templates (person_id, template_type, template_context, data, size, created) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(person_id, template_type, template_context) DO UPDATE SET data = excluded.data, size = excluded.size, created = excluded.created`,
      [personId, templateType, templateContext, this.sealer.seal(data), data.length, created],
    )
    await changed(this.sql, [{ templateType, personId, templateContext }])
    return { templateType, templateContext, size: data.length, timestamp: created }
  }

  async infos(personId: string, templateType?: string): Promise<BiometricInfo[]> {
    const params = [canonicalPersonId(personId), ...(templateType ? [templateType] : [])]
    const rows = await this.sql.all<Row>(
      `SELECT template_type, template_context, size, created FROM templates WHERE person_id = ? ${templateType ? 'AND template_type = ?' : ''}
       ORDER BY template_type, template_context`,
      params,
    )
    return rows.map((r) => ({ templateType: r.template_type, templateContext: r.template_context, size: r.size, timestamp: r.created }))
  }

  /** A person's readable templates of one type (unreadable ones, as in a cache load, are left out). */
  async ofPerson(personId: string, templateType: string): Promise<StoredTemplate[]> {
    const rows = await this.sql.all<Row>('SELECT * FROM templates WHERE person_id = ? AND template_type = ?', [canonicalPersonId(personId), templateType])
    return rows.flatMap((r) => this.readable(r) ?? [])
  }

  /** One template, decrypted; null when there is none or it is unreadable. */
  async one(personId: string, templateType: string, templateContext: string): Promise<StoredTemplate | null> {
    const row = await this.sql.get<Row>('SELECT * FROM templates WHERE person_id = ? AND template_type = ? AND template_context = ?', [
      canonicalPersonId(personId),
      templateType,
      templateContext,
    ])
    return row ? this.readable(row) : null
  }

  /**
   * Every template of one type, still sealed, a page at a time in key order, for loading a cache:
   * the cache's threads open them with `sealKey` (one that will not open, from a data folder moved
   * between installs, is skipped and counted there, never allowed to stop start-up).
   */
  async *sealedPagesOfType(templateType: string): AsyncIterableIterator<SealedTemplate[]> {
    let after: Row | undefined
    for (;;) {
      const rows: Row[] = after
        ? await this.sql.all<Row>(TYPE_PAGE_AFTER, [templateType, after.person_id, after.template_context, PAGE_ROWS])
        : await this.sql.all<Row>(TYPE_PAGE_FIRST, [templateType, PAGE_ROWS])
      if (rows.length > 0) yield rows.map((row) => ({ personId: row.person_id, templateContext: row.template_context, sealed: row.data }))
      if (rows.length < PAGE_ROWS) return
      after = rows[rows.length - 1]
    }
  }

  /** What opens sealed templates (see sealedPagesOfType). */
  get sealKey(): Buffer {
    return this.sealer.key
  }

  /** Whether (person, type, context) holds a template. */
  async has(personId: string, templateType: string, templateContext: string): Promise<boolean> {
    const sql = 'SELECT 1 AS one FROM templates WHERE person_id = ? AND template_type = ? AND template_context = ?'
    return (await this.sql.get(sql, [canonicalPersonId(personId), templateType, templateContext])) !== undefined
  }

  /** Templates of one person id, of every type. */
  async countOfPerson(personId: string): Promise<number> {
    return (await this.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM templates WHERE person_id = ?', [canonicalPersonId(personId)]))!.n
  }

  async countOfType(templateType: string): Promise<number> {
    return (await this.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM templates WHERE template_type = ?', [templateType]))!.n
  }

  /** Deletes matching templates and returns the (type, context) pairs removed. */
  async delete(personId: string, templateType?: string, templateContext?: string): Promise<Array<{ templateType: string; templateContext: string }>> {
    const id = canonicalPersonId(personId)
    const conditions = ['person_id = ?']
    const params: string[] = [id]
    if (templateType !== undefined) {
      conditions.push('template_type = ?')
      params.push(templateType)
    }
    if (templateContext !== undefined) {
      conditions.push('template_context = ?')
      params.push(templateContext)
    }
    const removed = (
      await this.sql.all<{ template_type: string; template_context: string }>(
        `DELETE FROM templates WHERE ${conditions.join(' AND ')} RETURNING template_type, template_context`,
        params,
      )
    ).map((r) => ({ templateType: r.template_type, templateContext: r.template_context }))
    await changed(
      this.sql,
      removed.map((r) => ({ ...r, personId: id })),
    )
    return removed
  }

  private readable(row: Row): StoredTemplate | null {
    try {
      return {
        personId: row.person_id,
        templateType: row.template_type,
        templateContext: row.template_context,
        data: this.sealer.open(row.data),
        size: row.size,
        created: row.created,
      }
    } catch {
      return null
    }
  }
}

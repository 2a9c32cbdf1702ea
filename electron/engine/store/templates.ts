import type { Db } from './database'
import { canonicalPersonId } from './person-id'
import type { Sealer } from './sealer'

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
export interface BiometricInfo {
  templateType: string
  templateContext: string
  size: number
  timestamp: number
}

interface Row {
  person_id: string
  template_type: string
  template_context: string
  data: Buffer
  size: number
  created: number
}

/**
 * Encrypted templates by (person id, type, context). Person ids are stored and looked up in their
 * canonical form (person-id.ts); the column is COLLATE NOCASE as well (migration 2).
 */
export class TemplateStore {
  constructor(
    private readonly db: Db,
    private readonly sealer: Sealer,
  ) {}

  /** Runs `work` in one transaction (checks and the insert they guard). */
  atomically<T>(work: () => T): T {
    return this.db.transaction(work)()
  }

  /** Inserts or replaces the template for (person, type, context). */
  put(personId: string, templateType: string, templateContext: string, data: Buffer): BiometricInfo {
    personId = canonicalPersonId(personId)
    const created = Date.now()
    this.db
      .prepare(
        `INSERT INTO templates (person_id, template_type, template_context, data, size, created) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT(person_id, template_type, template_context) DO UPDATE SET data = excluded.data, size = excluded.size, created = excluded.created`,
      )
      .run(personId, templateType, templateContext, this.sealer.seal(data), data.length, created)
    return { templateType, templateContext, size: data.length, timestamp: created }
  }

  infos(personId: string, templateType?: string): BiometricInfo[] {
    personId = canonicalPersonId(personId)
    const rows = templateType
      ? this.db
          .prepare<[string, string], Row>('SELECT * FROM templates WHERE person_id = ? AND template_type = ? ORDER BY template_type, template_context')
          .all(personId, templateType)
      : this.db.prepare<[string], Row>('SELECT * FROM templates WHERE person_id = ? ORDER BY template_type, template_context').all(personId)
    return rows.map((r) => ({ templateType: r.template_type, templateContext: r.template_context, size: r.size, timestamp: r.created }))
  }

  /** A person's readable templates of one type (unreadable ones, as in allOfType, are left out). */
  ofPerson(personId: string, templateType: string): StoredTemplate[] {
    return this.db
      .prepare<[string, string], Row>('SELECT * FROM templates WHERE person_id = ? AND template_type = ?')
      .all(canonicalPersonId(personId), templateType)
      .flatMap((r) => {
        try {
          return [this.decode(r)]
        } catch {
          return []
        }
      })
  }

  /**
   * Every readable template of one type, for rebuilding a cache. Rows sealed under another key (a
   * data folder moved between installs) are skipped and reported, never allowed to stop start-up.
   */
  *allOfType(templateType: string, onUnreadable: (personId: string) => void = () => {}): IterableIterator<StoredTemplate> {
    for (const row of this.db.prepare<[string], Row>('SELECT * FROM templates WHERE template_type = ?').iterate(templateType)) {
      let template: StoredTemplate
      try {
        template = this.decode(row)
      } catch {
        onUnreadable(row.person_id)
        continue
      }
      yield template
    }
  }

  /** Whether (person, type, context) holds a template. */
  has(personId: string, templateType: string, templateContext: string): boolean {
    const sql = 'SELECT 1 FROM templates WHERE person_id = ? AND template_type = ? AND template_context = ?'
    return this.db.prepare<[string, string, string], unknown>(sql).get(canonicalPersonId(personId), templateType, templateContext) !== undefined
  }

  /** Templates of one person id, of every type. */
  countOfPerson(personId: string): number {
    return this.db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM templates WHERE person_id = ?').get(canonicalPersonId(personId))!.n
  }

  countOfType(templateType: string): number {
    return this.db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM templates WHERE template_type = ?').get(templateType)!.n
  }

  /** Deletes matching templates and returns the (type, context) pairs removed. */
  delete(personId: string, templateType?: string, templateContext?: string): Array<{ templateType: string; templateContext: string }> {
    const conditions = ['person_id = ?']
    const params: string[] = [canonicalPersonId(personId)]
    if (templateType !== undefined) {
      conditions.push('template_type = ?')
      params.push(templateType)
    }
    if (templateContext !== undefined) {
      conditions.push('template_context = ?')
      params.push(templateContext)
    }
    const where = conditions.join(' AND ')
    return this.db.transaction(() => {
      const removed = this.db
        .prepare<string[], { template_type: string; template_context: string }>(`SELECT template_type, template_context FROM templates WHERE ${where}`)
        .all(...params)
      this.db.prepare(`DELETE FROM templates WHERE ${where}`).run(...params)
      return removed.map((r) => ({ templateType: r.template_type, templateContext: r.template_context }))
    })()
  }

  private decode(row: Row): StoredTemplate {
    return {
      personId: row.person_id,
      templateType: row.template_type,
      templateContext: row.template_context,
      data: this.sealer.open(row.data),
      size: row.size,
      created: row.created,
    }
  }
}

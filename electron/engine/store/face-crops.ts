import { canonicalPersonId } from './person-id'
import { templatesOfPerson } from './persons'
import type { Sealer } from './sealer'
import type { Sql } from '../../records/sql/types'

/** One enrollment's kept crops: what a template of another type is built from. */
export interface KeptEnrollment {
  personId: string
  templateContext: string
}

/**
 * Normalized face crops of enrollments, by (person id, template context), for tenants that opted
 * in (tenants.keep_face_crops). Sealed with the template key, like the templates: the database
 * never holds a face image in the clear. A crop lives as long as its enrollment has a template
 * and a tenant of its person keeps crops.
 */
export class FaceCropRepository {
  constructor(
    private readonly sql: Sql,
    private readonly sealer: Sealer,
  ) {}

  /** Whether any tenant of this BioEngine person id (UUID or userId) keeps face crops. */
  async keepsCrops(personId: string): Promise<boolean> {
    const sql = `SELECT 1 AS one FROM persons p JOIN tenant_persons tp ON tp.person_uuid = p.uuid JOIN tenants t ON t.code = tp.tenant_code
      WHERE t.keep_face_crops = 1 AND (p.uuid = ? OR p.user_id = ?) LIMIT 1`
    return (await this.sql.get(sql, [canonicalPersonId(personId), personId])) !== undefined
  }

  /** Replaces the enrollment's crops with these (JPEG bytes); call it inside a transaction. */
  async put(personId: string, templateContext: string, crops: Buffer[]): Promise<void> {
    const id = canonicalPersonId(personId)
    const now = Date.now()
    await this.sql.run('DELETE FROM face_crops WHERE person_id = ? AND template_context = ?', [id, templateContext])
    for (const [seq, crop] of crops.entries()) {
      await this.sql.run('INSERT INTO face_crops (person_id, template_context, seq, data, created) VALUES (?, ?, ?, ?, ?)', [
        id,
        templateContext,
        seq,
        this.sealer.seal(crop),
        now,
      ])
    }
  }

  /** The enrollment's crops, decrypted; those sealed under another key are left out. */
  async crops(personId: string, templateContext: string): Promise<Buffer[]> {
    const rows = await this.sql.all<{ data: Buffer }>('SELECT data FROM face_crops WHERE person_id = ? AND template_context = ? ORDER BY seq', [
      canonicalPersonId(personId),
      templateContext,
    ])
    return rows.flatMap((row) => {
      try {
        return [this.sealer.open(row.data)]
      } catch {
        return []
      }
    })
  }

  /** Every enrollment with kept crops whose person is (still) in a tenant that keeps them. */
  async keptEnrollments(): Promise<KeptEnrollment[]> {
    const rows = await this.sql.all<{ person_id: string; template_context: string }>(
      `SELECT DISTINCT c.person_id, c.template_context FROM face_crops c WHERE ${kept('c')} ORDER BY c.person_id, c.template_context`,
    )
    return rows.map((r) => ({ personId: r.person_id, templateContext: r.template_context }))
  }

  /** Drops the crops of enrollments no template of any type remains for (deleted templates take their crops). */
  async dropOrphans(personId: string): Promise<void> {
    await this.sql.run(
      `DELETE FROM face_crops WHERE person_id = ? AND NOT EXISTS
        (SELECT 1 FROM templates t WHERE t.person_id = face_crops.person_id AND t.template_context = face_crops.template_context)`,
      [canonicalPersonId(personId)],
    )
  }

  /** Drops every crop whose person no longer belongs to a tenant that keeps crops (opt-out, disassociation, deletion). */
  dropUnkept(): Promise<number> {
    return this.sql.run(`DELETE FROM face_crops WHERE NOT ${kept('face_crops')}`)
  }

  async count(): Promise<number> {
    return (await this.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM face_crops'))!.n
  }
}

/** The crop's person is in a tenant that keeps crops (person ids match by UUID or userId, as templates do). */
const kept = (crops: string) => `EXISTS (SELECT 1 FROM persons p JOIN tenant_persons tp ON tp.person_uuid = p.uuid JOIN tenants k ON k.code = tp.tenant_code
  WHERE k.keep_face_crops = 1 AND ${templatesOfPerson.replaceAll('t.person_id', `${crops}.person_id`)})`

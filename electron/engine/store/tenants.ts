import type { TenantRecord } from '../../shared/api-records'
import type { TenantUpdateRequest } from '../../shared/api-requests'
import type { TenantAssociationRepository } from './tenant-associations'
import type { Sql } from '../../records/sql/types'

export type Tenant = TenantRecord
/** A tenant's own fields as PUT /v1/tenant sets them; keepFaceCrops left out leaves it as it is. */
export type TenantUpdate = Omit<TenantUpdateRequest, 'code'>

interface TenantRow {
  code: string
  name: string
  max_identities: number
  default_post_back: string | null
  keep_face_crops: number
  created: number
  modified: number
}

/** A tenant's own row; its apps and algorithms are in tenant-associations.ts, its persons in tenant-memberships.ts. */
export class TenantRepository {
  constructor(
    private readonly sql: Sql,
    private readonly associations: TenantAssociationRepository,
  ) {}

  async get(code: string): Promise<Tenant | null> {
    const row = await this.sql.get<TenantRow>('SELECT * FROM tenants WHERE code = ?', [code])
    if (!row) return null
    return {
      code: row.code,
      name: row.name,
      maxIdentities: row.max_identities,
      defaultPostBack: row.default_post_back,
      keepFaceCrops: row.keep_face_crops === 1,
      created: row.created,
      modified: row.modified,
      apps: await this.associations.apps(code),
      algorithms: await this.associations.algorithms(code),
    }
  }

  /**
   * Holds the tenant's row until the transaction ends, so capacity checks and the writes they guard
   * are one step for every process (SQLite's single writer already is). False when there is no tenant.
   */
  async lock(code: string): Promise<boolean> {
    const forUpdate = this.sql.dialect === 'postgres' ? ' FOR UPDATE' : ''
    return (await this.sql.get(`SELECT 1 AS one FROM tenants WHERE code = ?${forUpdate}`, [code])) !== undefined
  }

  /** Creates the tenant or updates it; true when it was created. */
  async upsert(code: string, update: TenantUpdate): Promise<boolean> {
    const now = Date.now()
    const existed = (await this.sql.get('SELECT 1 AS one FROM tenants WHERE code = ?', [code])) !== undefined
    await this.sql.run(
      `INSERT INTO tenants (code, name, max_identities, default_post_back, keep_face_crops, created, modified) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(code) DO UPDATE SET name = excluded.name, max_identities = excluded.max_identities,
         default_post_back = excluded.default_post_back, modified = excluded.modified
         ${update.keepFaceCrops === undefined ? '' : ', keep_face_crops = excluded.keep_face_crops'}`,
      [code, update.name, update.maxIdentities, update.defaultPostBack ?? null, update.keepFaceCrops ? 1 : 0, now, now],
    )
    return !existed
  }
}

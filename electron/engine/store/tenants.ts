import type { AlgorithmRecord, AppAssociationRecord, LicenseRecord, TenantPersonRecord, TenantRecord } from '../../shared/api-records'
import type { TenantUpdateRequest } from '../../shared/api-requests'
import { listSql, toPage, type ListQuery, type Page } from './paging'
import { canonicalPersonId } from './person-id'
import { personColumns, templatesOfPerson, toPerson } from './persons'
import type { Sql } from './sql/types'

export type Tenant = TenantRecord
export type LicenseData = LicenseRecord
export type AlgorithmAssociation = AlgorithmRecord
export type AppAssociation = AppAssociationRecord
/** A person as seen within a tenant (Get Tenant User Data). */
export type TenantPerson = TenantPersonRecord
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

interface TenantPersonRow {
  uuid: string
  user_id: string
  device_id: string | null
  created: number
  modified: number
  associated: number
  template_types: string | null
}

export class TenantRepository {
  constructor(private readonly sql: Sql) {}

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
      apps: await this.apps(code),
      algorithms: await this.algorithms(code),
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

  async personCount(code: string): Promise<number> {
    return (await this.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM tenant_persons WHERE tenant_code = ?', [code]))!.n
  }

  async isMember(code: string, uuid: string): Promise<boolean> {
    return (await this.sql.get('SELECT 1 AS one FROM tenant_persons WHERE tenant_code = ? AND person_uuid = ?', [code, uuid])) !== undefined
  }

  async associatePerson(code: string, uuid: string): Promise<void> {
    await this.sql.run('INSERT INTO tenant_persons (tenant_code, person_uuid, associated) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', [code, uuid, Date.now()])
  }

  /** True when the person was associated and no longer is. */
  async disassociatePerson(code: string, uuid: string): Promise<boolean> {
    return (await this.sql.run('DELETE FROM tenant_persons WHERE tenant_code = ? AND person_uuid = ?', [code, uuid])) > 0
  }

  async tenantsOfPerson(uuid: string): Promise<Tenant[]> {
    const codes = await this.sql.all<{ tenant_code: string }>('SELECT tenant_code FROM tenant_persons WHERE person_uuid = ? ORDER BY tenant_code', [uuid])
    const tenants = await Promise.all(codes.map((c) => this.get(c.tenant_code)))
    return tenants.filter((t): t is Tenant => t !== null)
  }

  async tenantPerson(code: string, uuid: string): Promise<TenantPerson | null> {
    const row = await this.sql.get<TenantPersonRow>(`${this.tenantPersonSelect()} WHERE tp.tenant_code = ? AND p.uuid = ?`, [code, uuid])
    return row ? toTenantPerson(code, row) : null
  }

  async tenantPersons(code: string, query: ListQuery): Promise<Page<TenantPerson>> {
    const sql = listSql(query, this.sql.dialect)
    const where = ['tp.tenant_code = ?', ...sql.where].join(' AND ')
    const total = (await this.sql.get<{ n: number }>(`SELECT COUNT(*) AS n FROM persons p JOIN tenant_persons tp ON tp.person_uuid = p.uuid WHERE ${where}`, [
      code,
      ...sql.params,
    ]))!.n
    const rows = await this.sql.all<TenantPersonRow>(`${this.tenantPersonSelect()} WHERE ${where} ORDER BY ${sql.orderBy} LIMIT ? OFFSET ?`, [
      code,
      ...sql.params,
      sql.limit,
      sql.offset,
    ])
    return toPage(
      rows.map((r) => toTenantPerson(code, r)),
      total,
      sql,
    )
  }

  apps(code: string): Promise<AppAssociation[]> {
    return this.sql.all<AppAssociation>('SELECT app_code AS code, associated FROM tenant_apps WHERE tenant_code = ? ORDER BY app_code', [code])
  }

  async associateApp(code: string, app: string): Promise<void> {
    await this.sql.run('INSERT INTO tenant_apps (tenant_code, app_code, associated) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', [code, app, Date.now()])
  }

  async disassociateApp(code: string, app: string): Promise<boolean> {
    return (await this.sql.run('DELETE FROM tenant_apps WHERE tenant_code = ? AND app_code = ?', [code, app])) > 0
  }

  /** Tenants that have this app, among those the person belongs to. */
  async appTenantsOfPerson(app: string, uuid: string): Promise<string[]> {
    const rows = await this.sql.all<{ tenant_code: string }>(
      `SELECT a.tenant_code FROM tenant_apps a JOIN tenant_persons tp ON tp.tenant_code = a.tenant_code
       WHERE a.app_code = ? AND tp.person_uuid = ? ORDER BY a.tenant_code`,
      [app, uuid],
    )
    return rows.map((r) => r.tenant_code)
  }

  async algorithms(code: string): Promise<AlgorithmAssociation[]> {
    const rows = await this.sql.all<{ alg_code: string; info: string | null; max_identities: number | null; expire_date: number | null; associated: number }>(
      'SELECT alg_code, info, max_identities, expire_date, associated FROM tenant_algorithms WHERE tenant_code = ? ORDER BY alg_code',
      [code],
    )
    const liveness = await this.sql.all<{ alg_code: string; liveness_code: string }>(
      'SELECT alg_code, liveness_code FROM tenant_alg_liveness WHERE tenant_code = ? ORDER BY liveness_code',
      [code],
    )
    return rows.map((r) => ({
      code: r.alg_code,
      licenseData: { info: r.info, maxIdentities: r.max_identities, expireDate: r.expire_date },
      liveness: liveness.filter((l) => l.alg_code === r.alg_code).map((l) => l.liveness_code),
      associated: r.associated,
    }))
  }

  async associateAlgorithm(code: string, alg: string, license: LicenseData): Promise<void> {
    await this.sql.run(
      `INSERT INTO tenant_algorithms (tenant_code, alg_code, info, max_identities, expire_date, associated) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(tenant_code, alg_code) DO UPDATE SET info = excluded.info, max_identities = excluded.max_identities, expire_date = excluded.expire_date`,
      [code, alg, license.info, license.maxIdentities, license.expireDate, Date.now()],
    )
  }

  async disassociateAlgorithm(code: string, alg: string): Promise<boolean> {
    return (await this.sql.run('DELETE FROM tenant_algorithms WHERE tenant_code = ? AND alg_code = ?', [code, alg])) > 0
  }

  async associateLiveness(code: string, alg: string, liveness: string): Promise<void> {
    await this.sql.run('INSERT INTO tenant_alg_liveness (tenant_code, alg_code, liveness_code, associated) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING', [
      code,
      alg,
      liveness,
      Date.now(),
    ])
  }

  async disassociateLiveness(code: string, alg: string, liveness: string): Promise<boolean> {
    return (await this.sql.run('DELETE FROM tenant_alg_liveness WHERE tenant_code = ? AND alg_code = ? AND liveness_code = ?', [code, alg, liveness])) > 0
  }

  /**
   * Every licence that covers an algorithm for this person (through the person's tenants). With
   * `lock`, the licensing tenants' rows are held to the end of the transaction, in code order, so
   * enrollments racing on several processes count one after another.
   */
  async licensesFor(alg: string, personId: string, lock = false): Promise<Array<LicenseData & { tenantCode: string; enrolled: number }>> {
    const ids = [alg, canonicalPersonId(personId), personId]
    const tenantsOf = `SELECT a.tenant_code FROM tenant_algorithms a JOIN tenant_persons tp ON tp.tenant_code = a.tenant_code
      JOIN persons p ON p.uuid = tp.person_uuid WHERE a.alg_code = ? AND (p.uuid = ? OR p.user_id = ?)`
    if (lock && this.sql.dialect === 'postgres') await this.sql.all(`SELECT code FROM tenants WHERE code IN (${tenantsOf}) ORDER BY code FOR UPDATE`, ids)
    const algOfType = this.sql.dialect === 'postgres' ? "split_part(t.template_type, ':', 2)" : "substr(t.template_type, instr(t.template_type, ':') + 1)"
    const rows = await this.sql.all<{ tenant_code: string; info: string | null; max_identities: number | null; expire_date: number | null; enrolled: number }>(
      `SELECT a.tenant_code, a.info, a.max_identities, a.expire_date,
         (SELECT COUNT(DISTINCT p2.uuid) FROM tenant_persons tp2 JOIN persons p2 ON p2.uuid = tp2.person_uuid
            JOIN templates t ON (t.person_id = p2.uuid OR t.person_id = p2.user_id) AND ${algOfType} = a.alg_code
          WHERE tp2.tenant_code = a.tenant_code) AS enrolled
       FROM tenant_algorithms a
       JOIN tenant_persons tp ON tp.tenant_code = a.tenant_code
       JOIN persons p ON p.uuid = tp.person_uuid
       WHERE a.alg_code = ? AND (p.uuid = ? OR p.user_id = ?)`,
      ids,
    )
    return rows.map((r) => ({ tenantCode: r.tenant_code, info: r.info, maxIdentities: r.max_identities, expireDate: r.expire_date, enrolled: r.enrolled }))
  }

  private tenantPersonSelect(): string {
    const typeList = this.sql.dialect === 'postgres' ? "string_agg(DISTINCT t.template_type, ',')" : 'group_concat(DISTINCT t.template_type)'
    return `SELECT ${personColumns}, tp.associated,
      (SELECT ${typeList} FROM templates t WHERE ${templatesOfPerson}) AS template_types
      FROM persons p JOIN tenant_persons tp ON tp.person_uuid = p.uuid`
  }
}

function toTenantPerson(code: string, row: TenantPersonRow): TenantPerson {
  const templateTypes = row.template_types ? row.template_types.split(',').sort() : []
  return {
    ...toPerson(row),
    tenantCode: code,
    associated: row.associated,
    enrollmentStatus: templateTypes.length > 0 ? 'ENROLLED' : 'NOT_ENROLLED',
    templateTypes,
  }
}

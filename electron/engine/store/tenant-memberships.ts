import type { TenantPersonRecord } from '../../shared/api-records'
import { listSql, toPage, type ListQuery, type Page } from './paging'
import { personColumns, templatesOfPerson, toPerson } from './persons'
import type { Sql } from '../../records/sql/types'
import type { Tenant, TenantRepository } from './tenants'

/** A person as seen within a tenant (Get Tenant User Data). */
export type TenantPerson = TenantPersonRecord

interface TenantPersonRow {
  uuid: string
  user_id: string
  device_id: string | null
  created: number
  modified: number
  associated: number
  template_types: string | null
}

/** Which persons belong to which tenants. */
export class TenantMembershipRepository {
  constructor(
    private readonly sql: Sql,
    private readonly tenants: TenantRepository,
  ) {}

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
    const tenants = await Promise.all(codes.map((c) => this.tenants.get(c.tenant_code)))
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

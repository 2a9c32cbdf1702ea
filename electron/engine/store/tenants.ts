import type { Db } from './database'
import { listSql, toPage, type ListQuery, type Page } from './paging'
import { canonicalPersonId } from './person-id'
import { personColumns, templatesOfPerson, toPerson, type Person } from './persons'

export interface LicenseData {
  info: string | null
  maxIdentities: number | null
  /** Epoch milliseconds; null means no expiry. */
  expireDate: number | null
}

export interface AlgorithmAssociation {
  code: string
  licenseData: LicenseData
  liveness: string[]
  associated: number
}

export interface AppAssociation {
  code: string
  associated: number
}

export interface Tenant {
  code: string
  name: string
  /** 0 means no limit. */
  maxIdentities: number
  defaultPostBack: string | null
  /** Opt-in: enrollments keep their normalized face crops (sealed), so templates can be rebuilt for another type. */
  keepFaceCrops: boolean
  created: number
  modified: number
  apps: AppAssociation[]
  algorithms: AlgorithmAssociation[]
}

export interface TenantUpdate {
  name: string
  maxIdentities: number
  defaultPostBack: string | null
  /** Left as it is when undefined; off for a new tenant. */
  keepFaceCrops?: boolean | undefined
}

export type EnrollmentStatus = 'ENROLLED' | 'NOT_ENROLLED'

/** A person as seen within a tenant (Get Tenant User Data). */
export interface TenantPerson extends Person {
  tenantCode: string
  associated: number
  enrollmentStatus: EnrollmentStatus
  templateTypes: string[]
}

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

export class TenantStore {
  constructor(private readonly db: Db) {}

  get(code: string): Tenant | null {
    const row = this.db.prepare<[string], TenantRow>('SELECT * FROM tenants WHERE code = ?').get(code)
    if (!row) return null
    return {
      code: row.code,
      name: row.name,
      maxIdentities: row.max_identities,
      defaultPostBack: row.default_post_back,
      keepFaceCrops: row.keep_face_crops === 1,
      created: row.created,
      modified: row.modified,
      apps: this.apps(code),
      algorithms: this.algorithms(code),
    }
  }

  /** Creates the tenant or updates it; true when it was created. */
  upsert(code: string, update: TenantUpdate): boolean {
    const now = Date.now()
    const existed = this.db.prepare('SELECT 1 FROM tenants WHERE code = ?').get(code) !== undefined
    this.db
      .prepare(
        `INSERT INTO tenants (code, name, max_identities, default_post_back, keep_face_crops, created, modified) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(code) DO UPDATE SET name = excluded.name, max_identities = excluded.max_identities,
           default_post_back = excluded.default_post_back, modified = excluded.modified
           ${update.keepFaceCrops === undefined ? '' : ', keep_face_crops = excluded.keep_face_crops'}`,
      )
      .run(code, update.name, update.maxIdentities, update.defaultPostBack, update.keepFaceCrops ? 1 : 0, now, now)
    return !existed
  }

  personCount(code: string): number {
    return this.db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM tenant_persons WHERE tenant_code = ?').get(code)!.n
  }

  isMember(code: string, uuid: string): boolean {
    return this.db.prepare('SELECT 1 FROM tenant_persons WHERE tenant_code = ? AND person_uuid = ?').get(code, uuid) !== undefined
  }

  associatePerson(code: string, uuid: string): void {
    this.db.prepare('INSERT OR IGNORE INTO tenant_persons (tenant_code, person_uuid, associated) VALUES (?, ?, ?)').run(code, uuid, Date.now())
  }

  /** True when the person was associated and no longer is. */
  disassociatePerson(code: string, uuid: string): boolean {
    return this.db.prepare('DELETE FROM tenant_persons WHERE tenant_code = ? AND person_uuid = ?').run(code, uuid).changes > 0
  }

  tenantsOfPerson(uuid: string): Tenant[] {
    const codes = this.db
      .prepare<[string], { tenant_code: string }>('SELECT tenant_code FROM tenant_persons WHERE person_uuid = ? ORDER BY tenant_code')
      .all(uuid)
    return codes.map((c) => this.get(c.tenant_code)).filter((t): t is Tenant => t !== null)
  }

  tenantPerson(code: string, uuid: string): TenantPerson | null {
    const row = this.db
      .prepare<[string, string], TenantPersonRow>(`${tenantPersonSelect} WHERE tp.tenant_code = ? AND p.uuid = ?`)
      .get(code, uuid)
    return row ? toTenantPerson(code, row) : null
  }

  tenantPersons(code: string, query: ListQuery): Page<TenantPerson> {
    const sql = listSql(query)
    const where = ['tp.tenant_code = ?', ...sql.where].join(' AND ')
    const total = this.db
      .prepare<unknown[], { n: number }>(`SELECT COUNT(*) AS n FROM persons p JOIN tenant_persons tp ON tp.person_uuid = p.uuid WHERE ${where}`)
      .get(code, ...sql.params)!.n
    const rows = this.db
      .prepare<unknown[], TenantPersonRow>(`${tenantPersonSelect} WHERE ${where} ORDER BY ${sql.orderBy} LIMIT ? OFFSET ?`)
      .all(code, ...sql.params, sql.limit, sql.offset)
    return toPage(
      rows.map((r) => toTenantPerson(code, r)),
      total,
      sql,
    )
  }

  apps(code: string): AppAssociation[] {
    return this.db
      .prepare<[string], AppAssociation>('SELECT app_code AS code, associated FROM tenant_apps WHERE tenant_code = ? ORDER BY app_code')
      .all(code)
  }

  associateApp(code: string, app: string): void {
    this.db.prepare('INSERT OR IGNORE INTO tenant_apps (tenant_code, app_code, associated) VALUES (?, ?, ?)').run(code, app, Date.now())
  }

  disassociateApp(code: string, app: string): boolean {
    return this.db.prepare('DELETE FROM tenant_apps WHERE tenant_code = ? AND app_code = ?').run(code, app).changes > 0
  }

  /** Tenants that have this app, among those the person belongs to. */
  appTenantsOfPerson(app: string, uuid: string): string[] {
    return this.db
      .prepare<[string, string], { tenant_code: string }>(
        `SELECT a.tenant_code FROM tenant_apps a JOIN tenant_persons tp ON tp.tenant_code = a.tenant_code
         WHERE a.app_code = ? AND tp.person_uuid = ? ORDER BY a.tenant_code`,
      )
      .all(app, uuid)
      .map((r) => r.tenant_code)
  }

  algorithms(code: string): AlgorithmAssociation[] {
    const rows = this.db
      .prepare<[string], { alg_code: string; info: string | null; max_identities: number | null; expire_date: number | null; associated: number }>(
        'SELECT alg_code, info, max_identities, expire_date, associated FROM tenant_algorithms WHERE tenant_code = ? ORDER BY alg_code',
      )
      .all(code)
    const liveness = this.db.prepare<[string, string], { liveness_code: string }>(
      'SELECT liveness_code FROM tenant_alg_liveness WHERE tenant_code = ? AND alg_code = ? ORDER BY liveness_code',
    )
    return rows.map((r) => ({
      code: r.alg_code,
      licenseData: { info: r.info, maxIdentities: r.max_identities, expireDate: r.expire_date },
      liveness: liveness.all(code, r.alg_code).map((l) => l.liveness_code),
      associated: r.associated,
    }))
  }

  associateAlgorithm(code: string, alg: string, license: LicenseData): void {
    this.db
      .prepare(
        `INSERT INTO tenant_algorithms (tenant_code, alg_code, info, max_identities, expire_date, associated) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT(tenant_code, alg_code) DO UPDATE SET info = excluded.info, max_identities = excluded.max_identities, expire_date = excluded.expire_date`,
      )
      .run(code, alg, license.info, license.maxIdentities, license.expireDate, Date.now())
  }

  disassociateAlgorithm(code: string, alg: string): boolean {
    return this.db.prepare('DELETE FROM tenant_algorithms WHERE tenant_code = ? AND alg_code = ?').run(code, alg).changes > 0
  }

  associateLiveness(code: string, alg: string, liveness: string): void {
    this.db
      .prepare('INSERT OR IGNORE INTO tenant_alg_liveness (tenant_code, alg_code, liveness_code, associated) VALUES (?, ?, ?, ?)')
      .run(code, alg, liveness, Date.now())
  }

  disassociateLiveness(code: string, alg: string, liveness: string): boolean {
    return (
      this.db.prepare('DELETE FROM tenant_alg_liveness WHERE tenant_code = ? AND alg_code = ? AND liveness_code = ?').run(code, alg, liveness).changes > 0
    )
  }

  /** Every licence that covers an algorithm for this person (through the person's tenants). */
  licensesFor(alg: string, personId: string): Array<LicenseData & { tenantCode: string; enrolled: number }> {
    return this.db
      .prepare<[string, string, string], { tenant_code: string; info: string | null; max_identities: number | null; expire_date: number | null; enrolled: number }>(
        `SELECT a.tenant_code, a.info, a.max_identities, a.expire_date,
           (SELECT COUNT(DISTINCT p2.uuid) FROM tenant_persons tp2 JOIN persons p2 ON p2.uuid = tp2.person_uuid
              JOIN templates t ON (t.person_id = p2.uuid OR t.person_id = p2.user_id) AND substr(t.template_type, instr(t.template_type, ':') + 1) = a.alg_code
            WHERE tp2.tenant_code = a.tenant_code) AS enrolled
         FROM tenant_algorithms a
         JOIN tenant_persons tp ON tp.tenant_code = a.tenant_code
         JOIN persons p ON p.uuid = tp.person_uuid
         WHERE a.alg_code = ? AND (p.uuid = ? OR p.user_id = ?)`,
      )
      .all(alg, canonicalPersonId(personId), personId)
      .map((r) => ({ tenantCode: r.tenant_code, info: r.info, maxIdentities: r.max_identities, expireDate: r.expire_date, enrolled: r.enrolled }))
  }
}

const tenantPersonSelect = `SELECT ${personColumns}, tp.associated,
  (SELECT group_concat(DISTINCT t.template_type) FROM templates t WHERE ${templatesOfPerson}) AS template_types
  FROM persons p JOIN tenant_persons tp ON tp.person_uuid = p.uuid`

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

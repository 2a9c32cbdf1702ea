import type { AlgorithmRecord, AppAssociationRecord, LicenseRecord } from '../../shared/api-records'
import { canonicalPersonId } from './person-id'
import type { Sql } from '../../records/sql/types'

export type LicenseData = LicenseRecord
export type AlgorithmAssociation = AlgorithmRecord
export type AppAssociation = AppAssociationRecord

/** A tenant's apps and algorithms (with their licences and liveness checks). */
export class TenantAssociationRepository {
  constructor(private readonly sql: Sql) {}

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
}

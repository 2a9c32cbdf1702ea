import { join } from 'node:path'
import { ChangeLogRepository } from './change-log'
import { ClientRepository, scryptKey, type DeriveKey } from './clients'
import { FaceCropRepository } from './face-crops'
import { PersonRepository } from './persons'
import { openPostgres } from '../../records/sql/postgres'
import { openSqlite } from '../../records/sql/sqlite'
import type { Database, Sql } from '../../records/sql/types'
import { migrateEngineSchema } from './schema'
import type { Sealer } from './sealer'
import { TemplateRepository } from './templates'
import { TenantAssociationRepository } from './tenant-associations'
import { TenantMembershipRepository } from './tenant-memberships'
import { TenantRepository } from './tenants'

/** Every repository, over one connection or one transaction. */
export interface Repositories {
  /** The connection or transaction they share, for the statements that belong to no one repository. */
  sql: Sql
  persons: PersonRepository
  tenants: TenantRepository
  /** Which persons belong to which tenants. */
  memberships: TenantMembershipRepository
  /** Tenants' apps and algorithms (licences, liveness checks). */
  associations: TenantAssociationRepository
  templates: TemplateRepository
  crops: FaceCropRepository
  clients: ClientRepository
  changes: ChangeLogRepository
}

/** The engine's store: SQLite in its data folder, or a PostgreSQL database shared by a site's engines. */
export interface Store extends Repositories {
  readonly db: Database
  /** Runs `work` in one transaction; see Database.transaction. */
  transaction<T>(work: (tx: Repositories) => Promise<T>): Promise<T>
  close(): Promise<void>
}

export interface StoreOptions {
  /** The engine's data folder: SQLite's engine.db lives here unless databaseUrl is given. */
  dataDir: string
  /** postgres://…: the site's database instead (no password in it; PGPASSWORD or PGPASSFILE). */
  databaseUrl?: string | undefined
  /** Where reads go while databaseUrl cannot be reached (postgres.ts, readUrl). */
  readDatabaseUrl?: string | undefined
  sealer: Sealer
  /** How client secrets are hashed (tests count or hold it). */
  derive?: DeriveKey
}

export async function openStore(options: StoreOptions): Promise<Store> {
  const db = options.databaseUrl ? await openPostgres({ url: options.databaseUrl, readUrl: options.readDatabaseUrl }) : openSqlite(join(options.dataDir, 'engine.db'))
  try {
    await migrateEngineSchema(db)
  } catch (error) {
    await db.close().catch(() => {})
    throw error
  }
  return storeOver(db, options.sealer, options.derive ?? scryptKey)
}

/** The repositories over a database already migrated (migrateEngineSchema). */
export function storeOver(db: Database, sealer: Sealer, derive: DeriveKey = scryptKey): Store {
  const repositories = (sql: Sql): Repositories => {
    const associations = new TenantAssociationRepository(sql)
    const tenants = new TenantRepository(sql, associations)
    return {
      sql,
      persons: new PersonRepository(sql),
      tenants,
      memberships: new TenantMembershipRepository(sql, tenants),
      associations,
      templates: new TemplateRepository(sql, sealer),
      crops: new FaceCropRepository(sql, sealer),
      clients: new ClientRepository(sql, derive),
      changes: new ChangeLogRepository(sql),
    }
  }
  return {
    ...repositories(db),
    db,
    transaction: (work) => db.transaction((sql) => work(repositories(sql))),
    close: () => db.close(),
  }
}

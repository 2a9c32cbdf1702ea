import type { Database, Sql } from '../../records/sql/types'
import { postgresMigrations } from './sql/migrations-postgres'
import { sqliteMigrations } from './sql/migrations-sqlite'

/** Every engine takes this lock to migrate, so engines starting together migrate once. */
const MIGRATION_LOCK = 0x6b696f736b01

/**
 * Applies the engine's own schema: the migrations not yet applied, each in its own transaction.
 * The bookkeeping is the engine's since its first release, so existing databases keep working:
 * SQLite counts them in PRAGMA user_version; PostgreSQL records each in schema_migrations, read
 * and written under an advisory lock. (The records layer's sets are counted apart, in
 * schema_versions: records/sql/migrate.ts.)
 */
export async function migrateEngineSchema(db: Database): Promise<void> {
  const step = db.dialect === 'postgres' ? postgresStep : sqliteStep
  // One migration per transaction, each re-reading the version inside it (another process may have run it meanwhile).
  while (await db.transaction(step)) {
    // next migration
  }
}

/** Applies the next migration; false when there was none left. */
async function sqliteStep(tx: Sql): Promise<boolean> {
  // Inside the IMMEDIATE transaction: another process on the file waits, then sees this one's count.
  const version = (await tx.get<{ user_version: number }>('PRAGMA user_version'))!.user_version
  if (version >= sqliteMigrations.length) return false
  await tx.exec(sqliteMigrations[version]!)
  await tx.exec(`PRAGMA user_version = ${version + 1}`)
  return true
}

async function postgresStep(tx: Sql): Promise<boolean> {
  await tx.get('SELECT pg_advisory_xact_lock(?)', [MIGRATION_LOCK])
  await tx.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied bigint NOT NULL)')
  const version = (await tx.get<{ version: number | null }>('SELECT max(version) AS version FROM schema_migrations'))?.version ?? 0
  // An engine older than the schema must not write to it: it does not know the newer rules.
  if (version > postgresMigrations.length) {
    throw new Error(`The database schema is at version ${version}, newer than this engine's ${postgresMigrations.length}: upgrade the engine.`)
  }
  if (version === postgresMigrations.length) return false
  await tx.exec(postgresMigrations[version]!)
  await tx.run('INSERT INTO schema_migrations (version, applied) VALUES (?, ?)', [version + 1, Date.now()])
  return true
}

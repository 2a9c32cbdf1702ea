import type { Database, Sql } from './types'

/** One version of a set's schema, in each dialect's words (the same tables, each in its own types). */
export interface MigrationStep {
  sqlite: string
  postgres: string
}

/**
 * A named, versioned schema: its version is how many steps have been applied, recorded under its
 * name in schema_versions, so several sets (the front desk's, later others) share one database.
 * Never edit a shipped step: add one.
 */
export interface MigrationSet {
  name: string
  steps: readonly MigrationStep[]
}

/** The database was migrated by newer code than this: writing to it could break rules this code does not know. */
export class SchemaTooNewError extends Error {
  constructor(
    readonly set: string,
    readonly recorded: number,
    readonly known: number,
  ) {
    super(`The ${set} records are at schema version ${recorded}, newer than this program's ${known}: upgrade it before using this database.`)
    this.name = 'SchemaTooNewError'
  }
}

/** Taken by every process migrating any set, so engines starting together on one PostgreSQL database migrate once. */
const SCHEMA_LOCK = 0x6b696f736b04

/**
 * Brings `set` up to its last step: each step in its own transaction, which reads the recorded
 * version again inside it (under the advisory lock on PostgreSQL; SQLite's write lock is taken at
 * BEGIN IMMEDIATE), so a step another process applied meanwhile is not applied twice. Refuses a
 * database whose recorded version is newer than the set's (SchemaTooNewError).
 */
export async function migrate(db: Database, set: MigrationSet): Promise<void> {
  while (await db.transaction((tx) => nextStep(tx, set))) {
    // next step
  }
}

/** Applies the set's next step; false when it was already at its last. */
async function nextStep(tx: Sql, set: MigrationSet): Promise<boolean> {
  if (tx.dialect === 'postgres') await tx.get('SELECT pg_advisory_xact_lock(?)', [SCHEMA_LOCK])
  await tx.exec('CREATE TABLE IF NOT EXISTS schema_versions (name TEXT PRIMARY KEY, version INTEGER NOT NULL)')
  const version = await recordedVersion(tx, set.name)
  if (version > set.steps.length) throw new SchemaTooNewError(set.name, version, set.steps.length)
  if (version === set.steps.length) return false
  const step = set.steps[version]!
  await tx.exec(tx.dialect === 'postgres' ? step.postgres : step.sqlite)
  await tx.run('INSERT INTO schema_versions (name, version) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET version = excluded.version', [set.name, version + 1])
  return true
}

/** The set's recorded version: 0 when it was never applied. */
export async function recordedVersion(sql: Sql, name: string): Promise<number> {
  return (await sql.get<{ version: number }>('SELECT version FROM schema_versions WHERE name = ?', [name]))?.version ?? 0
}

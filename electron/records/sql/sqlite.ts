import BetterSqlite from 'better-sqlite3'
import { UniqueViolationError, type Database, type Sql } from './types'

export interface SqliteOptions {
  /**
   * NORMAL (the default) may lose the last commits on a power cut but never corrupts; FULL fsyncs
   * every commit before it returns, for records a person was told are saved (the front desk's).
   */
  synchronous?: 'NORMAL' | 'FULL'
  /** Zero freed pages, so a deleted row (a removed account's hash) does not linger in the file. */
  secureDelete?: boolean
}

/**
 * A SQLite file (WAL). One connection, used by one process: a transaction may await between its
 * statements, so a promise queue runs one transaction, or one statement outside any, at a time.
 * Each statement takes microseconds; the queue costs nothing at a kiosk's rates. Opening applies
 * no schema: each owner migrates its own (the engine's store, migrate.ts's sets).
 */
export function openSqlite(file: string, options: SqliteOptions = {}): Database {
  const db = new BetterSqlite(file)
  try {
    // Another process on the same file (the desktop app and the web host share a data folder) may hold the write lock briefly.
    db.pragma('busy_timeout = 5000')
    db.pragma('journal_mode = WAL')
    db.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`)
    db.pragma('foreign_keys = ON')
    if (options.secureDelete) db.pragma('secure_delete = ON')
  } catch (error) {
    db.close()
    throw error
  }

  const direct = sqliteStatements(db)
  let queue: Promise<unknown> = Promise.resolve()
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const result = queue.then(work)
    queue = result.catch(() => undefined)
    return result
  }
  return {
    dialect: 'sqlite',
    all: (sql, params) => exclusive(() => direct.all(sql, params)),
    get: (sql, params) => exclusive(() => direct.get(sql, params)),
    run: (sql, params) => exclusive(() => direct.run(sql, params)),
    exec: (script) => exclusive(() => direct.exec(script)),
    transaction: (work) =>
      exclusive(async () => {
        db.exec('BEGIN IMMEDIATE')
        try {
          const result = await work(direct)
          db.exec('COMMIT')
          return result
        } catch (error) {
          if (db.inTransaction) db.exec('ROLLBACK')
          throw error
        }
      }),
    close: () => exclusive(async () => void db.close()),
  }
}

function sqliteStatements(db: BetterSqlite.Database): Sql {
  const translate = <T>(run: () => T): T => {
    try {
      return run()
    } catch (error) {
      const code = (error as { code?: string }).code
      if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw new UniqueViolationError((error as Error).message)
      throw error
    }
  }
  return {
    dialect: 'sqlite',
    all: async <T>(sql: string, params: readonly unknown[] = []) => translate(() => db.prepare(sql).all(...params) as T[]),
    get: async <T>(sql: string, params: readonly unknown[] = []) => translate(() => db.prepare(sql).get(...params) as T | undefined),
    run: async (sql, params = []) => translate(() => db.prepare(sql).run(...params).changes),
    exec: async (script) => translate(() => void db.exec(script)),
  }
}

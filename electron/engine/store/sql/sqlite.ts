import BetterSqlite from 'better-sqlite3'
import { sqliteMigrations } from './migrations-sqlite'
import { UniqueViolationError, type Database, type Sql } from './types'

/**
 * The embedded engine's SQLite file (WAL). One connection, used by one process: a transaction may
 * await between its statements, so a promise queue runs one transaction, or one statement outside
 * any, at a time. Each statement takes microseconds; the queue costs nothing at a kiosk's rates.
 */
export function openSqlite(file: string): Database {
  const db = new BetterSqlite(file)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.pragma('foreign_keys = ON')
  db.pragma('busy_timeout = 5000')
  migrate(db)

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
  }
}

/** Applies the migrations not yet applied, each in its own transaction; PRAGMA user_version counts them. */
function migrate(db: BetterSqlite.Database): void {
  const applied = db.pragma('user_version', { simple: true }) as number
  for (let version = applied; version < sqliteMigrations.length; version++) {
    db.transaction(() => {
      db.exec(sqliteMigrations[version]!)
      db.pragma(`user_version = ${version + 1}`)
    })()
  }
}

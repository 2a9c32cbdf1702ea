import Database from 'better-sqlite3'
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs'
import { join } from 'node:path'

export type Db = Database.Database

/**
 * Opens (creating if needed) `<dir>/<file>`, a durable SQLite file private to the user: the folder
 * is made 0700 and the file 0600 before SQLite opens it (SQLite gives the -wal and -shm files the
 * main file's permissions, so all three stay private). WAL; synchronous=FULL, so a committed write
 * is fsynced before it returns; freed pages zeroed. `migrations` run in order, recorded in
 * PRAGMA user_version, all in one IMMEDIATE transaction that reads user_version inside it, so two
 * processes opening a new file at once cannot both apply the same migration. Never edit a
 * shipped migration: add a new one.
 */
export function openPrivateDatabase(dir: string, file: string, migrations: readonly string[], options: { foreignKeys?: boolean } = {}): Db {
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const path = join(dir, file)
  closeSync(openSync(path, 'a', 0o600))
  chmodSync(path, 0o600)
  const db = new Database(path)
  try {
    // Another kiosk process (the desktop app and the web host share the data folder) may hold the write lock briefly.
    db.pragma('busy_timeout = 5000')
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = FULL')
    if (options.foreignKeys) db.pragma('foreign_keys = ON')
    db.pragma('secure_delete = ON')
    db.transaction(() => {
      const applied = db.pragma('user_version', { simple: true }) as number
      if (applied > migrations.length) throw new Error(`${file} was written by a newer kiosk (schema ${applied}); refusing to touch it.`)
      for (let version = applied; version < migrations.length; version++) {
        db.exec(migrations[version]!)
        db.pragma(`user_version = ${version + 1}`)
      }
    }).immediate()
    return db
  } catch (error) {
    db.close()
    throw error
  }
}

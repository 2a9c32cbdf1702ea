import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import { openPostgres } from '../../electron/records/sql/postgres'
import { openSqlite } from '../../electron/records/sql/sqlite'
import type { Database } from '../../electron/records/sql/types'
import { emptyDatabase, startTestPostgres, type TestPostgres } from './postgres'

export type SqlBackendName = 'sqlite' | 'postgres'

export interface SqlBackend {
  /** The suite's PostgreSQL cluster (started in beforeAll), or null on SQLite. */
  readonly cluster: TestPostgres | null
  /** This test's SQLite file (a new one each test; unused on PostgreSQL). */
  readonly file: string
  /** The connections opened this test and not yet closed, oldest first. */
  readonly opened: readonly Database[]
  /** Another new SQLite file path in the suite's folder (removed in afterAll). */
  sqliteFile(): string
  /** A new connection to this test's database (a new pool on PostgreSQL), closed after the test. */
  connect(): Promise<Database>
  /** Closes `db` after the test, with the ones connect() opened. */
  track(db: Database): Database
  /** Closes `db` now (and not again after the test). */
  close(db: Database): Promise<void>
}

/**
 * Runs the enclosing describe on `backend`: call it inside a describe (e.g. of describe.each over
 * ['sqlite', 'postgres']) and it registers the hooks. beforeAll makes a temporary folder and, on
 * PostgreSQL, starts a private cluster (PGPASSFILE pointing at its password file); afterAll stops
 * the cluster (by its pid if it will not stop) and removes the folder, even when tests or
 * beforeAll failed. Each test gets a new SQLite file, or an emptied PostgreSQL database, and
 * every connection opened or tracked is closed after it. A suite's afterEach registered after this
 * call runs before these connections close (vitest runs after-hooks as a stack).
 */
export function useSqlBackend(backend: SqlBackendName, folderPrefix: string, { sqliteName = 'frontdesk.db' } = {}): SqlBackend {
  let cluster: TestPostgres | null = null
  let folder: string | undefined
  let file: string | undefined
  const opened: Database[] = []

  const sqliteFile = () => {
    if (!folder) throw new Error('useSqlBackend: no folder yet (called outside a test?)')
    return join(mkdtempSync(join(folder, 'db-')), sqliteName)
  }
  const currentFile = () => {
    if (!file) throw new Error('useSqlBackend: no SQLite file outside a test')
    return file
  }
  const track = (db: Database) => {
    opened.push(db)
    return db
  }

  // The start itself, so that afterAll stops a cluster whose start outlived beforeAll's timeout.
  let starting: Promise<TestPostgres> | null = null

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), folderPrefix))
    if (backend === 'postgres') {
      starting = startTestPostgres()
      cluster = await starting
      process.env.PGPASSFILE = cluster.passfile
    }
  })
  afterAll(async () => {
    try {
      // A start that failed cleaned up after itself (startTestPostgres).
      await (await starting?.catch(() => null))?.close()
    } finally {
      starting = null
      cluster = null
      if (folder) rmSync(folder, { recursive: true, force: true })
      folder = undefined
    }
  })
  beforeEach(async () => {
    file = sqliteFile()
    if (cluster) await emptyDatabase(cluster.url)
  })
  afterEach(async () => {
    // Every connection is closed, one after another, even if one fails to; the first failure fails the test.
    const failures: unknown[] = []
    for (const db of opened.splice(0)) await db.close().catch((error: unknown) => failures.push(error))
    if (failures.length > 0) throw failures[0]
  })

  return {
    get cluster() {
      return cluster
    },
    get file() {
      return currentFile()
    },
    get opened() {
      return opened
    },
    sqliteFile,
    track,
    async connect() {
      return track(cluster ? await openPostgres({ url: cluster.url }) : openSqlite(currentFile()))
    },
    async close(db) {
      const at = opened.indexOf(db)
      if (at >= 0) opened.splice(at, 1)
      await db.close()
    },
  }
}

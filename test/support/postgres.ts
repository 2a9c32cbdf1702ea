import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { connectionConfig } from '../../electron/records/sql/password'
import { startPostgresCluster, type PostgresCluster } from '../../electron/site/postgres-cluster'

export interface TestPostgres extends PostgresCluster {
  /** The temporary folder the cluster lives in (removed by close()). */
  folder: string
  /** Stops the cluster (by its postmaster pid if it will not stop) and removes its folder. */
  close(): Promise<void>
}

/** A private PostgreSQL cluster in a new temporary folder; call close() in afterAll. */
export async function startTestPostgres(): Promise<TestPostgres> {
  const folder = mkdtempSync(join(tmpdir(), 'kiosk-pg-'))
  // Run as root, the cluster belongs to the postgres account, which must get through this folder.
  chmodSync(folder, 0o755)
  let cluster: PostgresCluster
  try {
    cluster = await startPostgresCluster(join(folder, 'postgres'))
  } catch (error) {
    rmSync(folder, { recursive: true, force: true })
    throw error
  }
  const close = async () => {
    try {
      await cluster.stop()
    } finally {
      killIfThere(cluster.pid)
      rmSync(folder, { recursive: true, force: true })
    }
  }
  // A spread would copy the getters' values once; the pid and port change on restart.
  return Object.assign(Object.create(cluster) as PostgresCluster, { folder, close })
}

function killIfThere(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL')
  } catch {
    // already gone
  }
}

/** A client of the cluster's database, its password found as the engine finds it (PGPASSFILE). */
export function postgresClient(url: string): pg.Client {
  return new pg.Client(connectionConfig(url))
}

/** Empties the database (its public schema, the engine's tables and migrations with it): the next engine starts on a new one. */
export async function emptyDatabase(url: string): Promise<void> {
  const client = postgresClient(url)
  await client.connect()
  try {
    await client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public')
  } finally {
    await client.end()
  }
}

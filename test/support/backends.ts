import { startTestPostgres, type TestPostgres } from './postgres'

export type Backend = 'sqlite' | 'postgres'
/** The engine's two stores: every suite that runs on both says so with describe.each(BACKENDS). */
export const BACKENDS: readonly Backend[] = ['sqlite', 'postgres']

export interface BackendHandle {
  /** Options for startTestEngine: none for SQLite (the data folder's engine.db), the database URL for PostgreSQL. */
  options: { databaseUrl?: string }
  /** The cluster, for PostgreSQL (to restart or stop it). */
  postgres: TestPostgres | null
  /** Stops the cluster by its pid, even when the suite failed. */
  close(): Promise<void>
}

/** A backend for a suite: SQLite needs nothing; PostgreSQL is a private cluster started for the suite. */
export async function startBackend(backend: Backend): Promise<BackendHandle> {
  if (backend === 'sqlite') return { options: {}, postgres: null, close: async () => {} }
  const cluster = await startTestPostgres()
  // The engine, as a site's would, reads the password from PGPASSFILE; the URL carries none.
  process.env.PGPASSFILE = cluster.passfile
  return {
    options: { databaseUrl: cluster.url },
    postgres: cluster,
    close: () => cluster.close(),
  }
}

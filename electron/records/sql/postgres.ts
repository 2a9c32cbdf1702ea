import pg from 'pg'
import { connectionConfig } from './password'
import { StoreUnavailableError, UniqueViolationError, type Database, type Sql } from './types'

export interface PostgresOptions {
  /** postgres://user@host:port/db; the password comes from PGPASSWORD or PGPASSFILE, never the URL. */
  url: string
  /**
   * Where statements outside a transaction that could not reach `url` are tried again: a site's
   * synchronous standby, which has applied every acknowledged commit, so reads go on through a
   * failover. A write sent there reaches a standby and is refused (25006): a 503, as without it.
   */
  readUrl?: string | undefined
  /** Connections this process may hold. */
  maxConnections?: number
  /** How long a statement may wait for a connection, and run, before the request is answered 503. */
  timeoutMs?: number
}

const RETRIES = 5

/** bigint (count(*), epoch milliseconds, seq) as a JavaScript number: all ours stay below 2^53. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
}

/** A pool of connections to a PostgreSQL database (no schema applied: each owner migrates its own). */
export async function openPostgres(options: PostgresOptions): Promise<Database> {
  const timeoutMs = options.timeoutMs ?? 10_000
  const pool = poolFor(options.url, options.maxConnections ?? 10, timeoutMs)
  const readPool = options.readUrl ? poolFor(options.readUrl, READ_CONNECTIONS, timeoutMs) : undefined
  const statements = statementsOn(pool)

  const database: Database = {
    ...statements,
    ...(readPool ? readsFallingBackTo(statements, statementsOn(readPool)) : {}),
    async transaction(work) {
      for (let attempt = 1; ; attempt++) {
        const client = await connect(pool)
        let broken = false
        try {
          await query(client, 'BEGIN')
          const result = await work(statementsOn(client))
          await query(client, 'COMMIT')
          return result
        } catch (error) {
          broken = error instanceof StoreUnavailableError
          if (!broken) await client.query('ROLLBACK').catch(() => (broken = true))
          if (attempt < RETRIES && isRetryable(error)) continue
          throw error
        } finally {
          client.release(broken)
        }
      }
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: async () => {
      await pool.end()
      await readPool?.end()
    },
  }
  return database
}

/** Connections to the read nodes: used only while the primary cannot be reached. */
const READ_CONNECTIONS = 4

function poolFor(url: string, max: number, timeoutMs: number): pg.Pool {
  const pool = new pg.Pool({
    ...connectionConfig(url),
    max,
    connectionTimeoutMillis: timeoutMs,
    statement_timeout: timeoutMs,
    query_timeout: timeoutMs + 1000,
    idleTimeoutMillis: 30_000,
    application_name: 'identity-kiosk-engine',
    types,
  })
  // An idle connection the server dropped (a restart) is reported here; the next query gets a new one.
  pool.on('error', () => {})
  // pg-pool hears a connection's 'error' only while it is idle. One the server drops while it is
  // checked out (a restart ends every backend; a transaction may be between statements) would emit
  // it unheard, which ends the process. Heard here too: the next statement on it fails (a 503), and
  // pg-pool drops a connection that is no longer queryable when it is released.
  const checkedOut = () => {}
  pool.on('acquire', (client) => client.on('error', checkedOut))
  pool.on('release', (_error, client) => client.removeListener('error', checkedOut))
  return pool
}

/**
 * Before each round of tries of a read, primary then read nodes: the second at once (a pooled
 * connection may lead to a node just lost or just promoted, and the pool drops one that failed),
 * the others after a pause, since at the moment of a failover neither answers: the old primary is
 * gone and the promoted standby is no longer a read node, until haproxy's checks (every 500 ms)
 * find it the primary. A busy machine promotes more slowly: 3.5 s in all.
 */
const READ_ROUND_PAUSES_MS = [0, 0, 500, 1000, 2000]

/** Reads (`all`, `get`) that found the primary away, tried on the read nodes, round after round. */
function readsFallingBackTo(primary: Sql, reads: Sql): Pick<Sql, 'all' | 'get'> {
  const orReads = async <R>(read: (on: Sql) => Promise<R>): Promise<R> => {
    let unavailable: unknown
    for (const pause of READ_ROUND_PAUSES_MS) {
      if (pause > 0) await new Promise((done) => setTimeout(done, pause))
      for (const on of [primary, reads]) {
        try {
          return await read(on)
        } catch (error) {
          if (!(error instanceof StoreUnavailableError)) throw error
          unavailable = error
        }
      }
    }
    throw unavailable
  }
  return {
    all: <T>(sql: string, params?: readonly unknown[]) => orReads((on) => on.all<T>(sql, params)),
    get: <T>(sql: string, params?: readonly unknown[]) => orReads((on) => on.get<T>(sql, params)),
  }
}

type Queryable = pg.Pool | pg.PoolClient | pg.Client

function statementsOn(target: Queryable): Sql {
  return {
    dialect: 'postgres',
    all: async <T>(sql: string, params?: readonly unknown[]) => (await query(target, sql, params)).rows as T[],
    get: async <T>(sql: string, params?: readonly unknown[]) => (await query(target, sql, params)).rows[0] as T | undefined,
    run: async (sql, params) => (await query(target, sql, params)).rowCount ?? 0,
    // The simple query protocol runs a script of several statements; nothing in it is numbered.
    exec: async (script) => {
      try {
        await target.query(script)
      } catch (error) {
        throw translate(error)
      }
    },
  }
}

/** `?` placeholders numbered as PostgreSQL wants them (no statement of ours has a literal `?`). */
export function numbered(sql: string): string {
  let n = 0
  return sql.replace(/\?/g, () => `$${++n}`)
}

async function query(target: Queryable, sql: string, params: readonly unknown[] = []): Promise<pg.QueryResult> {
  try {
    return await target.query(numbered(sql), params as unknown[])
  } catch (error) {
    throw translate(error)
  }
}

async function connect(pool: pg.Pool): Promise<pg.PoolClient> {
  try {
    return await pool.connect()
  } catch (error) {
    throw translate(error)
  }
}

/**
 * SQLSTATE classes that mean the server cannot serve us now, rather than a fault in the statement.
 * 25006 (read_only_sql_transaction): the connection reached a standby, e.g. a primary that was just
 * demoted under Patroni; the connection is dropped (a StoreUnavailableError releases it broken) and
 * the next one goes through haproxy to the new primary.
 */
const unavailableStates = /^(08|53|57P|58|25006$)/

function translate(error: unknown): unknown {
  const code = (error as { code?: string }).code
  if (code === '23505') return new UniqueViolationError((error as { constraint?: string }).constraint ?? 'unique')
  if (code === '40001' || code === '40P01') return error
  if ((code && unavailableStates.test(code)) || code === '57014' || isConnectionError(error)) {
    return new StoreUnavailableError(`The database is unavailable: ${(error as Error).message}`)
  }
  return error
}

function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: string }).code
  const message = (error as Error).message ?? ''
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE', 'EAI_AGAIN'].includes(code ?? '') ||
    /Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error|connection is closed/i.test(message)
  )
}

function isRetryable(error: unknown): boolean {
  const code = (error as { code?: string }).code
  return code === '40001' || code === '40P01'
}

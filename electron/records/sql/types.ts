/** Which SQL the statements are written in; the few statements that differ ask this. */
export type Dialect = 'sqlite' | 'postgres'

/**
 * One SQL connection, or one open transaction. Statements use `?` placeholders in both dialects
 * (PostgreSQL's are numbered on the way out) and run as written; integers come back as numbers.
 */
export interface Sql {
  readonly dialect: Dialect
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>
  get<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined>
  /** Runs a statement; resolves to the number of rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>
  /** Runs a script of statements without parameters, as written (a migration step). */
  exec(script: string): Promise<void>
}

/** A database: statements outside a transaction, and transactions. */
export interface Database extends Sql {
  /**
   * Runs `work` in one transaction on one connection, committed when it resolves and rolled back
   * when it throws. PostgreSQL retries it on a serialization failure or deadlock, so `work` must
   * not have effects outside the database.
   */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>
  close(): Promise<void>
  /** A pool's connections (PostgreSQL): all it holds, the idle ones, and requests waiting for one. */
  poolStats?(): { total: number; idle: number; waiting: number }
}

/**
 * The database could not be reached, or dropped the connection mid-statement: the request is
 * answered 503 with Retry-After, never 500, and nothing was committed.
 */
export class StoreUnavailableError extends Error {
  readonly retryAfterSeconds = 2
  constructor(message: string) {
    super(message)
    this.name = 'StoreUnavailableError'
  }
}

/** A unique constraint refused a row (the 409 path is the constraint's, not a check before it). */
export class UniqueViolationError extends Error {
  constructor(readonly constraint: string) {
    super(`unique constraint ${constraint}`)
    this.name = 'UniqueViolationError'
  }
}

import { parseArgs } from 'node:util'

export interface EngineArgs {
  port: number
  data: string
  clientId: string | undefined
  clientSecret: string | undefined
  tenant: string | undefined
  /** postgres://user@host:port/db, without a password: the site's shared database. */
  database: string | undefined
  /**
   * postgres://…, without a password: where reads go while --database cannot be reached (a site's
   * synchronous standby, which has applied every acknowledged write), so identify and verify go on through a failover.
   */
  readDatabase: string | undefined
  /** The address to listen on (loopback unless told otherwise). */
  host: string
  /** A load balancer in front (the site's haproxy): its X-Forwarded-For names the caller. */
  trustedProxy: string | undefined
}

export const engineUsage =
  'usage: npm run engine -- --port <n> --data <dir> [--database postgres://user@host:port/db [--read-database postgres://user@host:port/db]] [--host <address>] [--trusted-proxy <address>] [--client-id <id> --client-secret <secret>] [--tenant <code>]'

/**
 * Parses the engine's fixed command line; throws an Error with a plain message on bad flags.
 * The client credentials may also come from ENGINE_CLIENT_ID / ENGINE_CLIENT_SECRET, so that a
 * parent process need not show a secret in the process list; the database from ENGINE_DATABASE_URL
 * (and where it reads while that is away from ENGINE_READ_DATABASE_URL).
 * A database password is taken only from PGPASSWORD or a PGPASSFILE: one in --database would be in
 * the process list, so it is refused.
 */
export function parseEngineArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): EngineArgs {
  const { values } = parseFlags(argv)
  values['client-id'] ??= env.ENGINE_CLIENT_ID || undefined
  values['client-secret'] ??= env.ENGINE_CLIENT_SECRET || undefined
  const port = Number(values.port)
  if (values.port === undefined || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port must be a whole number from 0 to 65535\n${engineUsage}`)
  }
  if (!values.data) throw new Error(`--data <dir> is required\n${engineUsage}`)
  if ((values['client-id'] === undefined) !== (values['client-secret'] === undefined)) {
    throw new Error(`--client-id and --client-secret go together\n${engineUsage}`)
  }
  const database = values.database ?? (env.ENGINE_DATABASE_URL || undefined)
  if (database !== undefined) checkDatabaseUrl('--database', database, values.database !== undefined)
  const readDatabase = values['read-database'] ?? (env.ENGINE_READ_DATABASE_URL || undefined)
  if (readDatabase !== undefined) {
    if (database === undefined) throw new Error(`--read-database goes with --database\n${engineUsage}`)
    checkDatabaseUrl('--read-database', readDatabase, values['read-database'] !== undefined)
  }
  return {
    port,
    database,
    readDatabase,
    host: values.host ?? '127.0.0.1',
    trustedProxy: values['trusted-proxy'] || undefined,
    data: values.data,
    clientId: values['client-id'],
    clientSecret: values['client-secret'],
    tenant: values.tenant,
  }
}

function parseFlags(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        data: { type: 'string' },
        'client-id': { type: 'string' },
        'client-secret': { type: 'string' },
        tenant: { type: 'string' },
        database: { type: 'string' },
        'read-database': { type: 'string' },
        host: { type: 'string' },
        'trusted-proxy': { type: 'string' },
      },
      strict: true,
    })
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${engineUsage}`)
  }
}

function checkDatabaseUrl(flag: string, url: string, fromArgv: boolean): void {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new Error(`${flag} must be a URL such as postgres://kiosk@127.0.0.1:5432/kiosk\n${engineUsage}`)
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') throw new Error(`${flag} must be a postgres:// URL\n${engineUsage}`)
  if (fromArgv && (parsed.password !== '' || /[?&]password=/i.test(parsed.search))) {
    throw new Error(`${flag} must not carry a password (it would show in the process list): put it in PGPASSWORD or a PGPASSFILE.`)
  }
}

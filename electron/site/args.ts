import { isIP } from 'node:net'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'

export interface SiteArgs {
  engines: number
  port: number
  data: string
  /** An external PostgreSQL (no password in it); none: a private cluster in DATA/postgres. */
  database: string | undefined
  /** Two PostgreSQL nodes under Patroni (and an etcd) in DATA/ha, behind haproxy: the site survives losing one. */
  ha: boolean
  clientId: string | undefined
  clientSecret: string | undefined
  tenant: string | undefined
  host: string
  tlsCert: string | undefined
}

export const siteUsage =
  'usage: npm run site -- --engines <n> --port <n> --data <dir> [--database <postgres url, no password> | --ha] ' +
  '[--client-id <id> --client-secret <secret>] [--tenant <code>] [--host 127.0.0.1] [--tls-cert <cert+key.pem>]'

/**
 * Parses the site's command line; throws an Error with a plain message on bad flags. As with the
 * engine, the client credentials may come from ENGINE_CLIENT_ID / ENGINE_CLIENT_SECRET instead,
 * so that no secret need show in the process list.
 */
export function parseSiteArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): SiteArgs {
  const { values } = parseFlags(argv)
  const fail = (message: string): never => {
    throw new Error(`${message}\n${siteUsage}`)
  }
  const engines = Number(values.engines)
  if (values.engines === undefined || !Number.isInteger(engines) || engines < 1 || engines > 64) fail('--engines must be a whole number from 1 to 64')
  const port = Number(values.port)
  if (values.port === undefined || !Number.isInteger(port) || port < 1 || port > 65535) fail('--port must be a whole number from 1 to 65535')
  if (!values.data) fail('--data <dir> is required')
  const clientId = values['client-id'] ?? (env.ENGINE_CLIENT_ID || undefined)
  const clientSecret = values['client-secret'] ?? (env.ENGINE_CLIENT_SECRET || undefined)
  if ((clientId === undefined) !== (clientSecret === undefined)) fail('--client-id and --client-secret go together')
  const host = values.host ?? '127.0.0.1'
  if (!isIP(host)) fail('--host must be an IP address (127.0.0.1 by default; 0.0.0.0 for every interface)')
  if (values.database !== undefined) checkDatabaseUrl(values.database, fail)
  if (values.ha && values.database !== undefined) fail('--ha runs its own PostgreSQL nodes: it does not go with --database')
  return {
    engines,
    port,
    data: resolve(values.data as string),
    database: values.database,
    ha: values.ha === true,
    clientId,
    clientSecret,
    tenant: values.tenant,
    host,
    tlsCert: values['tls-cert'] === undefined ? undefined : resolve(values['tls-cert']),
  }
}

export interface PairArgs {
  data: string
  /** The site's external PostgreSQL (no password in it); none: the private cluster in DATA/postgres. */
  database: string | undefined
}

/** The commands beside a running site, on its database: a pairing code, a new invitation key. */
export const DATABASE_COMMANDS = ['pair', 'rotate-invite-key'] as const
type DatabaseCommand = (typeof DATABASE_COMMANDS)[number]

/** What `npm run site -- …` was asked: run the site (no subcommand, as ever), or one of the database commands. */
export type SiteCommand = { command: 'run'; args: SiteArgs } | { command: DatabaseCommand; args: PairArgs }

export const pairUsage = 'usage: npm run site -- pair --data <dir> [--database <postgres url, no password>]'
const usageOf = (command: DatabaseCommand) => pairUsage.replace(' pair ', ` ${command} `)

/** Parses the command line: `pair …` / `rotate-invite-key …` act on the site's database, anything else is the site's own flags. */
export function parseSiteCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): SiteCommand {
  const command = DATABASE_COMMANDS.find((name) => name === argv[0])
  if (!command) return { command: 'run', args: parseSiteArgs(argv, env) }
  const fail = (message: string): never => {
    throw new Error(`${message}\n${usageOf(command)}`)
  }
  let values: { data?: string | undefined; database?: string | undefined }
  try {
    ;({ values } = parseArgs({ args: argv.slice(1), options: { data: { type: 'string' }, database: { type: 'string' } }, strict: true }))
  } catch (error) {
    return fail((error as Error).message)
  }
  if (!values.data) fail('--data <dir> is required: the folder the site runs in')
  if (values.database !== undefined) checkDatabaseUrl(values.database, fail)
  return { command, args: { data: resolve(values.data!), database: values.database } }
}

/** A database URL may say where, never the password: that comes from PGPASSFILE or PGPASSWORD. */
function checkDatabaseUrl(value: string, fail: (message: string) => never): void {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    return fail('--database must be a URL such as postgres://kiosk@db.example:5432/kiosk')
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') fail('--database must be a postgres:// URL')
  if (url.password || url.searchParams.has('password')) {
    fail('--database must not contain a password (it would show in the process list and logs): put it in a PGPASSFILE, or PGPASSWORD, in the environment')
  }
}

function parseFlags(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: {
        engines: { type: 'string' },
        port: { type: 'string' },
        data: { type: 'string' },
        database: { type: 'string' },
        ha: { type: 'boolean' },
        'client-id': { type: 'string' },
        'client-secret': { type: 'string' },
        tenant: { type: 'string' },
        host: { type: 'string' },
        'tls-cert': { type: 'string' },
      },
      strict: true,
    })
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${siteUsage}`)
  }
}

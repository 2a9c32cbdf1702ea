import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmodSync, chownSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { userInfo } from 'node:os'
import { join } from 'node:path'
import { alive, delay, diesWithParent, exited, exitsWithin, freeLoopbackPort, run } from './processes'
import { scramSha256Verifier } from './scram-verifier'

/**
 * A private PostgreSQL 15 cluster in one folder, for `npm run site` and the tests:
 *
 *   FOLDER/data/        the cluster (initdb on first use, reused after)
 *   FOLDER/.pgpass      the `kiosk` role's password, 0600, PGPASSFILE format
 *   FOLDER/port         the port it last listened on, so the URL stays the same across runs
 *   FOLDER/postgres.log the server's own log
 *   FOLDER/.s.PGSQL.*   its unix socket (the folder is 0700: only its owner gets in)
 *
 * It listens on 127.0.0.1 only. The password is never in an argument, the URL or a log: clients
 * get PGPASSFILE, and the role's password is set from its SCRAM verifier.
 *
 * The postmaster runs as our child (`postgres -D …`), not daemonised by `pg_ctl start`: a
 * daemonised postmaster is handed to PID 1, which on some machines (containers, micro-VMs) never
 * reaps it, so a stopped server would linger as a zombie with its pid still answering, and its
 * death would be no event we could see. As our child it also gets SIGINT (fast shutdown) if we
 * die. Stopping still goes through `pg_ctl stop`.
 */
export interface PostgresCluster {
  /** postgres://kiosk@127.0.0.1:PORT/kiosk — no password: that comes from `passfile`. */
  readonly url: string
  readonly passfile: string
  /** The postmaster's pid (from postmaster.pid); changes on restart. */
  readonly pid: number
  readonly port: number
  readonly dataDir: string
  stop(): Promise<void>
  restart(options?: { mode: ShutdownMode }): Promise<void>
  /** Called when the postmaster exits without stop() or restart() asking it to. */
  onUnexpectedExit(listener: (reason: string) => void): void
}

export type ShutdownMode = 'smart' | 'fast' | 'immediate'

export interface PostgresClusterOptions {
  /** Where to say what happens (never given the password). */
  log?: (line: string) => void
  /** How long the server may take to start or stop. */
  timeoutMs?: number
}

export const ROLE = 'kiosk'
export const DATABASE = 'kiosk'
const LOOPBACK = '127.0.0.1'
// sockaddr_un.sun_path holds 107 bytes and a NUL.
const MAX_SOCKET_PATH = 107

export async function startPostgresCluster(folder: string, options: PostgresClusterOptions = {}): Promise<PostgresCluster> {
  const log = options.log ?? (() => {})
  const timeoutMs = options.timeoutMs ?? 60_000
  const runAs = clusterAccount()
  const dataDir = join(folder, 'data')
  const passfile = join(folder, '.pgpass')
  const portFile = join(folder, 'port')
  const logFile = join(folder, 'postgres.log')

  if (Buffer.byteLength(join(folder, '.s.PGSQL.65535')) > MAX_SOCKET_PATH) {
    throw new Error(`${folder} is too long a path for PostgreSQL's unix socket (at most ${MAX_SOCKET_PATH - 16} bytes)`)
  }
  mkdirSync(folder, { recursive: true, mode: 0o700 })
  chmodSync(folder, 0o700)
  if (runAs.root) await handToPostgres(folder, runAs)

  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    log(`postgres: creating a cluster in ${dataDir}`)
    // peer on the socket: only the cluster's own OS account is its superuser. C.UTF-8 gives
    // citext's lower() real case rules beyond ASCII, with no dependency on installed locales.
    const init = await run(...runAs.command('initdb', ['-D', dataDir, '-U', runAs.user, '--auth-local=peer', '--auth-host=scram-sha-256', '--encoding=UTF8', '--locale=C.UTF-8']), { cwd: folder })
    if (init.code !== 0) throw new Error(`initdb failed (exit ${init.code}):\n${init.output.trim()}`)
  }

  let child: ChildProcess | undefined
  let pid = 0
  let port = 0
  let stopping = false
  const listeners: ((reason: string) => void)[] = []

  /** Starts the postmaster on the port it had before if free, else on a new one. */
  const start = async () => {
    const previous = Number(readOptional(portFile))
    let candidate = Number.isInteger(previous) && previous > 0 ? previous : await freeLoopbackPort()
    for (let attempt = 1; ; attempt++) {
      try {
        await startOn(candidate)
        break
      } catch (error) {
        // Someone else took the port between our look and postgres's bind: pick another.
        if (!(error instanceof PortTaken) || attempt >= 5) throw error
        candidate = await freeLoopbackPort()
      }
    }
    writeFileSync(portFile, `${port}\n`, { mode: 0o600 })
    await ensureRoleAndDatabase()
    log(`postgres: ready on ${LOOPBACK}:${port} (pid ${pid})`)
  }

  const startOn = async (candidate: number) => {
    const lockFile = join(dataDir, 'postmaster.pid')
    const before = readOptional(lockFile)
    const logStart = sizeOf(logFile)
    const logFd = openSync(logFile, 'a', 0o600)
    const spawned = spawn(
      ...runAs.server('postgres', ['-D', dataDir, '-p', String(candidate), '-c', `listen_addresses=${LOOPBACK}`, '-c', `unix_socket_directories="${folder}"`, '-c', 'unix_socket_permissions=0700']),
      // Its own process group: a Ctrl+C in the terminal is for the site, which stops it in order.
      { cwd: folder, stdio: ['ignore', logFd, logFd], detached: true },
    )
    closeSync(logFd)
    let gone = false
    spawned.once('exit', () => (gone = true))
    // postmaster.pid's 8th line says "ready" once connections are accepted (what pg_ctl -w reads);
    // a file left by a killed server is told apart by its content changing.
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const lock = readOptional(lockFile)
      const lines = lock?.split('\n') ?? []
      if (lock !== before && lines[7]?.trim() === 'ready' && alive(Number(lines[0]))) {
        pid = Number(lines[0])
        break
      }
      if (gone) {
        const tail = readFileSync(logFile, 'utf8').slice(logStart).trim()
        if (/could not bind|Address already in use/i.test(tail)) throw new PortTaken(tail)
        throw new Error(`postgres exited before it was ready:\n${tail}`)
      }
      if (Date.now() > deadline) {
        spawned.kill('SIGKILL')
        throw new Error(`postgres was not ready within ${timeoutMs} ms; see ${logFile}`)
      }
      await delay(50)
    }
    child = spawned
    port = candidate
    stopping = false
    spawned.once('exit', (code, signal) => {
      if (stopping) return
      const reason = `postgres (pid ${pid}) exited ${signal ? `on ${signal}` : `with code ${code}`}`
      for (const listener of listeners) listener(reason)
    })
  }

  const ensureRoleAndDatabase = () => ensureKioskRole(runAs, folder, port, passfile)

  const stop = async (mode: ShutdownMode = 'fast') => {
    stopping = true
    const current = child
    if (!current || current.exitCode !== null || current.signalCode !== null) return
    const stopped = await run(...runAs.command('pg_ctl', ['stop', '-D', dataDir, '-m', mode, '-w', '-t', String(Math.ceil(timeoutMs / 1000))]), { cwd: folder })
    if (stopped.code !== 0) log(`postgres: pg_ctl stop said (exit ${stopped.code}): ${stopped.output.trim()}`)
    if (!(await exitsWithin(current, 10_000))) {
      log(`postgres: pid ${pid} still there after pg_ctl stop; killing it`)
      if (alive(pid)) process.kill(pid, 'SIGKILL')
      current.kill('SIGKILL')
      await exited(current)
    }
    // Where runuser stands between us and the postmaster (no setpriv), make sure the pid itself is gone.
    if (alive(pid)) process.kill(pid, 'SIGKILL')
    log(`postgres: stopped (pid ${pid})`)
  }

  ensurePassfile(passfile)
  try {
    await start()
  } catch (error) {
    await stop('immediate')
    throw error
  }

  return {
    get url() {
      return clusterUrl(port)
    },
    passfile,
    get pid() {
      return pid
    },
    get port() {
      return port
    },
    dataDir,
    stop: () => stop('fast'),
    async restart(restartOptions = { mode: 'fast' }) {
      await stop(restartOptions.mode)
      await start()
    },
    onUnexpectedExit(listener) {
      listeners.push(listener)
    },
  }
}

class PortTaken extends Error {}

/**
 * The `kiosk` role (its password set from the passfile's) and the database it owns, on the server
 * whose unix socket is in `socketDir`, as its OS account (peer); idempotent.
 */
export async function ensureKioskRole(runAs: ClusterAccount, socketDir: string, port: number, passfile: string): Promise<void> {
  const verifier = await scramSha256Verifier(passwordFrom(passfile))
  const sql = [
    `SELECT 'CREATE ROLE ${ROLE} LOGIN' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${ROLE}') \\gexec`,
    `ALTER ROLE ${ROLE} WITH LOGIN PASSWORD '${verifier}';`,
    // The owner may CREATE EXTENSION citext (a trusted extension) in its migrations.
    `SELECT 'CREATE DATABASE ${DATABASE} OWNER ${ROLE}' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '${DATABASE}') \\gexec`,
    '',
  ].join('\n')
  // The SQL goes in on stdin: nothing of it is in the process list.
  const psql = await run(...runAs.command('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-h', socketDir, '-p', String(port), '-U', runAs.user, '-d', 'postgres', '-f', '-']), { cwd: socketDir, input: sql })
  if (psql.code !== 0) throw new Error(`could not create the ${ROLE} role and database (psql exit ${psql.code}):\n${psql.output.trim()}`)
}

export function clusterUrl(port: number): string {
  return `postgres://${ROLE}@${LOOPBACK}:${port}/${DATABASE}`
}

/**
 * How a client reaches the cluster in `folder` as it last ran, without starting it: its URL (from
 * the port file) and passfile; null when the folder holds no cluster that ever started. For
 * commands run beside a running site (`npm run site -- pair`).
 */
export function clusterConnection(folder: string): { url: string; passfile: string } | null {
  const port = Number(readOptional(join(folder, 'port')))
  const passfile = join(folder, '.pgpass')
  if (!Number.isInteger(port) || port <= 0 || !existsSync(passfile)) return null
  return { url: clusterUrl(port), passfile }
}

export interface ClusterAccount {
  root: boolean
  /** The OS account the server runs as, and so its superuser's name (peer authentication). */
  user: string
  uid: number
  gid: number
  /** A program run to its end (initdb, pg_ctl, psql), as that account. */
  command(program: string, args: string[]): [string, string[]]
  /** The server, as that account, shut down fast (SIGINT) if this process dies. */
  server(program: string, args: string[]): [string, string[]]
}

/**
 * PostgreSQL refuses to run as root: as root, every server program runs as `postgres`, through
 * runuser, and the server itself through setpriv (runuser would stay between us and it, and
 * SIGKILL it 2 s after a signal of its own); otherwise as ourselves.
 */
export function clusterAccount(): ClusterAccount {
  const bin = postgresBinDir()
  const root = process.getuid?.() === 0
  if (!root) {
    const me = userInfo()
    return {
      root,
      user: me.username,
      uid: me.uid,
      gid: me.gid,
      command: (program, args) => [join(bin, program), args],
      server: (program, args) => diesWithParent('SIGINT', join(bin, program), args),
    }
  }
  const entry = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .map((line) => line.split(':'))
    .find((fields) => fields[0] === 'postgres')
  if (!entry) throw new Error('running as root needs a "postgres" account to run PostgreSQL as (apt-get install postgresql-15 makes it)')
  return {
    root,
    user: 'postgres',
    uid: Number(entry[2]),
    gid: Number(entry[3]),
    command: (program, args) => ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]],
    server: (program, args) => {
      const [command, argv] = diesWithParent('SIGINT', join(bin, program), args, ['--reuid=postgres', '--regid=postgres', '--init-groups'])
      // Without setpriv (not Linux), runuser still drops root.
      return command === join(bin, program) ? ['runuser', ['-u', 'postgres', '--', command, ...argv]] : [command, argv]
    },
  }
}

/** Debian's PostgreSQL 15 programs, POSTGRES_BIN_DIR to use others, else whatever is on PATH. */
export function postgresBinDir(): string {
  if (process.env.POSTGRES_BIN_DIR) return process.env.POSTGRES_BIN_DIR
  const debian = '/usr/lib/postgresql/15/bin'
  return existsSync(join(debian, 'postgres')) ? debian : ''
}

/**
 * A folder that will hold the cluster's folder: as root, the postgres account (which runs the
 * server) must get through it, so its group becomes postgres's with traverse-only access (0710):
 * it may enter, not list or read. Otherwise, ours alone (0700).
 */
export function letPostgresThrough(dir: string): void {
  const account = clusterAccount()
  if (!account.root) return chmodSync(dir, 0o700)
  chownSync(dir, 0, account.gid)
  chmodSync(dir, 0o710)
}

/** As root: the folder becomes postgres's, and postgres must be able to reach it. */
export async function handToPostgres(folder: string, account: ClusterAccount): Promise<void> {
  chownSync(folder, account.uid, account.gid)
  const reach = await run('runuser', ['-u', 'postgres', '--', 'test', '-w', folder, '-a', '-x', folder], { cwd: '/' })
  if (reach.code !== 0) {
    throw new Error(`the postgres account cannot reach ${folder}: every folder above it must let postgres through (o+x, or g+x with group postgres)`)
  }
}

/** Makes the passfile once: a random password for the role, 0600, in PGPASSFILE format. */
export function ensurePassfile(passfile: string): void {
  if (existsSync(passfile)) {
    chmodSync(passfile, 0o600)
    if (readPassword(passfile)) return
  }
  // base64url: printable ASCII with no ':' or '\', which PGPASSFILE would need escaped.
  const password = randomBytes(24).toString('base64url')
  const temporary = `${passfile}.${process.pid}.tmp`
  writeFileSync(temporary, `${LOOPBACK}:*:${DATABASE}:${ROLE}:${password}\n`, { mode: 0o600, flag: 'wx' })
  renameSync(temporary, passfile)
}

function readPassword(passfile: string): string | undefined {
  const prefix = `${LOOPBACK}:*:${DATABASE}:${ROLE}:`
  const line = readFileSync(passfile, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(prefix))
  const password = line?.slice(prefix.length)
  return password && /^[A-Za-z0-9_-]+$/.test(password) ? password : undefined
}

function passwordFrom(passfile: string): string {
  const password = readPassword(passfile)
  if (!password) throw new Error(`${passfile} holds no password for ${ROLE}`)
  return password
}

function readOptional(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return undefined
  }
}

function sizeOf(file: string): number {
  return readOptional(file)?.length ?? 0
}

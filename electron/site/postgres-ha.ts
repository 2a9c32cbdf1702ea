import { randomBytes } from 'node:crypto'
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { SupervisedEtcd } from './etcd'
import { renderPatroniConfig } from './patroni-config'
import { SupervisedPatroniNode, type NodeRole } from './patroni-node'
import { clusterAccount, clusterUrl, ensureKioskRole, ensurePassfile, handToPostgres, letPostgresThrough, postgresBinDir } from './postgres-cluster'
import { delay, freeLoopbackPort } from './processes'

export interface HaOutput {
  print(line: string): void
  log(line: string): void
}

interface HaPorts {
  etcd: { client: number; peer: number }
  nodes: { postgres: number; rest: number }[]
  /** haproxy's listen section for the database: the engines' URL. */
  database: number
  /** haproxy's listen section for reads while there is no primary (the synchronous standby). */
  reads: number
}

const NODES = 2
const READY_TIMEOUT_MS = 180_000
const WATCH_EVERY_MS = 500
const ETCD_GRACE_MS = 10_000
const PATRONI_GRACE_MS = 30_000
// sockaddr_un.sun_path holds 107 bytes and a NUL.
const MAX_SOCKET_PATH = 107

/**
 * The site's database with failover (`npm run site -- --ha`), all in one folder:
 *
 *   FOLDER/etcd/          one etcd member (the DCS)
 *   FOLDER/node-<n>/      a PostgreSQL node under Patroni, owned by postgres (0700): patroni.yml
 *                         (with the superuser's and replicator's passwords), data/, its log, its socket
 *   FOLDER/.pgpass        the `kiosk` role's password (PGPASSFILE for the engines)
 *   FOLDER/port           haproxy's database port, so the URL stays the same across runs (pair.ts)
 *   FOLDER/ports.json     the other ports it chose, the same across runs
 *   FOLDER/secrets.json   the superuser's and replicator's passwords (0600)
 *
 * The engines reach the primary through haproxy (its second listen section, checked on each node's
 * Patroni `GET /primary`). This prints the lines a caller waits on, and `postgres primary is node
 * <n>` each time the primary changes, from polling each Patroni's REST API.
 */
export class HaPostgres {
  readonly passfile: string
  private etcd: SupervisedEtcd | undefined
  readonly nodes: SupervisedPatroniNode[] = []
  private ports: HaPorts | undefined
  private watching = false
  private stopping = false
  private starting: Promise<void> | undefined
  private watcher: Promise<void> | undefined
  private readonly printed = new Map<number, string>()
  private primary = 0

  constructor(
    private readonly folder: string,
    private readonly out: HaOutput,
  ) {
    this.passfile = join(folder, '.pgpass')
  }

  /** The engines' database URL: haproxy's database port (no password: that is in `passfile`). */
  get url(): string {
    return clusterUrl(this.ports!.database)
  }

  get databasePort(): number {
    return this.ports!.database
  }

  /** Where the engines read while there is no primary: the synchronous standby, through haproxy. */
  get readUrl(): string {
    return clusterUrl(this.ports!.reads)
  }

  get readPort(): number {
    return this.ports!.reads
  }

  /** Starts etcd and both nodes; resolves once one node is primary and the other a running standby, with the kiosk role and database made. */
  start(): Promise<void> {
    this.starting = this.run()
    return this.starting
  }

  private async run(): Promise<void> {
    const { folder, out } = this
    const account = clusterAccount()
    mkdirSync(folder, { recursive: true, mode: 0o700 })
    letPostgresThrough(folder)
    const ports = (this.ports = await this.choosePorts())
    const secrets = this.secrets()
    ensurePassfile(this.passfile)
    writeFileSync(join(folder, 'port'), `${ports.database}\n`, { mode: 0o600 })

    const etcd = (this.etcd = new SupervisedEtcd(join(folder, 'etcd'), ports.etcd, { started: (pid) => out.print(`etcd pid ${pid}`), log: out.log }))
    await etcd.start()
    this.throwIfStopping()

    for (let n = 1; n <= NODES; n++) {
      const nodeFolder = join(folder, `node-${n}`)
      if (Buffer.byteLength(join(nodeFolder, '.s.PGSQL.65535')) > MAX_SOCKET_PATH) {
        throw new Error(`${nodeFolder} is too long a path for PostgreSQL's unix socket (at most ${MAX_SOCKET_PATH - 16} bytes)`)
      }
      mkdirSync(nodeFolder, { recursive: true, mode: 0o700 })
      chmodSync(nodeFolder, 0o700)
      const { postgres, rest } = ports.nodes[n - 1]!
      const node = new SupervisedPatroniNode(n, nodeFolder, join(nodeFolder, 'data'), postgres, rest, { log: out.log })
      const config = renderPatroniConfig({
        n,
        folder: nodeFolder,
        dataDir: node.dataDir,
        postgresPort: postgres,
        restPort: rest,
        etcdClientPort: ports.etcd.client,
        binDir: postgresBinDir() || '/usr/lib/postgresql/15/bin',
        superuserPassword: secrets.superuser,
        replicationPassword: secrets.replication,
      })
      writeFileSync(node.configFile, config, { mode: 0o600 })
      if (account.root) {
        chownSync(node.configFile, account.uid, account.gid)
        await handToPostgres(nodeFolder, account)
      }
      this.nodes.push(node)
    }
    this.throwIfStopping()
    for (const node of this.nodes) node.start()

    // One primary and every other node a running standby.
    const deadline = Date.now() + READY_TIMEOUT_MS
    let primary: SupervisedPatroniNode | undefined
    for (;;) {
      this.throwIfStopping()
      const statuses = await Promise.all(this.nodes.map((node) => node.status()))
      const primaries = this.nodes.filter((_, i) => statuses[i]!.running && statuses[i]!.role === 'primary')
      const standbys = this.nodes.filter((_, i) => statuses[i]!.running && statuses[i]!.role === 'standby')
      if (primaries.length === 1 && standbys.length === NODES - 1) {
        primary = primaries[0]!
        break
      }
      if (Date.now() > deadline) throw new Error(`the PostgreSQL nodes had no primary and standby within ${READY_TIMEOUT_MS} ms; see ${folder}/node-*/patroni.log`)
      await delay(250)
    }
    await ensureKioskRole(account, primary.folder, primary.postgresPort, this.passfile)
    this.throwIfStopping()
    await this.watchOnce()
    this.watching = true
    this.watcher = this.watch()
  }

  /** The standbys first (no failover to them), then the primary, then etcd. Safe at any point of start(). */
  async stop(): Promise<void> {
    this.stopping = true
    this.watching = false
    // A start under way gives up at its next step; what it started is stopped below.
    await this.starting?.catch(() => undefined)
    await this.watcher
    const statuses = await Promise.all(this.nodes.map((node) => node.status()))
    const standbys = this.nodes.filter((_, i) => statuses[i]!.role !== 'primary')
    const primaries = this.nodes.filter((_, i) => statuses[i]!.role === 'primary')
    await Promise.all(standbys.map((node) => node.stop(PATRONI_GRACE_MS)))
    await Promise.all(primaries.map((node) => node.stop(PATRONI_GRACE_MS)))
    await this.etcd?.stop(ETCD_GRACE_MS)
  }

  private throwIfStopping(): void {
    if (this.stopping) throw new Error('the site is stopping')
  }

  private async watch(): Promise<void> {
    while (this.watching) {
      await delay(WATCH_EVERY_MS)
      if (!this.watching) return
      await this.watchOnce().catch((error: unknown) => this.out.log(`postgres: watching the nodes: ${(error as Error).message}`))
    }
  }

  /** Prints a node's line when its processes or role changed, and the primary when it changed. */
  private async watchOnce(): Promise<void> {
    const statuses = await Promise.all(this.nodes.map((node) => node.status()))
    const primaries: number[] = []
    this.nodes.forEach((node, i) => {
      const status = statuses[i]!
      if (!status.running || !status.role) return
      if (status.role === 'primary') primaries.push(node.n)
      const postgresPid = node.postgresPid()
      if (!postgresPid) return
      const line = nodeLine(node, postgresPid, status.role)
      if (this.printed.get(node.n) === line) return
      this.printed.set(node.n, line)
      this.out.print(line)
    })
    if (primaries.length === 1 && primaries[0] !== this.primary) {
      this.primary = primaries[0]!
      this.out.print(`postgres primary is node ${this.primary}`)
    }
  }

  /** The ports of the last run where there was one (etcd and Patroni keep them), new ones otherwise. */
  private async choosePorts(): Promise<HaPorts> {
    const file = join(this.folder, 'ports.json')
    const kept = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as HaPorts) : undefined
    if (kept?.reads !== undefined) return kept
    const taken = new Set<number>(kept ? [kept.etcd.client, kept.etcd.peer, kept.database, ...kept.nodes.flatMap((node) => [node.postgres, node.rest])] : [])
    const free = async () => {
      for (;;) {
        const port = await freeLoopbackPort()
        if (!taken.has(port)) return taken.add(port), port
      }
    }
    // A folder from before the read section gets that port alone: etcd and Patroni keep theirs.
    const ports: HaPorts = kept
      ? { ...kept, reads: await free() }
      : { etcd: { client: await free(), peer: await free() }, nodes: [], database: await free(), reads: await free() }
    for (let n = ports.nodes.length + 1; n <= NODES; n++) ports.nodes.push({ postgres: await free(), rest: await free() })
    writeFileSync(file, `${JSON.stringify(ports)}\n`, { mode: 0o600 })
    return ports
  }

  /** The superuser's and replicator's passwords: made once (base64url, nothing YAML or libpq would need escaped). */
  private secrets(): { superuser: string; replication: string } {
    const file = join(this.folder, 'secrets.json')
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as { superuser: string; replication: string }
    const secrets = { superuser: randomBytes(24).toString('base64url'), replication: randomBytes(24).toString('base64url') }
    writeFileSync(file, `${JSON.stringify(secrets)}\n`, { mode: 0o600, flag: 'wx' })
    return secrets
  }
}

function nodeLine(node: SupervisedPatroniNode, postgresPid: number, role: NodeRole): string {
  return `postgres node ${node.n} 127.0.0.1:${node.postgresPort} patroni pid ${node.pid} postgres pid ${postgresPid} ${role}`
}

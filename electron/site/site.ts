import { accessSync, constants, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { SiteArgs } from './args'
import { SupervisedEngine } from './engine-supervisor'
import { frontUrl, waitForFront } from './front-probe'
import { SupervisedHaproxy } from './haproxy'
import { renderHaproxyConfig } from './haproxy-config'
import { letPostgresThrough, startPostgresCluster, type PostgresCluster } from './postgres-cluster'
import { HaPostgres } from './postgres-ha'
import { freeLoopbackPort } from './processes'
import { RestartBackoff } from './restart-backoff'
import { siteTemplateKey } from './template-key'

export interface SiteOutput {
  /** The lines a caller (a person, a test) waits on: pids, engine URLs, "site ready". */
  print(line: string): void
  /** Everything else: children's output, restarts. */
  log(line: string): void
}

const ENGINE_GRACE_MS = 10_000
const HAPROXY_GRACE_MS = 10_000
const FRONT_TIMEOUT_MS = 60_000

/**
 * The whole site on one machine: PostgreSQL (private, unless --database names one), N engines on
 * it, haproxy in front. Whatever dies is started again (engines on their port, PostgreSQL on its
 * port, haproxy with its configuration); stop() takes it all down, front first.
 */
export class Site {
  private stopping = false
  private postgres: PostgresCluster | undefined
  private postgresStarting: Promise<PostgresCluster> | undefined
  private postgresRestart: Promise<void> | undefined
  private postgresTimer: NodeJS.Timeout | undefined
  private postgresUpSince = 0
  private readonly postgresBackoff = new RestartBackoff()
  private engines: SupervisedEngine[] = []
  private haproxy: SupervisedHaproxy | undefined
  private ha: HaPostgres | undefined

  constructor(
    private readonly args: SiteArgs,
    private readonly out: SiteOutput,
  ) {}

  async start(): Promise<string> {
    const { args, out } = this
    const local = args.database === undefined
    // Found out now rather than by haproxy, after PostgreSQL and every engine have started.
    if (args.tlsCert) accessSync(args.tlsCert, constants.R_OK)
    mkdirSync(args.data, { recursive: true, mode: 0o700 })
    // 0700, or 0710 with postgres's group as root, so that the server may reach DATA/postgres.
    letPostgresThrough(args.data)
    const env: NodeJS.ProcessEnv = { ...process.env, ENGINE_TEMPLATE_KEY: siteTemplateKey(args.data) }
    if (args.clientId && args.clientSecret) Object.assign(env, { ENGINE_CLIENT_ID: args.clientId, ENGINE_CLIENT_SECRET: args.clientSecret })

    let database = args.database ?? ''
    let readDatabase: string | undefined
    if (args.ha) {
      // etcd and two PostgreSQL nodes under Patroni; the engines reach the primary through haproxy.
      const ha = (this.ha = new HaPostgres(join(args.data, 'ha'), out))
      await ha.start()
      database = ha.url
      readDatabase = ha.readUrl
      env.PGPASSFILE = ha.passfile
      delete env.PGPASSWORD
    } else if (local) {
      this.postgresStarting = startPostgresCluster(join(args.data, 'postgres'), { log: out.log })
      const postgres = (this.postgres = await this.postgresStarting)
      out.print(`postgres pid ${postgres.pid}`)
      this.postgresUpSince = Date.now()
      postgres.onUnexpectedExit((reason) => this.restartPostgres(reason))
      database = postgres.url
      env.PGPASSFILE = postgres.passfile
      // A PGPASSWORD meant for some other server would win over the passfile.
      delete env.PGPASSWORD
    }
    this.throwIfStopping()

    this.engines = Array.from({ length: args.engines }, (_, i) => {
      const n = i + 1
      return new SupervisedEngine(
        { n, dataDir: join(args.data, `engine-${n}`), database, readDatabase, tenant: args.tenant, env },
        {
          ready(engine) {
            out.print(`engine ${engine.n} http://127.0.0.1:${engine.port} pid ${engine.pid}`)
            out.print(`metrics http://127.0.0.1:${engine.port}/metrics`)
          },
          log: out.log,
        },
      )
    })
    const startEngines = async () => {
      // The first engine alone, so that it runs the database migrations before the others start.
      const [first, ...others] = this.engines
      await first!.start()
      await Promise.all(others.map((engine) => engine.start()))
      this.throwIfStopping()
    }
    const startHaproxy = async () => {
      const configFile = join(args.data, 'haproxy.cfg')
      const statsPort = await freeLoopbackPort()
      const ha = this.ha
      const config = renderHaproxyConfig({
        host: args.host,
        port: args.port,
        tlsCert: args.tlsCert,
        engines: this.engines.map((engine, i) => ({ name: `engine-${i + 1}`, port: engine.port })),
        statsPort,
        database: ha && { port: ha.databasePort, readPort: ha.readPort, nodes: ha.nodes.map((node) => ({ name: `node-${node.n}`, postgresPort: node.postgresPort, restPort: node.restPort })) },
      })
      writeFileSync(configFile, config, { mode: 0o600 })
      const haproxy = (this.haproxy = new SupervisedHaproxy(configFile, {
        started(pid) {
          out.print(`haproxy pid ${pid}`)
          out.print(`metrics http://127.0.0.1:${statsPort}/metrics`)
        },
        log: out.log,
      }))
      await haproxy.check()
      this.throwIfStopping()
      return haproxy.start()
    }
    let exited: Promise<never>
    if (this.ha) {
      // The engines reach their database through haproxy: it starts first, with the engines'
      // ports chosen now (its checks take each engine in once it is ready).
      for (const engine of this.engines) engine.port = await freeLoopbackPort()
      ;({ exited } = await startHaproxy())
      await Promise.race([startEngines(), exited])
    } else {
      await startEngines()
      ;({ exited } = await startHaproxy())
    }
    const url = frontUrl(args.host, args.port, args.tlsCert !== undefined)
    await Promise.race([waitForFront(url, FRONT_TIMEOUT_MS), exited])
    this.throwIfStopping()
    out.print(`site ready ${url}`)
    return url
  }

  /** haproxy first (no new requests), then the engines, then PostgreSQL (and etcd). Safe at any point of start(). */
  async stop(): Promise<void> {
    this.stopping = true
    clearTimeout(this.postgresTimer)
    await this.haproxy?.stop(HAPROXY_GRACE_MS)
    await Promise.all(this.engines.map((engine) => engine.stop(ENGINE_GRACE_MS)))
    await this.postgresRestart
    const postgres = this.postgres ?? (await this.postgresStarting?.catch(() => undefined))
    await postgres?.stop()
    await this.ha?.stop()
  }

  /** PostgreSQL died under the site: start it again on its port (the engines reconnect). */
  private restartPostgres(reason: string): void {
    if (this.stopping || !this.postgres) return
    const postgres = this.postgres
    this.out.log(`${reason}; starting it again`)
    const attempt = () => {
      this.postgresRestart = postgres.restart({ mode: 'fast' }).then(
        () => {
          this.postgresUpSince = Date.now()
          this.out.print(`postgres pid ${postgres.pid}`)
        },
        (error: unknown) => {
          if (this.stopping) return
          // e.g. the killed server's last backends still hold its shared memory for a moment.
          this.out.log(`postgres did not start again: ${(error as Error).message}`)
          this.postgresTimer = setTimeout(attempt, this.postgresBackoff.next(0))
        },
      )
    }
    this.postgresTimer = setTimeout(attempt, this.postgresBackoff.next(Date.now() - this.postgresUpSince))
  }

  private throwIfStopping(): void {
    if (this.stopping) throw new Error('the site is stopping')
  }
}

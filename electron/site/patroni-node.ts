import { spawn, type ChildProcess } from 'node:child_process'
import { closeSync, openSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { request } from 'undici'
import { diesWithParent, exited, exitsWithin, running } from './processes'
import { RestartBackoff } from './restart-backoff'

export type NodeRole = 'primary' | 'standby'

export interface NodeStatus {
  /** Patroni's REST API answered and said PostgreSQL is running. */
  running: boolean
  role: NodeRole | undefined
}

export interface PatroniNodeEvents {
  log(line: string): void
}

const PATRONI = '/usr/bin/patroni'
/**
 * A Patroni that died is started again only after its leader key would have expired (the ttl in
 * patroni-config.ts, and some): as when a database machine is lost, the standby takes over, and the
 * old node then comes back as its standby. Restarted at once, it would find its own key still in
 * etcd and carry on as primary, and a failover would never be tried.
 */
export const PATRONI_RESTART_AFTER_MS = 15_000

/**
 * One PostgreSQL node of the site under Patroni, as the postgres account: `patroni FOLDER/patroni.yml`,
 * its output in FOLDER/patroni.log. Patroni starts, promotes, demotes and rewinds its postmaster;
 * this keeps Patroni itself running (a Patroni that dies is started again, and takes over the
 * postmaster it finds, or starts one). Patroni gets SIGTERM if the site dies, and then stops
 * its postmaster.
 */
export class SupervisedPatroniNode {
  pid = 0
  private child: ChildProcess | undefined
  private stopping = false
  private restartTimer: NodeJS.Timeout | undefined
  private readonly backoff = new RestartBackoff()

  constructor(
    readonly n: number,
    readonly folder: string,
    readonly dataDir: string,
    readonly postgresPort: number,
    readonly restPort: number,
    private readonly events: PatroniNodeEvents,
  ) {}

  get configFile(): string {
    return join(this.folder, 'patroni.yml')
  }

  /** Starts Patroni (it returns at once; status() says when PostgreSQL is up). */
  start(): void {
    if (this.stopping) return
    const logFd = openSync(join(this.folder, 'patroni.log'), 'a', 0o600)
    const child = spawn(...diesWithParent('SIGTERM', PATRONI, [this.configFile], process.getuid?.() === 0 ? ['--reuid=postgres', '--regid=postgres', '--init-groups'] : []), {
      cwd: this.folder,
      // Patroni reads PATRONI_* settings from its environment: it gets none of ours.
      env: { PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8', HOME: this.folder },
      stdio: ['ignore', logFd, logFd],
      detached: true,
    })
    closeSync(logFd)
    this.child = child
    this.pid = child.pid ?? 0
    const startedAt = Date.now()
    child.once('error', (error) => this.events.log(`postgres node ${this.n}: patroni: ${error.message}`))
    child.once('exit', (code, signal) => {
      if (this.stopping || this.child !== child) return
      this.events.log(`postgres node ${this.n}: patroni (pid ${child.pid}) exited ${signal ? `on ${signal}` : `with code ${code}`}; starting it again in ${PATRONI_RESTART_AFTER_MS / 1000} s`)
      this.restartTimer = setTimeout(() => this.start(), Math.max(PATRONI_RESTART_AFTER_MS, this.backoff.next(Date.now() - startedAt)))
    })
  }

  /** The postmaster's pid, from its postmaster.pid while it names a live process; 0 otherwise. */
  postgresPid(): number {
    try {
      const pid = Number(readFileSync(join(this.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0])
      return Number.isInteger(pid) && pid > 0 && running(pid) ? pid : 0
    } catch {
      return 0
    }
  }

  /** What Patroni's REST API says of its PostgreSQL now (not running if it does not answer). */
  async status(): Promise<NodeStatus> {
    try {
      const reply = await request(`http://127.0.0.1:${this.restPort}/patroni`, { headersTimeout: 2_000, bodyTimeout: 2_000 })
      const body = (await reply.body.json()) as { state?: string; role?: string }
      const role = body.role === 'master' || body.role === 'primary' ? 'primary' : body.role === 'replica' ? 'standby' : undefined
      return { running: body.state === 'running', role }
    } catch {
      return { running: false, role: undefined }
    }
  }

  /** SIGTERM (Patroni stops PostgreSQL fast, then exits), SIGKILL to both after `graceMs`. */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true
    clearTimeout(this.restartTimer)
    const child = this.child
    const postmaster = this.postgresPid()
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      if (!(await exitsWithin(child, graceMs))) {
        this.events.log(`postgres node ${this.n}: patroni (pid ${child.pid}) still there after ${graceMs} ms; killing it`)
        child.kill('SIGKILL')
        await exited(child)
      }
    }
    // A postmaster Patroni left behind (Patroni killed, or it never got to stop it): fast shutdown, then kill.
    const left = this.postgresPid() || (postmaster && running(postmaster) ? postmaster : 0)
    if (left) {
      this.events.log(`postgres node ${this.n}: postgres (pid ${left}) outlived patroni; stopping it`)
      try {
        process.kill(left, 'SIGINT')
      } catch {
        // gone meanwhile
      }
      const deadline = Date.now() + graceMs
      while (running(left) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100))
      if (running(left)) process.kill(left, 'SIGKILL')
    }
  }
}

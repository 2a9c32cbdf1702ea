import { spawn, type ChildProcess } from 'node:child_process'
import { closeSync, mkdirSync, openSync } from 'node:fs'
import { join } from 'node:path'
import { request } from 'undici'
import { delay, diesWithParent, stopChild } from './processes'
import { RestartBackoff } from './restart-backoff'

export interface EtcdPorts {
  client: number
  peer: number
}

export interface EtcdEvents {
  /** etcd was started (first start and after each restart) and answers /health. */
  started(pid: number): void
  log(line: string): void
}

const NAME = 'site'
const READY_TIMEOUT_MS = 60_000

/**
 * One etcd member on loopback, the DCS of the site's Patroni nodes (`npm run site -- --ha`): its
 * own data folder (FOLDER/data), its log in FOLDER/etcd.log. If it dies it is started again on the
 * same ports; Patroni keeps its primary while etcd is away for less than the leader TTL, and then
 * demotes it rather than risk two primaries.
 */
export class SupervisedEtcd {
  pid = 0
  private child: ChildProcess | undefined
  private stopping = false
  private restartTimer: NodeJS.Timeout | undefined
  private readonly backoff = new RestartBackoff()

  constructor(
    private readonly folder: string,
    readonly ports: EtcdPorts,
    private readonly events: EtcdEvents,
  ) {}

  get clientUrl(): string {
    return `http://127.0.0.1:${this.ports.client}`
  }

  /** Starts it; resolves once it answers /health, rejects if it exits or hangs first. */
  async start(): Promise<void> {
    mkdirSync(this.folder, { recursive: true, mode: 0o700 })
    const peer = `http://127.0.0.1:${this.ports.peer}`
    const args = [
      '--name', NAME,
      '--data-dir', join(this.folder, 'data'),
      '--listen-client-urls', this.clientUrl,
      '--advertise-client-urls', this.clientUrl,
      '--listen-peer-urls', peer,
      '--initial-advertise-peer-urls', peer,
      '--initial-cluster', `${NAME}=${peer}`,
      '--initial-cluster-state', 'new',
      // Nothing on the metrics or pprof ports; no v2 API (Patroni speaks etcd3).
      '--enable-v2=false',
    ]
    const logFd = openSync(join(this.folder, 'etcd.log'), 'a', 0o600)
    // SIGTERM if the site dies, however it dies: no etcd left holding its ports and data.
    const child = spawn(...diesWithParent('SIGTERM', 'etcd', args), { cwd: this.folder, stdio: ['ignore', logFd, logFd], detached: true })
    closeSync(logFd)
    this.child = child
    const startedAt = Date.now()
    let gone = false
    child.once('error', (error) => this.events.log(`etcd: ${error.message}`))
    child.once('exit', (code, signal) => {
      gone = true
      if (this.stopping || this.child !== child) return
      this.events.log(`etcd (pid ${child.pid}) exited ${signal ? `on ${signal}` : `with code ${code}`}; starting it again`)
      this.restartTimer = setTimeout(() => {
        this.start().catch((error: unknown) => this.events.log(`etcd did not start again: ${(error as Error).message}`))
      }, this.backoff.next(Date.now() - startedAt))
    })
    const deadline = Date.now() + READY_TIMEOUT_MS
    while (!(await this.healthy())) {
      if (gone) throw new Error(`etcd exited before it was ready; see ${join(this.folder, 'etcd.log')}`)
      if (Date.now() > deadline) throw new Error(`etcd was not ready within ${READY_TIMEOUT_MS} ms; see ${join(this.folder, 'etcd.log')}`)
      await delay(100)
    }
    this.pid = child.pid ?? 0
    this.events.started(this.pid)
  }

  /** SIGTERM, then SIGKILL after `graceMs`; no restart after this. */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true
    clearTimeout(this.restartTimer)
    if (this.child) await stopChild(this.child, 'SIGTERM', graceMs)
  }

  private async healthy(): Promise<boolean> {
    try {
      const reply = await request(`${this.clientUrl}/health`, { headersTimeout: 2_000, bodyTimeout: 2_000 })
      const body = (await reply.body.json()) as { health?: string }
      return reply.statusCode === 200 && body.health === 'true'
    } catch {
      return false
    }
  }
}

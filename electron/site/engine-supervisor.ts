import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { stopChild } from './processes'
import { RestartBackoff } from './restart-backoff'

const projectRoot = fileURLToPath(new URL('../..', import.meta.url))
const engineEntry = join(projectRoot, 'electron', 'engine', 'cli.ts')
const READY = /^engine ready http:\/\/127\.0\.0\.1:(\d+)$/

export interface EngineSpec {
  /** 1-based, as printed. */
  n: number
  dataDir: string
  database: string
  /** Where the engine's reads go while `database` cannot be reached (--ha: the synchronous standby). */
  readDatabase?: string | undefined
  tenant: string | undefined
  /** Secrets (client credentials, template key, PGPASSFILE) go here, never into argv. */
  env: NodeJS.ProcessEnv
  readyTimeoutMs?: number
}

export interface EngineEvents {
  /** The engine said it is ready: at first start and after each restart. */
  ready(engine: { n: number; port: number; pid: number }): void
  log(line: string): void
}

/**
 * One engine process of the site, kept running: an engine that exits on its own is started again
 * on the same port (haproxy's health check then takes it back), with back-off if it keeps dying.
 */
export class SupervisedEngine {
  port = 0
  pid = 0
  private child: ChildProcess | undefined
  private stopping = false
  private restartTimer: NodeJS.Timeout | undefined
  private readonly backoff = new RestartBackoff()

  constructor(
    private readonly spec: EngineSpec,
    private readonly events: EngineEvents,
  ) {}

  /** The first start: resolves once the engine is ready, rejects if it exits or hangs first. */
  start(): Promise<void> {
    return this.spawnOnce()
  }

  /** SIGTERM, then SIGKILL after `graceMs`; no restart after this. */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true
    clearTimeout(this.restartTimer)
    if (this.child) await stopChild(this.child, 'SIGTERM', graceMs)
  }

  private spawnOnce(): Promise<void> {
    if (this.stopping) return Promise.reject(new Error(`engine ${this.spec.n}: the site is stopping`))
    const { n, dataDir, database, readDatabase, tenant, env } = this.spec
    const args = ['--import', 'tsx', engineEntry, '--port', String(this.port), '--data', dataDir, '--database', database, '--trusted-proxy', '127.0.0.1']
    if (readDatabase) args.push('--read-database', readDatabase)
    if (tenant) args.push('--tenant', tenant)
    // Its own process group, so a terminal's Ctrl+C reaches the site alone, which stops haproxy
    // first. The engine still exits by itself if the site dies (it watches its parent pid).
    const child = spawn(process.execPath, args, { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    this.child = child
    const startedAt = Date.now()
    createInterface({ input: child.stderr! }).on('line', (line) => this.events.log(`engine ${n}: ${line}`))
    return new Promise((resolve, reject) => {
      let ready = false
      const timeoutMs = this.spec.readyTimeoutMs ?? 120_000
      const timer = setTimeout(() => {
        reject(new Error(`engine ${n} was not ready within ${timeoutMs} ms`))
        child.kill('SIGKILL')
      }, timeoutMs)
      createInterface({ input: child.stdout! }).on('line', (line) => {
        const match = READY.exec(line)
        if (ready || !match) return this.events.log(`engine ${n}: ${line}`)
        ready = true
        clearTimeout(timer)
        this.port = Number(match[1])
        this.pid = child.pid ?? 0
        this.events.ready({ n, port: this.port, pid: this.pid })
        resolve()
      })
      child.once('exit', (code, signal) => {
        clearTimeout(timer)
        const how = signal ? `on ${signal}` : `with code ${code}`
        if (!ready) return reject(new Error(`engine ${n} exited ${how} before it was ready`))
        if (this.stopping) return
        this.events.log(`engine ${n} (pid ${child.pid}) exited ${how}; starting it again on port ${this.port}`)
        this.restartLater(Date.now() - startedAt)
      })
    })
  }

  private restartLater(ranMs: number): void {
    const waitMs = this.backoff.next(ranMs)
    this.restartTimer = setTimeout(() => {
      this.spawnOnce().catch((error: unknown) => {
        if (this.stopping) return
        this.events.log(`${(error as Error).message}; trying again`)
        this.restartLater(0)
      })
    }, waitMs)
  }
}

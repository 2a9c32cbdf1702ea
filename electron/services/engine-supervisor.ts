import { createInterface } from 'node:readline'
import type { EngineStatus } from '../shared/contract'

/** What the supervisor needs of a process: a Node ChildProcess and Electron's UtilityProcess both fit. */
export interface EngineProcess {
  readonly pid?: number | undefined
  readonly stdout: NodeJS.ReadableStream | null
  once(event: 'exit', listener: (code: number | null) => void): unknown
  kill(): boolean
}

export interface EngineSupervisorOptions {
  /** Starts one engine process; it must print a line containing `ready http://127.0.0.1:<port>`. */
  launch: () => EngineProcess
  /** How long one start may take before it counts as failed. */
  readyTimeoutMs?: number
  /** Restart delays grow from this, doubling, up to maxBackoffMs. */
  baseBackoffMs?: number
  maxBackoffMs?: number
  /** After this many restarts in a row without becoming ready, the supervisor gives up. */
  maxRestarts?: number
  log?: (line: string) => void
}

const readyPattern = /ready (http:\/\/127\.0\.0\.1:\d+)/

/**
 * Keeps the embedded engine running: starts it, waits for its ready line, restarts it with
 * exponential backoff when it dies unexpectedly, and stops it on request.
 */
export class EngineSupervisor {
  private child: EngineProcess | null = null
  private status: EngineStatus = { mode: 'embedded', state: 'stopped', url: null, pid: null, restarts: 0, lastError: null }
  private failuresInARow = 0
  private stopping = false
  private restartTimer: NodeJS.Timeout | null = null
  private readyWaiters: Array<{ resolve: (url: string) => void; reject: (error: Error) => void }> = []
  private readonly listeners = new Set<(status: EngineStatus) => void>()
  private readonly opts: Required<EngineSupervisorOptions>

  constructor(options: EngineSupervisorOptions) {
    this.opts = {
      readyTimeoutMs: 120_000,
      baseBackoffMs: 500,
      maxBackoffMs: 30_000,
      maxRestarts: 8,
      log: () => {},
      ...options,
    }
  }

  getStatus(): EngineStatus {
    return { ...this.status }
  }

  /** Calls `listener` with the status after every change; returns the function that stops it. */
  onChange(listener: (status: EngineStatus) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** Starts the engine and resolves with its base URL once it is ready. */
  start(): Promise<string> {
    this.stopping = false
    if (this.status.state === 'running' && this.status.url) return Promise.resolve(this.status.url)
    const ready = new Promise<string>((resolve, reject) => this.readyWaiters.push({ resolve, reject }))
    if (!this.child && !this.restartTimer) this.spawn()
    return ready
  }

  /** Stops the engine (SIGTERM) and resolves when it has exited. */
  async stop(): Promise<void> {
    this.stopping = true
    if (this.restartTimer) clearTimeout(this.restartTimer)
    this.restartTimer = null
    const child = this.child
    if (child) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
      child.kill()
      await exited
    }
    this.update({ state: 'stopped', url: null, pid: null })
    this.settleWaiters(new Error('The engine was stopped.'))
  }

  private spawn(): void {
    let child: EngineProcess
    try {
      child = this.opts.launch()
    } catch (error) {
      this.onExit(null, `could not start: ${(error as Error).message}`)
      return
    }
    this.child = child
    this.update({ state: this.status.restarts > 0 ? 'restarting' : 'starting', url: null, pid: child.pid ?? null })
    let reason: string | undefined
    const timer = setTimeout(() => {
      reason = `not ready within ${this.opts.readyTimeoutMs} ms`
      child.kill()
    }, this.opts.readyTimeoutMs)

    if (child.stdout) {
      const lines = createInterface({ input: child.stdout })
      lines.on('line', (line) => {
        this.opts.log(line)
        const match = readyPattern.exec(line)
        if (match && this.child === child && this.status.state !== 'running') {
          clearTimeout(timer)
          this.failuresInARow = 0
          this.update({ state: 'running', url: match[1] ?? null, lastError: null })
          this.settleWaiters(null, match[1])
        }
      })
    }
    child.once('exit', (code) => {
      clearTimeout(timer)
      if (this.child === child) this.onExit(code, reason)
    })
  }

  private onExit(code: number | null, reason?: string): void {
    this.child = null
    if (this.stopping) return
    this.failuresInARow += 1
    const lastError = reason ?? `engine exited with code ${code}`
    if (this.failuresInARow > this.opts.maxRestarts) {
      this.update({ state: 'failed', url: null, pid: null, lastError })
      this.settleWaiters(new Error(`The embedded engine keeps failing: ${lastError}`))
      return
    }
    const delay = Math.min(this.opts.maxBackoffMs, this.opts.baseBackoffMs * 2 ** (this.failuresInARow - 1))
    this.update({ state: 'restarting', url: null, pid: null, restarts: this.status.restarts + 1, lastError })
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null
      this.spawn()
    }, delay)
  }

  private update(patch: Partial<EngineStatus>): void {
    this.status = { ...this.status, ...patch }
    for (const listener of this.listeners) listener(this.getStatus())
  }

  private settleWaiters(error: Error | null, url?: string): void {
    const waiters = this.readyWaiters
    this.readyWaiters = []
    for (const waiter of waiters) {
      if (error || !url) waiter.reject(error ?? new Error('The engine is not ready.'))
      else waiter.resolve(url)
    }
  }
}

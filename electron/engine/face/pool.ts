import type { Worker } from 'node:worker_threads'
import { FairQueue } from './fair-queue'
import { OverloadError } from './overload'
import type { InferRequest, RawFace, WorkerMessage } from './protocol'

/**
 * A pool of face worker threads. Each worker holds its own copy of the model (~100 MB) and gets one
 * image at a time; the main thread only posts messages and waits, so it never blocks on inference.
 *
 * - Workers start on demand: none until there is work (or start() validates the model), more as
 *   jobs wait, up to `size`; a worker idle for `idleMs` is retired, so an idle engine holds no models.
 * - A job holds the compressed image and decodes it only when a worker is free for it (`prepare`),
 *   so waiting work never holds full-size pixel copies.
 * - Waiting jobs are taken round-robin per caller (FairQueue).
 * - Admission is bounded: too many waiting jobs, or too many pixels of unfinished work, overall or
 *   for one caller, refuse the job at once with an OverloadError (never a plain Error, never a hang).
 * - A worker that crashes, exits or overruns its time is replaced when work needs it, and the
 *   request it was working on is rejected (never left hanging); after repeated failures to start
 *   the pool gives up and rejects everything.
 */
export interface PoolOptions {
  /** For log lines and errors, e.g. the plugin name. */
  name: string
  /** Most workers at once. */
  size: number
  /** Starts one worker thread speaking the protocol in protocol.ts. */
  spawn: () => Worker
  log: (line: string) => void
  /** A request running longer than this kills its worker. */
  jobTimeoutMs?: number
  /** Loading models longer than this counts as a failed start. */
  startTimeoutMs?: number
  /** Jobs waiting for a worker beyond this many are refused. */
  maxQueue?: number
  /** Pixels of admitted, unfinished jobs beyond this are refused (a job alone is always admitted). */
  maxPixels?: number
  /** The share (0–1] of maxQueue and maxPixels one caller may hold, so one cannot crowd out the rest. */
  callerShare?: number
  /** A worker idle this long is retired. */
  idleMs?: number
}

export const POOL_DEFAULTS = {
  jobTimeoutMs: 60_000,
  startTimeoutMs: 120_000,
  maxQueue: 1000,
  /** About 250 camera frames of 1 MP, or fifteen 4096×4096 uploads. */
  maxPixels: 256_000_000,
  callerShare: 0.5,
  idleMs: 60_000,
} as const

/** One image to analyse, as the pool holds it until a worker is free. */
export interface PoolJob {
  /** The scheduling key: jobs are taken round-robin per caller. */
  caller: string
  /** The image's pixels (from its header): what the budgets count. */
  pixels: number
  /** Decodes the image; called only when a worker is about to take it. May reject (a bad image). */
  prepare: () => Promise<Omit<InferRequest, 'id'>>
}

export interface InferResult {
  faces: RawFace[]
  /** Time the worker spent on the request. */
  ms: number
}

/** A snapshot of the pool's load, for tests and diagnostics. */
export interface PoolStats {
  /** Live workers, starting or ready. */
  workers: number
  /** Jobs waiting for a worker (compressed bytes only). */
  queued: number
  /** Jobs a worker has taken: being decoded or analysed (the only ones holding pixels). */
  running: number
  /** Pixels of all admitted, unfinished jobs. */
  pendingPixels: number
}

interface Job extends PoolJob {
  id: number
  resolve: (result: InferResult) => void
  reject: (error: Error) => void
  timer?: NodeJS.Timeout
  taken?: number
}

interface Slot {
  worker: Worker
  ready: boolean
  job: Job | null
  /** Set when the pool retires the worker on purpose (idle, closing): its exit is no failure. */
  retiring: boolean
  idleTimer?: NodeJS.Timeout
  /** Why the worker died, for the error its request and the log get. */
  cause: string | null
}

/** Workers that die before they are ready, in a row, before the pool gives up. */
const MAX_START_FAILURES = 3

export class FaceWorkerPool {
  private readonly slots = new Set<Slot>()
  private readonly queue = new FairQueue<Job>()
  private readonly options: Required<PoolOptions>
  private nextJobId = 1
  private closed = false
  private broken: Error | null = null
  private startFailures = 0
  private spawnTimer: NodeJS.Timeout | null = null
  private pendingPixels = 0
  private readonly callerPixels = new Map<string, number>()
  /** Recent time from a worker taking a job to its answer, for Retry-After estimates. */
  private averageJobMs = 500

  constructor(options: PoolOptions) {
    const setting = <K extends keyof typeof POOL_DEFAULTS>(key: K): number => options[key] ?? POOL_DEFAULTS[key]
    this.options = {
      ...options,
      size: Math.max(1, options.size),
      jobTimeoutMs: setting('jobTimeoutMs'),
      startTimeoutMs: setting('startTimeoutMs'),
      maxQueue: setting('maxQueue'),
      maxPixels: setting('maxPixels'),
      callerShare: setting('callerShare'),
      idleMs: setting('idleMs'),
    }
  }

  /**
   * Starts one worker and resolves with its info line once it has loaded the model: proof the
   * model loads. The worker then serves jobs, or is retired when idle like any other.
   */
  start(): Promise<string> {
    return this.spawnSlot()
  }

  /** Queues one image; resolves with the faces found, rejects if it cannot be decoded or the worker fails on it. */
  run(job: PoolJob): Promise<InferResult> {
    if (this.closed) return Promise.reject(new Error(`${this.options.name}: closed`))
    if (this.broken) return Promise.reject(this.broken)
    const refusal = this.admissionRefusal(job)
    if (refusal) return Promise.reject(new OverloadError(`The face engine is busy (${this.options.name}: ${refusal}).`, this.retryAfterSeconds()))
    return new Promise<InferResult>((resolve, reject) => {
      this.pendingPixels += job.pixels
      this.callerPixels.set(job.caller, (this.callerPixels.get(job.caller) ?? 0) + job.pixels)
      this.queue.push(job.caller, { ...job, id: this.nextJobId++, resolve, reject })
      this.dispatch()
    })
  }

  /** Number of live workers (for tests and diagnostics). */
  get size(): number {
    return this.live().length
  }

  stats(): PoolStats {
    return { workers: this.size, queued: this.queue.length, running: [...this.slots].filter((s) => s.job).length, pendingPixels: this.pendingPixels }
  }

  async close(): Promise<void> {
    this.closed = true
    if (this.spawnTimer) clearTimeout(this.spawnTimer)
    for (const job of this.queue.drain()) this.settle(job, new Error(`${this.options.name}: closed`))
    await Promise.all([...this.slots].map((slot) => this.retire(slot)))
  }

  /** Why this job cannot be admitted now, or null. A job with nothing else pending always can. */
  private admissionRefusal(job: PoolJob): string | null {
    const { maxQueue, maxPixels, callerShare } = this.options
    if (this.queue.length >= maxQueue) return `${this.queue.length} images are waiting`
    if (this.queue.lengthOf(job.caller) >= Math.max(1, Math.floor(maxQueue * callerShare))) return `this caller has ${this.queue.lengthOf(job.caller)} images waiting`
    if (this.pendingPixels > 0 && this.pendingPixels + job.pixels > maxPixels) return `${mp(this.pendingPixels)} of images are pending`
    const mine = this.callerPixels.get(job.caller) ?? 0
    if (mine > 0 && mine + job.pixels > maxPixels * callerShare) return `this caller has ${mp(mine)} of images pending`
    return null
  }

  /** Time for the work already admitted to drain, whole seconds, 1–60. */
  private retryAfterSeconds(): number {
    const jobs = this.queue.length + [...this.slots].filter((s) => s.job).length
    const seconds = Math.ceil((jobs * this.averageJobMs) / this.options.size / 1000)
    return Math.min(60, Math.max(1, seconds))
  }

  private live(): Slot[] {
    return [...this.slots].filter((slot) => !slot.retiring)
  }

  private spawnSlot(): Promise<string> {
    return new Promise<string>((resolveReady, rejectReady) => {
      const worker = this.options.spawn()
      const slot: Slot = { worker, ready: false, job: null, retiring: false, cause: null }
      this.slots.add(slot)
      const startTimer = setTimeout(() => {
        slot.cause = `did not load its model within ${this.options.startTimeoutMs} ms`
        void worker.terminate()
      }, this.options.startTimeoutMs)

      worker.on('message', (message: WorkerMessage) => {
        switch (message.type) {
          case 'ready':
            clearTimeout(startTimer)
            slot.ready = true
            this.startFailures = 0
            worker.unref() // an idle pool must not keep the process alive
            resolveReady(message.info)
            this.dispatch()
            this.idle(slot)
            break
          case 'result':
          case 'error':
            this.finish(slot, message)
            break
          case 'fatal':
            slot.cause = message.message
            break
          case 'log':
            this.options.log(`${this.options.name}: ${message.line}`)
            break
        }
      })
      worker.on('error', (error) => {
        slot.cause ??= error.stack ?? error.message
      })
      worker.on('exit', (code) => {
        clearTimeout(startTimer)
        clearTimeout(slot.idleTimer)
        this.slots.delete(slot)
        const why = `${this.options.name} worker stopped (exit code ${code})${slot.cause ? `: ${slot.cause}` : ''}`
        const job = slot.job
        slot.job = null
        if (job) this.settle(job, new Error(this.closed ? `${this.options.name}: closed` : why))
        if (!slot.ready) rejectReady(new Error(why))
        if (this.closed || slot.retiring) return
        this.options.log(why)
        if (!slot.ready && ++this.startFailures >= MAX_START_FAILURES) this.giveUp(why)
        else this.dispatch() // a replacement starts if work is waiting
      })
    })
  }

  /** Stops a worker on purpose (idle, closing). */
  private retire(slot: Slot): Promise<number> {
    slot.retiring = true
    clearTimeout(slot.idleTimer)
    return slot.worker.terminate()
  }

  private giveUp(why: string): void {
    this.broken = new Error(`${this.options.name}: workers keep failing to start (${why})`)
    this.options.log(this.broken.message)
    if (!this.live().some((slot) => slot.ready)) for (const job of this.queue.drain()) this.settle(job, this.broken)
  }

  /** Gives free workers the next jobs, then starts workers if jobs are still waiting. */
  private dispatch(): void {
    if (this.closed) return
    for (const slot of this.live()) {
      if (this.queue.length === 0) break
      if (slot.ready && !slot.job) this.take(slot, this.queue.shift()!)
    }
    this.scale()
  }

  /** Starts workers while more jobs wait than starting workers will take, up to `size`. */
  private scale(): void {
    if (this.broken || this.spawnTimer) return
    const live = this.live()
    const starting = live.filter((slot) => !slot.ready).length
    if (this.queue.length <= starting || live.length >= this.options.size) return
    const spawn = () => {
      this.spawnTimer = null
      if (this.closed || this.broken) return
      this.spawnSlot().then(
        (info) => this.options.log(`${this.options.name}: worker ready: ${info}`),
        () => {}, // its exit handler already logged and decided what next
      )
      this.scale()
    }
    // After failed starts, wait a little before the next attempt. Not unref'd: jobs are waiting.
    if (this.startFailures > 0) this.spawnTimer = setTimeout(spawn, 250 * this.startFailures)
    else spawn()
  }

  private take(slot: Slot, job: Job): void {
    clearTimeout(slot.idleTimer)
    slot.job = job
    job.taken = performance.now()
    slot.worker.ref() // a request in flight keeps the process alive until it is answered
    job.prepare().then(
      (request) => {
        if (slot.job !== job) return // the worker died while the image was decoded; the job is settled
        job.timer = setTimeout(() => {
          slot.cause = `request took longer than ${this.options.jobTimeoutMs} ms`
          void slot.worker.terminate()
        }, this.options.jobTimeoutMs)
        const message: InferRequest = { id: job.id, ...request }
        slot.worker.postMessage(message, [message.rgb.buffer as ArrayBuffer])
      },
      (error: unknown) => {
        if (slot.job !== job) return
        this.release(slot)
        this.settle(job, error instanceof Error ? error : new Error(String(error)))
      },
    )
  }

  private finish(slot: Slot, message: Extract<WorkerMessage, { type: 'result' | 'error' }>): void {
    const job = slot.job
    if (!job || job.id !== message.id) return
    this.averageJobMs = 0.8 * this.averageJobMs + 0.2 * (performance.now() - job.taken!)
    this.release(slot)
    if (message.type === 'result') this.settle(job, null, { faces: message.faces, ms: message.ms })
    else this.settle(job, new Error(`${this.options.name}: ${message.message}`))
  }

  /** The worker is free again: the next job, or the idle clock. */
  private release(slot: Slot): void {
    clearTimeout(slot.job?.timer)
    slot.job = null
    slot.worker.unref()
    this.dispatch()
    this.idle(slot)
  }

  /** Starts the idle clock of a worker that got no job: it is retired if none comes in time. */
  private idle(slot: Slot): void {
    if (slot.job || slot.retiring) return
    clearTimeout(slot.idleTimer)
    slot.idleTimer = setTimeout(() => {
      if (!slot.job) void this.retire(slot)
    }, this.options.idleMs)
    slot.idleTimer.unref()
  }

  private settle(job: Job, error: Error | null, result?: InferResult): void {
    clearTimeout(job.timer)
    this.pendingPixels -= job.pixels
    const left = (this.callerPixels.get(job.caller) ?? 0) - job.pixels
    if (left > 0) this.callerPixels.set(job.caller, left)
    else this.callerPixels.delete(job.caller)
    if (error) job.reject(error)
    else job.resolve(result!)
  }
}

function mp(pixels: number): string {
  return `${(pixels / 1e6).toFixed(1)} MP`
}

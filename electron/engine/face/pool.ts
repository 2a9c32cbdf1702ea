import type { Worker } from 'node:worker_threads'
import type { InferRequest, RawFace, WorkerMessage } from './protocol'

/**
 * A small pool of face worker threads with a FIFO queue. Each worker holds its own copy of the model
 * and gets one image at a time. The main thread only posts messages and waits, so it never blocks
 * on inference. A worker that crashes, exits or overruns its time is replaced, and the request it
 * was working on is rejected (never left hanging); queued requests go to the other workers.
 */
export interface PoolOptions {
  /** For log lines and errors, e.g. the plugin name. */
  name: string
  size: number
  /** Starts one worker thread speaking the protocol in protocol.ts. */
  spawn: () => Worker
  log: (line: string) => void
  /** A request running longer than this kills its worker. */
  jobTimeoutMs?: number
  /** Loading models longer than this counts as a failed start. */
  startTimeoutMs?: number
  /** Requests waiting beyond this many are refused at once rather than queued. */
  maxQueue?: number
}

export interface InferResult {
  faces: RawFace[]
  /** Time the worker spent on the request. */
  ms: number
}

interface Job {
  id: number
  request: Omit<InferRequest, 'id'>
  resolve: (result: InferResult) => void
  reject: (error: Error) => void
  timer?: NodeJS.Timeout
}

interface Slot {
  worker: Worker
  ready: boolean
  job: Job | null
  /** Why the worker died, for the error its request and the log get. */
  cause: string | null
}

/** Replacement workers that die before they are ready, in a row, before the pool gives up. */
const MAX_START_FAILURES = 3

export class FaceWorkerPool {
  private readonly slots = new Set<Slot>()
  private readonly queue: Job[] = []
  private nextJobId = 1
  private started = false
  private closed = false
  private broken: Error | null = null
  private startFailures = 0

  constructor(private readonly options: PoolOptions) {}

  /** Starts every worker; resolves with their info lines once all have loaded the model. */
  async start(): Promise<string[]> {
    const infos = await Promise.all(Array.from({ length: Math.max(1, this.options.size) }, () => this.spawnSlot()))
    this.started = true
    return infos
  }

  /** Queues one image; resolves with the faces found, rejects if the worker fails on it. */
  run(request: Omit<InferRequest, 'id'>): Promise<InferResult> {
    if (this.closed) return Promise.reject(new Error(`${this.options.name}: closed`))
    if (this.broken) return Promise.reject(this.broken)
    if (this.queue.length >= (this.options.maxQueue ?? 1000)) return Promise.reject(new Error(`${this.options.name}: too many requests waiting`))
    return new Promise<InferResult>((resolve, reject) => {
      this.queue.push({ id: this.nextJobId++, request, resolve, reject })
      this.dispatch()
    })
  }

  /** Number of live workers (for tests and diagnostics). */
  get size(): number {
    return this.slots.size
  }

  async close(): Promise<void> {
    this.closed = true
    for (const job of this.queue.splice(0)) job.reject(new Error(`${this.options.name}: closed`))
    await Promise.all([...this.slots].map((slot) => slot.worker.terminate()))
  }

  private spawnSlot(): Promise<string> {
    return new Promise<string>((resolveReady, rejectReady) => {
      const worker = this.options.spawn()
      const slot: Slot = { worker, ready: false, job: null, cause: null }
      this.slots.add(slot)
      const startTimer = setTimeout(() => {
        slot.cause = `did not load its model within ${this.options.startTimeoutMs ?? 120_000} ms`
        void worker.terminate()
      }, this.options.startTimeoutMs ?? 120_000)

      worker.on('message', (message: WorkerMessage) => {
        switch (message.type) {
          case 'ready':
            clearTimeout(startTimer)
            slot.ready = true
            this.startFailures = 0
            worker.unref() // an idle pool must not keep the process alive
            resolveReady(message.info)
            this.dispatch()
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
        this.slots.delete(slot)
        const why = `${this.options.name} worker stopped (exit code ${code})${slot.cause ? `: ${slot.cause}` : ''}`
        const job = slot.job
        if (job) {
          clearTimeout(job.timer)
          slot.job = null
          job.reject(new Error(this.closed ? `${this.options.name}: closed` : why))
        }
        if (!slot.ready) rejectReady(new Error(why))
        if (this.closed) return
        this.options.log(why)
        if (!this.started) return // start() reports it; the caller closes the pool
        this.replace(slot.ready, why)
      })
    })
  }

  /** Starts a replacement for a worker that died; gives up after repeated failures to start. */
  private replace(diedAfterReady: boolean, why: string): void {
    if (!diedAfterReady) this.startFailures++
    if (this.startFailures >= MAX_START_FAILURES) {
      this.broken = new Error(`${this.options.name}: workers keep failing to start (${why})`)
      this.options.log(this.broken.message)
      if (this.slots.size === 0) for (const job of this.queue.splice(0)) job.reject(this.broken)
      return
    }
    const delay = diedAfterReady ? 0 : 250 * this.startFailures
    // Not unref'd: requests may be queued for the replacement, and the wait is short.
    setTimeout(() => {
      if (this.closed) return
      this.spawnSlot().then(
        (info) => this.options.log(`${this.options.name}: replacement worker ready: ${info}`),
        () => {}, // its exit handler already logged and decided what next
      )
    }, delay)
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return
      if (!slot.ready || slot.job) continue
      const job = this.queue.shift() as Job
      slot.job = job
      slot.worker.ref() // a request in flight keeps the process alive until it is answered
      job.timer = setTimeout(() => {
        slot.cause = `request took longer than ${this.options.jobTimeoutMs ?? 60_000} ms`
        void slot.worker.terminate()
      }, this.options.jobTimeoutMs ?? 60_000)
      const message: InferRequest = { id: job.id, ...job.request }
      slot.worker.postMessage(message, [message.rgb.buffer as ArrayBuffer])
    }
  }

  private finish(slot: Slot, message: Extract<WorkerMessage, { type: 'result' | 'error' }>): void {
    const job = slot.job
    if (!job || job.id !== message.id) return
    clearTimeout(job.timer)
    slot.job = null
    slot.worker.unref()
    if (message.type === 'result') job.resolve({ faces: message.faces, ms: message.ms })
    else job.reject(new Error(`${this.options.name}: ${message.message}`))
    this.dispatch()
  }
}

import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import { workerEntry } from '../worker-entry'
import { WASM_PAGE, type DotKernel, type WasmMemory } from './dot-kernel'
import { packPage, roundTemplates } from './quantize'
import type { LoadedRows, LoadJob, ScanJob, ScanWorkerReply } from './scan-protocol'

/**
 * Worker threads (scan-worker.ts) that share the identify caches' memories, so a large cache's scan
 * and its load use every core. The rows are never copied: each thread instantiates the kernel on the
 * same SharedArrayBuffer-backed memory, and a scan's slices or a load's pages are written in place.
 */

/** Rows below this are scanned on the calling thread: a round trip to the workers costs more. */
export const SHARDED_MIN_ROWS = 16_384

/** Pages of fewer templates are rounded on the calling thread. */
const LOAD_PAGE_MIN = 256

/**
 * Shared buffers a load's pages are packed into, reused page after page: a page handed over in a
 * buffer of its own was freed only when the thread's heap was next collected, and the allocator
 * kept the high-water mark of those pages resident after the load.
 */
const pageBuffers: SharedArrayBuffer[] = []

function takePageBuffer(bytes: number): SharedArrayBuffer {
  const at = pageBuffers.findIndex((buffer) => buffer.byteLength >= bytes)
  if (at >= 0) return pageBuffers.splice(at, 1)[0]!
  pageBuffers.pop() // too small for this page: let it go
  return new SharedArrayBuffer(Math.ceil((bytes * 1.25) / WASM_PAGE) * WASM_PAGE)
}

type Job = Omit<ScanJob, 'id' | 'memoryId' | 'memory'> | Omit<LoadJob, 'id' | 'memoryId' | 'memory'>

class ScanPool {
  private readonly workers: Worker[]
  private readonly seen: Array<Set<number>>
  private readonly busy: number[]
  private readonly pending = new Map<number, { resolve: (reply: ScanWorkerReply) => void; reject: (error: Error) => void }>()
  private nextId = 0
  private broken: Error | null = null

  constructor(size: number) {
    const entry = workerEntry('scan-worker', './bio/scan-worker-bootstrap.mjs')
    this.workers = Array.from({ length: size }, (_, i) => {
      const worker = new Worker(entry, { execArgv: [], name: `identify-scan-${i}` })
      worker.unref() // an idle pool never keeps the process alive
      worker.on('message', (reply: ScanWorkerReply) => {
        this.busy[i]!--
        this.pending.get(reply.id)?.resolve(reply)
        this.pending.delete(reply.id)
      })
      worker.on('error', (error) => this.fail(error))
      worker.on('exit', (code) => this.fail(new Error(`identify scan thread exited (${code})`)))
      return worker
    })
    this.seen = this.workers.map(() => new Set())
    this.busy = this.workers.map(() => 0)
  }

  get size(): number {
    return this.broken ? 0 : this.workers.length
  }

  /** Runs a job on thread `i` (the least busy when undefined); the memory goes along the first time that thread sees it. */
  run(memoryId: number, memory: WasmMemory, job: Job, i = this.busy.indexOf(Math.min(...this.busy))): Promise<ScanWorkerReply> {
    if (this.broken) return Promise.reject(this.broken)
    const id = this.nextId++
    const known = this.seen[i]!.has(memoryId)
    this.seen[i]!.add(memoryId)
    this.busy[i]!++
    return new Promise<ScanWorkerReply>((resolve, reject) => {
      this.pending.set(id, { resolve, reject })
      this.workers[i]!.postMessage({ ...job, id, memoryId, ...(known ? {} : { memory }) })
    }).then((reply) => {
      if ('error' in reply) throw new Error(reply.error)
      return reply
    })
  }

  /** Scans `count` rows split across the threads; resolves with the thread count when every slice's scores are written. */
  async scan(memoryId: number, memory: WasmMemory, job: Omit<ScanJob, 'id' | 'memoryId' | 'memory' | 'kind'>): Promise<number> {
    const share = Math.ceil(job.count / this.workers.length)
    await Promise.all(
      this.workers.map((_, i) => {
        const first = i * share
        const count = Math.max(0, Math.min(share, job.count - first))
        if (count === 0) return null
        return this.run(memoryId, memory, { ...job, kind: 'scan', rowsAt: job.rowsAt + first * job.stride, count, outAt: job.outAt + first * job.probes * 4 }, i)
      }),
    )
    return this.workers.length
  }

  /** Whether no job is waiting on the threads. */
  get idle(): boolean {
    return this.pending.size === 0
  }

  /** Stops the threads (their heaps go with them); a new pool starts on the next use. */
  stop(): void {
    this.fail(new Error('identify scan threads stopped'))
    for (const worker of this.workers) void worker.terminate()
  }

  /** Forgets a memory no cache scans any more, so the threads let it go. */
  release(memoryId: number): void {
    for (const [i, worker] of this.workers.entries()) {
      if (this.seen[i]!.delete(memoryId)) worker.postMessage({ kind: 'release', memoryId })
    }
  }

  private fail(error: Error): void {
    this.broken ??= error
    for (const { reject } of this.pending.values()) reject(error)
    this.pending.clear()
  }
}

let pool: ScanPool | null = null
let memoryIds = 0

/** A kernel whose large scans and whose loads run on the pool's threads when there are cores for them, in place otherwise. */
export interface SharedScan {
  /** Scores rows against the probes (returns the threads used). */
  scan(probes: number, probesAt: number, rowsAt: number, count: number, stride: number, outAt: number): Promise<number> | number
  /** Opens and decodes sealed templates into rows first.. (on a pool thread while the caller reads the next page). */
  load(job: Omit<LoadJob, 'id' | 'memoryId' | 'memory' | 'kind' | 'sealed' | 'ends'> & { templates: readonly Uint8Array[] }): Promise<LoadedRows>
  release(): void
}

/**
 * After a load: the threads' heaps grew with the pages they opened (about 300 MB for a million
 * templates), and a thread gives its heap back only when it ends. Stops an idle pool; the next
 * scan starts a fresh one.
 */
export function settleAfterLoad(): void {
  pageBuffers.length = 0
  if (!pool?.idle) return
  pool.stop()
  pool = null
}

/** Wraps a kernel so its work runs on every core (the pool starts on first use). */
export function sharedScan(kernel: DotKernel, threads = availableParallelism()): SharedScan {
  const memoryId = memoryIds++
  const poolFor = (rows: number) => {
    if (rows < SHARDED_MIN_ROWS || threads < 2) return null
    pool ??= new ScanPool(threads)
    return pool.size > 0 ? pool : null
  }
  return {
    scan(probes, probesAt, rowsAt, count, stride, outAt) {
      const inPlace = () => {
        kernel.scan[probes - 1]!(probesAt, rowsAt, count, stride, outAt)
        return 1
      }
      return poolFor(count)?.scan(memoryId, kernel.memory, { probes, probesAt, rowsAt, count, stride, outAt }).catch(inPlace) ?? inPlace()
    },
    async load({ templates, ...job }) {
      const inPlace = () => roundTemplates(new Int8Array(kernel.memory.buffer), { ...job, ...packPage(templates) })
      const threads = templates.length >= LOAD_PAGE_MIN ? poolFor(SHARDED_MIN_ROWS) : null
      if (!threads) return inPlace()
      const buffer = takePageBuffer(templates.reduce((bytes, template) => bytes + template.byteLength, 0))
      try {
        const reply = await threads.run(memoryId, kernel.memory, { ...job, ...packPage(templates, buffer), kind: 'load' }).catch(() => null)
        return reply && 'loaded' in reply && reply.loaded ? reply.loaded : inPlace()
      } finally {
        pageBuffers.push(buffer)
      }
    },
    release() {
      pool?.release(memoryId)
    },
  }
}

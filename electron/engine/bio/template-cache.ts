import { createDotKernel, KERNEL_BLOCK, MAX_PROBES, PROBE_BLOCK, MAX_STRIDE, PROBE_RANGE, ROW_RANGE, WASM_PAGE, type DotKernel } from './dot-kernel'
import { quantize } from './quantize'
import { RowKeys } from './row-keys'
import { sharedScan, type SharedScan } from './scan-pool'
import type { SealedTemplate } from '../store/templates'
import { dot } from './template-codec'

export interface CacheHit {
  personId: string
  similarity: number
}

/** A template's full-precision normalised vector, read from the store (null once it is gone). */
export type VectorReader = (personId: string, context: string) => Promise<Float32Array | null>

/** Candidates collected per probe before the bar is raised (see collect). */
const COLLECT_ROWS = 4096
/** Pages of a load being rounded on the pool's threads at once (bounds the decrypted bytes held). */
const LOAD_PAGES_IN_FLIGHT = 4
/** Full vectors read from the store at once while re-scoring. */
const READ_BATCH = 32
/** Upper bounds (cosines in [-1, 1] plus the margin) are counted in this many buckets to place the bar. */
const BUCKETS = 2048
const bucketOf = (bound: number) => Math.min(BUCKETS - 1, Math.max(0, Math.floor(((bound + 1) / 2) * BUCKETS)))
const bucketEdge = (bucket: number) => (bucket / BUCKETS) * 2 - 1

/** A probe as the kernel reads it (int16, with the bound on what that rounding costs). */
interface Probe {
  vector: Float32Array
  values: Int16Array
  scale: number
  norm: number
  error: number
}

interface Candidate {
  personId: string
  context: string
  upper: number
}

interface Waiting {
  probe: Probe
  minSimilarity: number
  maxResults: number
  wanted: number
  resolve: (hits: CacheHit[]) => void
  reject: (error: unknown) => void
}

/**
 * One plugin's in-memory identify cache: every enrolled vector as a compact row of int8 values with
 * a per-row scale, in one block of the kernel's memory, scanned linearly. Rows are keyed by
 * (personId, templateContext); a delete moves the last row into the hole so the block stays dense.
 *
 * The compact score is not the exact one, so it only chooses what to re-score: for each row the
 * cache keeps the length of its rounding error, which bounds how far the compact score can be from
 * the exact one (Cauchy–Schwarz: |q·x − q̃·x̃| ≤ |q|·|x − x̃| + |q − q̃|·|x̃|). Every row whose
 * bound reaches the cut-off (or the k-th best) is re-scored from its full-precision vector, read
 * from the store, so matches, scores and order are the float64 scan's.
 *
 * Searches waiting together are scanned in one pass, several probes per row read.
 *
 * Memory layout (bytes): probes [MAX_PROBES × stride × 2] | rows [capacity × stride] | scores
 * [capacity × MAX_PROBES × 4]. Growing keeps the rows where they are; the scores are scratch.
 */
export class TemplateCache {
  private kernel: DotKernel = createDotKernel()
  /** A view of the whole memory, taken again when it grows (a shared memory's buffer is a new object on every read). */
  private bytes = new Int8Array(this.kernel.memory.buffer)
  private scanner: SharedScan = sharedScan(this.kernel)
  /** Writes wait while the threads read the rows (a moved row would be scored under another key). */
  private scanning = false
  private readonly deferred: Array<() => void> = []
  private readonly stride: number
  private readonly rowsAt: number
  private capacity = 0
  private scales = new Float32Array(0)
  private errors = new Float32Array(0)
  private lengths = new Float32Array(0)
  private keys = new RowKeys()
  private readonly waiting: Waiting[] = []
  /** collect()'s per-row upper bounds, reused from search to search (a million rows are 8 MB). */
  private upper = new Float64Array(0)
  private scheduled = false
  /** Passes over the rows (those split across threads), probes scanned in them and full vectors read to re-score: what searches cost. */
  readonly work = { passes: 0, probes: 0, reads: 0, threaded: 0 }

  constructor(
    readonly dimensions: number,
    private readonly readVector: VectorReader,
    initialCapacity = 1024,
  ) {
    this.stride = Math.ceil(dimensions / KERNEL_BLOCK) * KERNEL_BLOCK
    if (this.stride > MAX_STRIDE) throw new Error(`${dimensions} dimensions: the cache holds at most ${MAX_STRIDE}`)
    this.rowsAt = MAX_PROBES * this.stride * 2
    this.reserve(initialCapacity)
  }

  get size(): number {
    return this.keys.size
  }

  /** An empty cache of the same shape, reading the same store (to build a reload aside). */
  emptyLike(): TemplateCache {
    return new TemplateCache(this.dimensions, this.readVector, 0)
  }

  /** Makes room for `rows` templates in all (a rebuild sizes the cache once, not by doubling). */
  reserve(rows: number): void {
    if (rows <= this.capacity) return
    const bytes = this.rowsAt + rows * this.stride + rows * MAX_PROBES * 4
    const pages = Math.ceil(bytes / WASM_PAGE) - this.kernel.memory.buffer.byteLength / WASM_PAGE
    if (pages > 0) this.kernel.memory.grow(pages)
    this.bytes = new Int8Array(this.kernel.memory.buffer)
    const grown = (old: Float32Array) => {
      const next = new Float32Array(rows)
      next.set(old.subarray(0, this.keys.size))
      return next
    }
    this.scales = grown(this.scales)
    this.errors = grown(this.errors)
    this.lengths = grown(this.lengths)
    this.capacity = rows
  }

  put(personId: string, context: string, vector: Float32Array): void {
    if (vector.length !== this.dimensions) throw new Error(`vector has ${vector.length} dimensions, cache ${this.dimensions}`)
    if (this.scanning) return void this.deferred.push(() => this.put(personId, context, vector))
    let row = this.keys.find(personId, context)
    if (row < 0) {
      if (this.keys.size + 1 > this.capacity) this.reserve(Math.max(1024, Math.ceil(this.capacity * 1.5)))
      row = this.keys.add(personId, context)
    }
    const values = this.bytes.subarray(this.rowsAt + row * this.stride, this.rowsAt + (row + 1) * this.stride)
    const { scale, error, length } = quantize(vector, values, ROW_RANGE)
    this.scales[row] = scale
    this.errors[row] = error
    this.lengths[row] = length
  }

  remove(personId: string, context: string): void {
    if (this.scanning) return void this.deferred.push(() => this.remove(personId, context))
    const row = this.keys.find(personId, context)
    if (row >= 0) this.removeRow(row)
  }

  private removeRow(row: number): void {
    const last = this.keys.remove(row)
    if (last < 0) return
    this.bytes.copyWithin(this.rowsAt + row * this.stride, this.rowsAt + last * this.stride, this.rowsAt + (last + 1) * this.stride)
    this.scales[row] = this.scales[last]!
    this.errors[row] = this.errors[last]!
    this.lengths[row] = this.lengths[last]!
  }

  /**
   * Fills this empty cache from the store's pages of sealed templates: each page is opened, decoded
   * and rounded into its rows on a pool thread while the next page is read. Returns how many
   * templates could not be opened or read (left out).
   */
  async fill(pages: AsyncIterable<readonly SealedTemplate[]>, key: Uint8Array): Promise<number> {
    if (this.keys.size > 0 || this.scanning) throw new Error('fill() builds an empty cache aside')
    const inFlight: Array<Promise<void>> = []
    const unreadable: Array<{ personId: string; context: string }> = []
    for await (const page of pages) {
      const first = this.keys.size
      this.reserve(first + page.length)
      for (const { personId, templateContext } of page) this.keys.add(personId, templateContext)
      const job = { rowsAt: this.rowsAt, stride: this.stride, dimensions: this.dimensions, first, key, templates: page.map((t) => t.sealed) }
      inFlight.push(
        this.scanner.load(job).then((loaded) => {
          this.scales.set(loaded.scales, first)
          this.errors.set(loaded.errors, first)
          this.lengths.set(loaded.lengths, first)
          for (const i of loaded.unreadable) unreadable.push({ personId: this.keys.personId(first + i), context: this.keys.context(first + i) })
        }),
      )
      if (inFlight.length >= LOAD_PAGES_IN_FLIGHT) await inFlight.shift()
    }
    await Promise.all(inFlight)
    for (const { personId, context } of unreadable) this.remove(personId, context)
    return unreadable.length
  }

  /** Removes every template of these person ids. */
  removePerson(personIds: string[]): void {
    for (const personId of personIds) {
      // Highest row first: removing it moves only a row after it.
      for (const row of this.keys.rowsOf(personId).sort((a, b) => b - a)) this.removeRow(row)
    }
  }

  /** Takes over another cache's rows (built aside while this one kept serving), leaving that one empty. */
  adopt(other: TemplateCache): void {
    if (other.dimensions !== this.dimensions) throw new Error(`cache of ${other.dimensions} dimensions, this one ${this.dimensions}`)
    if (this.scanning) return void this.deferred.push(() => this.adopt(other))
    this.scanner.release()
    ;({ kernel: this.kernel, bytes: this.bytes, scanner: this.scanner, capacity: this.capacity, scales: this.scales, errors: this.errors, lengths: this.lengths, keys: this.keys } = other)
    other.kernel = createDotKernel()
    other.bytes = new Int8Array(other.kernel.memory.buffer)
    other.scanner = sharedScan(other.kernel)
    other.capacity = 0
    other.scales = new Float32Array(0)
    other.errors = new Float32Array(0)
    other.lengths = new Float32Array(0)
    other.keys = new RowKeys()
  }

  clear(): void {
    if (this.scanning) return void this.deferred.push(() => this.clear())
    this.keys.clear()
  }

  /**
   * The best similarity per person, highest first, keeping only those at or above `minSimilarity`,
   * at most `maxResults`: exactly what a float64 scan of the full vectors returns.
   */
  search(probe: Float32Array, minSimilarity: number, maxResults: number): Promise<CacheHit[]> {
    if (probe.length !== this.dimensions) return Promise.reject(new Error(`probe has ${probe.length} dimensions, cache ${this.dimensions}`))
    if (this.keys.size === 0) return Promise.resolve([])
    return new Promise((resolve, reject) => {
      this.waiting.push({ probe: probeOf(probe, this.stride), minSimilarity, maxResults, wanted: Math.max(COLLECT_ROWS, 16 * maxResults), resolve, reject })
      this.schedule()
    })
  }

  /** One pass loop at a time (passes share the probe and score areas); it runs while searches wait. */
  private schedule(): void {
    if (this.scheduled) return
    this.scheduled = true
    setImmediate(() => void this.passes())
  }

  /** Writes that came in during a pass land before the next one, so a search after a write sees it. */
  private async passes(): Promise<void> {
    try {
      while (this.waiting.length > 0) {
        this.scanning = true
        try {
          await this.pass(this.waiting.splice(0, MAX_PROBES))
        } finally {
          this.scanning = false
          for (const write of this.deferred.splice(0)) write()
        }
      }
    } finally {
      this.scheduled = false
    }
  }

  /** Scans the rows once for these searches, collects each one's candidates, then re-scores them. */
  private async pass(searches: Waiting[]): Promise<void> {
    const count = this.keys.size
    const probes = searches.length
    writeProbes(new Int16Array(this.bytes.buffer, 0, probes * this.stride), searches.map((s) => s.probe.values), this.stride)
    const scoresAt = this.rowsAt + this.capacity * this.stride
    try {
      if ((await this.scanner.scan(probes, 0, this.rowsAt, count, this.stride, scoresAt)) > 1) this.work.threaded++
    } catch (error) {
      for (const search of searches) search.reject(error)
      return
    }
    this.work.passes++
    this.work.probes += probes
    const dots = new Int32Array(this.bytes.buffer, scoresAt, count * probes)
    for (const [p, search] of searches.entries()) {
      const collected = this.collect(search, dots, p, probes)
      this.rescore(search, collected).then(search.resolve, search.reject)
    }
  }

  /**
   * The rows whose upper bound reaches the cut-off. A low cut-off can let most rows through: then
   * only those at or above a bar, placed so that about `wanted` rows pass it, are collected; rows
   * under the bar are left out only if the re-scored k-th best proves they cannot matter.
   */
  private collect(search: Waiting, dots: Int32Array, p: number, probes: number): { candidates: Candidate[]; bar: number } {
    const { probe, minSimilarity } = search
    const count = this.keys.size
    if (this.upper.length < count) this.upper = new Float64Array(this.capacity)
    const upper = this.upper
    const histogram = new Int32Array(BUCKETS)
    let passing = 0
    for (let row = 0; row < count; row++) {
      const bound = probe.scale * this.scales[row]! * dots[row * probes + p]! + probe.norm * this.errors[row]! + probe.error * this.lengths[row]! + 1e-9
      upper[row] = bound
      if (bound < minSimilarity) continue
      histogram[bucketOf(bound)]!++
      passing++
    }
    let bar = minSimilarity
    if (passing > search.wanted) {
      let rows = 0
      for (let bucket = BUCKETS - 1; bucket > 0; bucket--) {
        rows += histogram[bucket]!
        if (rows >= search.wanted) {
          bar = Math.max(minSimilarity, bucketEdge(bucket))
          break
        }
      }
    }
    const candidates: Candidate[] = []
    for (let row = 0; row < count; row++) {
      if (upper[row]! >= bar) candidates.push({ personId: this.keys.personId(row), context: this.keys.context(row), upper: upper[row]! })
    }
    candidates.sort((a, b) => b.upper - a.upper)
    return { candidates, bar }
  }

  /** Exact scores from the full vectors, best bound first, until no row left could change the answer. */
  private async rescore(search: Waiting, { candidates, bar }: { candidates: Candidate[]; bar: number }): Promise<CacheHit[]> {
    const { probe, minSimilarity, maxResults } = search
    const best = new Map<string, number>()
    const kth = () => {
      if (best.size < maxResults) return -Infinity
      return [...best.values()].sort((a, b) => b - a)[maxResults - 1]!
    }
    for (let start = 0; start < candidates.length; start += READ_BATCH) {
      if (kth() >= candidates[start]!.upper) break
      const batch = candidates.slice(start, start + READ_BATCH)
      this.work.reads += batch.length
      const vectors = await Promise.all(batch.map((c) => this.readVector(c.personId, c.context)))
      for (const [i, vector] of vectors.entries()) {
        if (!vector) continue // deleted since the scan
        const similarity = dot(probe.vector, vector)
        if (similarity < minSimilarity) continue
        const personId = batch[i]!.personId
        const previous = best.get(personId)
        if (previous === undefined || similarity > previous) best.set(personId, similarity)
      }
    }
    if (bar > minSimilarity && kth() < bar) {
      // Rows under the bar could still matter: scan again with room for more of them.
      return new Promise((resolve, reject) => {
        this.waiting.push({ ...search, wanted: search.wanted * 8, resolve, reject })
        this.schedule()
      })
    }
    return [...best].map(([personId, similarity]) => ({ personId, similarity })).sort((a, b) => b.similarity - a.similarity).slice(0, maxResults)
  }
}

function probeOf(vector: Float32Array, stride: number): Probe {
  const values = new Int16Array(stride)
  const { scale, error } = quantize(vector, values, PROBE_RANGE)
  let norm = 0
  for (const value of vector) norm += value * value
  return { vector, values, scale, norm: Math.sqrt(norm) * (1 + 1e-6) + 1e-12, error }
}

/** Lays probes out as the kernel reads them: for each block of 16 values, each probe's 16 in turn. */
export function writeProbes(out: Int16Array, probes: Int16Array[], stride: number): void {
  const count = probes.length
  for (let block = 0; block < stride; block += PROBE_BLOCK) {
    for (const [p, values] of probes.entries()) out.set(values.subarray(block, block + PROBE_BLOCK), block * count + p * PROBE_BLOCK)
  }
}

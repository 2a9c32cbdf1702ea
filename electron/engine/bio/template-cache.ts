import { createDotKernel, KERNEL_BLOCK, type DotKernel } from './dot-kernel'
import { dot } from './template-codec'

export interface CacheHit {
  personId: string
  similarity: number
}

const PAGE = 65536
/**
 * The SIMD scan sums in float32, in another order than the exact float64 dot product, so it may be
 * off by ~1e-6 for unit vectors; rows within this margin of the cut-off are re-scored exactly.
 */
const SCAN_MARGIN = 1e-4
/** Rows re-scored exactly in one go before the bar is raised (see search). */
const RESCORE_ROWS = 2048
/** Kernel scores (cosines in [-1, 1]) are counted in this many buckets to place the bar. */
const BUCKETS = 2048
const bucketOf = (score: number) => Math.min(BUCKETS - 1, Math.max(0, Math.floor(((score + 1) / 2) * BUCKETS)))

/** The highest bucket edge with at least `wanted` rows at or above it (-1 when there is none). */
function barFor(histogram: Int32Array, wanted: number): number {
  let rows = 0
  for (let bucket = BUCKETS - 1; bucket > 0; bucket--) {
    rows += histogram[bucket]!
    if (rows >= wanted) return (bucket / BUCKETS) * 2 - 1
  }
  return -1
}

/**
 * One plugin's in-memory identify cache: all enrolled vectors, normalised, in one contiguous block
 * of the dot kernel's memory, scanned linearly by it. Rows are keyed by (personId, templateContext);
 * a delete moves the last row into the hole so the block stays dense.
 *
 * Memory layout (floats): probe [stride] | rows [capacity × stride] | scores [capacity]. Rows are
 * padded with zeros to a stride that is a multiple of the kernel's block. Growing the memory keeps
 * the rows where they are; the scores area is scratch and simply moves to the new end.
 */
export class TemplateCache {
  private kernel: DotKernel = createDotKernel()
  private readonly stride: number
  private floats: Float32Array
  private capacity = 0
  private readonly histogram = new Int32Array(BUCKETS)
  private keys: Array<{ personId: string; context: string }> = []
  private rowOf = new Map<string, number>()

  constructor(
    readonly dimensions: number,
    initialCapacity = 1024,
  ) {
    this.stride = Math.ceil(dimensions / KERNEL_BLOCK) * KERNEL_BLOCK
    this.floats = new Float32Array(this.kernel.memory.buffer)
    this.reserve(initialCapacity)
  }

  get size(): number {
    return this.keys.length
  }

  /** Makes room for `rows` templates in all (a rebuild sizes the cache once, not by doubling). */
  reserve(rows: number): void {
    if (rows <= this.capacity) return
    const bytes = 4 * (this.stride + rows * this.stride + rows)
    const pages = Math.ceil(bytes / PAGE) - this.kernel.memory.buffer.byteLength / PAGE
    if (pages > 0) this.kernel.memory.grow(pages)
    this.floats = new Float32Array(this.kernel.memory.buffer)
    this.capacity = rows
  }

  put(personId: string, context: string, vector: Float32Array): void {
    if (vector.length !== this.dimensions) throw new Error(`vector has ${vector.length} dimensions, cache ${this.dimensions}`)
    const key = rowKey(personId, context)
    let row = this.rowOf.get(key)
    if (row === undefined) {
      row = this.keys.length
      if (row + 1 > this.capacity) this.reserve(Math.max(1024, Math.ceil(this.capacity * 1.5)))
      this.keys.push({ personId, context })
      this.rowOf.set(key, row)
    }
    this.floats.set(vector, this.rowStart(row))
  }

  remove(personId: string, context: string): void {
    const key = rowKey(personId, context)
    const row = this.rowOf.get(key)
    if (row === undefined) return
    const last = this.keys.length - 1
    if (row !== last) {
      const moved = this.keys[last]!
      this.floats.copyWithin(this.rowStart(row), this.rowStart(last), this.rowStart(last + 1))
      this.keys[row] = moved
      this.rowOf.set(rowKey(moved.personId, moved.context), row)
    }
    this.keys.pop()
    this.rowOf.delete(key)
  }

  /** Removes every template of these person ids. */
  removePerson(personIds: string[]): void {
    const ids = new Set(personIds)
    for (const { personId, context } of this.keys.filter((k) => ids.has(k.personId))) this.remove(personId, context)
  }

  /** Takes over another cache's rows (built aside while this one kept serving), leaving that one empty. */
  adopt(other: TemplateCache): void {
    if (other.dimensions !== this.dimensions) throw new Error(`cache of ${other.dimensions} dimensions, this one ${this.dimensions}`)
    ;({ kernel: this.kernel, floats: this.floats, capacity: this.capacity, keys: this.keys, rowOf: this.rowOf } = other)
    other.kernel = createDotKernel()
    other.floats = new Float32Array(other.kernel.memory.buffer)
    other.capacity = 0
    other.keys = []
    other.rowOf = new Map()
  }

  clear(): void {
    this.keys = []
    this.rowOf.clear()
  }

  /**
   * The best similarity per person, highest first, keeping only those at or above `minSimilarity`,
   * at most `maxResults`. The kernel scores every row; only rows near or above the cut-off are
   * touched again in JS, re-scored exactly, so results equal a plain float64 scan's.
   *
   * A low cut-off (a low threshold) can let most rows through. Then only the best-scored rows are
   * re-scored: a bar is lowered from the top until the re-scored persons' maxResults-th best lies
   * above anything a row under the bar could reach (its kernel score + SCAN_MARGIN).
   */
  search(probe: Float32Array, minSimilarity: number, maxResults: number): CacheHit[] {
    const count = this.keys.length
    if (count === 0) return []
    const { floats } = this
    floats.set(probe, 0)
    const scoresAt = this.rowStart(this.capacity)
    this.kernel.scan(0, this.rowStart(0) * 4, count, this.stride, scoresAt * 4)
    const scores = floats.subarray(scoresAt, scoresAt + count)

    const cutOff = minSimilarity - SCAN_MARGIN
    const histogram = this.histogram.fill(0)
    let passing = 0
    for (let row = 0; row < count; row++) {
      const score = scores[row]!
      if (score < cutOff) continue
      histogram[bucketOf(score)]!++
      passing++
    }
    const limit = Math.max(RESCORE_ROWS, 4 * maxResults)
    let wanted = limit
    for (;;) {
      const bar = passing <= wanted ? cutOff : Math.max(cutOff, barFor(histogram, wanted))
      const best = this.rescore(probe, scores, bar, minSimilarity)
      const hits = [...best].map(([personId, similarity]) => ({ personId, similarity })).sort((a, b) => b.similarity - a.similarity)
      if (bar === cutOff || (hits.length >= maxResults && hits[maxResults - 1]!.similarity >= bar + SCAN_MARGIN)) return hits.slice(0, maxResults)
      wanted *= 4
    }
  }

  /** Exact best similarity per person over rows whose kernel score is at least `bar`. */
  private rescore(probe: Float32Array, scores: Float32Array, bar: number, minSimilarity: number): Map<string, number> {
    const best = new Map<string, number>()
    for (let row = 0; row < scores.length; row++) {
      if (scores[row]! < bar) continue
      const start = this.rowStart(row)
      const similarity = dot(probe, this.floats.subarray(start, start + this.dimensions))
      if (similarity < minSimilarity) continue
      const personId = this.keys[row]!.personId
      const previous = best.get(personId)
      if (previous === undefined || similarity > previous) best.set(personId, similarity)
    }
    return best
  }

  /** Index of a row's first float (row `capacity` is where the scores area starts). */
  private rowStart(row: number): number {
    return this.stride + row * this.stride
  }
}

function rowKey(personId: string, context: string): string {
  return `${personId}\u0000${context}`
}

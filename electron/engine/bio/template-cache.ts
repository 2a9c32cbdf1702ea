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
  private readonly kernel: DotKernel = createDotKernel()
  private readonly stride: number
  private floats: Float32Array
  private capacity = 0
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

  clear(): void {
    this.keys = []
    this.rowOf.clear()
  }

  /**
   * The best similarity per person, highest first, keeping only those at or above `minSimilarity`,
   * at most `maxResults`. The kernel scores every row; only the few rows near or above the cut-off
   * are touched again in JS, re-scored exactly, so results equal a plain float64 scan's.
   */
  search(probe: Float32Array, minSimilarity: number, maxResults: number): CacheHit[] {
    const count = this.keys.length
    if (count === 0) return []
    const { stride, floats } = this
    floats.set(probe, 0)
    const scoresAt = this.rowStart(this.capacity)
    this.kernel.scan(0, this.rowStart(0) * 4, count, stride, scoresAt * 4)
    const best = new Map<string, number>()
    const cutOff = minSimilarity - SCAN_MARGIN
    for (let row = 0; row < count; row++) {
      if (floats[scoresAt + row]! < cutOff) continue
      const start = this.rowStart(row)
      const similarity = dot(probe, floats.subarray(start, start + this.dimensions))
      if (similarity < minSimilarity) continue
      const personId = this.keys[row]!.personId
      const previous = best.get(personId)
      if (previous === undefined || similarity > previous) best.set(personId, similarity)
    }
    return [...best]
      .map(([personId, similarity]) => ({ personId, similarity }))
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, maxResults)
  }

  /** Index of a row's first float (row `capacity` is where the scores area starts). */
  private rowStart(row: number): number {
    return this.stride + row * this.stride
  }
}

function rowKey(personId: string, context: string): string {
  return `${personId}\u0000${context}`
}

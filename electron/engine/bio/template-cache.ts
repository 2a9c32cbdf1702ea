import { dot } from './template-codec'

export interface CacheHit {
  personId: string
  similarity: number
}

/**
 * One plugin's in-memory identify cache: all enrolled vectors, normalised, in one contiguous
 * Float32Array scanned linearly. Rows are keyed by (personId, templateContext); a delete moves
 * the last row into the hole so the array stays dense.
 */
export class TemplateCache {
  private vectors: Float32Array
  private keys: Array<{ personId: string; context: string }> = []
  private rowOf = new Map<string, number>()

  constructor(
    readonly dimensions: number,
    initialCapacity = 1024,
  ) {
    this.vectors = new Float32Array(dimensions * initialCapacity)
  }

  get size(): number {
    return this.keys.length
  }

  put(personId: string, context: string, vector: Float32Array): void {
    if (vector.length !== this.dimensions) throw new Error(`vector has ${vector.length} dimensions, cache ${this.dimensions}`)
    const key = rowKey(personId, context)
    let row = this.rowOf.get(key)
    if (row === undefined) {
      row = this.keys.length
      if ((row + 1) * this.dimensions > this.vectors.length) this.grow()
      this.keys.push({ personId, context })
      this.rowOf.set(key, row)
    }
    this.vectors.set(vector, row * this.dimensions)
  }

  remove(personId: string, context: string): void {
    const key = rowKey(personId, context)
    const row = this.rowOf.get(key)
    if (row === undefined) return
    const last = this.keys.length - 1
    if (row !== last) {
      const moved = this.keys[last]!
      this.vectors.copyWithin(row * this.dimensions, last * this.dimensions, (last + 1) * this.dimensions)
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
   * at most `maxResults`.
   */
  search(probe: Float32Array, minSimilarity: number, maxResults: number): CacheHit[] {
    const best = new Map<string, number>()
    const dims = this.dimensions
    for (let row = 0; row < this.keys.length; row++) {
      const similarity = dot(probe, this.vectors.subarray(row * dims, (row + 1) * dims))
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

  private grow(): void {
    const next = new Float32Array(Math.max(this.vectors.length * 2, this.dimensions * 16))
    next.set(this.vectors)
    this.vectors = next
  }
}

function rowKey(personId: string, context: string): string {
  return `${personId}\u0000${context}`
}

import { ROW_RANGE } from './dot-kernel'
import type { LoadedRows } from './scan-protocol'
import { createSealer } from '../store/sealer'
import { storedVector } from './template-codec'

/**
 * Rounds `vector` to integers in [-range, range] times one scale, into `out` (zero-padded), and
 * returns the scale, the length of the rounding error and the rounded vector's length, both rounded
 * up so the bound stays a bound.
 */
export function quantize(vector: Float32Array, out: Int8Array | Int16Array, range: number): { scale: number; error: number; length: number } {
  const n = vector.length
  let largest = 0
  for (let i = 0; i < n; i++) {
    const magnitude = Math.abs(vector[i]!)
    if (magnitude > largest) largest = magnitude
  }
  const scale = largest === 0 ? 1 : Math.fround(largest / range)
  const inverse = 1 / scale
  let squared = 0
  let rounded = 0
  for (let i = 0; i < n; i++) {
    const x = vector[i]!
    let value = Math.floor(x * inverse + 0.5)
    if (value > range) value = range
    else if (value < -range) value = -range
    out[i] = value
    const back = scale * value
    const off = x - back
    squared += off * off
    rounded += back * back
  }
  out.fill(0, n)
  const up = (length: number) => Math.sqrt(length) * (1 + 1e-6) + 1e-12
  return { scale, error: up(squared), length: up(rounded) }
}

/** Opens, decodes and rounds each sealed template into its row, from row `first` on (the cache load's work, on whichever thread). */
export function roundTemplates(memory: Int8Array, job: { rowsAt: number; stride: number; dimensions: number; first: number; key: Uint8Array; sealed: Uint8Array[] }): LoadedRows {
  const count = job.sealed.length
  const sealer = createSealer(Buffer.from(job.key))
  const loaded: LoadedRows = { scales: new Float32Array(count), errors: new Float32Array(count), lengths: new Float32Array(count), unreadable: [] }
  for (const [i, sealed] of job.sealed.entries()) {
    let vector: Float32Array | null = null
    try {
      vector = storedVector(sealer.open(sealed))
    } catch {
      // sealed under another key, or damaged: left out and counted
    }
    if (!vector || vector.length !== job.dimensions) {
      loaded.unreadable.push(i)
      continue
    }
    const at = job.rowsAt + (job.first + i) * job.stride
    const { scale, error, length } = quantize(vector, memory.subarray(at, at + job.stride), ROW_RANGE)
    loaded.scales[i] = scale
    loaded.errors[i] = error
    loaded.lengths[i] = length
  }
  return loaded
}

import { ROW_RANGE } from './dot-kernel'
import type { LoadedRows, SealedPage } from './scan-protocol'
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

/** Packs sealed templates into one page (see SealedPage), in `buffer` when it is large enough. */
export function packPage(templates: readonly Uint8Array[], buffer?: ArrayBufferLike): SealedPage {
  const ends = new Uint32Array(templates.length)
  let end = 0
  for (const [i, template] of templates.entries()) ends[i] = end += template.byteLength
  const sealed = buffer && buffer.byteLength >= end ? new Uint8Array(buffer, 0, end) : new Uint8Array(end)
  for (const [i, template] of templates.entries()) sealed.set(template, ends[i]! - template.byteLength)
  return { sealed, ends }
}

/** Opens, decodes and rounds each sealed template into its row, from row `first` on (the cache load's work, on whichever thread). */
export function roundTemplates(memory: Int8Array, job: SealedPage & { rowsAt: number; stride: number; dimensions: number; first: number; key: Uint8Array }): LoadedRows {
  const count = job.ends.length
  const sealer = createSealer(Buffer.from(job.key))
  const loaded: LoadedRows = { scales: new Float32Array(count), errors: new Float32Array(count), lengths: new Float32Array(count), unreadable: [] }
  for (let i = 0; i < count; i++) {
    let vector: Float32Array | null = null
    try {
      vector = storedVector(sealer.open(job.sealed.subarray(i === 0 ? 0 : job.ends[i - 1], job.ends[i])))
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

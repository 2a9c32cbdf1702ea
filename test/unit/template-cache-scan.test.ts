import { randomBytes } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { describe, expect, it } from 'vitest'
import { createDotKernel, MAX_PROBES, MAX_STRIDE, PROBE_RANGE, ROW_RANGE, WASM_PAGE } from '../../electron/engine/bio/dot-kernel'
import { quantize } from '../../electron/engine/bio/quantize'
import { TemplateCache, writeProbes, type CacheHit } from '../../electron/engine/bio/template-cache'
import { dot, encodeTemplate, normalize } from '../../electron/engine/bio/template-codec'
import { createSealer } from '../../electron/engine/store/sealer'
import { prng, unitVector } from '../bench/lib/seed'

interface Row {
  personId: string
  context: string
  vector: Float32Array
}

/** The plain float64 scan of the full vectors the compact cache must agree with, hit for hit. */
function reference(rows: Row[], probe: Float32Array, min: number, max: number): CacheHit[] {
  const best = new Map<string, number>()
  for (const { personId, vector } of rows) {
    const s = dot(probe, vector)
    if (s >= min && s > (best.get(personId) ?? -Infinity)) best.set(personId, s)
  }
  return [...best].map(([personId, similarity]) => ({ personId, similarity })).sort((a, b) => b.similarity - a.similarity).slice(0, max)
}

/** A cache and the full vectors it re-scores from (as the engine's store holds them), kept in step. */
function cacheOver(dims: number, initialCapacity?: number) {
  const stored = new Map<string, Float32Array>()
  const cache = new TemplateCache(dims, async (personId, context) => stored.get(`${personId}/${context}`) ?? null, initialCapacity)
  return {
    cache,
    put(row: Row) {
      stored.set(`${row.personId}/${row.context}`, row.vector)
      cache.put(row.personId, row.context, row.vector)
    },
    remove(row: Row) {
      stored.delete(`${row.personId}/${row.context}`)
      cache.remove(row.personId, row.context)
    },
  }
}

/** A unit vector whose similarity with the unit vector `probe` is exactly `cosine` (up to float32 rounding). */
function atSimilarity(probe: Float32Array, cosine: number, random: () => number): Float32Array {
  const noise = unitVector(probe.length, random)
  const along = dot(noise, probe)
  const across = normalize(noise.map((v, d) => v - along * probe[d]!))
  return normalize(probe.map((v, d) => cosine * v + Math.sqrt(1 - cosine * cosine) * across[d]!))
}

describe('int8 SIMD dot kernel', () => {
  it('computes each row’s dot product with each probe, as the JS loop does, for every probe count', () => {
    const kernel = createDotKernel()
    kernel.memory.grow(2)
    const stride = 64
    const count = 9
    const random = prng(7)
    const buffer = kernel.memory.buffer
    const rowsAt = MAX_PROBES * stride * 2
    const rows = new Int8Array(buffer, rowsAt, count * stride)
    for (let i = 0; i < rows.length; i++) rows[i] = Math.round(random() * 254 - 127)
    const outAt = rowsAt + count * stride
    for (let probes = 1; probes <= MAX_PROBES; probes++) {
      const values = Array.from({ length: probes }, () => Int16Array.from({ length: stride }, () => Math.round(random() * 65534 - 32767)))
      writeProbes(new Int16Array(buffer, 0, probes * stride), values, stride)
      new Int32Array(buffer, outAt, count * probes + 1).fill(7)
      kernel.scan[probes - 1]!(0, rowsAt, count, stride, outAt)
      const out = new Int32Array(buffer, outAt, count * probes + 1)
      for (let row = 0; row < count; row++) {
        for (let p = 0; p < probes; p++) {
          let expected = 0
          for (let i = 0; i < stride; i++) expected += values[p]![i]! * rows[row * stride + i]!
          expect(out[row * probes + p], `row ${row}, probe ${p} of ${probes}`).toBe(expected)
        }
      }
      expect(out[count * probes]).toBe(7) // writes exactly count × probes scores
    }
  })

  it('cannot overflow: the largest rows against the largest probes at the widest stride, for every probe count', () => {
    const kernel = createDotKernel()
    const stride = MAX_STRIDE
    const rowsAt = MAX_PROBES * stride * 2
    const outAt = rowsAt + 2 * stride
    kernel.memory.grow(Math.ceil((outAt + 2 * MAX_PROBES * 4) / WASM_PAGE))
    const buffer = kernel.memory.buffer
    new Int8Array(buffer, rowsAt, stride).fill(ROW_RANGE)
    new Int8Array(buffer, rowsAt + stride, stride).fill(-ROW_RANGE)
    for (let probes = 1; probes <= MAX_PROBES; probes++) {
      writeProbes(new Int16Array(buffer, 0, probes * stride), Array.from({ length: probes }, () => new Int16Array(stride).fill(PROBE_RANGE)), stride)
      kernel.scan[probes - 1]!(0, rowsAt, 2, stride, outAt)
      const out = new Int32Array(buffer, outAt, 2 * probes)
      expect(out[0], `${probes} probes`).toBe(ROW_RANGE * PROBE_RANGE * stride)
      expect(out[probes], `${probes} probes`).toBe(-ROW_RANGE * PROBE_RANGE * stride)
    }
  })

  it('rounds a vector to int8 with an error bound that holds', () => {
    const random = prng(3)
    for (let i = 0; i < 50; i++) {
      const vector = unitVector(1024, random)
      const out = new Int8Array(1024)
      const { scale, error, length } = quantize(vector, out, 127)
      let squared = 0
      let rounded = 0
      for (let d = 0; d < 1024; d++) {
        squared += (vector[d]! - scale * out[d]!) ** 2
        rounded += (scale * out[d]!) ** 2
      }
      expect(Math.sqrt(squared)).toBeLessThanOrEqual(error)
      expect(Math.sqrt(rounded)).toBeLessThanOrEqual(length)
      expect(error).toBeLessThan(0.02) // compact enough to be worth it: ~1% of the vector's length
    }
  })
})

describe('compact template cache', () => {
  for (const dims of [3, 16, 128, 1024]) {
    it(`returns exactly the full-precision scan's hits at ${dims} dimensions, through growth, replaces, removals and whole persons removed`, async () => {
      const random = prng(dims)
      const { cache, put, remove } = cacheOver(dims, 4) // tiny start: the memory grows many times
      const rows: Row[] = []
      for (let i = 0; i < 600; i++) {
        const row = { personId: `p${i % 400}`, context: `c${Math.floor(i / 400)}`, vector: unitVector(dims, random) }
        rows.push(row)
        put(row)
      }
      for (let i = 0; i < 100; i++) remove(rows.splice(Math.floor(random() * rows.length), 1)[0]!)
      // Whole persons, most of them with two contexts, several at once.
      const gone = new Set(Array.from({ length: 30 }, (_, i) => `p${i * 13}`))
      cache.removePerson([...gone]) // their full vectors stay readable: a row left behind would be found
      rows.splice(0, rows.length, ...rows.filter((r) => !gone.has(r.personId)))
      expect(cache.size).toBe(rows.length)
      const replaced = rows[5]!
      replaced.vector = unitVector(dims, random)
      put(replaced)
      expect(cache.size).toBe(rows.length)

      for (let q = 0; q < 20; q++) {
        // Probes near a stored row, so there are real hits around the cut-off.
        const near = rows[Math.floor(random() * rows.length)]!.vector
        const noise = unitVector(dims, random)
        const probe = normalize(near.map((v, d) => v + 0.8 * noise[d]!))
        const min = dims <= 3 ? 0.9 : 0.3
        expect(await cache.search(probe, min, 10)).toEqual(reference(rows, probe, min, 10))
      }
    })
  }

  it('makes the float32 scan’s decisions on rows planted around the threshold and around the k-th best, reading few full vectors', async () => {
    const dims = 1024
    const random = prng(1)
    const { cache, put } = cacheOver(dims)
    const rows: Row[] = []
    for (let i = 0; i < 20_000; i++) rows.push({ personId: `p${i}`, context: 'c', vector: unitVector(dims, random) })
    const threshold = 0.42
    const probes = Array.from({ length: 8 }, () => unitVector(dims, random))
    // Near-duplicates of each probe a hair either side of the threshold, and a crowd tied near the
    // 5th best: the compact scores cannot tell these apart, the exact ones must.
    for (const [k, probe] of probes.entries()) {
      for (const [j, delta] of [-1e-3, -1e-4, -1e-6, 0, 1e-6, 1e-4, 1e-3].entries()) rows.push({ personId: `edge${k}-${j}`, context: 'c', vector: atSimilarity(probe, threshold + delta, random) })
      for (let j = 0; j < 12; j++) rows.push({ personId: `crowd${k}-${j}`, context: 'c', vector: atSimilarity(probe, 0.8 + j * 2e-5, random) })
    }
    for (const row of rows) put(row)
    const before = cache.work.reads
    for (const probe of probes) {
      expect(await cache.search(probe, threshold, 100)).toEqual(reference(rows, probe, threshold, 100))
      expect(await cache.search(probe, threshold, 5)).toEqual(reference(rows, probe, threshold, 5))
    }
    // Only rows near the cut-off are read again: 16 searches over 20 160 rows.
    expect(cache.work.reads - before).toBeLessThan(16 * 60)
    // Rows this many are scanned on every core, the threads reading the cache's own memory.
    if (availableParallelism() > 1) expect(cache.work.threaded).toBe(cache.work.passes)

    // A write while the threads read the rows lands before the next search: that one finds it.
    const newcomer = { personId: 'newcomer', context: 'c', vector: atSimilarity(probes[0]!, 0.9, random) }
    const first = cache.search(probes[1]!, threshold, 10)
    const second = new Promise<CacheHit[]>((resolve) =>
      setImmediate(() => {
        put(newcomer)
        resolve(cache.search(probes[0]!, threshold, 1))
      }),
    )
    expect(await first).toEqual(reference(rows, probes[1]!, threshold, 10))
    expect((await second)[0]).toMatchObject({ personId: 'newcomer' })
  })

  it('finds a flat template (every value the same size) with itself: its compact score does not wrap around', async () => {
    const dims = 1024
    const { cache, put } = cacheOver(dims)
    const flat = new Float32Array(dims).map((_, d) => (d % 3 === 0 ? -1 : 1) / Math.sqrt(dims))
    put({ personId: 'flat', context: 'c', vector: flat })
    put({ personId: 'other', context: 'c', vector: unitVector(dims, prng(5)) })
    const hits = await cache.search(flat, 0.5, 5)
    expect(hits.map((h) => h.personId)).toEqual(['flat'])
    expect(hits[0]!.similarity).toBeCloseTo(1, 6)
  })

  it('answers searches waiting together from one pass over the rows, each as if alone', async () => {
    const dims = 128
    const random = prng(11)
    const { cache, put } = cacheOver(dims)
    const rows: Row[] = Array.from({ length: 3000 }, (_, i) => ({ personId: `p${i}`, context: 'c', vector: unitVector(dims, random) }))
    for (const row of rows) put(row)
    const probes = Array.from({ length: 2 * MAX_PROBES + 3 }, (_, i) => normalize(rows[i * 7]!.vector.map((v) => v + 0.05 * (random() - 0.5))))
    const passes = cache.work.passes
    const answers = await Promise.all(probes.map((probe) => cache.search(probe, 0.3, 10)))
    for (const [i, probe] of probes.entries()) expect(answers[i]).toEqual(reference(rows, probe, 0.3, 10))
    expect(cache.work.passes - passes).toBe(3) // 19 probes, at most 8 per pass
  })

  it('finds no stale row: a template deleted while its search waits is not returned', async () => {
    const random = prng(12)
    const { cache, put, remove } = cacheOver(64)
    const rows: Row[] = Array.from({ length: 200 }, (_, i) => ({ personId: `p${i}`, context: 'c', vector: unitVector(64, random) }))
    for (const row of rows) put(row)
    const waiting = cache.search(rows[10]!.vector, 0.5, 10)
    remove(rows[10]!)
    expect(await waiting).toEqual(reference(rows.slice(0, 10).concat(rows.slice(11)), rows[10]!.vector, 0.5, 10))
  })
})

describe('compact template cache load', () => {
  it('fills from pages of sealed templates on the pool’s threads, leaving out those that will not open or decode, and finds exactly what the full scan finds', async () => {
    const dims = 256
    const random = prng(21)
    const stored = new Map<string, Float32Array>()
    const cache = new TemplateCache(dims, async (personId, context) => stored.get(`${personId}/${context}`) ?? null, 0)
    const rows: Row[] = Array.from({ length: 6000 }, (_, i) => ({ personId: `p${i}`, context: 'c', vector: unitVector(dims, random) }))
    for (const row of rows) stored.set(`${row.personId}/c`, row.vector)
    const sealer = createSealer(randomBytes(32))
    const sealed = rows.map((row) => ({ personId: row.personId, templateContext: row.context, sealed: sealer.seal(encodeTemplate({ plugin: 'P', modelVersion: 1, quality: 0.9, vector: row.vector })) }))
    sealed[1234] = { ...sealed[1234]!, sealed: sealer.seal(Buffer.from('not a template')) } // e.g. stored before templates were checked
    sealed[4321] = { ...sealed[4321]!, sealed: createSealer(randomBytes(32)).seal(encodeTemplate({ plugin: 'P', modelVersion: 1, quality: 0.9, vector: rows[4321]!.vector })) } // another key
    async function* pages() {
      for (let first = 0; first < sealed.length; first += 2000) yield sealed.slice(first, first + 2000)
    }
    cache.reserve(rows.length)
    expect(await cache.fill(pages(), sealer.key)).toBe(2)
    expect(cache.size).toBe(5998)
    const readable = rows.filter((_, i) => i !== 1234 && i !== 4321)
    for (const target of [0, 1234, 2500, 4321, 5999]) {
      const probe = normalize(rows[target]!.vector.map((v) => v + 0.02 * (random() - 0.5)))
      expect(await cache.search(probe, 0.3, 10)).toEqual(reference(readable, probe, 0.3, 10))
    }
  })
})

describe('compact template cache with a low threshold', () => {
  it('re-scores only the best rows, yet returns exactly the full-precision scan’s hits', async () => {
    const dims = 32
    const random = prng(99)
    const { cache, put } = cacheOver(dims)
    const rows: Row[] = []
    // 6000 rows over 2500 persons: far more rows pass a low cut-off than are re-scored in one go.
    for (let i = 0; i < 6000; i++) {
      const row = { personId: `p${i % 2500}`, context: `c${i}`, vector: unitVector(dims, random) }
      rows.push(row)
      put(row)
    }
    for (const [min, max] of [[-1, 10], [-1, 100], [0, 1], [0.2, 100], [0.5, 10]] as const) {
      for (let q = 0; q < 5; q++) {
        const probe = unitVector(dims, random)
        expect(await cache.search(probe, min, max), `min ${min}, max ${max}`).toEqual(reference(rows, probe, min, max))
      }
    }
  })

  it('lowers the bar when the best rows all belong to one person', async () => {
    const dims = 32
    const random = prng(5)
    const { cache, put } = cacheOver(dims)
    const rows: Row[] = []
    const centre = unitVector(dims, random)
    // One person with 5000 near-identical templates (more than one collection round), 500 others.
    for (let i = 0; i < 5500; i++) {
      const noise = unitVector(dims, random)
      const vector = i < 5000 ? normalize(centre.map((v, d) => v + 0.05 * noise[d]!)) : noise
      const row = { personId: i < 5000 ? 'crowd' : `p${i}`, context: `c${i}`, vector }
      rows.push(row)
      put(row)
    }
    const passes = cache.work.passes
    const hits = await cache.search(centre, -1, 10)
    expect(hits).toHaveLength(10)
    expect(hits).toEqual(reference(rows, centre, -1, 10))
    expect(cache.work.passes - passes).toBeGreaterThan(1)
  })
})

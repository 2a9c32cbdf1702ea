import { describe, expect, it } from 'vitest'
import { createDotKernel } from '../../electron/engine/bio/dot-kernel'
import { TemplateCache, type CacheHit } from '../../electron/engine/bio/template-cache'
import { dot, normalize } from '../../electron/engine/bio/template-codec'
import { prng, unitVector } from '../bench/lib/seed'

/** The plain float64 scan the SIMD cache must agree with, hit for hit. */
function reference(rows: Array<{ personId: string; vector: Float32Array }>, probe: Float32Array, min: number, max: number): CacheHit[] {
  const best = new Map<string, number>()
  for (const { personId, vector } of rows) {
    const s = dot(probe, vector)
    if (s >= min && s > (best.get(personId) ?? -Infinity)) best.set(personId, s)
  }
  return [...best].map(([personId, similarity]) => ({ personId, similarity })).sort((a, b) => b.similarity - a.similarity).slice(0, max)
}

describe('SIMD dot kernel', () => {
  it('computes each row’s dot product with the probe, as the JS loop does', () => {
    const kernel = createDotKernel()
    const stride = 48
    const count = 7
    const random = prng(7)
    kernel.memory.grow(1)
    const floats = new Float32Array(kernel.memory.buffer)
    for (let i = 0; i < stride * (count + 1); i++) floats[i] = random() * 2 - 1
    const out = stride * (count + 1)
    kernel.scan(0, stride * 4, count, stride, out * 4)
    for (let row = 0; row < count; row++) {
      const expected = dot(floats.subarray(0, stride), floats.subarray(stride * (row + 1), stride * (row + 2)))
      expect(floats[out + row]).toBeCloseTo(expected, 4)
    }
    expect(floats[out + count]).toBe(0) // writes exactly `count` scores
  })
})

describe('template cache scan', () => {
  for (const dims of [3, 16, 128, 1024]) {
    it(`returns exactly the plain scan's hits at ${dims} dimensions, through growth, replaces and removals`, () => {
      const random = prng(dims)
      const cache = new TemplateCache(dims, 4) // tiny start: the memory grows many times
      const rows: Array<{ personId: string; context: string; vector: Float32Array }> = []
      for (let i = 0; i < 600; i++) {
        const row = { personId: `p${i % 400}`, context: `c${Math.floor(i / 400)}`, vector: unitVector(dims, random) }
        rows.push(row)
        cache.put(row.personId, row.context, row.vector)
      }
      for (let i = 0; i < 100; i++) {
        const victim = rows.splice(Math.floor(random() * rows.length), 1)[0]!
        cache.remove(victim.personId, victim.context)
      }
      const replaced = rows[5]!
      replaced.vector = unitVector(dims, random)
      cache.put(replaced.personId, replaced.context, replaced.vector)
      expect(cache.size).toBe(rows.length)

      for (let q = 0; q < 20; q++) {
        // Probes near a stored row, so there are real hits around the cut-off.
        const near = rows[Math.floor(random() * rows.length)]!.vector
        const noise = unitVector(dims, random)
        const probe = normalize(near.map((v, d) => v + 0.8 * noise[d]!))
        const min = dims <= 3 ? 0.9 : 0.3
        expect(cache.search(probe, min, 10)).toEqual(reference(rows, probe, min, 10))
      }
    })
  }
})

describe('template cache scan with a low threshold', () => {
  it('re-scores only the best rows, yet returns exactly the plain scan’s hits', () => {
    const dims = 32
    const random = prng(99)
    const cache = new TemplateCache(dims)
    const rows: Array<{ personId: string; vector: Float32Array }> = []
    // 6000 rows over 2500 persons: far more rows pass a low cut-off than are re-scored in one go.
    for (let i = 0; i < 6000; i++) {
      const row = { personId: `p${i % 2500}`, vector: unitVector(dims, random) }
      rows.push(row)
      cache.put(row.personId, `c${i}`, row.vector)
    }
    for (const [min, max] of [[-1, 10], [-1, 100], [0, 1], [0.2, 100], [0.5, 10]] as const) {
      for (let q = 0; q < 5; q++) {
        const probe = unitVector(dims, random)
        expect(cache.search(probe, min, max), `min ${min}, max ${max}`).toEqual(reference(rows, probe, min, max))
      }
    }
  })

  it('lowers the bar when the best rows all belong to one person', () => {
    const dims = 32
    const random = prng(5)
    const cache = new TemplateCache(dims)
    const rows: Array<{ personId: string; vector: Float32Array }> = []
    const centre = unitVector(dims, random)
    // One person with 3000 near-identical templates (more than one re-scoring round), 500 others.
    for (let i = 0; i < 3500; i++) {
      const noise = unitVector(dims, random)
      const vector = i < 3000 ? normalize(centre.map((v, d) => v + 0.05 * noise[d]!)) : noise
      const row = { personId: i < 3000 ? 'crowd' : `p${i}`, vector }
      rows.push(row)
      cache.put(row.personId, `c${i}`, vector)
    }
    const hits = cache.search(centre, -1, 10)
    expect(hits).toHaveLength(10)
    expect(hits).toEqual(reference(rows, centre, -1, 10))
  })
})

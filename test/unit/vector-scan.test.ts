import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { floatVectorRun } from '../support/vector-scan'

describe('floatVectorRun (the replica scan’s plaintext-vector detector)', () => {
  it('finds a unit-length embedding at any offset, and not random bytes or zeros', () => {
    const vector = Float32Array.from({ length: 128 }, (_, i) => Math.sin(i * 1.7) / Math.sqrt(64))
    for (const offset of [0, 1, 2, 3, 17]) {
      const data = Buffer.concat([randomBytes(offset), Buffer.from(vector.buffer), randomBytes(40)])
      expect(floatVectorRun(data)).toBe(true)
    }
    expect(floatVectorRun(randomBytes(4 * 1024 * 1024))).toBe(false)
    expect(floatVectorRun(Buffer.alloc(8192))).toBe(false)
  })
})

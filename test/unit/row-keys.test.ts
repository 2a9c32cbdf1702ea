import { describe, expect, it } from 'vitest'
import { RowKeys } from '../../electron/engine/bio/row-keys'
import { prng } from '../bench/lib/seed'

describe('identify cache row keys', () => {
  it('finds every key after random adds and removes, several contexts per person, rows kept dense', () => {
    const keys = new RowKeys()
    const held = new Set<string>()
    const random = prng(11)
    for (let step = 0; step < 5000; step++) {
      const personId = `p${Math.floor(random() * 40)}`
      const context = `c${Math.floor(random() * 4)}`
      const key = `${personId}/${context}`
      const row = keys.find(personId, context)
      expect(row >= 0, key).toBe(held.has(key))
      if (row < 0) {
        expect(keys.add(personId, context)).toBe(held.size)
        held.add(key)
      } else if (random() < 0.6) {
        const last = keys.size - 1
        expect(keys.remove(row)).toBe(row === last ? -1 : last)
        held.delete(key)
      }
      expect(keys.size).toBe(held.size)
      if (step % 50 === 0) {
        for (const k of held) {
          const [p, c] = k.split('/') as [string, string]
          const at = keys.find(p, c)
          expect([keys.personId(at), keys.context(at)]).toEqual([p, c])
        }
        const rows = Array.from({ length: 40 }, (_, p) => keys.rowsOf(`p${p}`)).flat()
        expect(rows.sort((a, b) => a - b)).toEqual(Array.from({ length: held.size }, (_, i) => i))
      }
    }
  })

  it('grows past its first chain array and clears', () => {
    const keys = new RowKeys()
    for (let i = 0; i < 3000; i++) keys.add(`p${i % 1000}`, `c${i}`)
    expect(keys.rowsOf('p7').map((row) => keys.context(row)).sort()).toEqual(['c1007', 'c2007', 'c7'])
    keys.clear()
    expect([keys.size, keys.find('p7', 'c7'), keys.rowsOf('p7')]).toEqual([0, -1, []])
  })
})

import { describe, expect, it } from 'vitest'
import { tooManyRemovals } from '../../electron/services/replica/replica'

describe('how many removals a replica sync makes without staff', () => {
  it('holds more than a quarter of the replica at once, when that is more than 3 persons', () => {
    expect(tooManyRemovals(4, 4)).toBe(true)
    expect(tooManyRemovals(4, 15)).toBe(true)
    expect(tooManyRemovals(26, 100)).toBe(true)
  })
  it('lets a few persons go, or up to a quarter of a large replica', () => {
    expect(tooManyRemovals(0, 0)).toBe(false)
    expect(tooManyRemovals(1, 1)).toBe(false)
    expect(tooManyRemovals(3, 3)).toBe(false)
    expect(tooManyRemovals(4, 16)).toBe(false)
    expect(tooManyRemovals(25, 100)).toBe(false)
  })
})

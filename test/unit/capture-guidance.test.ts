import { describe, expect, it } from 'vitest'
import { GuidanceSettler } from '../../renderer/src/camera/guidance'
import { FpsMeter } from '../../renderer/src/camera/stats'

describe('capture guidance text', () => {
  it('shows the first message at once, then replaces it only after the new one has held for the settle time', () => {
    const shown: string[] = []
    const guide = new GuidanceSettler((m) => shown.push(m), 300)
    guide.propose('Move closer', 0)
    guide.propose('Too dark', 100)
    guide.propose('Move closer', 150) // flicker back: the shown message stays, the candidate is dropped
    guide.propose('Too dark', 200)
    guide.propose('Too dark', 450) // held only 250 ms since 200
    expect(shown).toEqual(['Move closer'])
    guide.propose('Too dark', 500)
    expect(shown).toEqual(['Move closer', 'Too dark'])
  })

  it('shows immediate messages at once, and after a release the next message too', () => {
    const shown: string[] = []
    const guide = new GuidanceSettler((m) => shown.push(m), 300)
    guide.propose('Move closer', 0)
    guide.propose('Hold still…', 10, true)
    guide.release()
    guide.propose('Hold still…', 20)
    expect(shown).toEqual(['Move closer', 'Hold still…', 'Hold still…'])
  })
})

describe('capture loop rate', () => {
  it('reports frames per second once a second has passed, then starts counting again', () => {
    const meter = new FpsMeter()
    const start = performance.now()
    const rates = Array.from({ length: 25 }, (_, i) => meter.tick(start + (i + 1) * 50))
    expect(rates.slice(0, 19).every((r) => r === null)).toBe(true)
    expect(rates[19]).toBe(20) // 20 frames in 1000 ms
    expect(rates.slice(20).every((r) => r === null)).toBe(true)
  })
})

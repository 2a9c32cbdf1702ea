import { describe, expect, it } from 'vitest'
import { IdleClock, WARNING_MS } from '../../renderer/src/components/idle-clock'

describe('IdleClock', () => {
  it('asks "Still there?" after the timeout, counts down 10 s, then expires', () => {
    const clock = new IdleClock(15_000, 0)
    expect(WARNING_MS).toBe(10_000)
    expect(clock.phase(14_999)).toEqual({ kind: 'active' })
    expect(clock.phase(15_000)).toEqual({ kind: 'warning', secondsLeft: 10 })
    expect(clock.phase(20_500)).toEqual({ kind: 'warning', secondsLeft: 5 })
    expect(clock.phase(24_999)).toEqual({ kind: 'warning', secondsLeft: 1 })
    expect(clock.phase(25_000)).toEqual({ kind: 'expired' })
  })

  it('any sign of someone there (a touch, or a face the camera sees) starts the count again, also during the warning', () => {
    const clock = new IdleClock(15_000, 0)
    clock.activity(10_000)
    expect(clock.phase(20_000)).toEqual({ kind: 'active' })
    expect(clock.phase(25_000)).toEqual({ kind: 'warning', secondsLeft: 10 })
    clock.activity(27_000) // "I'm still here", or a face in view
    expect(clock.phase(27_001)).toEqual({ kind: 'active' })
    expect(clock.phase(41_999)).toEqual({ kind: 'active' })
  })

  it('says when to look again: at the timeout, then every second of the countdown', () => {
    const clock = new IdleClock(15_000, 0)
    expect(clock.nextChange(0)).toBe(15_000)
    expect(clock.nextChange(15_000)).toBe(1000)
    expect(clock.nextChange(15_400)).toBe(600)
    expect(clock.nextChange(24_600)).toBe(400)
  })
})

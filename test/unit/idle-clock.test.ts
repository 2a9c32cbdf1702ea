import { describe, expect, it } from 'vitest'
import { IdleClock, WARNING_MS } from '../../renderer/src/components/idle-clock'

describe('IdleClock', () => {
  it('asks "Still there?" for the last 10 s of the idle timeout, counting down, then expires at the timeout', () => {
    const clock = new IdleClock(15_000, 0)
    expect(WARNING_MS).toBe(10_000)
    expect(clock.phase(4_999)).toEqual({ kind: 'active' })
    expect(clock.phase(5_000)).toEqual({ kind: 'warning', secondsLeft: 10 })
    expect(clock.phase(10_500)).toEqual({ kind: 'warning', secondsLeft: 5 })
    expect(clock.phase(14_999)).toEqual({ kind: 'warning', secondsLeft: 1 })
    expect(clock.phase(15_000)).toEqual({ kind: 'expired' })
  })

  it('any sign of someone there (a touch, or a face the camera sees) starts the count again, also during the warning', () => {
    const clock = new IdleClock(90_000, 0)
    clock.activity(60_000)
    expect(clock.phase(139_999)).toEqual({ kind: 'active' })
    expect(clock.phase(140_000)).toEqual({ kind: 'warning', secondsLeft: 10 })
    clock.activity(145_000) // "I'm still here", or a face in view
    expect(clock.phase(145_001)).toEqual({ kind: 'active' })
    expect(clock.phase(224_999)).toEqual({ kind: 'active' })
  })

  it('says when to look again: when the warning starts, then at each second of the countdown', () => {
    const clock = new IdleClock(15_000, 0)
    expect(clock.nextChange(0)).toBe(5_000)
    expect(clock.nextChange(5_000)).toBe(1000)
    expect(clock.nextChange(5_400)).toBe(600)
    expect(clock.nextChange(14_600)).toBe(400)
  })

  it('warns from the start when the timeout is shorter than the countdown', () => {
    const clock = new IdleClock(4_000, 0)
    expect(clock.phase(0)).toEqual({ kind: 'warning', secondsLeft: 4 })
    expect(clock.phase(4_000)).toEqual({ kind: 'expired' })
  })
})

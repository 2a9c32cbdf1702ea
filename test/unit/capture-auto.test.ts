import { describe, expect, it } from 'vitest'
import { AutoCapture, BEST_OF_MS, COOLDOWN_MS, STABLE_MS } from '../../renderer/src/camera/auto-capture'

// When guided capture takes a photo by itself: after STABLE_MS of frames that all pass, the best of them.

/** Feeds frames every `step` ms from `from`; returns the steps. */
function feed(auto: AutoCapture, from: number, frames: Array<[ok: boolean, quality: number]>, step = 100) {
  return frames.map(([ok, quality], i) => ({ at: from + i * step, ...auto.update(from + i * step, ok, quality) }))
}

describe('auto-capture', () => {
  it('waits STABLE_MS of passing frames, then captures, keeping the best frame of the window', () => {
    const auto = new AutoCapture()
    const steps = feed(auto, 0, [
      [true, 0.7],
      [true, 0.9],
      [true, 0.8],
      [true, 0.85],
      [true, 0.6],
      [true, 0.7],
      [true, 0.75],
      [true, 0.7],
    ])
    expect(steps.map((s) => s.keep)).toEqual([true, true, false, false, false, false, false, false])
    expect(steps.findIndex((s) => s.capture)).toBe(STABLE_MS / 100)
    expect(steps[3]!.progress).toBeCloseTo(300 / STABLE_MS)
    expect(steps.every((s) => s.state === 'steady')).toBe(true)
    expect(auto.bestQuality).toBe(0.9)
  })

  it('starts the window again after any failing frame', () => {
    const auto = new AutoCapture()
    const steps = feed(auto, 0, [
      [true, 0.9],
      [true, 0.9],
      [true, 0.9],
      [true, 0.9],
      [true, 0.9],
      [false, 0.3],
      [true, 0.6],
      [true, 0.6],
    ])
    expect(steps.some((s) => s.capture)).toBe(false)
    expect(steps[5]).toMatchObject({ state: 'waiting', keep: false, progress: 0 })
    // The window restarted, so the first passing frame after the failure is the new best.
    expect(steps[6]!.keep).toBe(true)
    expect(auto.bestQuality).toBe(0.6)
  })

  it('pauses after a photo so the next one is not a copy of the same instant', () => {
    const auto = new AutoCapture()
    auto.captured(1000)
    expect(auto.update(1000 + COOLDOWN_MS - 1, true, 0.9)).toMatchObject({ state: 'cooldown', keep: false, capture: false })
    const after = auto.update(1000 + COOLDOWN_MS, true, 0.9)
    expect(after).toMatchObject({ state: 'steady', keep: true, capture: false })
    expect(auto.update(1000 + COOLDOWN_MS + STABLE_MS, true, 0.5).capture).toBe(true)
  })

  it('lets a steady window run on through the pause: the next photo is the best of BEST_OF_MS of frames after it, not a whole new window later', () => {
    const auto = new AutoCapture()
    auto.captured(0)
    // Steady all along: frames every 50 ms through the pause and after it.
    const steps = Array.from({ length: 40 }, (_, i) => ({ at: 50 * (i + 1), ...auto.update(50 * (i + 1), true, i === 3 ? 1 : 0.7) }))
    const during = steps.filter((s) => s.at < COOLDOWN_MS)
    // Nothing from the pause is kept, not even its best frame (the photos must not be copies of one instant).
    expect(during.every((s) => s.state === 'cooldown' && !s.keep && !s.capture)).toBe(true)
    const taken = steps.find((s) => s.capture)!
    expect(taken.at).toBe(COOLDOWN_MS + BEST_OF_MS)
    expect(auto.bestQuality).toBe(0.7)
    // A failing frame during the pause starts the steady window again.
    const again = new AutoCapture()
    again.captured(0)
    again.update(100, true, 0.9)
    again.update(COOLDOWN_MS - 100, false, 0.2)
    again.update(COOLDOWN_MS - 50, true, 0.9)
    expect(again.update(COOLDOWN_MS + BEST_OF_MS, true, 0.9).capture).toBe(false)
    expect(again.update(COOLDOWN_MS - 50 + STABLE_MS, true, 0.9).capture).toBe(true)
  })

  it('takes its window and pause from the constructor', () => {
    const auto = new AutoCapture(200, 0)
    expect(feed(auto, 0, [[true, 0.5], [true, 0.5], [true, 0.5]]).map((s) => s.capture)).toEqual([false, false, true])
  })
})

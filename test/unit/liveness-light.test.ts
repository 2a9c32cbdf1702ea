import { describe, expect, it } from 'vitest'
import { judgeScreenLight, LIGHT_DELAY_MAX_MS, LIGHT_FOLLOW_MIN, LIGHT_POINTS, LIGHT_SHAPE_MIN, type LightSample, type Rgb } from '../../electron/engine/bio/liveness-light'
import { LIGHT_RGB, type LightPeriod } from '../../electron/shared/liveness'
import { shownOnTime } from '../support/screen-light-standin'

/** The screen-light decision on the colours of the face's parts, frame by frame (engine/bio/liveness-light.ts). */
const light: LightPeriod[] = [
  { colour: 'blue', ms: 500 },
  { colour: 'yellow', ms: 520 },
  { colour: 'green', ms: 450 },
  { colour: 'magenta', ms: 480 },
  { colour: 'cyan', ms: 400 },
  { colour: 'orange', ms: 550 },
  { colour: 'blue', ms: 530 },
  { colour: 'yellow', ms: 410 },
  { colour: 'green', ms: 460 },
]
const STARTED = 10_000
/** Skin of slightly different tones over the face's parts; room light. */
const albedo: Rgb[] = LIGHT_POINTS.map((_, i) => [0.8 - i * 0.02, 0.6 - i * 0.01, 0.5 + i * 0.01])
const HEAD = [1, 0.95, 1.1, 0.9, 0.9, 0.95, 0.6, 0.55, 0.45, 0.65]
const FLAT = HEAD.map(() => 1)

/** When each colour went on screen: on time, from STARTED. */
const onTime = shownOnTime(light, STARTED)

/** The colour on screen at `t` (the page's clock) as the screen showed it from `shownAt`, or null. */
function colourShown(shownAt: readonly number[], t: number): readonly number[] | null {
  for (const [i, period] of light.entries()) {
    if (t >= shownAt[i]! && t < (shownAt[i + 1] ?? shownAt[i]! + period.ms)) return LIGHT_RGB[period.colour]
  }
  return null
}

/** Frames every 200 ms from the light's start, the camera showing what the screen showed `delay` ms before; a little noise. */
function frames(gains: number[], { delay = 120, strength = 0.5, shownAt = onTime } = {}): LightSample[] {
  let seed = 7
  const noise = () => ((seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5) * 2
  const out: LightSample[] = []
  for (let at = shownAt[0]!; at < shownAt.at(-1)! + light.at(-1)!.ms + 200; at += 200) {
    const shown = colourShown(shownAt, at - delay)
    const regions = albedo.map((a, r) => a.map((value, c) => Math.min(255, value * (150 + strength * gains[r]! * (shown?.[c] ?? 128)) + noise())) as unknown as Rgb)
    out.push({ at, regions })
  }
  return out
}

describe('the screen-light check', () => {
  it('passes a head: the colours followed after a camera’s delay, unevenly over the face', () => {
    const verdict = judgeScreenLight(light, onTime, frames(HEAD))
    expect(verdict.passed, verdict.detail).toBe(true)
    // Found to within a frame's interval (200 ms): frames near a change are left out.
    expect(Math.abs(verdict.measure!.delayMs - 120)).toBeLessThanOrEqual(200)
    expect(verdict.measure!.fit).toBeGreaterThan(0.9)
  })

  it('refuses a flat picture lit evenly, naming the spread and what it needs', () => {
    const verdict = judgeScreenLight(light, onTime, frames(FLAT))
    expect(verdict.passed).toBe(false)
    expect(verdict.detail).toMatch(new RegExp(`^light over the face: the face took the light evenly, like a flat picture, not a head \\(spread 0\\.0\\d\\d, needs ${LIGHT_SHAPE_MIN}\\)$`))
  })

  it('refuses a face that does not take the light (a recording, a screen), and one that takes it too late', () => {
    const none = judgeScreenLight(light, onTime, frames(HEAD, { strength: 0 }))
    expect(none.passed).toBe(false)
    expect(none.detail).toMatch(new RegExp(`^screen light: the face's colour did not follow the screen's colours \\(fit -?0\\.\\d\\d at a delay of \\d+ ms, at most ${LIGHT_DELAY_MAX_MS}, needs ${LIGHT_FOLLOW_MIN}\\)$`))
    // A stand-in that answers a second late is not a reflection.
    const late = judgeScreenLight(light, onTime, frames(HEAD, { delay: 1000 }))
    expect(late.passed).toBe(false)
    expect(late.detail).toMatch(/^screen light: /)
  })

  it('judges the frames by when each colour went on screen: a busy page that painted its first colour 350 ms late and each next one 10–120 ms after the one before had its time', () => {
    // A page whose face mesh holds the thread paints late, its first colour latest (its screen renders
    // first): timed from a plan, the frames read as other colours, and CI refused a live stand-in at fit 0.51.
    const lags = [80, 30, 120, 10, 60, 100, 20, 90]
    const late = [STARTED + 350]
    for (const [i, lag] of lags.entries()) late.push(late[i]! + light[i]!.ms + lag)
    const seen = frames(HEAD, { shownAt: late })
    const byPaint = judgeScreenLight(light, late, seen)
    expect(byPaint.passed, byPaint.detail).toBe(true)
    expect(byPaint.measure!.fit).toBeGreaterThan(0.95)
    const byPlan = judgeScreenLight(light, onTime, seen)
    expect(byPlan.passed).toBe(false)
    expect(byPlan.measure!.fit).toBeLessThan(LIGHT_FOLLOW_MIN)
  })

  it('refuses without when each colour went on screen, with those times out of order, or with too few frames', () => {
    expect(judgeScreenLight(light, undefined, frames(HEAD)).detail).toBe('frames: the page did not say when the screen showed its colours (0 of 9)')
    expect(judgeScreenLight(light, onTime.slice(0, 8), frames(HEAD)).detail).toBe('frames: the page did not say when the screen showed its colours (8 of 9)')
    const swapped = [onTime[1]!, onTime[0]!, ...onTime.slice(2)]
    expect(judgeScreenLight(light, swapped, frames(HEAD)).detail).toBe('frames: the times the screen showed its colours are out of order')
    expect(judgeScreenLight(light, onTime, frames(HEAD).slice(0, 5)).detail).toMatch(/^frames: too few frames of the face in the screen's light \(5; needs 8 over 3 colours\)$/)
  })
})

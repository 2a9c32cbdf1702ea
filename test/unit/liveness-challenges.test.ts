import { describe, expect, it } from 'vitest'
import { createChallengeStore, randomLight, randomSteps } from '../../electron/services/liveness/challenge-store'
import { checkEvidenceOrder } from '../../electron/services/liveness/evidence-order'
import { CHALLENGE_TTL_MS, challengeSteps, LIGHT_MAX_MS, LIGHT_MIN_MS, LIGHT_PERIODS, type ChallengeStep, type EvidenceStep } from '../../electron/shared/liveness'

const frames = (...steps: EvidenceStep[]) => steps.map((step) => ({ step }))

describe('liveness challenge store', () => {
  it('issues a random order of all three steps for the active challenge, none for the passive score alone', () => {
    const store = createChallengeStore()
    const active = store.issue('enroll', ['active-challenge'], 8)
    expect(active).toMatchObject({ required: true, checks: ['active-challenge'], stepSeconds: 8 })
    expect([...active.steps].sort()).toEqual([...challengeSteps].sort())
    expect(store.issue('verify', ['passive-pad'], 8).steps).toEqual([])
  })

  it('draws the screen’s colours for the screen light: each unlike the one before, 400–550 ms each, never the same sequence twice', () => {
    const store = createChallengeStore()
    const lit = store.issue('enroll', ['active-challenge', 'screen-light'], 8)
    expect(lit.light).toHaveLength(LIGHT_PERIODS)
    expect(store.issue('enroll', ['active-challenge'], 8).light).toEqual([])
    const drawn = Array.from({ length: 300 }, () => randomLight())
    for (const light of drawn) {
      for (const [i, period] of light.entries()) {
        expect(period.ms).toBeGreaterThanOrEqual(LIGHT_MIN_MS)
        expect(period.ms).toBeLessThanOrEqual(LIGHT_MAX_MS)
        if (i > 0) expect(period.colour).not.toBe(light[i - 1]!.colour)
      }
    }
    expect(new Set(drawn.map((light) => light.map((p) => p.colour).join(','))).size).toBe(300)
    expect(new Set(drawn.flatMap((light) => light.map((p) => p.colour))).size).toBe(6)
  })

  it('draws every order over many challenges (crypto-random, not a fixed or rotating order)', () => {
    const orders = new Set(Array.from({ length: 600 }, () => randomSteps().join(',')))
    expect(orders.size).toBe(6)
  })

  it('gives a challenge to one attempt, for its purpose only, until it expires', () => {
    let now = 1_000
    const store = createChallengeStore({ now: () => now })
    const a = store.issue('enroll', ['active-challenge'], 8)
    expect(store.take(a.challengeId!, 'enroll').steps).toEqual(a.steps)
    expect(() => store.take(a.challengeId!, 'enroll')).toThrow(expect.objectContaining({ code: 'LIVENESS_REQUIRED', message: expect.stringMatching(/already used/) }))

    const b = store.issue('enroll', ['active-challenge'], 8)
    expect(() => store.take(b.challengeId!, 'verify')).toThrow(expect.objectContaining({ code: 'LIVENESS_REQUIRED', message: expect.stringMatching(/another task/) }))
    // Tried once for the wrong purpose, it is gone for the right one too.
    expect(() => store.take(b.challengeId!, 'enroll')).toThrow(expect.objectContaining({ code: 'LIVENESS_REQUIRED' }))

    const c = store.issue('verify', ['passive-pad'], 8)
    expect(c.expiresAt).toBe(now + CHALLENGE_TTL_MS)
    now += CHALLENGE_TTL_MS
    expect(() => store.take(c.challengeId!, 'verify')).toThrow(expect.objectContaining({ code: 'LIVENESS_REQUIRED', message: expect.stringMatching(/expired/) }))
    expect(() => store.take('00000000-0000-4000-8000-000000000000', 'verify')).toThrow(expect.objectContaining({ code: 'LIVENESS_REQUIRED' }))
  })

  it('gives a restored challenge one more attempt, but not after it expired', () => {
    let now = 0
    const store = createChallengeStore({ now: () => now })
    const a = store.issue('enroll', ['active-challenge'], 8)
    const taken = store.take(a.challengeId!, 'enroll')
    store.restore(taken)
    expect(store.take(a.challengeId!, 'enroll').challengeId).toBe(a.challengeId)
    now = CHALLENGE_TTL_MS + 1
    store.restore(taken)
    expect(() => store.take(a.challengeId!, 'enroll')).toThrow(expect.objectContaining({ code: 'LIVENESS_REQUIRED' }))
  })

  it('stays bounded: the oldest open challenge goes first, and expired ones are swept', () => {
    let now = 0
    const store = createChallengeStore({ now: () => now, max: 3 })
    const first = store.issue('enroll', ['passive-pad'], 8)
    for (let i = 0; i < 3; i++) store.issue('enroll', ['passive-pad'], 8)
    expect(store.size).toBe(3)
    expect(() => store.take(first.challengeId!, 'enroll')).toThrow(expect.objectContaining({ code: 'LIVENESS_REQUIRED' }))
    now = CHALLENGE_TTL_MS
    expect(store.size).toBe(0)
  })
})

describe('liveness evidence order', () => {
  const steps: ChallengeStep[] = ['turn-right', 'blink', 'turn-left']

  it('accepts each step’s frames together, in the issued order', () => {
    expect(checkEvidenceOrder(steps, frames('turn-right', 'turn-right', 'blink', 'blink', 'blink', 'turn-left', 'turn-left'))).toEqual({ ok: true })
  })

  it('refuses steps out of order, split, or not asked for', () => {
    for (const burst of [
      frames('blink', 'blink', 'turn-right', 'turn-right', 'turn-left', 'turn-left'),
      frames('turn-right', 'blink', 'turn-right', 'blink', 'turn-left'),
      frames('turn-right', 'blink', 'passive', 'turn-left'),
      frames('turn-right', 'blink', 'turn-left', 'turn-left', 'turn-right'),
    ]) {
      expect(checkEvidenceOrder(steps, burst)).toMatchObject({ ok: false, reason: 'order' })
    }
  })

  it('refuses a burst cut short by a timed-out step, naming what was not seen', () => {
    expect(checkEvidenceOrder(steps, frames('turn-right', 'turn-right', 'blink'))).toEqual({
      ok: false,
      reason: 'unfinished',
      words: 'the challenge was not finished: a turn of the head to the left not seen',
    })
  })

  it('takes only passive frames when the challenge has no steps', () => {
    expect(checkEvidenceOrder([], frames('passive', 'passive', 'passive', 'passive'))).toEqual({ ok: true })
    expect(checkEvidenceOrder([], frames('passive', 'blink'))).toMatchObject({ ok: false, reason: 'order' })
  })

  it('takes the screen light’s frames after the steps, alone, or says they were not seen', () => {
    const steps: ChallengeStep[] = ['blink', 'turn-left']
    expect(checkEvidenceOrder(steps, frames('blink', 'turn-left', 'light', 'light'), true)).toEqual({ ok: true })
    expect(checkEvidenceOrder([], frames('light', 'light'), true)).toEqual({ ok: true })
    expect(checkEvidenceOrder(steps, frames('light', 'blink', 'turn-left'), true)).toMatchObject({ ok: false, reason: 'order' })
    expect(checkEvidenceOrder(steps, frames('blink', 'turn-left', 'light'))).toMatchObject({ ok: false, reason: 'order' })
    expect(checkEvidenceOrder(steps, frames('blink', 'turn-left'), true)).toEqual({ ok: false, reason: 'unfinished', words: 'the challenge was not finished: the screen’s light not seen' })
    expect(checkEvidenceOrder([], frames('passive'), true)).toMatchObject({ ok: false, reason: 'order' })
  })
})

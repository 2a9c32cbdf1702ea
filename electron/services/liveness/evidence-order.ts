import type { ChallengeStep, EvidenceStep } from '../../shared/liveness'

/** What each step asks of the person, in words for a refusal. */
export const stepWords: Record<ChallengeStep, string> = {
  blink: 'a blink',
  'turn-left': 'a turn of the head to the left',
  'turn-right': 'a turn of the head to the right',
}

export type OrderVerdict = { ok: true } | { ok: false; reason: 'order' | 'unfinished'; words: string }

/**
 * Whether a burst follows its challenge: with steps, each step's frames together and the steps in
 * the issued order (a burst cut short by a timed-out step is a prefix, refused as unfinished);
 * with the screen's light, its frames together after the steps; with neither (passive score
 * alone), only 'passive' frames.
 */
export function checkEvidenceOrder(steps: readonly ChallengeStep[], frames: ReadonlyArray<{ step: EvidenceStep }>, light = false): OrderVerdict {
  const expected: EvidenceStep[] = [...steps, ...(light ? (['light'] as const) : [])]
  if (expected.length === 0) {
    return frames.every((f) => f.step === 'passive') ? { ok: true } : { ok: false, reason: 'order', words: 'the frames are for steps this check did not ask for' }
  }
  const runs: EvidenceStep[] = []
  for (const frame of frames) if (runs.at(-1) !== frame.step) runs.push(frame.step)
  const inOrder = runs.length <= expected.length && runs.every((step, i) => step === expected[i])
  if (!inOrder) return { ok: false, reason: 'order', words: 'the frames do not follow the challenge’s steps in their order' }
  const missing = expected.slice(runs.length)
  if (missing.length > 0) {
    const words = missing.map((s) => (s === 'light' ? 'the screen’s light' : stepWords[s as ChallengeStep]))
    return { ok: false, reason: 'unfinished', words: `the challenge was not finished: ${words.join(', ')} not seen` }
  }
  return { ok: true }
}

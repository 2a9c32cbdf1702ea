import { frameSignals, turnSign, type Mesh, type StepVerdict } from './liveness-motion'

/**
 * Whether a step's frames are one continuous motion, as a camera sees a head move, and not a set of
 * views cut together (two photos swapped in front of the camera). The page sends every frame it
 * judged from the step's start until the move is undone, with when each was taken; a head turns
 * through the frames in between, out and back, while a cut jumps.
 */

/** Consecutive frames of a step at most this far apart: the page judges 5–15 frames a second, slower only when the machine is very busy. */
export const MAX_FRAME_GAP_MS = 700
/**
 * No single frame-to-frame step of the nose may carry more than this share of the whole turn: the
 * recorded turns spread over 4 or more frames at the page's rate; a cut between two views makes it in one.
 */
export const TURN_JUMP_SHARE_MAX = 0.6
/**
 * ...when the step is also at least this far (of the eye distance): the mesh's jitter on a small
 * turn reaches 0.08 between two frames of the recorded faces, while the cuts between two photos of
 * a head, frontal and turned, measured 0.22–0.24. A swap of two photos this close in pose is not caught.
 */
export const TURN_JUMP_MIN = 0.12
/**
 * After its farthest point the turn must be seen coming back at least this share of the way. The
 * page waits for a quarter, and at least 0.05 of the eye distance, on its own measure; the engine's
 * mesh on the JPEG places the nose up to ~0.03 off the page's and has measured such a return as low
 * as 17%, so the engine asks for less than the page waits for.
 */
export const TURN_BACK_SHARE_MIN = 0.1

export interface TimedMesh {
  at: number
  mesh: Mesh
}

const fmt = (n: number) => n.toFixed(2)

/** The frames' times: increasing, and no gap a cut could hide in. */
export function judgeTiming(frames: readonly { at: number }[], what: string): StepVerdict {
  for (let i = 1; i < frames.length; i++) {
    const gap = frames[i]!.at - frames[i - 1]!.at
    if (!(gap > 0)) return { passed: false, detail: `the frames of the ${what} are not in the order they were taken` }
    if (gap > MAX_FRAME_GAP_MS) return { passed: false, detail: `the frames of the ${what} are not one continuous sequence (${Math.round(gap)} ms between frames ${i} and ${i + 1}, at most ${MAX_FRAME_GAP_MS})` }
  }
  return { passed: true, detail: `the ${what} is one continuous sequence` }
}

/**
 * A turn's frames, start first: one continuous sequence in time whose nose path passes judgeTurnPath.
 */
export function judgeTurnContinuity(step: 'turn-left' | 'turn-right', frames: readonly TimedMesh[]): StepVerdict {
  const timing = judgeTiming(frames, `head turn to the ${step === 'turn-left' ? 'left' : 'right'}`)
  if (!timing.passed) return timing
  const sign = turnSign(step)
  return judgeTurnPath(step, frames.map((f) => sign * frameSignals(f.mesh).parallax))
}

/**
 * A turn's nose path (its shift toward the side asked, per frame, start first): it goes out through
 * the frames in between (no step of TURN_JUMP_MIN or more carries more than TURN_JUMP_SHARE_MAX of the
 * turn) and comes back at least TURN_BACK_SHARE_MIN of the way. `margin` above 1 asks that much more:
 * the page judges its own mesh before sending, and the engine's mesh on the JPEG differs a little.
 */
export function judgeTurnPath(step: 'turn-left' | 'turn-right', shifts: readonly number[], margin = 1): StepVerdict {
  const side = step === 'turn-left' ? 'left' : 'right'
  const start = shifts[0] ?? 0
  const out = shifts.map((s) => s - start)
  const farthest = Math.max(...out)
  const peak = out.indexOf(farthest)
  if (!(farthest > 0)) return { passed: false, detail: `no head turn to the ${side} was seen` }
  let jump = 0
  let at = 0
  for (let i = 1; i < shifts.length; i++) {
    const step = Math.abs(shifts[i]! - shifts[i - 1]!)
    if (step > jump) [jump, at] = [step, i]
  }
  if (jump * margin >= TURN_JUMP_MIN && jump * margin > TURN_JUMP_SHARE_MAX * farthest) {
    return {
      passed: false,
      detail: `the face jumped between frames ${at} and ${at + 1} (the nose moved ${fmt(jump)} of the eye distance at once, ${Math.round((100 * jump) / farthest)}% of the whole turn, at most ${Math.round(100 * TURN_JUMP_SHARE_MAX)}%): a head turns through the frames in between`,
    }
  }
  const back = farthest - Math.min(...out.slice(peak))
  if (back < TURN_BACK_SHARE_MIN * farthest * margin) {
    return { passed: false, detail: `the head was not seen turning back from the ${side} (back ${Math.round((100 * back) / farthest)}% of the way, needs ${Math.round(100 * TURN_BACK_SHARE_MIN)}%)` }
  }
  return { passed: true, detail: `the turn to the ${side} went out and came back through ${shifts.length} frames` }
}

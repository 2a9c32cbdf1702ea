import { describe, expect, it } from 'vitest'
import type { ChallengeStep } from '../../electron/shared/liveness'
import type { Mesh } from '../../electron/shared/liveness-motion'
import { LivenessRun, PASSIVE_FRAMES, PASSIVE_GAP_MS, STEP_PROMPTS, type Grab, type MotionChecks } from '../../renderer/src/camera/liveness-run'

// The page's sequencing of a liveness challenge: which prompt, when a step is done, which frames are
// kept. The motion maths is liveness-motion's (tested on its own); here a synthetic mesh carries its
// eye openness and nose parallax in point 0, and the checks read them, so each test states exactly
// the motion it feeds.

function mesh(openness: number, parallax = 0.5): Mesh {
  return Array.from({ length: 468 }, (_, i) => (i === 0 ? [openness, parallax] : [i, i]))
}
const read = (m: Mesh) => ({ openness: m[0]![0]!, parallax: m[0]![1]! })
const checks: MotionChecks = {
  frameSignals: (m) => read(m),
  judgeStep: (step: ChallengeStep, meshes: readonly Mesh[]) => {
    const start = read(meshes[0]!)
    const later = meshes.slice(1).map(read)
    if (step === 'blink') return { passed: later.some((s) => s.openness < 0.5 * start.openness), detail: '' }
    const sign = step === 'turn-left' ? 1 : -1
    return { passed: later.some((s) => sign * (s.parallax - start.parallax) > 0.1), detail: '' }
  },
}

const challenge = (steps: ChallengeStep[], stepSeconds = 8) => ({ steps, stepSeconds })

/** Feeds one face per frame, 50 ms apart from `from`; returns every grab with the frame index it came at. */
function feed(run: LivenessRun, faces: Mesh[], from = 0) {
  const grabs: Array<Grab & { at: number }> = []
  const holds: number[] = []
  faces.forEach((face, i) => {
    const update = run.update({ at: from + i * 50, meshes: [face] })
    if (update.hold) holds.push(i)
    for (const grab of update.grabs) grabs.push({ ...grab, at: i })
  })
  return { grabs, holds }
}

describe('liveness run', () => {
  it('asks the steps in the challenge’s order with their exact prompts, and keeps start and moment frames per step', () => {
    const run = new LivenessRun(challenge(['turn-right', 'blink', 'turn-left']), checks)
    expect(run.view()).toMatchObject({ prompt: 'Turn your head to your right', stepNumber: 1, stepCount: 3, status: 'running' })
    const right = feed(run, [mesh(1), mesh(1, 0.45), mesh(1, 0.35)])
    expect(right.grabs).toEqual([
      { step: 'turn-right', frame: 'current', at: 0 },
      { step: 'turn-right', frame: 'current', at: 2 },
    ])
    expect(run.view()).toMatchObject({ prompt: STEP_PROMPTS.blink, step: 'blink', stepNumber: 2 })
    expect(run.view().prompt).toBe('Blink your eyes')

    // A blink: start, eyes closing (the lowest frame is held), closed, open again.
    const blink = feed(run, [mesh(1), mesh(0.6), mesh(0.2), mesh(0.9)], 1000)
    expect(blink.holds).toEqual([1, 2])
    expect(blink.grabs).toEqual([
      { step: 'blink', frame: 'current', at: 0 },
      { step: 'blink', frame: 'current', at: 2 },
      { step: 'blink', frame: 'current', at: 3 },
    ])
    expect(run.view()).toMatchObject({ prompt: 'Turn your head to your left', stepNumber: 3 })

    feed(run, [mesh(1), mesh(1, 0.7)], 2000)
    expect(run.status).toBe('passed')
    expect(run.frames).toBe(7)
  })

  it('takes the held closed frame when the blink is seen only once the eyes reopen', () => {
    // A check that wants the eyes back open before it passes: the closed frame is the one held earlier.
    const reopenFirst: MotionChecks = {
      ...checks,
      judgeStep: (_step, meshes) => {
        const values = meshes.map((m) => read(m).openness)
        const low = Math.min(...values)
        return { passed: low < 0.5 && values.at(-1)! > 0.8, detail: '' }
      },
    }
    const run = new LivenessRun(challenge(['blink']), reopenFirst)
    const { grabs, holds } = feed(run, [mesh(1), mesh(0.3), mesh(0.1), mesh(0.95)])
    expect(holds).toEqual([1, 2])
    expect(grabs).toEqual([
      { step: 'blink', frame: 'current', at: 0 },
      { step: 'blink', frame: 'held', at: 3 },
      { step: 'blink', frame: 'current', at: 3 },
    ])
    expect(run.status).toBe('passed')
  })

  it('does not advance on a turn the wrong way or on frames without exactly one face', () => {
    const run = new LivenessRun(challenge(['turn-left', 'blink']), checks)
    feed(run, [mesh(1), mesh(1, 0.3), mesh(1, 0.2)])
    expect(run.view().step).toBe('turn-left')
    run.update({ at: 200, meshes: [mesh(1, 0.9), mesh(1, 0.9)] })
    expect(run.view()).toMatchObject({ step: 'turn-left', hint: 'Only one person in front of the camera, please.' })
    run.update({ at: 250, meshes: [] })
    expect(run.view().hint).toBe('Look at the camera with your face inside the oval.')
    expect(run.frames).toBe(1)
  })

  it('ends the challenge when a step runs out of time, keeping what it has', () => {
    const run = new LivenessRun(challenge(['blink', 'turn-left'], 3), checks)
    run.update({ at: 0, meshes: [mesh(1)] })
    expect(run.view().secondsLeft).toBe(3)
    run.update({ at: 1200, meshes: [mesh(0.9)] })
    expect(run.view().secondsLeft).toBe(2)
    const last = run.update({ at: 3000, meshes: [mesh(0.95)] })
    expect(last.grabs).toEqual([])
    expect(run.status).toBe('timed-out')
    expect(run.frames).toBe(1)
    expect(run.update({ at: 3050, meshes: [mesh(0.1)] }).grabs).toEqual([])
  })

  it('sends at least one frame when no face was ever seen before the time ran out', () => {
    const run = new LivenessRun(challenge(['turn-right'], 3), checks)
    run.update({ at: 0, meshes: [] })
    expect(run.update({ at: 3100, meshes: [] }).grabs).toEqual([{ step: 'turn-right', frame: 'current' }])
    expect(run.status).toBe('timed-out')
  })

  it('passive only: four frames about 250 ms apart, step "passive"', () => {
    const run = new LivenessRun(challenge([]), checks)
    expect(run.view()).toMatchObject({ step: 'passive', stepCount: 1 })
    const grabs: number[] = []
    for (let at = 0; at <= 1000 && run.status === 'running'; at += 50) {
      if (run.update({ at, meshes: [mesh(1)] }).grabs.some((g) => g.step === 'passive')) grabs.push(at)
    }
    expect(grabs).toHaveLength(PASSIVE_FRAMES)
    for (let i = 1; i < grabs.length; i++) expect(grabs[i]! - grabs[i - 1]!).toBeGreaterThanOrEqual(PASSIVE_GAP_MS)
    expect(run.status).toBe('passed')
  })

  it('never keeps more than 16 frames', () => {
    const round: ChallengeStep[] = ['blink', 'turn-left', 'turn-right']
    const run = new LivenessRun(challenge([...round, ...round, ...round]), checks)
    const faces: Mesh[] = []
    for (let i = 0; i < 3; i++) faces.push(mesh(1), mesh(0.1), mesh(1), mesh(1), mesh(1, 0.7), mesh(1), mesh(1, 0.3))
    feed(run, faces)
    expect(run.frames).toBe(16)
  })
})

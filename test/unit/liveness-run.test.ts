import { describe, expect, it } from 'vitest'
import { MAX_STEP_FRAMES, type ChallengeStep } from '../../electron/shared/liveness'
import type { Mesh } from '../../electron/shared/liveness-motion'
import { MAX_FRAME_GAP_MS, TURN_JUMP_MIN } from '../../electron/shared/liveness-continuity'
import { FRAMES_KEPT, LivenessRun, PASSIVE_FRAMES, PASSIVE_GAP_MS, stepPrompt, TURN_BACK_MIN, TURN_SEND_MARGIN, WATCH_FRAMES, type Grab, type MotionChecks } from '../../renderer/src/camera/liveness-run'

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

/**
 * Feeds one face per frame, 50 ms apart from `from`; returns the frames sent, by the number of the
 * frame (0-based, in this feed) each grab points back to.
 */
function feed(run: LivenessRun, faces: Mesh[], from = 0) {
  const sent: Array<{ step: string; frame: number }> = []
  faces.forEach((face, i) => {
    for (const grab of run.update({ at: from + i * 50, meshes: [face] }).grabs) sent.push({ step: grab.step, frame: i - grab.back })
  })
  return sent
}
const frames = (step: string, numbers: number[]) => numbers.map((frame) => ({ step, frame }))

describe('liveness run', () => {
  it('does not count a step done whose frames the engine would refuse as not continuous (a stall between two frames): the person moves again', () => {
    const run = new LivenessRun(challenge(['blink', 'turn-left']), checks)
    // A blink seen, but the busy page stalled 900 ms between two of its frames (the engine allows 700).
    const times = [0, 100, 1000, 1100, 1200]
    const stalled = [mesh(1), mesh(0.6), mesh(0.2), mesh(0.3), mesh(0.9)].flatMap((face, i) => run.update({ at: times[i]!, meshes: [face] }).grabs)
    expect(stalled).toEqual([])
    expect(run.view()).toMatchObject({ step: 'blink', stepNumber: 1 })
    // The next blink, frame after frame: done, and its frames sent.
    const blink = feed(run, [mesh(1), mesh(0.6), mesh(0.2), mesh(0.3), mesh(0.9)], 1300)
    expect(blink).toEqual(frames('blink', [0, 1, 2, 3, 4]))
    expect(run.view()).toMatchObject({ step: 'turn-left', stepNumber: 2 })
  })

  it('asks the steps in the challenge’s order with their exact prompts, and sends each step as one run of frames, start to undone', () => {
    const run = new LivenessRun(challenge(['turn-right', 'blink', 'turn-left']), checks)
    expect(run.view()).toMatchObject({ prompt: 'Turn your head to your right', stepNumber: 1, stepCount: 3, status: 'running' })
    // Seen at frame 2 (0.35 against the start's 0.5); the run goes on until the head is back a quarter of the way (0.36 of 0.2 out).
    const right = feed(run, [mesh(1), mesh(1, 0.45), mesh(1, 0.35), mesh(1, 0.3), mesh(1, 0.36)])
    expect(right).toEqual(frames('turn-right', [0, 1, 2, 3, 4]))
    expect(run.view()).toMatchObject({ prompt: stepPrompt('blink'), step: 'blink', stepNumber: 2 })
    expect(run.view().prompt).toBe('Blink your eyes')

    // A blink: from the start, every frame until the eyes are open again.
    const blink = feed(run, [mesh(1), mesh(0.6), mesh(0.2), mesh(0.3), mesh(0.9)], 1000)
    expect(blink).toEqual(frames('blink', [0, 1, 2, 3, 4]))
    expect(run.view()).toMatchObject({ prompt: 'Turn your head to your left', stepNumber: 3 })

    feed(run, [mesh(1), mesh(1, 0.6), mesh(1, 0.7), mesh(1, 0.75), mesh(1, 0.7), mesh(1, 0.6)], 2000)
    expect(run.status).toBe('passed')
    expect(run.frames).toBe(16)
  })

  it('ends a small turn only when it is back TURN_BACK_MIN, not just a quarter of the way: a smaller return is within the engine’s mesh jitter', () => {
    const run = new LivenessRun(challenge(['turn-left']), checks)
    // 0.12 out; back 0.035 is more than a quarter of it, less than TURN_BACK_MIN: not over, nothing sent.
    expect(feed(run, [mesh(1, 0.5), mesh(1, 0.58), mesh(1, 0.62), mesh(1, 0.585)])).toEqual([])
    expect(run.status).toBe('running')
    const sent = feed(run, [mesh(1, 0.565)], 200)
    expect(run.status).toBe('passed')
    expect(sent.at(-1)).toEqual({ step: 'turn-left', frame: 0 })
    expect(TURN_BACK_MIN).toBe(0.05)
  })

  it('asks a blink at the engine’s own limit and a turn with a margin (a recorded blink at 0.55 of open passes both)', () => {
    const margins: Partial<Record<ChallengeStep, number | undefined>> = {}
    const recording: MotionChecks = {
      ...checks,
      judgeStep: (step, meshes, options) => {
        margins[step] = options.margin
        return checks.judgeStep(step, meshes, options)
      },
    }
    const run = new LivenessRun(challenge(['blink', 'turn-left']), recording)
    feed(run, [mesh(1), mesh(0.2), mesh(0.9), mesh(1), mesh(1, 0.6), mesh(1, 0.7), mesh(1, 0.62)])
    expect(run.status).toBe('passed')
    // The engine passes a blink at 0.6 of open or less; a page margin would wait for a deeper one it never sees.
    expect(margins.blink ?? 1).toBe(1)
    expect(margins['turn-left']).toBeGreaterThan(1)
  })

  it('measures a blink from the eyes widest open, and sends every frame from there until they are open again', () => {
    // The step starts with the eyes a little narrow (0.8); they open wider (1.0), then close twice as far as the check asks
    // against 1.0 but not against 0.8 (0.45), stay closed, and open again.
    const run = new LivenessRun(challenge(['blink']), checks)
    const sent = feed(run, [mesh(0.8), mesh(1), mesh(0.9), mesh(0.45), mesh(0.3), mesh(0.35), mesh(0.4), mesh(0.95)])
    expect(sent).toEqual(frames('blink', [1, 2, 3, 4, 5, 6, 7]))
    expect(run.status).toBe('passed')
  })

  it('does not measure a blink from eyes already closing as the step begins: it waits for them open and sends the next blink', () => {
    const run = new LivenessRun(challenge(['turn-left', 'blink']), checks)
    feed(run, [mesh(1), mesh(1, 0.6), mesh(1, 0.7), mesh(1, 0.75), mesh(1, 0.7), mesh(1, 0.6)])
    expect(run.view().step).toBe('blink')
    // The step begins mid-blink (0.6 of the open 1.0, closing to 0.25): not a blink seen from open eyes.
    // The eyes open (1.0) and blink again: that one is sent, from the open frame.
    const sent = feed(run, [mesh(0.6), mesh(0.25), mesh(0.5), mesh(1), mesh(0.95), mesh(0.3), mesh(1)], 1000)
    expect(sent).toEqual(frames('blink', [3, 4, 5, 6]))
    expect(run.status).toBe('passed')
  })

  it('measures a turn from the frame turned farthest the other way: a step that starts with the head already turned still passes', () => {
    // The head is still turned left from the last step (0.7) when "turn left" is asked: it comes back
    // (0.6, 0.5) and turns left again (0.65) and back. Against the step's first frame that is no turn at all.
    const run = new LivenessRun(challenge(['turn-left']), checks)
    const sent = feed(run, [mesh(1, 0.7), mesh(1, 0.6), mesh(1, 0.5), mesh(1, 0.55), mesh(1, 0.65), mesh(1, 0.7), mesh(1, 0.6), mesh(1, 0.55)])
    expect(sent).toEqual(frames('turn-left', [2, 3, 4, 5, 6]))
    expect(run.status).toBe('passed')
  })

  it('keeps the start among the last few frames while the person waits, so the run fits what the page keeps', () => {
    const run = new LivenessRun(challenge(['turn-left']), checks)
    // Twelve frames of standing still (each a little further from the best start), then the turn and back.
    const still = Array.from({ length: 12 }, (_, i) => mesh(1, 0.5 + i * 0.001))
    const sent = feed(run, [...still, mesh(1, 0.56), mesh(1, 0.64), mesh(1, 0.7), mesh(1, 0.6), mesh(1, 0.55)])
    expect(run.status).toBe('passed')
    expect(sent[0]!.frame).toBeGreaterThanOrEqual(12 - WATCH_FRAMES)
    expect(sent.map((s) => s.frame)).toEqual(Array.from({ length: sent.length }, (_, i) => sent[0]!.frame + i))
    expect(sent.at(-1)!.frame).toBe(15)
    expect(sent.length).toBeLessThanOrEqual(FRAMES_KEPT)
  })

  it('starts a step over when a frame shows no face or two: the run must be continuous', () => {
    const run = new LivenessRun(challenge(['turn-left', 'blink']), checks)
    feed(run, [mesh(1), mesh(1, 0.3), mesh(1, 0.2)])
    expect(run.view().step).toBe('turn-left')
    run.update({ at: 200, meshes: [mesh(1, 0.9), mesh(1, 0.9)] })
    expect(run.view()).toMatchObject({ step: 'turn-left', hint: 'Only one person in front of the camera, please.' })
    run.update({ at: 250, meshes: [] })
    expect(run.view().hint).toBe('Look at the camera with your face inside the oval.')
    expect(run.frames).toBe(0)
    // After the gap the turn is measured from a new start: frames before the gap are never sent.
    const sent = feed(run, [mesh(1, 0.5), mesh(1, 0.6), mesh(1, 0.7), mesh(1, 0.6)], 300)
    expect(sent).toEqual(frames('turn-left', [0, 1, 2, 3]))
  })

  it('sends a slow turn’s long run thinned over its motion, its first and last frames kept', () => {
    const run = new LivenessRun(challenge(['turn-left']), checks)
    const out = Array.from({ length: 20 }, (_, i) => mesh(1, 0.5 + i * 0.02))
    const back = Array.from({ length: 10 }, (_, i) => mesh(1, 0.88 - i * 0.03))
    const sent = feed(run, [...out, ...back])
    expect(run.status).toBe('passed')
    expect(sent).toHaveLength(MAX_STEP_FRAMES)
    expect(sent[0]!.frame).toBe(0)
    const gaps = sent.slice(1).map((s, i) => s.frame - sent[i]!.frame)
    expect(Math.max(...gaps)).toBeLessThanOrEqual(3)
    expect(sent.at(-1)!.frame).toBeLessThan(FRAMES_KEPT)
    // The frames the page decided on go too: where the turn was seen (0.1 past the start) and its farthest point.
    const farthest = 19
    expect(sent.map((s) => s.frame)).toContain(farthest)
    expect(sent.map((s) => s.frame)).toContain(6)
  })

  it('thins a long run where the motion is: a quick turn held at its peak is sent with no jump between two frames', () => {
    const run = new LivenessRun(challenge(['turn-left']), checks)
    // Out fast in three frames, held turned for 30, then back: evenly spread picks skipped frame 1.
    const quick = [mesh(1, 0.5), mesh(1, 0.58), mesh(1, 0.66), mesh(1, 0.74)]
    const held = Array.from({ length: 30 }, () => mesh(1, 0.74))
    const sent = feed(run, [...quick, ...held, mesh(1, 0.64)])
    expect(run.status).toBe('passed')
    expect(sent).toHaveLength(MAX_STEP_FRAMES)
    const path = sent.map((s) => read([...quick, ...held, mesh(1, 0.64)][s.frame]!).parallax)
    const jumps = path.slice(1).map((p, i) => Math.abs(p - path[i]!))
    expect(Math.max(...jumps)).toBeLessThan(TURN_JUMP_MIN)
  })

  it('thins a long blink so no gap in time is left that the engine refuses: the eyes held closed 2.8 s are sent evenly', () => {
    const run = new LivenessRun(challenge(['blink']), checks)
    const faces = [mesh(1), ...Array.from({ length: 28 }, () => mesh(0.2)), mesh(0.95)]
    const sent = faces.flatMap((face, i) => run.update({ at: i * 100, meshes: [face] }).grabs.map((grab) => i - grab.back))
    expect(run.status).toBe('passed')
    expect(sent).toHaveLength(MAX_STEP_FRAMES)
    const gaps = sent.slice(1).map((frame, i) => (frame - sent[i]!) * 100)
    expect(Math.max(...gaps)).toBeLessThanOrEqual(MAX_FRAME_GAP_MS)
  })

  it('does not count a turn done whose frames jump as a cut would (a head swung back between two slow frames): the person turns again', () => {
    const run = new LivenessRun(challenge(['turn-left']), checks)
    // Out through the frames in between, then back past the start in one frame: 0.2 at once, the engine refuses it.
    const swung = feed(run, [mesh(1, 0.5), mesh(1, 0.55), mesh(1, 0.6), mesh(1, 0.66), mesh(1, 0.46)])
    expect(swung).toEqual([])
    expect(run.status).toBe('running')
    const again = feed(run, [mesh(1, 0.5), mesh(1, 0.56), mesh(1, 0.62), mesh(1, 0.66), mesh(1, 0.6)], 300)
    expect(run.status).toBe('passed')
    expect(again.at(-1)).toEqual({ step: 'turn-left', frame: 4 })
  })

  it('does not send a turn that only just passed: it watches again, and sends the clear turn that follows', () => {
    // The mock check passes at 0.1; before sending, the run's farthest frame must pass with TURN_SEND_MARGIN (0.14).
    const margins: number[] = []
    const recording: MotionChecks = {
      ...checks,
      judgeStep: (step, meshes, options) => {
        margins.push(options.margin ?? 1)
        const sign = step === 'turn-left' ? 1 : -1
        return { passed: sign * (read(meshes.at(-1)!).parallax - read(meshes[0]!).parallax) >= 0.1 * (options.margin ?? 1), detail: '' }
      },
    }
    const run = new LivenessRun(challenge(['turn-left']), recording)
    const small = feed(run, [mesh(1, 0.5), mesh(1, 0.56), mesh(1, 0.61), mesh(1, 0.62), mesh(1, 0.56)])
    expect(small).toEqual([])
    expect(run.status).toBe('running')
    expect(margins).toContain(TURN_SEND_MARGIN)
    // Straight on from the frames before (a run's frames are one continuous sequence, as the engine requires).
    const clear = feed(run, [mesh(1, 0.5), mesh(1, 0.6), mesh(1, 0.7), mesh(1, 0.62)], 200)
    expect(run.status).toBe('passed')
    expect(clear.at(-1)).toEqual({ step: 'turn-left', frame: 3 })
  })

  it('watches again when a move is not undone within the frames the loop keeps, and sends nothing until it is', () => {
    const run = new LivenessRun(challenge(['turn-left']), checks)
    const held = feed(run, [mesh(1, 0.5), ...Array.from({ length: FRAMES_KEPT + 5 }, () => mesh(1, 0.8))])
    expect(held).toEqual([])
    expect(run.status).toBe('running')
    // From the latest frames (turned), a turn further and back is a new run.
    const sent = feed(run, [mesh(1, 0.8), mesh(1, 0.88), mesh(1, 0.95), mesh(1, 0.89)], (FRAMES_KEPT + 6) * 50)
    expect(run.status).toBe('passed')
    expect(sent.at(-1)).toEqual({ step: 'turn-left', frame: 3 })
    expect(sent.length).toBeLessThanOrEqual(WATCH_FRAMES + 3)
  })

  it('ends the challenge when a step runs out of time, keeping what it has', () => {
    const run = new LivenessRun(challenge(['blink', 'turn-left'], 3), checks)
    run.update({ at: 0, meshes: [mesh(1)] })
    expect(run.view().secondsLeft).toBe(3)
    run.update({ at: 1200, meshes: [mesh(0.9)] })
    expect(run.view().secondsLeft).toBe(2)
    // No blink seen, so nothing was sent yet: the step's run so far goes, so the services have something to judge.
    const last = run.update({ at: 3000, meshes: [mesh(0.95)] })
    expect(last.grabs).toEqual([
      { step: 'blink', back: 2 },
      { step: 'blink', back: 1 },
      { step: 'blink', back: 0 },
    ])
    expect(run.status).toBe('timed-out')
    expect(run.frames).toBe(3)
    expect(run.update({ at: 3050, meshes: [mesh(0.1)] }).grabs).toEqual([])
  })

  it('sends at least one frame when no face was ever seen before the time ran out', () => {
    const run = new LivenessRun(challenge(['turn-right'], 3), checks)
    run.update({ at: 0, meshes: [] })
    expect(run.update({ at: 3100, meshes: [] }).grabs).toEqual([{ step: 'turn-right', back: 0 }])
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
})

// The same run with the shared motion checks (electron/shared/liveness-motion.ts) on meshes of a
// synthetic 3-D head seen by a pinhole camera, and of the same face flattened into a photo: the
// page advances for the head and never for the photo moved, tilted or scaled as a whole.
describe('liveness run with the shared motion checks', () => {
  type P3 = [number, number, number]
  const depth = (x: number, y: number) => -0.35 * (x * x + 0.6 * y * y)
  function head(lidGap: number, flatten = false): P3[] {
    let s = 7
    const random = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32)
    const points: P3[] = Array.from({ length: 468 }, () => {
      const x = (random() * 2 - 1) * 1.3
      const y = (random() * 2 - 1) * 1.6
      return [x, y, depth(x, y)]
    })
    const put = (i: number, x: number, y: number, z = depth(x, y)) => (points[i] = [x, y, z])
    put(33, -0.9, -0.3)
    put(133, -0.3, -0.3)
    put(362, 0.3, -0.3)
    put(263, 0.9, -0.3)
    for (const [upper, lower, x] of [[159, 145, -0.6], [386, 374, 0.6]] as const) {
      put(upper, x, -0.3 - lidGap * 0.3)
      put(lower, x, -0.3 + lidGap * 0.3)
    }
    for (const [i, y, z] of [[168, -0.35, 0.1], [6, -0.2, 0.2], [197, -0.05, 0.3], [195, 0.1, 0.4], [5, 0.2, 0.5], [4, 0.28, 0.58], [1, 0.32, 0.6], [2, 0.42, 0.35]] as const) put(i, 0, y, z)
    return flatten ? points.map(([x, y]) => [x, y, 0]) : points
  }
  /** Turned `yaw` degrees about a pivot behind the face, projected (focal 500 px, 10 units away), shifted by dx. */
  function look(points: P3[], yaw = 0, dx = 0): Mesh {
    const a = (yaw * Math.PI) / 180
    return points.map(([x0, y0, z0]) => {
      const [x, z] = [x0 * Math.cos(a) + (z0 + 1.2) * Math.sin(a), -x0 * Math.sin(a) + (z0 + 1.2) * Math.cos(a) - 1.2]
      return [320 + dx + (500 * x) / (10 - z), 240 + (500 * y0) / (10 - z), 0]
    })
  }

  it('a real head: turn left, blink, turn right, each seen and kept', () => {
    const run = new LivenessRun(challenge(['turn-left', 'blink', 'turn-right']))
    const open = head(0.22)
    const frames: Mesh[] = [
      ...[0, 4, 9, 14, 16, 10, 5].map((yaw) => look(open, yaw)),
      ...[0.22, 0.22, 0.12, 0.03, 0.03, 0.15, 0.22].map((gap) => look(head(gap))),
      ...[0, -4, -9, -14, -16, -10, -5].map((yaw) => look(open, yaw)),
    ]
    frames.forEach((mesh, i) => run.update({ at: i * 50, meshes: [mesh] }))
    expect(run.status).toBe('passed')
    // Each step's frames from its start until the move is undone: nearly every frame fed.
    expect(run.frames).toBeGreaterThanOrEqual(frames.length - 3)
  })

  it('a photo moved and tilted as a whole never passes a turn: the step runs out of time', () => {
    const run = new LivenessRun(challenge(['turn-left'], 3))
    const photo = head(0.22, true)
    const views: Array<[number, number]> = [[0, 0], [10, 20], [20, 40], [35, 60], [40, 30], [25, 0], [40, -20]]
    views.forEach(([yaw, dx], i) => run.update({ at: i * 50, meshes: [look(photo, yaw, dx)] }))
    expect(run.status).toBe('running')
    expect(run.view().step).toBe('turn-left')
    run.update({ at: 3000, meshes: [look(photo, 40)] })
    expect(run.status).toBe('timed-out')
    // What it has goes to the services, who refuse it: the run from the latest start.
    expect(run.frames).toBeGreaterThan(0)
    expect(run.frames).toBeLessThanOrEqual(MAX_STEP_FRAMES)
  })

  it('after the steps lights the screen: from its first paint, frames spread over all of it, then done', () => {
    const light = [
      { colour: 'blue' as const, ms: 500 },
      { colour: 'yellow' as const, ms: 400 },
      { colour: 'green' as const, ms: 550 },
    ]
    const run = new LivenessRun({ steps: [], light, stepSeconds: 3 }, checks)
    expect(run.view()).toMatchObject({ step: 'light', prompt: 'Hold still and look at the screen while it changes colour', stepNumber: 1, stepCount: 1 })
    // Frames before the screen painted its light are no evidence of it.
    expect(feed(run, [mesh(1), mesh(1)], 900)).toEqual([])
    // The screen paints every 10 ms, the loop judges a frame every 50.
    const sent: Grab[] = []
    for (let at = 1000; at < 4000; at += 10) {
      expect(run.paintLight(at)).toBe(at < 1500 ? 'blue' : at < 1900 ? 'yellow' : at < 2450 ? 'green' : null)
      if (at % 50 === 0) sent.push(...run.update({ at, meshes: [mesh(1)] }).grabs)
    }
    expect(run.lightShow.shownAt).toEqual([1000, 1500, 1900])
    // 1450 ms of colours and the camera's tail (450 ms): frames about every 95 ms, at most MAX_LIGHT_FRAMES.
    expect(sent.length).toBeGreaterThanOrEqual(15)
    expect(sent.length).toBeLessThanOrEqual(20)
    expect(sent.every((grab) => grab.step === 'light')).toBe(true)
    expect(run.status).toBe('passed')
    expect(run.paintLight(5000)).toBeNull()
  })

  it('a colour stays its drawn time from when it went on screen, however late the page painted it; the light ends after the last one’s time', () => {
    const light = [
      { colour: 'blue' as const, ms: 500 },
      { colour: 'yellow' as const, ms: 400 },
      { colour: 'green' as const, ms: 550 },
    ]
    const run = new LivenessRun({ steps: ['blink'], light, stepSeconds: 3 }, checks)
    expect(run.view().stepCount).toBe(2)
    expect(run.paintLight(0)).toBeNull()
    feed(run, [mesh(1), mesh(0.6), mesh(0.2), mesh(0.3), mesh(0.9)], 0)
    expect(run.view()).toMatchObject({ step: 'light', stepNumber: 2 })
    // The screen's first paint came 300 ms after the step began (its screen rendered), a change 180 ms late (the thread was busy).
    feed(run, [mesh(1)], 1000)
    const painted = [1300, 1799, 1979, 2200, 2378, 2380, 2929, 2930].map((at) => run.paintLight(at))
    expect(painted).toEqual(['blue', 'blue', 'yellow', 'yellow', 'yellow', 'green', 'green', null])
    expect(run.lightShow.shownAt).toEqual([1300, 1979, 2380])
    feed(run, [mesh(1)], 3300)
    expect(run.status).toBe('running')
    feed(run, [mesh(1)], 3380)
    expect(run.status).toBe('passed')
  })
})

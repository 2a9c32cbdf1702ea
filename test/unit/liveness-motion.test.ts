import { describe, expect, it } from 'vitest'
import {
  BLINK_CLOSED_RATIO,
  frameSignals,
  judgeStep,
  MESH,
  PLANAR_RESIDUAL_MIN,
  planarResidual,
  type Mesh,
} from '../../electron/shared/liveness-motion'

/**
 * Synthetic face meshes: a 3-D head (a curved face with a protruding nose, in units where the outer
 * eye corners are 1.8 apart) seen by a pinhole camera, against the same points flattened onto a
 * plane (a photo) moved as a whole. Every named index sits where it does on a face; the other
 * points of the 468 cover the face surface.
 */
type P3 = [number, number, number]

function rng(seed: number) {
  let s = seed >>> 0
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32)
}

function head(lidGap = 0.22, seed = 7): P3[] {
  const random = rng(seed)
  const depth = (x: number, y: number) => -0.35 * (x * x + 0.6 * y * y) // the face curves away from the camera
  const points: P3[] = Array.from({ length: 468 }, () => {
    const x = (random() * 2 - 1) * 1.3
    const y = (random() * 2 - 1) * 1.6
    return [x, y, depth(x, y)]
  })
  const put = (i: number, x: number, y: number, z = depth(x, y)) => (points[i] = [x, y, z])
  // Image-left eye (33 outer, 133 inner) and image-right eye (362 inner, 263 outer), lids in between.
  put(MESH.eyeOuterLeft, -0.9, -0.3)
  put(MESH.eyeInnerLeft, -0.3, -0.3)
  put(MESH.eyeInnerRight, 0.3, -0.3)
  put(MESH.eyeOuterRight, 0.9, -0.3)
  const eyeWidth = 0.6
  put(MESH.lidUpperLeft, -0.6, -0.3 - (lidGap * eyeWidth) / 2)
  put(MESH.lidLowerLeft, -0.6, -0.3 + (lidGap * eyeWidth) / 2)
  put(MESH.lidUpperRight, 0.6, -0.3 - (lidGap * eyeWidth) / 2)
  put(MESH.lidLowerRight, 0.6, -0.3 + (lidGap * eyeWidth) / 2)
  // The nose: ridge from the brow to the tip, which stands 0.6 in front of the face.
  put(168, 0, -0.35, 0.1)
  put(6, 0, -0.2, 0.2)
  put(197, 0, -0.05, 0.3)
  put(195, 0, 0.1, 0.4)
  put(5, 0, 0.2, 0.5)
  put(4, 0, 0.28, 0.58)
  put(MESH.noseTip, 0, 0.32, 0.6)
  put(2, 0, 0.42, 0.35)
  return points
}

interface View {
  yaw?: number // degrees about the vertical axis through the head's centre
  pitch?: number
  roll?: number
  scale?: number
  dx?: number
  dy?: number
}

const deg = (d: number) => (d * Math.PI) / 180

/** Rotates about a pivot behind the face (a head turns about its neck), then projects (focal 500 px, 10 units away). */
function look(points: readonly P3[], view: View = {}, pivotZ = -1.2, noise = 0, seed = 1): Mesh {
  const random = rng(seed)
  const [ay, ap, ar] = [deg(view.yaw ?? 0), deg(view.pitch ?? 0), deg(view.roll ?? 0)]
  const s = view.scale ?? 1
  return points.map(([x0, y0, z0]) => {
    let [x, y, z] = [x0, y0, z0 - pivotZ]
    ;[x, y] = [x * Math.cos(ar) - y * Math.sin(ar), x * Math.sin(ar) + y * Math.cos(ar)]
    ;[x, z] = [x * Math.cos(ay) + z * Math.sin(ay), -x * Math.sin(ay) + z * Math.cos(ay)]
    ;[y, z] = [y * Math.cos(ap) - z * Math.sin(ap), y * Math.sin(ap) + z * Math.cos(ap)]
    z += pivotZ
    const w = 10 - z
    const jitter = () => (noise ? (random() * 2 - 1) * noise : 0)
    return [320 + (view.dx ?? 0) + (s * 500 * x) / w + jitter(), 240 + (view.dy ?? 0) + (s * 500 * y) / w + jitter(), 0]
  })
}

/** The same face as a photo: every point on one plane. */
const flat = (points: readonly P3[]): P3[] => points.map(([x, y]) => [x, y, 0])

const planarMoves: Array<[string, View]> = [
  ['moved', { dx: 40, dy: -25 }],
  ['rotated in plane', { roll: 15 }],
  ['scaled', { scale: 1.2 }],
  ['tilted 40° to one side', { yaw: 40 }],
  ['tilted 40° to the other side', { yaw: -40 }],
  ['tilted back 35°', { pitch: 35 }],
  ['tilted, moved and scaled', { yaw: 30, dx: 30, scale: 0.85 }],
]

describe('frameSignals', () => {
  it('reads the nose between the eye corners and the lid gap over the eye width', () => {
    const signals = frameSignals(look(head(0.22)))
    expect(signals.parallax).toBeCloseTo(0.5, 2)
    expect(signals.openness).toBeCloseTo(0.22, 1)
    expect(frameSignals(look(head(0.22), { yaw: 12 })).parallax).toBeGreaterThan(0.55) // turning to their left: toward image right
    expect(frameSignals(look(head(0.22), { yaw: -12 })).parallax).toBeLessThan(0.45)
  })
})

describe('planarResidual', () => {
  it.each(planarMoves)('is ~0 for a photo %s', (_name, view) => {
    const photo = flat(head())
    expect(planarResidual(look(photo), look(photo, view))).toBeLessThan(0.002)
  })

  it('is clearly above the threshold for a real head turned 12°', () => {
    expect(planarResidual(look(head()), look(head(), { yaw: 12 }))).toBeGreaterThan(PLANAR_RESIDUAL_MIN * 1.3)
    expect(planarResidual(look(head()), look(head(), { yaw: -12 }))).toBeGreaterThan(PLANAR_RESIDUAL_MIN * 1.3)
  })
})

describe('judgeStep: turns', () => {
  const face = head()
  const sweep = (yaws: number[], points = face, extra: View = {}) => yaws.map((yaw, i) => look(points, { ...extra, yaw }, -1.2, 0.5, i + 1))

  it('passes a real head turning 10–15° the asked way, with the page margin too', () => {
    // `frame`: the peak the page grabs and the engine checks the pixels of.
    expect(judgeStep('turn-left', sweep([0, 4, 9, 13]))).toMatchObject({ passed: true, frame: 3 })
    expect(judgeStep('turn-right', sweep([0, -5, -10, -14]))).toMatchObject({ passed: true })
    expect(judgeStep('turn-left', sweep([0, 6, 14]), { margin: 1.15 }).passed).toBe(true)
  })

  it('refuses a turn the other way, and a still face with noise', () => {
    expect(judgeStep('turn-left', sweep([0, -6, -13])).passed).toBe(false)
    expect(judgeStep('turn-right', sweep([0, 6, 13])).passed).toBe(false)
    const still = sweep([0, 0, 0, 0, 0, 0])
    expect(judgeStep('turn-left', still).passed).toBe(false)
    expect(judgeStep('turn-right', still).passed).toBe(false)
  })

  it.each(planarMoves)('refuses a photo %s as a turn either way', (_name, view) => {
    const photo = flat(face)
    const meshes = [look(photo, {}, 0, 0.5, 1), look(photo, { ...view, yaw: (view.yaw ?? 0) / 2 }, 0, 0.5, 2), look(photo, view, 0, 0.5, 3)]
    expect(judgeStep('turn-left', meshes).passed).toBe(false)
    expect(judgeStep('turn-right', meshes).passed).toBe(false)
  })

  it('says in words why a tilted photo is refused, with numbers and no landmarks', () => {
    const photo = flat(face)
    const verdict = judgeStep('turn-left', [look(photo, {}, 0), look(photo, { yaw: -45 }, 0)])
    expect(verdict.detail).toMatch(/^(no head turn to the left was seen|the face turned to the left like a flat picture)/)
    expect(verdict.detail).toMatch(/\d\.\d\d/)
  })

  it('needs a start frame and a later one', () => {
    expect(judgeStep('turn-left', [look(face)]).passed).toBe(false)
  })
})

describe('judgeStep: blink', () => {
  const frame = (gap: number, view: View = {}, seed = 1) => look(head(gap), view, -1.2, 0.3, seed)

  it('passes both eyes closing and opening again', () => {
    const meshes = [frame(0.22), frame(0.2, {}, 2), frame(0.04, {}, 3), frame(0.05, {}, 4), frame(0.21, {}, 5)]
    expect(judgeStep('blink', meshes)).toMatchObject({ passed: true, frame: 2 }) // the closed frame
    expect(judgeStep('blink', meshes, { margin: 1.15 }).passed).toBe(true)
  })

  it('passes a blink while the head moves a little', () => {
    expect(judgeStep('blink', [frame(0.22), frame(0.05, { yaw: 4, dx: 6 }, 2), frame(0.22, { yaw: 5, dx: 8 }, 3)]).passed).toBe(true)
  })

  it('needs the eyes open again for the engine; the page can ask for the closing alone', () => {
    const closing = [frame(0.22), frame(0.12, {}, 2), frame(0.04, {}, 3)]
    expect(judgeStep('blink', closing).passed).toBe(false)
    expect(judgeStep('blink', closing, { reopen: false }).passed).toBe(true)
  })

  it('passes a blink where one lid is measured closing less than the other (Human’s mesh on cap12: 0.61 and 0.48 of open)', () => {
    const uneven = head(0.22)
    const lid = (upper: number, lower: number, x: number, share: number) => {
      uneven[upper] = [x, -0.3 - (0.22 * share * 0.6) / 2, uneven[upper]![2]]
      uneven[lower] = [x, -0.3 + (0.22 * share * 0.6) / 2, uneven[lower]![2]]
    }
    lid(MESH.lidUpperLeft, MESH.lidLowerLeft, -0.6, 0.61)
    lid(MESH.lidUpperRight, MESH.lidLowerRight, 0.6, 0.48)
    expect(judgeStep('blink', [look(head(0.22)), look(uneven), look(head(0.22))]).passed).toBe(true)
  })

  it('refuses a still face with noise, a half-closing and one eye alone', () => {
    expect(judgeStep('blink', [frame(0.22), frame(0.22, {}, 2), frame(0.22, {}, 3), frame(0.22, {}, 4)]).passed).toBe(false)
    expect(judgeStep('blink', [frame(0.22), frame(0.22 * BLINK_CLOSED_RATIO * 1.2, {}, 2), frame(0.22, {}, 3)]).passed).toBe(false)
    const wink = head(0.22)
    const closedLeft = head(0.22)
    for (const i of [MESH.lidUpperLeft, MESH.lidLowerLeft]) closedLeft[i] = [-0.6, -0.3, closedLeft[i]![2]]
    expect(judgeStep('blink', [look(wink), look(closedLeft), look(wink)]).passed).toBe(false)
  })

  it('refuses a photo tilted back and forth (its eyes narrow only as much as the whole face)', () => {
    const photo = flat(head(0.22))
    const meshes = [look(photo, {}, 0), look(photo, { pitch: 55 }, 0), look(photo, { pitch: 60, scale: 0.9 }, 0), look(photo, {}, 0)]
    expect(frameSignals(meshes[2]!).openness).toBeLessThan(0.22 * 0.6) // the eye itself does look narrower
    expect(judgeStep('blink', meshes).passed).toBe(false)
  })
})

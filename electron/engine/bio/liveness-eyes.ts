import { applyHomography, fitHomography, type P2 } from '../../shared/homography'
import { frameSignals, MESH, PLANAR_FIT_POINTS, type Mesh, type StepVerdict } from '../../shared/liveness-motion'
import { ncc, sample, type Gray } from './liveness-depth'

/**
 * Whether a blink the face mesh saw is in the pixels too. The mesh's lids are a learned guess; the
 * eyes themselves are not: when the lids close, the eye's dark iris and white vanish under skin, and
 * they come back. Each eye is sampled on a grid laid out from its corners (which a blink does not
 * move) in the frame where the mesh saw the eyes most closed, carried into every other frame of the
 * step by the face's plane (so a photo moved or tilted as a whole looks the same), and compared by
 * correlation. A blink must look unlike the closed eyes both before and after it.
 *
 * What it does not stop: skin-coloured flaps dropped over a print's eyes change the pixels as lids do.
 */

/** The closed eyes alike the open ones before at most this (mean correlation of both eyes): recorded blinks <= 0.68 (LIVENESS.md). */
export const EYES_CLOSED_ALIKE_MAX = 0.7
/** And alike at most this some frame after: looser, as the page ends a blink's frames while the eyes are still opening (recorded: <= 0.76). */
export const EYES_REOPENED_ALIKE_MAX = 0.8

const EYES: ReadonlyArray<readonly [number, number]> = [
  [MESH.eyeOuterLeft, MESH.eyeInnerLeft],
  [MESH.eyeInnerRight, MESH.eyeOuterRight],
]
const point = (mesh: Mesh, i: number): P2 => [mesh[i]![0] as number, mesh[i]![1] as number]

/** A 16×10 grid over an eye: 1.2 eye widths along it, 0.7 across, centred between its corners. */
function eyeGrid(mesh: Mesh, [a, b]: readonly [number, number]): P2[] {
  const [p, q] = [point(mesh, a), point(mesh, b)]
  const width = Math.hypot(q[0] - p[0], q[1] - p[1])
  const u: P2 = [(q[0] - p[0]) / width, (q[1] - p[1]) / width]
  const c: P2 = [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2]
  const grid: P2[] = []
  for (let i = 0; i < 16; i++) {
    for (let j = 0; j < 10; j++) {
      const s = (-0.6 + (1.2 * (i + 0.5)) / 16) * width
      const t = (-0.35 + (0.7 * (j + 0.5)) / 10) * width
      grid.push([c[0] + u[0] * s - u[1] * t, c[1] + u[1] * s + u[0] * t])
    }
  }
  return grid
}

/** How alike both eyes look in `a` and `b` (mean correlation, -1..1); the grid is laid on `a`'s eyes and carried by the face's plane. */
export function eyesAlike(a: Gray, meshA: Mesh, b: Gray, meshB: Mesh): number {
  const plane = fitHomography(
    PLANAR_FIT_POINTS.map((i) => point(meshA, i)),
    PLANAR_FIT_POINTS.map((i) => point(meshB, i)),
  )
  let sum = 0
  for (const eye of EYES) {
    const grid = eyeGrid(meshA, eye)
    const here = grid.map(([x, y]) => sample(a, x, y))
    const there = grid.map((p) => sample(b, ...applyHomography(plane, p)))
    // An eye off the image edge cannot be compared: it counts as unchanged.
    sum += here.some(Number.isNaN) || there.some(Number.isNaN) ? 1 : ncc(here, there)
  }
  return sum / EYES.length
}

/**
 * The step's frames (in order) and `closedAt`, where the mesh first saw the eyes closed. The closed
 * frame compared is the one the mesh saw most closed among it and the next three.
 */
export function blinkInPixels(images: readonly Gray[], meshes: readonly Mesh[], closedAt: number): StepVerdict {
  let closed = closedAt
  for (let i = closedAt + 1; i < Math.min(meshes.length, closedAt + 4); i++) if (frameSignals(meshes[i]!).openness < frameSignals(meshes[closed]!).openness) closed = i
  const alike = (i: number) => eyesAlike(images[closed]!, meshes[closed]!, images[i]!, meshes[i]!)
  const least = (from: number, to: number) => {
    let value = Infinity
    for (let i = from; i < to; i++) value = Math.min(value, alike(i))
    return value
  }
  const before = least(0, closed)
  const after = least(closed + 1, meshes.length)
  const fmt = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : 'none')
  const words = `the closed eyes' pixels alike ${fmt(before)} before (at most ${EYES_CLOSED_ALIKE_MAX}) and ${fmt(after)} after (at most ${EYES_REOPENED_ALIKE_MAX})`
  const vanished = before <= EYES_CLOSED_ALIKE_MAX
  const returned = after <= EYES_REOPENED_ALIKE_MAX
  if (vanished && returned) return { passed: true, frame: closed, detail: `the eyes' pixels changed with the lids (${words})` }
  const when = vanished ? 'after' : returned ? 'before' : 'before or after'
  return { passed: false, frame: closed, detail: `the lids moved in the face mesh but the eyes looked the same ${when} in the image (${words})` }
}

/**
 * Plane-to-plane maths for the motion checks: the least-squares homography between two point sets
 * (normalised DLT) and its application. Knows nothing of faces.
 */

export type P2 = readonly [number, number]

export type Homography = readonly number[] // 3×3, row-major

/** Hartley normalisation: centroid to 0, mean distance √2. Returns the 3×3 transform. */
function normaliser(points: readonly P2[]): number[] {
  let cx = 0
  let cy = 0
  for (const [x, y] of points) {
    cx += x
    cy += y
  }
  cx /= points.length
  cy /= points.length
  let d = 0
  for (const [x, y] of points) d += Math.hypot(x - cx, y - cy)
  const s = Math.SQRT2 / Math.max(1e-9, d / points.length)
  return [s, 0, -s * cx, 0, s, -s * cy, 0, 0, 1]
}

export const applyHomography = (h: Homography, [x, y]: P2): P2 => {
  const w = (h[6] as number) * x + (h[7] as number) * y + (h[8] as number)
  return [((h[0] as number) * x + (h[1] as number) * y + (h[2] as number)) / w, ((h[3] as number) * x + (h[4] as number) * y + (h[5] as number)) / w]
}

function multiply(a: readonly number[], b: readonly number[]): number[] {
  const out = new Array<number>(9).fill(0)
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) for (let k = 0; k < 3; k++) out[r * 3 + c]! += (a[r * 3 + k] as number) * (b[k * 3 + c] as number)
  return out
}

function invertSimilarity(t: readonly number[]): number[] {
  const s = t[0] as number
  return [1 / s, 0, -(t[2] as number) / s, 0, 1 / s, -(t[5] as number) / s, 0, 0, 1]
}

/** Eigenvector of the smallest eigenvalue of a symmetric matrix (cyclic Jacobi). */
function smallestEigenvector(m: number[][]): number[] {
  const n = m.length
  const a = m.map((row) => [...row])
  const v = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j): number => (i === j ? 1 : 0)))
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p]![q]! ** 2
    if (off < 1e-22) break
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p]![q]!
        if (Math.abs(apq) < 1e-300) continue
        const theta = (a[q]![q]! - a[p]![p]!) / (2 * apq)
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1))
        const c = 1 / Math.sqrt(t * t + 1)
        const s = t * c
        for (let k = 0; k < n; k++) {
          const akp = a[k]![p]!
          const akq = a[k]![q]!
          a[k]![p] = c * akp - s * akq
          a[k]![q] = s * akp + c * akq
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p]![k]!
          const aqk = a[q]![k]!
          a[p]![k] = c * apk - s * aqk
          a[q]![k] = s * apk + c * aqk
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k]![p]!
          const vkq = v[k]![q]!
          v[k]![p] = c * vkp - s * vkq
          v[k]![q] = s * vkp + c * vkq
        }
      }
    }
  }
  let best = 0
  for (let i = 1; i < n; i++) if (a[i]![i]! < a[best]![best]!) best = i
  return v.map((row) => row[best]!)
}

/** Least-squares homography mapping `from` onto `to` (normalised DLT). */
export function fitHomography(from: readonly P2[], to: readonly P2[]): Homography {
  const tf = normaliser(from)
  const tt = normaliser(to)
  const ata = Array.from({ length: 9 }, () => new Array<number>(9).fill(0))
  const addRow = (row: number[]) => {
    for (let i = 0; i < 9; i++) for (let j = i; j < 9; j++) ata[i]![j]! += row[i]! * row[j]!
  }
  for (let i = 0; i < from.length; i++) {
    const [x, y] = applyHomography(tf, from[i]!)
    const [u, v] = applyHomography(tt, to[i]!)
    addRow([-x, -y, -1, 0, 0, 0, u * x, u * y, u])
    addRow([0, 0, 0, -x, -y, -1, v * x, v * y, v])
  }
  for (let i = 0; i < 9; i++) for (let j = 0; j < i; j++) ata[i]![j] = ata[j]![i]!
  const h = smallestEigenvector(ata)
  return multiply(multiply(invertSimilarity(tt), h), tf)
}

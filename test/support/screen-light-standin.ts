import type { Mesh } from '../../electron/shared/liveness-motion'
import { LIGHT_RGB, type LightPeriod } from '../../electron/shared/liveness'

/**
 * The live stand-in for the screen-light check: a photo of a real face relit, frame by frame, by the
 * colour the screen shows, shaded over the face's 3-D mesh (the face model's own) as a screen in
 * front of it lights a head: the parts facing the screen take more of it. `flat` lights every pixel
 * alike instead, as a print or a phone held up to the kiosk would be.
 */

/** How much each point of the mesh faces the camera (and the screen beside it): the normal of the plane through its nearest points. */
function vertexShades(mesh: Mesh): number[] {
  const points = mesh.map((p) => [p[0]!, p[1]!, p[2] ?? 0] as const)
  return points.map((p) => {
    const near = points
      .map((q) => ({ q, d: (q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2 }))
      .sort((a, b) => a.d - b.d)
      .slice(0, 10)
      .map(({ q }) => q)
    // z = a·x + b·y + c by least squares over the neighbours.
    let sxx = 0, sxy = 0, syy = 0, sxz = 0, syz = 0
    for (const q of near) {
      const x = q[0] - p[0], y = q[1] - p[1], z = q[2] - p[2]
      sxx += x * x; sxy += x * y; syy += y * y; sxz += x * z; syz += y * z
    }
    const det = sxx * syy - sxy * sxy
    if (Math.abs(det) < 1e-9) return 1
    const a = (sxz * syy - syz * sxy) / det
    const b = (syz * sxx - sxz * sxy) / det
    return 1 / Math.sqrt(1 + a * a + b * b)
  })
}

/** Each pixel's shade (0 off the face): the nearest mesh point's, within the face's outline. */
export function shadeMap(mesh: Mesh, width: number, height: number): Float32Array {
  const shades = vertexShades(mesh)
  const map = new Float32Array(width * height)
  const xs = mesh.map((p) => p[0]!)
  const ys = mesh.map((p) => p[1]!)
  const [x0, x1, y0, y1] = [Math.max(0, Math.floor(Math.min(...xs))), Math.min(width - 1, Math.ceil(Math.max(...xs))), Math.max(0, Math.floor(Math.min(...ys))), Math.min(height - 1, Math.ceil(Math.max(...ys)))]
  const spacing = Math.hypot(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys)) / 25
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      let best = Infinity
      let shade = 0
      for (const [i, p] of mesh.entries()) {
        const d = (p[0]! - x) ** 2 + (p[1]! - y) ** 2
        if (d < best) {
          best = d
          shade = shades[i]!
        }
      }
      if (best <= spacing ** 2) map[y * width + x] = shade
    }
  }
  return map
}

/** When each colour went on screen, each on time from `startedAt` (ms, the page's clock). */
export function shownOnTime(light: readonly LightPeriod[], startedAt: number): number[] {
  let at = startedAt
  return light.map((period) => {
    const shown = at
    at += period.ms
    return shown
  })
}

/** The colour on screen `t` ms after the light began (null before or after it). */
export function colourAt(light: readonly LightPeriod[], t: number): readonly [number, number, number] | null {
  let start = 0
  for (const period of light) {
    if (t >= start && t < start + period.ms) return LIGHT_RGB[period.colour]
    start += period.ms
  }
  return null
}

/** The photo's RGB pixels lit by `colour` (0–255 sRGB) at `strength`, over the shade map (or evenly: `flat`). */
export function relight(rgb: Uint8Array, shade: Float32Array | 'flat', colour: readonly [number, number, number] | null, strength: number): Buffer {
  const out = Buffer.alloc(rgb.length)
  for (let i = 0, p = 0; i < rgb.length; i += 3, p++) {
    const s = colour === null ? 0 : strength * (shade === 'flat' ? 1 : shade[p]!)
    for (let c = 0; c < 3; c++) out[i + c] = Math.min(255, Math.round(rgb[i + c]! * (1 + (s * (colour?.[c] ?? 0)) / 255)))
  }
  return out
}

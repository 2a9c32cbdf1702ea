import sharp from 'sharp'
import { LIGHT_RGB, type LightColour, type LightPeriod } from '../../shared/liveness'
import { MESH, type Mesh, type StepVerdict } from '../../shared/liveness-motion'

/**
 * The screen-light check (see LIVENESS.md): the page lights the face with colours the services drew
 * for this attempt; the face's colour must follow them with a live reflection's timing, and unevenly
 * over the face, as over a head whose parts face the screen differently, not as over a flat sheet.
 *
 * Colour is read as chromaticity (log R/G and log B/G), which a camera's exposure changes leave
 * alone, in small discs on the face placed by the engine's own mesh.
 */

/* Thresholds: measured on the live stand-in (a photo relit over its own mesh) and flat photos relit alike; see LIVENESS.md. */
/** How much of the face's colour change the sequence must explain (R² of the fit), at the best delay. */
export const LIGHT_FOLLOW_MIN = 0.7
/** The smallest change of colour on the face that counts as the screen's light (log chromaticity, RMS over the frames). */
export const LIGHT_RESPONSE_MIN = 0.01
/** The latest a camera frame may show a colour after the page drew it (camera and display delay). */
export const LIGHT_DELAY_MAX_MS = 400
/** Frames this close to a change of colour (after the delay) are left out: the change may be half in them. */
const LIGHT_EDGE_MS = 50
/** How unevenly the parts of the face take the light: the spread of their gains over their mean, at least this. */
export const LIGHT_SHAPE_MIN = 0.12
/** Frames needed in the light, and colours among them, to judge at all. */
const LIGHT_MIN_FRAMES = 8
const LIGHT_MIN_COLOURS = 3

/**
 * Where the colour is read: forehead, the bridge between the brows, nose tip, both cheeks, chin,
 * and toward the face's sides both cheekbones and both lower cheeks (MediaPipe FaceMesh numbering).
 * A head turns these to the screen at different angles (its sides away); a sheet turns them all alike.
 */
export const LIGHT_POINTS = [151, 9, 4, 205, 425, 175, 123, 352, 187, 411] as const
/** Each disc's radius, as a share of the distance between the outer eye corners. */
const DISC_SHARE = 0.08

export type Rgb = readonly [number, number, number]

export interface RgbImage {
  data: Uint8Array
  width: number
  height: number
}

/** Upright RGB pixels at the size the mesh is measured in. */
export async function rgbOf(bytes: Uint8Array): Promise<RgbImage> {
  const { data, info } = await sharp(bytes, { failOn: 'error', autoOrient: true }).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height }
}

/** The mean colour in each of LIGHT_POINTS' discs (NaN for a disc off the picture). */
export function lightRegions(image: RgbImage, mesh: Mesh): Rgb[] {
  const at = (i: number) => mesh[i] as readonly number[]
  const radius = Math.max(2, DISC_SHARE * Math.hypot(at(MESH.eyeOuterRight)[0]! - at(MESH.eyeOuterLeft)[0]!, at(MESH.eyeOuterRight)[1]! - at(MESH.eyeOuterLeft)[1]!))
  return LIGHT_POINTS.map((point) => {
    const [cx, cy] = at(point) as [number, number]
    let [red, green, blue, n] = [0, 0, 0, 0]
    for (let y = Math.ceil(cy - radius); y <= cy + radius; y++) {
      for (let x = Math.ceil(cx - radius); x <= cx + radius; x++) {
        if (x < 0 || y < 0 || x >= image.width || y >= image.height || (x - cx) ** 2 + (y - cy) ** 2 > radius ** 2) continue
        const o = (y * image.width + x) * 3
        red += image.data[o]!
        green += image.data[o + 1]!
        blue += image.data[o + 2]!
        n++
      }
    }
    return n === 0 ? [Number.NaN, Number.NaN, Number.NaN] : [red / n, green / n, blue / n]
  })
}

export interface LightSample {
  /** When the frame was taken (ms, the page's clock). */
  at: number
  regions: readonly Rgb[]
}

export interface LightMeasure {
  /** R² of the face's colour against the sequence, at the best delay. */
  fit: number
  /** The change of colour the sequence explains (log chromaticity, RMS). */
  response: number
  delayMs: number
  /** Spread of the parts' gains over their mean. */
  shape: number
  frames: number
}

const chroma = ([r, g, b]: Rgb): [number, number] => [Math.log((r + 1) / (g + 1)), Math.log((b + 1) / (g + 1))]

/**
 * The colour on screen at `t` (the page's clock), from when each went on screen until the next went
 * on (the last: for its drawn time). Null in the first or last LIGHT_EDGE_MS of a colour, or outside them.
 */
function colourAt(light: readonly LightPeriod[], shownAt: readonly number[], t: number): LightColour | null {
  for (const [i, period] of light.entries()) {
    const [start, end] = [shownAt[i]!, shownAt[i + 1] ?? shownAt[i]! + period.ms]
    if (t >= start && t < end) return t - start < LIGHT_EDGE_MS || end - t < LIGHT_EDGE_MS ? null : period.colour
  }
  return null
}

/** The direction a screen colour moves a face's chromaticity: towards its red and its blue against its green (linear, 0–1). */
const pull = (colour: LightColour): [number, number] => {
  const [r, g, b] = LIGHT_RGB[colour]
  return [(r - g) / 255, (b - g) / 255]
}

/**
 * The fit at one delay. Each part of the face must move, frame by frame, in the direction the
 * colour on screen pulls it, by a gain of its own (how much of the light it takes): the directions
 * are the screen's, never fitted to the frames, so frames lit by other colours cannot fit them.
 * Null when too few frames or colours fall inside the sequence at this delay.
 */
function fitAt(light: readonly LightPeriod[], shownAt: readonly number[], samples: readonly LightSample[], delayMs: number): LightMeasure | null {
  const used = samples.flatMap((sample) => {
    const colour = colourAt(light, shownAt, sample.at - delayMs)
    return colour === null ? [] : [{ colour, chroma: sample.regions.map(chroma) }]
  })
  if (used.length < LIGHT_MIN_FRAMES || new Set(used.map((u) => u.colour)).size < LIGHT_MIN_COLOURS) return null
  const parts = used[0]!.chroma.length
  const centred = <T extends readonly (readonly number[])[]>(rows: T) => {
    const mean = [0, 1].map((c) => rows.reduce((sum, row) => sum + row[c]!, 0) / rows.length)
    return rows.map((row) => [row[0]! - mean[0]!, row[1]! - mean[1]!] as const)
  }
  // The screen's pull and each part's colour, each from its own mean over the frames used (albedo and room light drop out).
  const x = centred(used.map((u) => pull(u.colour)))
  const d = Array.from({ length: parts }, (_, r) => centred(used.map((u) => u.chroma[r]!)))
  const xx = x.reduce((sum, v) => sum + v[0] ** 2 + v[1] ** 2, 0)
  const gains = d.map((rows) => rows.reduce((sum, v, i) => sum + v[0] * x[i]![0] + v[1] * x[i]![1], 0) / xx)
  let residual = 0
  let total = 0
  let explained = 0
  for (let r = 0; r < parts; r++) {
    for (const [i, v] of d[r]!.entries()) {
      for (const c of [0, 1] as const) {
        const predicted = gains[r]! * x[i]![c]
        residual += (v[c] - predicted) ** 2
        total += v[c] ** 2
        explained += predicted ** 2
      }
    }
  }
  const meanGain = gains.reduce((sum, g) => sum + g, 0) / parts
  const spread = Math.sqrt(gains.reduce((sum, g) => sum + (g - meanGain) ** 2, 0) / parts)
  return {
    // A face that moves against the light's pull is not lit by it, however well that fits.
    fit: total === 0 || meanGain <= 0 ? 0 : 1 - residual / total,
    response: Math.sqrt(explained / (used.length * parts * 2)),
    delayMs,
    shape: meanGain <= 0 ? 0 : spread / meanGain,
    frames: used.length,
  }
}

const refused = (check: string, words: string): StepVerdict => ({ passed: false, detail: `${check}: ${words}` })

/**
 * The screen-light decision from the face's colours, frame by frame, against when the page says each
 * colour went on screen (`shownAt`, the page's clock, as the frames' times); the refusal names the
 * measure and its margin.
 */
export function judgeScreenLight(light: readonly LightPeriod[], shownAt: readonly number[] | undefined, samples: readonly LightSample[]): StepVerdict & { measure: LightMeasure | null } {
  const fail = (verdict: StepVerdict, measure: LightMeasure | null = null) => ({ ...verdict, measure })
  if (light.length === 0) return fail(refused('frames', 'no colours were drawn for this attempt'))
  if (shownAt?.length !== light.length) return fail(refused('frames', `the page did not say when the screen showed its colours (${shownAt?.length ?? 0} of ${light.length})`))
  if (shownAt.some((at, i) => i > 0 && at <= shownAt[i - 1]!)) return fail(refused('frames', 'the times the screen showed its colours are out of order'))
  const complete = samples.filter((sample) => sample.regions.every((rgb) => rgb.every(Number.isFinite)))
  let best: LightMeasure | null = null
  for (let delay = 0; delay <= LIGHT_DELAY_MAX_MS; delay += 10) {
    const measure = fitAt(light, shownAt, complete, delay)
    if (measure && (!best || measure.fit > best.fit)) best = measure
  }
  if (!best) return fail(refused('frames', `too few frames of the face in the screen's light (${complete.length}; needs ${LIGHT_MIN_FRAMES} over ${LIGHT_MIN_COLOURS} colours)`))
  const at = `at a delay of ${best.delayMs} ms, at most ${LIGHT_DELAY_MAX_MS}`
  if (best.fit < LIGHT_FOLLOW_MIN) return fail(refused('screen light', `the face's colour did not follow the screen's colours (fit ${best.fit.toFixed(2)} ${at}, needs ${LIGHT_FOLLOW_MIN})`), best)
  if (best.response < LIGHT_RESPONSE_MIN) return fail(refused('screen light', `the face took too little of the screen's light (a change of ${best.response.toFixed(4)}, needs ${LIGHT_RESPONSE_MIN})`), best)
  if (best.shape < LIGHT_SHAPE_MIN) {
    return fail(refused('light over the face', `the face took the light evenly, like a flat picture, not a head (spread ${best.shape.toFixed(3)}, needs ${LIGHT_SHAPE_MIN})`), best)
  }
  return { passed: true, detail: `the face followed the screen's colours (fit ${best.fit.toFixed(2)} ${at}; spread ${best.shape.toFixed(3)})`, measure: best }
}

import type { LivenessCode, LivenessEvaluateRecord, LivenessEvaluateRequest } from '../../shared/liveness'
import { judgeTiming, judgeTurnContinuity } from '../../shared/liveness-continuity'
import { judgeStep, type Mesh, type StepVerdict } from '../../shared/liveness-motion'
import { imagePixels } from '../face/image-pixels'
import { FaceImageError, type DetectedFace, type FacePlugin, type LivenessFace } from '../face/types'
import { BioErrorCode, BioInputError } from './error-codes'
import { blinkInPixels } from './liveness-eyes'
import { judgeScreenLight, lightRegions, rgbOf, type LightSample } from './liveness-light'
import { grayOf, IMAGE_DEPTH_MIN, imageDepth, median, NOSE_BEND_MIN_SHARE, NOSE_RELIEF_MIN_SHARE, SURFACE_FIT_MAX, type DepthMeasure } from './liveness-depth'
import { REQUEST_MAX_IN_FLIGHT, REQUEST_MAX_PIXELS, RequestBudget } from './request-budget'
import { checkSample, decodeBase64 } from './samples'
import { dot } from './template-codec'

/**
 * The embedded engine's liveness decision (POST /bioengine/liveness). Every landmark and score is
 * recomputed here from the burst's images; nothing the page measured is trusted.
 */

/* Passive thresholds, measured on Human's antispoof / liveness models (see LIVENESS.md). */
/** Median anti-spoofing score: recorded faces score 0.68–0.77 (p5–p95), still photos 0.32–0.84: it stops about half of them. */
export const PASSIVE_REAL_MIN = 0.6
/** Median liveness score: still photos score ~1.0 and a real face as low as 0.29, so it only refuses the clearly lifeless. */
export const PASSIVE_LIVE_MIN = 0.2

/**
 * A burst is up to MAX_EVIDENCE_FRAMES frames and 10 samples, and its first one loads the liveness models in each
 * worker: its images may wait longer to start than a verify's. The same in-flight share per request.
 */
const LIVENESS_MAX_MS = 30_000

/** A second face at least this share of the largest one's area counts as a second face in the frame. */
const SECOND_FACE_AREA_RATIO = 0.25

type Check = LivenessEvaluateRecord['checks'][number]

export async function evaluateLiveness(plugin: FacePlugin, request: LivenessEvaluateRequest, caller: string): Promise<LivenessEvaluateRecord> {
  const analyzeLiveness = plugin.analyzeLiveness
  if (!analyzeLiveness) throw new Error(`${plugin.name} has no liveness models`)
  const budget = new RequestBudget(caller, { maxInFlight: REQUEST_MAX_IN_FLIGHT, maxPixels: REQUEST_MAX_PIXELS, maxMs: LIVENESS_MAX_MS })
  const read = (value: string, what: string) => {
    const bytes = decodeBase64(value, what)
    checkSample(bytes, what)
    return bytes
  }
  const frameBytes = request.frames.map((frame, i) => read(frame.image, `Frame ${i + 1}`))
  const referenceBytes = request.references.map((image, i) => read(image, `Reference ${i + 1}`))
  const run = <T>(bytes: Buffer, what: string, task: () => Promise<T>) =>
    budget.run(imagePixels(bytes), task).catch((error: unknown) => {
      if (error instanceof FaceImageError) throw new BioInputError(BioErrorCode.BAD_IMAGE, `${what} could not be decoded: ${error.message}`)
      throw error
    })
  const [frames, references] = await Promise.all([
    budget.all(frameBytes.map((bytes, i) => run(bytes, `Frame ${i + 1}`, () => analyzeLiveness(bytes, caller)))),
    budget.all(referenceBytes.map((bytes, i) => run(bytes, `Reference ${i + 1}`, () => plugin.analyze(bytes, caller)))),
  ])

  const same = sameFace(plugin, frames, references.map((faces) => faces[0]).filter((face): face is DetectedFace => face !== undefined))
  const checks = await Promise.all(request.checks.map((code) => runCheck(code, request, frames, frameBytes)))
  const passed = same.passed && checks.every((check) => check.passed)
  const failing = [...checks.filter((check) => !check.passed).map((check) => check.detail), ...(same.passed ? [] : [same.detail])]
  return { passed, checks, sameFace: same.passed, detail: passed ? 'Liveness passed.' : `Liveness not shown: ${failing.join('; ')}.` }
}

/** The one face of a frame, or null when it shows none or more than one. */
function onlyFace(faces: LivenessFace[]): LivenessFace | null {
  const [largest, second] = faces
  if (!largest) return null
  const area = (face: DetectedFace) => face.box.width * face.box.height
  if (second && area(second) >= SECOND_FACE_AREA_RATIO * area(largest)) return null
  return largest
}

function sameFace(plugin: FacePlugin, frames: LivenessFace[][], references: DetectedFace[]): StepVerdict {
  if (references.length === 0) return { passed: false, detail: 'no face was found in the samples' }
  for (const [i, faces] of frames.entries()) {
    const face = onlyFace(faces)
    if (!face) return { passed: false, detail: `frame ${i + 1} of the burst shows ${faces.length === 0 ? 'no face' : `${faces.length} faces`}` }
    let best = -1
    for (const reference of references) best = Math.max(best, dot(face.embedding, reference.embedding))
    const score = plugin.score(best)
    if (score < plugin.scoreThreshold) {
      return { passed: false, detail: `frame ${i + 1} of the burst is not the face of the samples (score ${Math.round(score)}, needs ${plugin.scoreThreshold})` }
    }
  }
  return { passed: true, detail: 'every frame shows the face of the samples' }
}

async function runCheck(code: LivenessCode, request: LivenessEvaluateRequest, frames: LivenessFace[][], images: Buffer[]): Promise<Check> {
  const verdict = await (async () => {
    switch (code) {
      case 'active-challenge':
        return activeChallenge(request, frames, images)
      case 'screen-light':
        return screenLight(request, frames, images)
      case 'passive-pad':
        return passivePad(unlit(request, frames))
    }
  })()
  return { code, passed: verdict.passed, detail: verdict.detail }
}

/** The frames taken out of the screen's colours (all of them when every one was in it): the passive models were trained on faces in ordinary light. */
function unlit(request: LivenessEvaluateRequest, frames: LivenessFace[][]): LivenessFace[][] {
  const out = frames.filter((_, i) => request.frames[i]?.step !== 'light')
  return out.length > 0 ? out : frames
}

/** The screen-light check on the 'light' frames (liveness-light.ts): each frame's face colours, then the decision. */
async function screenLight(request: LivenessEvaluateRequest, frames: LivenessFace[][], images: Buffer[]): Promise<StepVerdict> {
  const indices = request.frames.flatMap((frame, i) => (frame.step === 'light' ? [i] : []))
  const samples: LightSample[] = []
  for (const i of indices) {
    const face = onlyFace(frames[i] ?? [])
    if (!face) return refused('frames', `a frame in the screen's light does not show exactly one face`)
    samples.push({ at: request.frames[i]!.at, regions: lightRegions(await rgbOf(images[i]!), face.mesh) })
  }
  const verdict = judgeScreenLight(request.light, request.lightShownAt, samples)
  return { passed: verdict.passed, detail: verdict.detail }
}

const stepWords = { blink: 'blink', 'turn-left': 'head turn to the left', 'turn-right': 'head turn to the right' } as const
type TurnStep = 'turn-left' | 'turn-right'
const sideOf = { 'turn-left': 'left', 'turn-right': 'right' } as const

/**
 * The measurements the active challenge is decided by, as the audit names them: a refusal says
 * which one decided it, so whoever reads the audit knows what the camera showed.
 */
const CHALLENGE_CHECKS = {
  frames: 'frames',
  motion: 'face motion',
  continuity: 'continuity',
  depth: 'image depth',
  eyes: 'eye pixels',
  tracking: 'surface tracking',
  passive: 'passive models',
} as const
const refused = (check: keyof typeof CHALLENGE_CHECKS, words: string): StepVerdict => ({ passed: false, detail: `${CHALLENGE_CHECKS[check]}: ${words}` })

/** A turn's pixels against a head's: refused by the tracking when the face's surface was not followed, by the depth when it was and stayed flat. */
export function turnDepthRefusal(step: TurnStep, measured: DepthMeasure): StepVerdict | null {
  const side = sideOf[step]
  if (measured.surface > SURFACE_FIT_MAX) {
    return refused(
      'tracking',
      `the face's surface could not be followed from the start of the turn to the ${side} to its peak (its points ${measured.surface.toFixed(3)} of the eye distance off the plane found, at most ${SURFACE_FIT_MAX})`,
    )
  }
  if (measured.depth < IMAGE_DEPTH_MIN) {
    return refused('depth', `the face turned to the ${side} like a flat picture, not a head (nose ${measured.depth.toFixed(3)} of the eye distance off the face's plane, needs ${IMAGE_DEPTH_MIN})`)
  }
  return null
}

/**
 * The challenge's turns together against a bent sheet. Bent top to bottom: the nose's move apart
 * from the cheeks, as a share of its depth. Bent side to side or across: the share of the nose's
 * move that stands out of the sheet's curve through the points around it. Each is averaged over
 * the turns: one turn of a real head can measure low where a bent sheet measures low in both (LIVENESS.md).
 */
export function bentSheetRefusal(turns: ReadonlyArray<{ step: TurnStep; measured: DepthMeasure }>): StepVerdict | null {
  if (turns.length === 0) return null
  const mean = (share: (measured: DepthMeasure) => number) => turns.reduce((sum, { measured }) => sum + share(measured), 0) / turns.length
  const sides = turns.map(({ step }) => sideOf[step]).join(' and ')
  const relief = mean((measured) => measured.relief / measured.depth)
  if (relief < NOSE_RELIEF_MIN_SHARE) {
    return refused(
      'depth',
      `the face turned to the ${sides} like a sheet bent top to bottom, not a head (the nose moved with the cheeks beside it: apart by ${relief.toFixed(2)} of its depth, needs ${NOSE_RELIEF_MIN_SHARE})`,
    )
  }
  // A turn whose tracking went astray can measure far outside 0..1 either way: it weighs no more than none or all.
  const bend = mean((measured) => Math.min(1, Math.max(0, measured.bend)))
  if (bend < NOSE_BEND_MIN_SHARE) {
    return refused(
      'depth',
      `the face turned to the ${sides} like a sheet bent side to side, not a head (the nose moved on the curve of the points around it: ${bend.toFixed(2)} of its move stood out, needs ${NOSE_BEND_MIN_SHARE})`,
    )
  }
  return null
}

async function activeChallenge(request: LivenessEvaluateRequest, frames: LivenessFace[][], images: Buffer[]): Promise<StepVerdict> {
  if (request.steps.length === 0) return refused('frames', 'the challenge had no steps')
  const done: string[] = []
  const turns: Array<{ step: TurnStep; measured: DepthMeasure }> = []
  for (const step of request.steps) {
    const indices = request.frames.flatMap((frame, i) => (frame.step === step ? [i] : []))
    const meshes = indices.map((i) => onlyFace(frames[i] ?? [])?.mesh ?? null)
    if (meshes.length === 0) return refused('frames', `no frames were sent for the ${stepWords[step]}`)
    if (meshes.some((mesh) => mesh === null)) return refused('frames', `a frame of the ${stepWords[step]} does not show exactly one face`)
    const verdict = judgeStep(step, meshes as Mesh[])
    if (!verdict.passed) return refused('motion', verdict.detail)
    if (step === 'blink') {
      // The mesh's lids are a learned guess: the eyes' own pixels must vanish and come back.
      const eyes = blinkInPixels(await Promise.all(indices.map((i) => grayOf(images[i]!))), meshes as Mesh[], verdict.frame ?? 1)
      if (!eyes.passed) return refused('eyes', eyes.detail)
    } else {
      // The mesh is a learned 3-D face and looks turned on a tilted photo too: the pixels decide.
      const peak = verdict.frame ?? meshes.length - 1
      const [start, end] = await Promise.all([grayOf(images[indices[0]!]!), grayOf(images[indices[peak]!]!)])
      const measured = imageDepth(start, meshes[0]!, end, meshes[peak]!)
      const depthRefusal = turnDepthRefusal(step, measured)
      if (depthRefusal) return depthRefusal
      turns.push({ step, measured })
    }
    // Two real views of a head show depth too: the step's frames must be one motion, seen frame by frame.
    const timed = indices.map((i, k) => ({ at: request.frames[i]!.at, mesh: meshes[k]! }))
    const continuous = step === 'blink' ? judgeTiming(timed, stepWords[step]) : judgeTurnContinuity(step, timed)
    if (!continuous.passed) return refused('continuity', continuous.detail)
    done.push(verdict.detail)
  }
  const bent = bentSheetRefusal(turns)
  if (bent) return bent
  // A second opinion the motion cannot talk round: the same models as passive-pad, on the burst.
  const passive = passivePad(unlit(request, frames))
  if (!passive.passed) return refused('passive', passive.detail)
  return { passed: true, detail: `${done.join('; ')}; ${passive.detail}` }
}

function passivePad(frames: LivenessFace[][]): StepVerdict {
  const faces = frames.map(onlyFace).filter((face): face is LivenessFace => face !== null)
  if (faces.length === 0) return { passed: false, detail: 'no frame showed a face to score' }
  const real = median(faces.map((face) => face.real))
  const live = median(faces.map((face) => face.live))
  const scores = `real-face score ${real.toFixed(2)} (needs ${PASSIVE_REAL_MIN}), live score ${live.toFixed(2)} (needs ${PASSIVE_LIVE_MIN})`
  if (real >= PASSIVE_REAL_MIN && live >= PASSIVE_LIVE_MIN) return { passed: true, detail: `the camera frames look like a real face: ${scores}` }
  return { passed: false, detail: `the camera frames look like a photo or a screen: ${scores}` }
}

import type { LivenessCode, LivenessEvaluateRecord, LivenessEvaluateRequest } from '../../shared/liveness'
import { judgeStep, type StepVerdict } from '../../shared/liveness-motion'
import { imagePixels } from '../face/image-pixels'
import { FaceImageError, type DetectedFace, type FacePlugin, type LivenessFace } from '../face/types'
import { BioErrorCode, BioInputError } from './error-codes'
import { RequestBudget } from './request-budget'
import { checkSample, decodeBase64 } from './samples'
import { dot } from './template-codec'

/**
 * The embedded engine's liveness decision (POST /bioengine/liveness). Every landmark and score is
 * recomputed here from the burst's images; nothing the page measured is trusted.
 */

/* Passive thresholds, measured on Human's antispoof / liveness models (see face/CALIBRATION.md). */
/** Median anti-spoofing score over the frames: recorded faces score 0.7+, prints of the demo photos score lower. */
export const PASSIVE_REAL_MIN = 0.5
/** Median liveness score over the frames. */
export const PASSIVE_LIVE_MIN = 0.5

/** A second face at least this share of the largest one's area counts as a second face in the frame. */
const SECOND_FACE_AREA_RATIO = 0.25

type Check = LivenessEvaluateRecord['checks'][number]

export async function evaluateLiveness(plugin: FacePlugin, request: LivenessEvaluateRequest, caller: string): Promise<LivenessEvaluateRecord> {
  const analyzeLiveness = plugin.analyzeLiveness
  if (!analyzeLiveness) throw new Error(`${plugin.name} has no liveness models`)
  const budget = new RequestBudget(caller)
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
  const checks = request.checks.map((code) => runCheck(code, request, frames))
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

function runCheck(code: LivenessCode, request: LivenessEvaluateRequest, frames: LivenessFace[][]): Check {
  const verdict = code === 'active-challenge' ? activeChallenge(request, frames) : passivePad(frames)
  return { code, ...verdict }
}

const stepWords = { blink: 'blink', 'turn-left': 'head turn to the left', 'turn-right': 'head turn to the right' } as const

function activeChallenge(request: LivenessEvaluateRequest, frames: LivenessFace[][]): StepVerdict {
  if (request.steps.length === 0) return { passed: false, detail: 'the challenge had no steps' }
  const done: string[] = []
  for (const step of request.steps) {
    const meshes = request.frames.flatMap((frame, i) => (frame.step === step ? [onlyFace(frames[i] ?? [])?.mesh ?? null] : []))
    if (meshes.length === 0) return { passed: false, detail: `no frames were sent for the ${stepWords[step]}` }
    if (meshes.some((mesh) => mesh === null)) return { passed: false, detail: `a frame of the ${stepWords[step]} does not show exactly one face` }
    const verdict = judgeStep(step, meshes as number[][][])
    if (!verdict.passed) return { passed: false, detail: verdict.detail }
    done.push(verdict.detail)
  }
  return { passed: true, detail: done.join('; ') }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
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

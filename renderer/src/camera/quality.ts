/**
 * Per-frame quality checks for guided capture, as pure functions: plain numbers and ImageData-like
 * objects in, verdicts out. No DOM, so they run (and are unit-tested) in Node as well.
 * Coordinates are pixels of the camera frame as captured (not mirrored); angles are degrees. Why
 * each threshold is what it is, with the measurements behind it: README.md beside this file.
 */

import type { Mesh } from '@shared/liveness-motion'

export interface Point {
  x: number
  y: number
}

export interface Box {
  x: number
  y: number
  width: number
  height: number
}

export interface Pose {
  yaw: number
  pitch: number
  roll: number
}

/** One detected face in frame pixels; eyes and pose when the landmark model ran. */
export interface FaceObservation {
  box: Box
  /** Detector confidence 0..1. */
  score: number
  leftEye?: Point | undefined
  rightEye?: Point | undefined
  /** The 468-point face mesh in the same pixels ([x, y, z] each), when the mesh model ran: the liveness challenge follows it. */
  mesh?: Mesh | undefined
  /** Degrees. */
  pose?: Pose | undefined
}

export interface FrameSize {
  width: number
  height: number
}

/** RGBA pixels, as a canvas ImageData has them. */
export interface ImageLike {
  data: ArrayLike<number>
  width: number
  height: number
}

export type CheckId = 'face-count' | 'face-size' | 'centring' | 'pose' | 'motion' | 'brightness' | 'sharpness'

export interface Verdict {
  check: CheckId
  ok: boolean
  /** What the visitor should do; null when the check passes. */
  guidance: GuidanceKey | null
  /** 0..1: 1 is ideal, about 0.5 at the pass/fail limit, 0 far off. */
  score: number
}

/** For a walk-up kiosk, not a passport studio: why each is what it is, in README.md beside this file. */
export const THRESHOLDS = {
  minEyeDistancePx: 60,
  goodEyeDistancePx: 90,
  maxFaceWidthShare: 0.6,
  maxFaceHeightShare: 0.85,
  maxOffCentreX: 0.15,
  maxOffCentreY: 0.2,
  maxYawDeg: 20,
  maxPitchDeg: 20,
  maxRollDeg: 25,
  /** Movement of the face centre per 100 ms, as a share of the inter-eye distance. */
  maxMotionPer100ms: 0.25,
  minSharpness: 20,
  minBrightness: 60,
  maxBrightness: 200,
  /** Whole frame darker than this with no face found: ask for light rather than for a face. */
  darkFrame: 40,
} as const

/** The inner face crop is resampled to this width before sharpness and brightness are measured. */
export const CROP_WIDTH = 96

/** What a failed check asks of the person: keys of the visitor catalogue (the loop shows them in the visitor's language). */
export const GUIDANCE = {
  noFace: 'guidance.noFace',
  tooDark: 'guidance.tooDark',
  manyFaces: 'guidance.manyFaces',
  tooFar: 'guidance.tooFar',
  tooClose: 'guidance.tooClose',
  offCentre: 'guidance.offCentre',
  yaw: 'guidance.yaw',
  pitch: 'guidance.pitch',
  roll: 'guidance.roll',
  moving: 'guidance.moving',
  blurred: 'guidance.blurred',
  dark: 'guidance.dark',
  bright: 'guidance.bright',
} as const
export type GuidanceKey = (typeof GUIDANCE)[keyof typeof GUIDANCE]

const clamp01 = (value: number) => Math.min(1, Math.max(0, value))
/** 1 at zero, 0.5 at the limit, 0 at twice the limit. */
const withinScore = (value: number, limit: number) => clamp01(1 - Math.abs(value) / (2 * limit))

const pass = (check: CheckId, score: number): Verdict => ({ check, ok: true, guidance: null, score: clamp01(score) })
const fail = (check: CheckId, guidance: GuidanceKey, score: number): Verdict => ({ check, ok: false, guidance, score: clamp01(score) })

export function checkFaceCount(count: number, frameLuma?: number): Verdict {
  if (count === 1) return pass('face-count', 1)
  if (count === 0) return fail('face-count', frameLuma !== undefined && frameLuma < THRESHOLDS.darkFrame ? GUIDANCE.tooDark : GUIDANCE.noFace, 0)
  return fail('face-count', GUIDANCE.manyFaces, 0)
}

/** Eye centre to eye centre, in frame pixels; estimated from the box when there are no eye landmarks. */
export function eyeDistance(face: FaceObservation): number {
  if (face.leftEye && face.rightEye) return Math.hypot(face.leftEye.x - face.rightEye.x, face.leftEye.y - face.rightEye.y)
  // Without landmarks: the eyes are about 0.4 of a face box's width apart (Human's box, measured).
  return face.box.width * 0.4
}

/**
 * @param outputScale how the frame is scaled for sending (fitWithinLimits' scale, <= 1): the inter-eye
 *   distance that matters is the one in the photo the server gets.
 */
export function checkFaceSize(face: FaceObservation, frame: FrameSize, outputScale = 1): Verdict {
  const eyes = eyeDistance(face) * outputScale
  if (eyes < THRESHOLDS.minEyeDistancePx) return fail('face-size', GUIDANCE.tooFar, (0.5 * eyes) / THRESHOLDS.minEyeDistancePx)
  const widthShare = face.box.width / frame.width
  const heightShare = face.box.height / frame.height
  if (widthShare > THRESHOLDS.maxFaceWidthShare || heightShare > THRESHOLDS.maxFaceHeightShare) {
    const over = Math.max(widthShare / THRESHOLDS.maxFaceWidthShare, heightShare / THRESHOLDS.maxFaceHeightShare)
    return fail('face-size', GUIDANCE.tooClose, 0.5 / over)
  }
  const range = THRESHOLDS.goodEyeDistancePx - THRESHOLDS.minEyeDistancePx
  return pass('face-size', 0.5 + 0.5 * clamp01((eyes - THRESHOLDS.minEyeDistancePx) / range))
}

/** Face box centre's offset from the frame centre, as shares of the frame (-0.5..0.5). */
export function centreOffset(face: FaceObservation, frame: FrameSize): { dx: number; dy: number } {
  return { dx: (face.box.x + face.box.width / 2) / frame.width - 0.5, dy: (face.box.y + face.box.height / 2) / frame.height - 0.5 }
}

export function checkCentring(face: FaceObservation, frame: FrameSize): Verdict {
  const { dx, dy } = centreOffset(face, frame)
  const score = Math.min(withinScore(dx, THRESHOLDS.maxOffCentreX), withinScore(dy, THRESHOLDS.maxOffCentreY))
  if (Math.abs(dx) > THRESHOLDS.maxOffCentreX || Math.abs(dy) > THRESHOLDS.maxOffCentreY) return fail('centring', GUIDANCE.offCentre, score)
  return pass('centring', score)
}

/** Passes when the landmark model gave no pose (manual fallback, or a detector without a mesh). */
export function checkPose(pose: Pose | undefined): Verdict {
  if (!pose) return pass('pose', 0.5)
  const yaw = withinScore(pose.yaw, THRESHOLDS.maxYawDeg)
  const pitch = withinScore(pose.pitch, THRESHOLDS.maxPitchDeg)
  const roll = withinScore(pose.roll, THRESHOLDS.maxRollDeg)
  const score = Math.min(yaw, pitch, roll)
  if (Math.abs(pose.yaw) > THRESHOLDS.maxYawDeg) return fail('pose', GUIDANCE.yaw, score)
  if (Math.abs(pose.pitch) > THRESHOLDS.maxPitchDeg) return fail('pose', GUIDANCE.pitch, score)
  if (Math.abs(pose.roll) > THRESHOLDS.maxRollDeg) return fail('pose', GUIDANCE.roll, score)
  return pass('pose', score)
}

/**
 * How much the face moved since the previous frame, per 100 ms, as a share of its inter-eye distance.
 * Passes on the first frame (no previous face) or when the frames are too far apart to compare.
 */
export function checkMotion(face: FaceObservation, previous: FaceObservation | null | undefined, elapsedMs: number): Verdict {
  if (!previous || !(elapsedMs > 0) || elapsedMs > 1000) return pass('motion', 1)
  const centre = (f: FaceObservation) => ({ x: f.box.x + f.box.width / 2, y: f.box.y + f.box.height / 2 })
  const a = centre(face)
  const b = centre(previous)
  const moved = Math.hypot(a.x - b.x, a.y - b.y) / Math.max(1, eyeDistance(face))
  const rate = (moved * 100) / elapsedMs
  const score = withinScore(rate, THRESHOLDS.maxMotionPer100ms)
  return rate > THRESHOLDS.maxMotionPer100ms ? fail('motion', GUIDANCE.moving, score) : pass('motion', score)
}

export function checkBrightness(meanLuma: number): Verdict {
  // Best at mid-grey-ish skin (~130); 0.5 at either limit.
  const ideal = 130
  const score =
    meanLuma < ideal
      ? 0.5 + (0.5 * (meanLuma - THRESHOLDS.minBrightness)) / (ideal - THRESHOLDS.minBrightness)
      : 0.5 + (0.5 * (THRESHOLDS.maxBrightness - meanLuma)) / (THRESHOLDS.maxBrightness - ideal)
  if (meanLuma < THRESHOLDS.minBrightness) return fail('brightness', GUIDANCE.dark, score)
  if (meanLuma > THRESHOLDS.maxBrightness) return fail('brightness', GUIDANCE.bright, score)
  return pass('brightness', score)
}

export function checkSharpness(laplacianVar: number): Verdict {
  // 0.5 at the limit, 1 at four times the limit.
  const score = laplacianVar < THRESHOLDS.minSharpness ? (0.5 * laplacianVar) / THRESHOLDS.minSharpness : 0.5 + (0.5 * (laplacianVar - THRESHOLDS.minSharpness)) / (3 * THRESHOLDS.minSharpness)
  return laplacianVar < THRESHOLDS.minSharpness ? fail('sharpness', GUIDANCE.blurred, score) : pass('sharpness', score)
}

/** BT.601 luma of every pixel of an RGBA image. */
export function greyLevels(image: ImageLike): Float32Array {
  const { data, width, height } = image
  const grey = new Float32Array(width * height)
  for (let i = 0, p = 0; i < grey.length; i++, p += 4) grey[i] = 0.299 * data[p]! + 0.587 * data[p + 1]! + 0.114 * data[p + 2]!
  return grey
}

export function meanLuma(image: ImageLike): number {
  const grey = greyLevels(image)
  let sum = 0
  for (const value of grey) sum += value
  return grey.length ? sum / grey.length : 0
}

/** Variance of the 4-neighbour Laplacian over the image's grey levels (borders skipped): low means blurred. */
export function laplacianVariance(image: ImageLike): number {
  const { width, height } = image
  if (width < 3 || height < 3) return 0
  const grey = greyLevels(image)
  let sum = 0
  let sumSq = 0
  let n = 0
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1, i = y * width + 1; x < width - 1; x++, i++) {
      const lap = grey[i - 1]! + grey[i + 1]! + grey[i - width]! + grey[i + width]! - 4 * grey[i]!
      sum += lap
      sumSq += lap * lap
      n++
    }
  }
  const mean = sum / n
  return sumSq / n - mean * mean
}

/**
 * The inner part of a face box used for sharpness and brightness: the face without hair, ears and
 * background (whose edges would make a blurred face look sharp), clamped to the frame.
 */
export function innerFaceRegion(box: Box, frame: FrameSize): Box {
  const x0 = Math.max(0, box.x + box.width * 0.2)
  const y0 = Math.max(0, box.y + box.height * 0.2)
  const x1 = Math.min(frame.width, box.x + box.width * 0.8)
  const y1 = Math.min(frame.height, box.y + box.height * 0.85)
  return { x: x0, y: y0, width: Math.max(0, x1 - x0), height: Math.max(0, y1 - y0) }
}

export interface FrameInput {
  frame: FrameSize
  faces: FaceObservation[]
  /** The inner face crop (innerFaceRegion, resampled to CROP_WIDTH wide) of faces[0]. */
  crop?: ImageLike | null
  /** The same face in the previous frame, and the time between the two frames. */
  previous?: FaceObservation | null
  elapsedMs?: number
  /** Mean luma of the whole frame; only used to explain why no face was found. */
  frameLuma?: number
  /** fitWithinLimits' scale for this frame size. */
  outputScale?: number
}

export interface Assessment {
  ok: boolean
  /** Every check that ran, in order. */
  verdicts: Verdict[]
  /** The first failing check: the one the visitor is told about. */
  failing: Verdict | null
  /** 0..1, to pick the best frame and to report with the sample: the geometric mean of the scores. */
  quality: number
  /** Mean luma and Laplacian variance of the face crop, when there was one. */
  brightness?: number | undefined
  sharpness?: number | undefined
}

/** Runs the checks in the order a visitor can fix them: be there, alone, at the right distance, centred, facing, still, lit, sharp. */
export function assessFrame(input: FrameInput): Assessment {
  const verdicts: Verdict[] = [checkFaceCount(input.faces.length, input.frameLuma)]
  let brightness: number | undefined
  let sharpness: number | undefined
  const face = input.faces[0]
  if (input.faces.length === 1 && face) {
    verdicts.push(checkFaceSize(face, input.frame, input.outputScale ?? 1), checkCentring(face, input.frame), checkPose(face.pose))
    verdicts.push(checkMotion(face, input.previous, input.elapsedMs ?? 0))
    if (input.crop && input.crop.width >= 3 && input.crop.height >= 3) {
      brightness = meanLuma(input.crop)
      sharpness = laplacianVariance(input.crop)
      verdicts.push(checkBrightness(brightness), checkSharpness(sharpness))
    }
  }
  const failing = verdicts.find((v) => !v.ok) ?? null
  return { ok: failing === null, verdicts, failing, quality: combine(verdicts), brightness, sharpness }
}

/** Geometric mean: one bad aspect pulls the quality down more than an average would. */
export function combine(verdicts: Verdict[]): number {
  if (verdicts.length === 0) return 0
  let logSum = 0
  for (const v of verdicts) logSum += Math.log(Math.max(v.score, 1e-3))
  return clamp01(Math.exp(logSum / verdicts.length))
}

/**
 * Quality of a frame without face detection (the manual fallback): brightness and sharpness of the
 * centre of the frame, where the oval asks the face to be.
 */
export function assessWithoutDetection(centreCrop: ImageLike): Assessment {
  const brightness = meanLuma(centreCrop)
  const sharpness = laplacianVariance(centreCrop)
  const verdicts = [checkBrightness(brightness), checkSharpness(sharpness)]
  const failing = verdicts.find((v) => !v.ok) ?? null
  return { ok: failing === null, verdicts, failing, quality: combine(verdicts), brightness, sharpness }
}

import { detectImageFormat, readImageSize } from '../../shared/image-limits'
import { imagePixels } from '../face/image-pixels'
import { FaceImageError, type DetectedFace, type FacePlugin } from '../face/types'
import { BioErrorCode, BioInputError } from './error-codes'
import type { RequestBudget } from './request-budget'

/** Limits on enrollment/identify/verify samples (the reference gives numbers only for /match). */
export const SAMPLE_MAX_BYTES = 5 * 1024 * 1024
export const SAMPLE_MAX_SIDE = 4096
export const SAMPLE_MIN_SIDE = 48

/** A second face at least this fraction of the largest face's area makes the sample ambiguous. */
const SECOND_FACE_AREA_RATIO = 0.25

const base64Pattern = /^[A-Za-z0-9+/]*={0,2}$/

/** Strict base64 (Buffer.from silently skips junk, which would hide a broken client). */
export function decodeBase64(value: string, what: string): Buffer {
  const compact = value.replace(/\s+/g, '')
  if (compact.length === 0 || compact.length % 4 !== 0 || !base64Pattern.test(compact)) {
    throw new BioInputError(BioErrorCode.BAD_INPUT, `${what} is not valid base64.`)
  }
  return Buffer.from(compact, 'base64')
}

/** Checks a sample's bytes before any decoding: JPEG/PNG by content, sane size and dimensions. */
export function checkSample(bytes: Uint8Array, what: string): void {
  if (bytes.length > SAMPLE_MAX_BYTES) throw new BioInputError(BioErrorCode.BAD_IMAGE, `${what} is larger than ${SAMPLE_MAX_BYTES / 1024 / 1024} MB.`)
  const format = detectImageFormat(bytes)
  if (!format) throw new BioInputError(BioErrorCode.BAD_IMAGE, `${what} is not a JPEG or PNG image.`)
  const size = readImageSize(bytes, format)
  if (!size) throw new BioInputError(BioErrorCode.BAD_IMAGE, `${what} is a damaged ${format.toUpperCase()}: its size cannot be read.`)
  if (size.width > SAMPLE_MAX_SIDE || size.height > SAMPLE_MAX_SIDE || size.width < SAMPLE_MIN_SIDE || size.height < SAMPLE_MIN_SIDE) {
    throw new BioInputError(
      BioErrorCode.BAD_IMAGE,
      `${what} is ${size.width}×${size.height} px; each side must be ${SAMPLE_MIN_SIDE}–${SAMPLE_MAX_SIDE} px.`,
    )
  }
}

/**
 * The one face in an image, or a BioInputError saying why there is not exactly one. The image goes
 * to the plugin when the request's budget has room for it.
 */
export async function singleFace(plugin: FacePlugin, bytes: Uint8Array, what: string, budget: RequestBudget): Promise<DetectedFace> {
  let faces: DetectedFace[]
  try {
    faces = await budget.run(imagePixels(bytes), () => plugin.analyze(bytes, budget.caller))
  } catch (error) {
    if (error instanceof FaceImageError) throw new BioInputError(BioErrorCode.BAD_IMAGE, `${what} could not be decoded: ${error.message}`)
    throw error
  }
  const [largest, second] = faces
  if (!largest) throw new BioInputError(BioErrorCode.NO_FACE, `No face was found in ${what}.`)
  const area = (f: DetectedFace) => f.box.width * f.box.height
  if (second && area(second) >= SECOND_FACE_AREA_RATIO * area(largest)) {
    throw new BioInputError(BioErrorCode.MULTIPLE_FACES, `${what} shows ${faces.length} faces; it must show exactly one.`)
  }
  return largest
}

/** A base64 sample → the single face in it. */
export async function faceFromSample(plugin: FacePlugin, sample: string, what: string, budget: RequestBudget): Promise<DetectedFace> {
  return (await sampleFace(plugin, sample, what, budget)).face
}

/** A base64 sample → the single face in it, with the image's bytes (a kept face crop is cut from them). */
export async function sampleFace(plugin: FacePlugin, sample: string, what: string, budget: RequestBudget): Promise<{ face: DetectedFace; bytes: Buffer }> {
  const bytes = decodeBase64(sample, what)
  checkSample(bytes, what)
  return { face: await singleFace(plugin, bytes, what, budget), bytes }
}

import { checkImage, detectImageFormat, fitWithinLimits, MATCH_IMAGE_LIMITS, readImageSize, type ImageFormat } from '@shared/image-limits'
import { encodeFrame, toBase64 } from './encode'

/** A photo ready to send: its base64 bytes, a preview, its size, and what was done to fit it. */
export interface FittedPhoto {
  base64: string
  /** A blob: URL for a photo kept as it was (the caller revokes it), a data: URL for one made to fit. */
  previewUrl: string
  width: number
  height: number
  /** Plain words on what changed ("Photo was 4000×3000, resized to 1024×768 to fit."), null when nothing did. */
  note: string | null
}

export type FitOutcome = ({ ok: true } & FittedPhoto) | { ok: false; reason: string }

/**
 * Makes a chosen photo fit the image limits (electron/shared/image-limits.ts) on the kiosk: a photo
 * within them is kept byte for byte; one too large in pixels or bytes (a phone's 4000×3000, 3–5 MB)
 * is decoded upright (its EXIF orientation applied) and re-encoded by encodeFrame, the camera's own
 * path: at most 1024 px per side, a JPEG under 2 MB. Refused, with the reason, is only what cannot
 * fit: not a JPEG or PNG, unreadable, or smaller than 150 px on a side.
 */
export async function fitPhoto(bytes: Uint8Array): Promise<FitOutcome> {
  const verdict = checkImage(bytes)
  if (verdict.ok) return { ok: true, base64: toBase64(bytes), previewUrl: blobUrl(bytes, verdict.format), width: verdict.width, height: verdict.height, note: null }

  const format = detectImageFormat(bytes)
  if (!format) return { ok: false, reason: bytes.length === 0 ? 'The file is empty.' : 'The file is not a JPEG or PNG image.' }
  const size = readImageSize(bytes, format)
  if (!size || size.width === 0 || size.height === 0) return { ok: false, reason: damaged(format) }
  const { minSide, maxSide } = MATCH_IMAGE_LIMITS
  if (size.width < minSide || size.height < minSide) {
    return { ok: false, reason: `The image is ${size.width}×${size.height} px; each side must be at least ${minSide} px. Choose a larger photo.` }
  }

  let bitmap: ImageBitmap
  try {
    bitmap = await createImageBitmap(new Blob([bytes as BlobPart], { type: `image/${format}` }), { imageOrientation: 'from-image' })
  } catch {
    return { ok: false, reason: damaged(format) }
  }
  try {
    const { width, height } = bitmap
    if (!fitWithinLimits(width, height)) {
      return { ok: false, reason: `The image is ${width}×${height} px: scaled to at most ${maxSide} px per side, it would be narrower than ${minSide} px. Choose a less elongated photo.` }
    }
    const fitted = await encodeFrame(bitmap, width, height)
    const resized = fitted.width !== width || fitted.height !== height
    const note = resized
      ? `Photo was ${width}×${height}, resized to ${fitted.width}×${fitted.height} to fit.`
      : `Photo was ${megabytes(bytes.length)}, saved again as a ${megabytes(fitted.bytes)} JPEG to fit the ${megabytes(MATCH_IMAGE_LIMITS.maxBytes)} limit.`
    return { ok: true, base64: fitted.base64, previewUrl: fitted.dataUrl, width: fitted.width, height: fitted.height, note }
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : 'The photo could not be made to fit the image limits.' }
  } finally {
    bitmap.close()
  }
}

function damaged(format: ImageFormat): string {
  return `The ${format.toUpperCase()} file could not be read; it may be damaged. Choose another photo.`
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}

function blobUrl(bytes: Uint8Array, format: ImageFormat): string {
  return URL.createObjectURL(new Blob([bytes as BlobPart], { type: `image/${format}` }))
}

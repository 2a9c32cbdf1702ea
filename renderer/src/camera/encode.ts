import { checkImage, fitWithinLimits, MATCH_IMAGE_LIMITS } from '@shared/image-limits'

export interface EncodedImage {
  /** JPEG, base64 without a data: prefix. */
  base64: string
  /** The same JPEG as a data: URL, for a thumbnail (the CSP allows data: images). */
  dataUrl: string
  width: number
  height: number
  bytes: number
}

/** JPEG qualities tried in turn: 0.9 keeps skin texture; lower only if a huge frame would exceed the byte limit. */
const QUALITIES = [0.9, 0.8, 0.7, 0.6]

function fromBase64(base64: string): Uint8Array {
  const binary = atob(base64)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

export function toBase64(bytes: Uint8Array): string {
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

/**
 * The JPEG, synchronously. Not canvas.toBlob: Chromium runs toBlob's encoder in the main thread's
 * idle time, and the quality loop leaves little of it, so each photo waited 1–3 s to be encoded
 * (measured by `npm run bench -- --only capture`); toDataURL takes tens of milliseconds.
 */
function toJpeg(canvas: HTMLCanvasElement, quality: number): string {
  const url = canvas.toDataURL('image/jpeg', quality)
  const comma = url.indexOf(',')
  if (!url.startsWith('data:image/jpeg;base64,') || comma < 0) throw new Error('The browser could not encode the photo.')
  return url.slice(comma + 1)
}

/**
 * Encodes a frame as a JPEG within the image limits (electron/shared/image-limits.ts): scaled down with
 * fitWithinLimits, encoded, then verified with checkImage exactly as the services will check it.
 * Throws an Error with a plain reason when the frame cannot be made to fit.
 */
export async function encodeFrame(source: CanvasImageSource, width: number, height: number): Promise<EncodedImage> {
  const size = fitWithinLimits(width, height)
  if (!size) {
    throw new Error(`The camera picture is ${width}×${height} px; photos need at least ${MATCH_IMAGE_LIMITS.minSide} px per side. Choose another camera.`)
  }
  const canvas = document.createElement('canvas')
  canvas.width = size.width
  canvas.height = size.height
  const context = canvas.getContext('2d')
  if (!context) throw new Error('The browser could not prepare the photo.')
  context.imageSmoothingQuality = 'high'
  context.drawImage(source, 0, 0, width, height, 0, 0, size.width, size.height)
  let reason = ''
  for (const quality of QUALITIES) {
    const base64 = toJpeg(canvas, quality)
    const verdict = checkImage(fromBase64(base64))
    if (verdict.ok && verdict.format === 'jpeg') {
      return { base64, dataUrl: `data:image/jpeg;base64,${base64}`, width: verdict.width, height: verdict.height, bytes: verdict.bytes }
    }
    reason = verdict.ok ? 'The browser did not produce a JPEG.' : verdict.reason
  }
  throw new Error(`The photo does not fit the image limits: ${reason}`)
}

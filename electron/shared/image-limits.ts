/**
 * Image limits shared by the renderer, the services and the engine (reference §8): JPG/PNG by
 * content, 150–1024 px per side, at most 2 MB. Dimensions come from the header, without decoding.
 */

export type ImageFormat = 'jpeg' | 'png'

export interface ImageLimits {
  minSide: number
  maxSide: number
  maxBytes: number
}

/** The BioEngine's /match limits. */
export const MATCH_IMAGE_LIMITS: ImageLimits = { minSide: 150, maxSide: 1024, maxBytes: 2 * 1024 * 1024 }

export type ImageVerdict =
  | { ok: true; format: ImageFormat; width: number; height: number; bytes: number }
  | { ok: false; reason: string }

export function detectImageFormat(bytes: Uint8Array): ImageFormat | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg'
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return 'png'
  return null
}

/** Width and height from a PNG's IHDR or a JPEG's first SOF marker; null when unreadable. */
export function readImageSize(bytes: Uint8Array, format: ImageFormat): { width: number; height: number } | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (format === 'png') {
    // Signature (8), IHDR length (4), "IHDR" (4), width (4), height (4).
    if (bytes.length < 24 || String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') return null
    return { width: view.getUint32(16), height: view.getUint32(20) }
  }
  let offset = 2
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return null
    const marker = bytes[offset + 1]!
    if (marker === 0xff) {
      offset += 1 // fill byte
      continue
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2 // markers without a length
      continue
    }
    const length = view.getUint16(offset + 2)
    if (length < 2) return null
    // SOF0..SOF15 carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (offset + 9 > bytes.length) return null
      return { height: view.getUint16(offset + 5), width: view.getUint16(offset + 7) }
    }
    if (marker === 0xda || marker === 0xd9) return null // scan data or end before any frame header
    offset += 2 + length
  }
  return null
}

/** Checks one image against the limits; the reason is plain language an operator can act on. */
export function checkImage(bytes: Uint8Array, limits: ImageLimits = MATCH_IMAGE_LIMITS): ImageVerdict {
  if (bytes.length === 0) return { ok: false, reason: 'The file is empty.' }
  if (bytes.length > limits.maxBytes) {
    return { ok: false, reason: `The file is ${formatMB(bytes.length)}; the limit is ${formatMB(limits.maxBytes)}.` }
  }
  const format = detectImageFormat(bytes)
  if (!format) return { ok: false, reason: 'The file is not a JPEG or PNG image.' }
  const size = readImageSize(bytes, format)
  if (!size || size.width === 0 || size.height === 0) {
    return { ok: false, reason: `The ${format.toUpperCase()} file is damaged: its size cannot be read.` }
  }
  const { width, height } = size
  if (width < limits.minSide || height < limits.minSide) {
    return { ok: false, reason: `The image is ${width}×${height} px; each side must be at least ${limits.minSide} px.` }
  }
  if (width > limits.maxSide || height > limits.maxSide) {
    return { ok: false, reason: `The image is ${width}×${height} px; each side must be at most ${limits.maxSide} px.` }
  }
  return { ok: true, format, width, height, bytes: bytes.length }
}

function formatMB(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(bytes < 1024 * 1024 ? 2 : 1)} MB`
}

/**
 * The size to scale a camera frame (or any image) to so that it fits the limits: never larger
 * than maxSide on either side, aspect ratio kept, never enlarged. Null when it cannot be made to
 * fit (its shorter side would drop below minSide).
 */
export function fitWithinLimits(width: number, height: number, limits: ImageLimits = MATCH_IMAGE_LIMITS): { width: number; height: number; scale: number } | null {
  if (!(width > 0 && height > 0)) return null
  const scale = Math.min(1, limits.maxSide / width, limits.maxSide / height)
  const fitted = { width: Math.max(1, Math.floor(width * scale)), height: Math.max(1, Math.floor(height * scale)), scale }
  return fitted.width < limits.minSide || fitted.height < limits.minSide ? null : fitted
}

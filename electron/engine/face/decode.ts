import sharp from 'sharp'
import { FaceImageError } from './types'

/**
 * Image bytes → upright RGB pixels for the models, with sharp (libvips). Decoding runs on libuv's
 * thread pool, so the engine's event loop stays free. Anything sharp cannot read completely
 * (truncated, corrupt, not an image, an unsupported format) becomes a FaceImageError.
 */
export interface DecodedImage {
  /** Tightly packed RGB, 3 bytes per pixel, in its own ArrayBuffer (so it can be transferred). */
  rgb: Uint8Array
  width: number
  height: number
  /** Upright source pixels per decoded pixel (>= 1): boxes are multiplied by it. */
  scale: number
}

/** Formats a camera or browser produces. SVG, TIFF, HEIF & co. are refused: more parser, no need. */
const FORMATS = new Set(['jpeg', 'png', 'webp'])

/**
 * Larger images are shrunk to this many pixels on the long side before inference: the detectors
 * work at 128–512 px anyway, and it bounds memory and time. Faces under ~20 px after shrinking
 * are too small to recognise in any case.
 */
export const MAX_SIDE = 1920

/** Decompression-bomb guard: refuse images above 50 megapixels before decoding them. */
export const MAX_INPUT_PIXELS = 50_000_000

export async function decodeImage(bytes: Uint8Array, maxSide = MAX_SIDE): Promise<DecodedImage> {
  if (bytes.length === 0) throw new FaceImageError('The image is empty')
  // failOn 'error': truncated or corrupt pixel data aborts; benign encoder warnings do not.
  const options = { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS, autoOrient: true } as const
  let format: string | undefined
  let uprightWidth: number
  try {
    const meta = await sharp(bytes, options).metadata()
    format = meta.format
    uprightWidth = meta.autoOrient.width
  } catch (error) {
    throw new FaceImageError(`The image cannot be decoded: ${(error as Error).message}`)
  }
  if (!format || !FORMATS.has(format)) throw new FaceImageError(`Unsupported image format: ${format ?? 'unknown'} (JPEG, PNG or WebP expected)`)
  try {
    const { data, info } = await sharp(bytes, options)
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' }) // transparent PNG areas become white, not black
      .toColourspace('srgb')
      .raw({ depth: 'uchar' }) // 8 bits per channel, also from 16-bit PNGs
      .toBuffer({ resolveWithObject: true })
    if (info.channels !== 3) throw new Error(`expected 3 colour channels, got ${info.channels}`)
    // A fresh copy: sharp's buffer is native memory that cannot be transferred to a worker.
    return { rgb: new Uint8Array(data), width: info.width, height: info.height, scale: uprightWidth / info.width }
  } catch (error) {
    throw new FaceImageError(`The image cannot be decoded: ${(error as Error).message}`)
  }
}

import { detectImageFormat, readImageSize } from '../../shared/image-limits'
import { MAX_INPUT_PIXELS, MAX_SIDE } from './decode'

/**
 * The pixels an image declares in its header, read without decoding: the work measure that the
 * queue budgets count. Unreadable headers (WebP, damaged files) count as a full-size image; they
 * fail or shrink quickly in decoding anyway.
 */
export function imagePixels(bytes: Uint8Array): number {
  const format = detectImageFormat(bytes)
  const size = format ? readImageSize(bytes, format) : null
  if (!size) return MAX_SIDE * MAX_SIDE
  // decode.ts refuses anything above MAX_INPUT_PIXELS before decoding it, so none costs more.
  return Math.max(1, Math.min(MAX_INPUT_PIXELS, size.width * size.height))
}

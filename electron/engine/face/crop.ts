import sharp from 'sharp'
import { MAX_INPUT_PIXELS } from './decode'
import type { DetectedFace } from './types'

/** Side of a kept face crop, in pixels: the face fills about half of it. */
export const CROP_SIDE = 256
/**
 * The crop's side as a multiple of the face box's longer side. Every model detects the face again
 * in the crop, so it keeps the forehead, chin and some background the detectors need.
 */
const CONTEXT = 2

/**
 * The normalized face crop of one detected face: upright, square around the face's centre with
 * room for a detector, CROP_SIDE² pixels (edges past the image filled with grey), JPEG. Not
 * model-specific: any plugin, also one installed later, can make its template from it.
 */
export async function normalizedFaceCrop(image: Uint8Array, box: DetectedFace['box']): Promise<Buffer> {
  const options = { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS, autoOrient: true } as const
  const meta = await sharp(image, options).metadata()
  const { width, height } = meta.autoOrient
  const side = Math.max(box.width, box.height) * CONTEXT
  const left = Math.round(box.x + box.width / 2 - side / 2)
  const top = Math.round(box.y + box.height / 2 - side / 2)
  const size = Math.round(side)
  // The part of the square inside the image, then the rest as padding, so the face stays centred.
  const x0 = Math.max(0, left)
  const y0 = Math.max(0, top)
  const x1 = Math.min(width, left + size)
  const y1 = Math.min(height, top + size)
  const padding = { left: x0 - left, top: y0 - top, right: left + size - x1, bottom: top + size - y1, background: { r: 128, g: 128, b: 128 } }
  const square = await sharp(image, options)
    .extract({ left: x0, top: y0, width: Math.max(1, x1 - x0), height: Math.max(1, y1 - y0) })
    .extend(padding)
    .toBuffer()
  return sharp(square).resize(CROP_SIDE, CROP_SIDE, { fit: 'fill' }).flatten({ background: '#808080' }).jpeg({ quality: 90 }).toBuffer()
}

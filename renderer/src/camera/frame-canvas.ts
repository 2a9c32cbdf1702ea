import { CROP_WIDTH, type Box } from './quality'

/** Canvas helpers of the capture loop: scratch canvases, read-back contexts, regions of a frame. */

/** The oval guide, as shares of the frame height (rx follows as 3/4 of ry). */
export const OVAL_RY = 0.4

export function canvas(width: number, height: number): HTMLCanvasElement {
  const c = document.createElement('canvas')
  c.width = width
  c.height = height
  return c
}

export function context2d(c: HTMLCanvasElement, readBack = false): CanvasRenderingContext2D {
  const ctx = c.getContext('2d', readBack ? { willReadFrequently: true } : undefined)
  if (!ctx) throw new Error('The browser could not draw the camera picture.')
  return ctx
}

/** Resamples a region of the frame to a small RGBA image (for sharpness and brightness). */
export function readRegion(source: HTMLCanvasElement, region: Box, target: HTMLCanvasElement): ImageData | null {
  if (region.width < 4 || region.height < 4) return null
  const width = CROP_WIDTH
  const height = Math.max(4, Math.round((CROP_WIDTH * region.height) / region.width))
  if (target.width !== width || target.height !== height) {
    target.width = width
    target.height = height
  }
  const ctx = context2d(target, true)
  ctx.drawImage(source, region.x, region.y, region.width, region.height, 0, 0, width, height)
  return ctx.getImageData(0, 0, width, height)
}

/** The centre of the frame where the oval is: judged when there is no face detection. */
export function ovalRegion(width: number, height: number): Box {
  const ry = OVAL_RY * height * 0.8
  const rx = ry * 0.75
  return { x: width / 2 - rx, y: height / 2 - ry, width: 2 * rx, height: 2 * ry }
}

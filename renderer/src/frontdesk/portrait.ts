/** A rectangle in image pixels. */
export interface Rect {
  x: number
  y: number
  width: number
  height: number
}

/** A badge photo is 3 wide by 4 high, like a passport photo. */
export const PORTRAIT_ASPECT = 3 / 4
/** The frame is this many face widths wide: the face, the hair and the ears in. */
const FACE_WIDTHS = 2
/** Room above the face, in face heights: the rest of the frame (neck, shoulders) is below it. */
const HEADROOM = 0.3

/**
 * Head and shoulders around the face the detector found, 3:4, moved (and if need be shrunk around
 * the face's centre) to lie within the photo.
 */
export function portraitRect(face: Rect, photo: { width: number; height: number }): Rect {
  const wanted = face.width * FACE_WIDTHS
  const scale = Math.min(1, photo.width / wanted, photo.height / (wanted / PORTRAIT_ASPECT))
  const width = wanted * scale
  const height = width / PORTRAIT_ASPECT
  const centreX = face.x + face.width / 2
  const centreY = face.y + face.height / 2
  // Shrunk, the frame keeps the face's centre where it would have been in the full frame.
  const top = centreY - (face.height / 2 + face.height * HEADROOM) * scale
  return {
    x: clamp(centreX - width / 2, 0, photo.width - width),
    y: clamp(top, 0, photo.height - height),
    width,
    height,
  }
}

const clamp = (value: number, low: number, high: number) => Math.min(Math.max(value, low), high)

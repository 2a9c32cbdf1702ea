import { useEffect, useState } from 'react'
import { loadFaceDetector } from '../camera/detector'
import { canvas, context2d } from '../camera/frame-canvas'
import { PORTRAIT_ASPECT, portraitRect } from './portrait'

/** Wide enough to find a face in a check-in photo quickly (the capture detects at 320 px). */
const DETECT_WIDTH = 320
/** Printed about 2.5 cm wide: 240 px is close to 250 dpi. */
const PHOTO_WIDTH = 240

/**
 * The badge photo: head and shoulders cut from the check-in photo around the one face the kiosk's
 * detector finds there, as a JPEG data: URL; null when it finds no face or more than one. It lives
 * only on the screen (and the paper): nothing is stored or sent.
 */
export async function badgePhoto(photoUrl: string): Promise<string | null> {
  const image = new Image()
  image.src = photoUrl
  await image.decode()
  const { naturalWidth: width, naturalHeight: height } = image
  const scale = Math.min(1, DETECT_WIDTH / width)
  const small = canvas(Math.round(width * scale), Math.round(height * scale))
  context2d(small).drawImage(image, 0, 0, small.width, small.height)
  const faces = await (await loadFaceDetector()).detect(small)
  if (faces.length !== 1) return null
  const { box } = faces[0]!
  const frame = portraitRect({ x: box.x / scale, y: box.y / scale, width: box.width / scale, height: box.height / scale }, { width, height })
  const out = canvas(PHOTO_WIDTH, Math.round(PHOTO_WIDTH / PORTRAIT_ASPECT))
  const context = context2d(out)
  context.imageSmoothingQuality = 'high'
  context.drawImage(image, frame.x, frame.y, frame.width, frame.height, 0, 0, out.width, out.height)
  return out.toDataURL('image/jpeg', 0.9)
}

/** The badge photo of `photoUrl` once it is cut (null before, without a photo, or when it cannot be). */
export function useBadgePhoto(photoUrl: string | null): string | null {
  const [photo, setPhoto] = useState<{ from: string; url: string | null } | null>(null)
  useEffect(() => {
    if (!photoUrl) return
    let live = true
    badgePhoto(photoUrl).then(
      (url) => live && setPhoto({ from: photoUrl, url }),
      (error: unknown) => {
        console.error('The badge photo could not be made:', error)
        if (live) setPhoto({ from: photoUrl, url: null })
      },
    )
    return () => {
      live = false
    }
  }, [photoUrl])
  return photo && photo.from === photoUrl ? photo.url : null
}

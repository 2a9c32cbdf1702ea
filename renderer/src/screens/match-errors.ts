import type { ErrorAbout } from '@shared/errors'
import { KioskError } from '@shared/errors'
import { staffNextStep } from '@shared/visitor-errors'

/** Where each photo of the pair came from: the next step differs (choose another file, or take it again). */
export type PhotoSources = Record<ErrorAbout, 'file' | 'camera' | null>

const ordinal: Record<ErrorAbout, string> = { image1: 'first', image2: 'second' }

/**
 * What the operator does next after a failed comparison. A face problem with one photo: replace
 * that photo the way it came (a file: another file; the camera: take it again). The generic next
 * steps say "capture again", which is wrong for a file.
 */
export function matchNextStep(error: unknown, sources: PhotoSources): string | null {
  if (!(error instanceof KioskError)) return 'Try again; if it keeps happening, restart the kiosk.'
  const face = error.code === 'NO_FACE' || error.code === 'MULTIPLE_FACES' || error.code === 'BAD_IMAGE'
  if (!face) return staffNextStep(error.code)
  if (!error.about) return 'Check that each photo shows exactly one clear face, and replace the one that does not.'
  const photo = `the ${ordinal[error.about]} photo`
  if (sources[error.about] === 'camera') {
    if (error.code === 'BAD_IMAGE') return `Take ${photo} again with the camera.`
    return `Take ${photo} again with the camera, ${error.code === 'NO_FACE' ? 'the face clearly in view' : 'with only the person to compare in view'}.`
  }
  if (error.code === 'BAD_IMAGE') return `Choose another file for ${photo} (JPEG or PNG).`
  return `Choose another file for ${photo}, ${error.code === 'NO_FACE' ? 'with the face clearly visible' : 'showing only the person to compare'}.`
}

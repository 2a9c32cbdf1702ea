import type { z } from 'zod'
import { KioskError, type ErrorAbout } from '../../shared/errors'
import { checkImage, MATCH_IMAGE_LIMITS } from '../../shared/image-limits'
import type { faceMatchInput, FaceMatchResult } from '../../shared/workflows'
import type { Backend } from '../backend'

/** The reference's pass mark for /match (score ≥ 48); shown beside the result, never re-decided here. */
export const FACE_MATCH_PASS_SCORE = 48

/**
 * Two images compared on the spot; the image limits are checked here before anything is sent.
 * The verdict is the BioEngine's own `pass`: the kiosk shows it, it does not decide again.
 */
export async function faceMatch(backend: Backend, input: z.infer<typeof faceMatchInput>): Promise<FaceMatchResult> {
  const images = [input.image1, input.image2].map((b64, i) => {
    const bytes = Buffer.from(b64, 'base64')
    const verdict = checkImage(bytes, MATCH_IMAGE_LIMITS)
    const about = i === 0 ? 'image1' : 'image2'
    if (!verdict.ok) throw new KioskError('BAD_IMAGE', `${photoName(about)} cannot be used. ${verdict.reason}`, { about })
    return bytes
  })
  let reply
  try {
    reply = await backend.bio.match(images[0]!, images[1]!)
  } catch (error) {
    throw inPlainWords(error)
  }
  return { score: reply.score, pass: reply.pass, threshold: FACE_MATCH_PASS_SCORE, durationMS: reply.durationMS ?? null }
}

const photoNames: Record<ErrorAbout, string> = { image1: 'the first photo (Image 1)', image2: 'the second photo (Image 2)' }
const photoName = (about: ErrorAbout) => capitalise(photoNames[about])
const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)

/**
 * A face problem the BioEngine found, in the operator's words with the photo named (its own text
 * reads "… (HTTP 400): Image2 shows 2 faces"). The engine names the image as its form field,
 * Image1 or Image2; where it does not, both photos are meant. Other errors pass unchanged.
 */
function inPlainWords(error: unknown): unknown {
  if (!(error instanceof KioskError)) return error
  const field = /\bImage ?([12])\b/i.exec(error.message)?.[1]
  const about: ErrorAbout | undefined = field === '1' ? 'image1' : field === '2' ? 'image2' : undefined
  const which = about ? photoNames[about] : null
  switch (error.code) {
    case 'NO_FACE':
      return new KioskError('NO_FACE', which ? `No face was found in ${which}.` : 'No face was found in one of the photos.', { about })
    case 'MULTIPLE_FACES': {
      const count = /shows (\d+) faces/.exec(error.message)?.[1]
      const faces = count ? `${count} faces` : 'more than one face'
      return new KioskError('MULTIPLE_FACES', `${which ? capitalise(which) : 'One of the photos'} shows ${faces}; face match needs exactly one face in each photo.`, { about })
    }
    case 'BAD_IMAGE':
      return new KioskError('BAD_IMAGE', `${which ? capitalise(which) : 'One of the photos'} could not be read; it may be damaged.`, { about })
    default:
      return error
  }
}

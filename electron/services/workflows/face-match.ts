import type { z } from 'zod'
import { KioskError } from '../../shared/errors'
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
    if (!verdict.ok) throw new KioskError('BAD_IMAGE', `Image ${i + 1}: ${verdict.reason}`)
    return bytes
  })
  const reply = await backend.bio.match(images[0]!, images[1]!)
  return { score: reply.score, pass: reply.pass, threshold: FACE_MATCH_PASS_SCORE, durationMS: reply.durationMS ?? null }
}

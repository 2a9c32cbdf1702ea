import type { z } from 'zod'
import { KioskError } from '../../shared/errors'
import { checkImage, MATCH_IMAGE_LIMITS } from '../../shared/image-limits'
import type { faceMatchInput, FaceMatchResult } from '../../shared/workflows'
import type { Backend } from '../backend'

export const FACE_MATCH_PASS_SCORE = 48

/** Two images compared on the spot; the image limits are checked here before anything is sent. */
export async function faceMatch(backend: Backend, input: z.infer<typeof faceMatchInput>): Promise<FaceMatchResult> {
  const images = [input.image1, input.image2].map((b64, i) => {
    const bytes = Buffer.from(b64, 'base64')
    const verdict = checkImage(bytes, MATCH_IMAGE_LIMITS)
    if (!verdict.ok) throw new KioskError('BAD_IMAGE', `Image ${i + 1}: ${verdict.reason}`)
    return bytes
  })
  const reply = await backend.bio.match(images[0]!, images[1]!)
  return { score: reply.score, pass: reply.score >= FACE_MATCH_PASS_SCORE, threshold: FACE_MATCH_PASS_SCORE, durationMS: reply.durationMS ?? null }
}

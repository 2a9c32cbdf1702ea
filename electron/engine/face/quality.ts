import type { RawFace } from './protocol'

/**
 * Sample quality 0..1 reported on enrollment: how much to trust a template made from this face.
 * Three factors, each 0..1, multiplied so that any one of them can pull the quality down:
 * - the detector's confidence;
 * - size: the face's shorter side in source pixels, 0 at 40 px and 1 from 140 px up (recognition
 *   nets work on 112–224 px crops; a smaller face is upscaled and loses detail);
 * - pose: 1 facing the camera, falling with the square of the angle to 0 at 45° yaw or 35° pitch
 *   (a few degrees cost nothing; recognition degrades fast when the head is well turned).
 *   Roll does not count: both models align the crop before describing it.
 */
const SIZE_MIN = 40
const SIZE_FULL = 140
const MAX_YAW = (45 * Math.PI) / 180
const MAX_PITCH = (35 * Math.PI) / 180

const clamp01 = (value: number) => Math.max(0, Math.min(1, value))

export function faceQuality(face: Pick<RawFace, 'detectorScore' | 'pose'>, box: { width: number; height: number }): number {
  const detector = clamp01(face.detectorScore)
  const size = clamp01((Math.min(box.width, box.height) - SIZE_MIN) / (SIZE_FULL - SIZE_MIN))
  const turn = face.pose ? Math.max(Math.abs(face.pose.yaw) / MAX_YAW, Math.abs(face.pose.pitch) / MAX_PITCH) : 0
  const pose = clamp01(1 - turn * turn)
  return Math.round(detector * size * pose * 1000) / 1000
}

import jsQR from 'jsqr'
import { INVITE_TOKEN_MAX, INVITE_TOKEN_PREFIX } from '@shared/invites'

/** At most this many frames a second are searched for a code: enough for a hand held up, little work for the kiosk. */
export const SCANS_PER_SECOND = 4
/** Frames are searched at this width at most: a QR code held up fills a good part of the picture. */
export const SCAN_WIDTH = 640

export type FrameCode = { kind: 'invite'; token: string } | { kind: 'other' } | null

/** What a camera frame shows: an invite's code, some other QR code, or none. */
export function readFrameCode(image: { data: Uint8ClampedArray; width: number; height: number }): FrameCode {
  const code = jsQR(image.data, image.width, image.height, { inversionAttempts: 'dontInvert' })
  if (!code) return null
  const text = code.data.trim()
  return text.startsWith(INVITE_TOKEN_PREFIX) && text.length <= INVITE_TOKEN_MAX ? { kind: 'invite', token: text } : { kind: 'other' }
}

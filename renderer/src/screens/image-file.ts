import { fitPhoto } from '../camera/fit-photo'

export interface PickedImage {
  base64: string
  previewUrl: string
  description: string
  /** Where it came from: after a refusal a file is replaced by another file, a camera photo taken again. */
  source: 'file' | 'camera'
}

/** A file's outcome: the photo to send (with what was done to fit it, if anything) or the reason it cannot be used. */
export type ReadImageResult = { ok: true; image: PickedImage; note: string | null } | { ok: false; reason: string }

/**
 * Reads a chosen or dropped file for sending: a photo within the image limits as it is, an oversize
 * one fitted on the kiosk (camera/fit-photo.ts, which says what it did); reasons name the file.
 */
export async function readImageFile(file: File): Promise<ReadImageResult> {
  const fitted = await fitPhoto(new Uint8Array(await file.arrayBuffer()))
  if (!fitted.ok) return { ok: false, reason: `${file.name}: ${fitted.reason}` }
  return {
    ok: true,
    image: { base64: fitted.base64, previewUrl: fitted.previewUrl, description: `${file.name}, ${fitted.width}×${fitted.height} px`, source: 'file' },
    note: fitted.note,
  }
}

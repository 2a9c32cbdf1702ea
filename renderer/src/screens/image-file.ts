import { checkImage, MATCH_IMAGE_LIMITS } from '../../../electron/shared/image-limits'

export interface PickedImage {
  base64: string
  previewUrl: string
  description: string
}

/** Reads a chosen or dropped file and checks it against the image limits before anything is sent. */
export async function readImageFile(file: File): Promise<{ ok: true; image: PickedImage } | { ok: false; reason: string }> {
  const bytes = new Uint8Array(await file.arrayBuffer())
  const verdict = checkImage(bytes, MATCH_IMAGE_LIMITS)
  if (!verdict.ok) return { ok: false, reason: `${file.name}: ${verdict.reason}` }
  return {
    ok: true,
    image: {
      base64: toBase64(bytes),
      previewUrl: URL.createObjectURL(new Blob([bytes], { type: `image/${verdict.format}` })),
      description: `${file.name}, ${verdict.width}×${verdict.height} px`,
    },
  }
}

function toBase64(bytes: Uint8Array): string {
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}

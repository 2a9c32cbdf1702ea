import { useId, useState } from 'react'
import type { CapturedSample } from '../camera/sample'
import { readImageFile } from '../screens/image-file'

/** PNG files start with these base64 characters (\x89PNG\r\n\x1a\n); checkImage allows JPEG or PNG only. */
const PNG_BASE64 = 'iVBORw0KGgo'

/** A checked image file as a photo of the set: same limits as Face match (readImageFile). */
async function fileSample(file: File): Promise<{ ok: true; sample: CapturedSample } | { ok: false; reason: string }> {
  const read = await readImageFile(file)
  if (!read.ok) return read
  URL.revokeObjectURL(read.image.previewUrl)
  const { base64 } = read.image
  const dataUrl = `data:image/${base64.startsWith(PNG_BASE64) ? 'png' : 'jpeg'};base64,${base64}`
  const image = new Image()
  image.src = dataUrl
  try {
    await image.decode()
  } catch {
    return { ok: false, reason: `${file.name}: the image could not be read.` }
  }
  return { ok: true, sample: { base64, width: image.naturalWidth, height: image.naturalHeight, dataUrl, quality: null, source: 'file' } }
}

/**
 * Staff only: a JPG or PNG instead of the camera (no camera, or a photo brought along). Never shown
 * to a visitor. Each chosen file becomes one photo of the set, checked against the image limits.
 */
export function PhotoFilePicker({ remaining, onPicked }: { remaining: number; onPicked: (sample: CapturedSample) => void }) {
  const id = useId()
  const [problem, setProblem] = useState<string | null>(null)
  return (
    <div className="field gc-file">
      <label htmlFor={id}>Use a photo file instead (JPG or PNG){remaining > 1 ? `, up to ${remaining}` : ''}</label>
      <input
        id={id}
        type="file"
        accept="image/jpeg,image/png"
        multiple={remaining > 1}
        aria-describedby={problem ? `${id}-error` : undefined}
        onChange={async (event) => {
          const input = event.currentTarget
          const files = [...(input.files ?? [])].slice(0, remaining)
          input.value = '' // the same file can be chosen again
          const reasons: string[] = []
          for (const file of files) {
            const picked = await fileSample(file)
            if (picked.ok) onPicked(picked.sample)
            else reasons.push(picked.reason)
          }
          setProblem(reasons.length ? reasons.join(' ') : null)
        }}
      />
      {problem ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  )
}

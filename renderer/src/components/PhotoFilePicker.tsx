import { useId, useState } from 'react'
import type { CapturedSample } from '../camera/sample'
import { readImageFile } from '../screens/image-file'
import { FileChoice } from './FileChoice'

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
  // What the last choice added, in words: the browser's own control would say "No file chosen".
  const [added, setAdded] = useState<string[]>([])
  return (
    <div className="field gc-file">
      <FileChoice
        id={id}
        label={`Use a photo file instead (JPG or PNG)${remaining > 1 ? `, up to ${remaining}` : ''}`}
        accept="image/jpeg,image/png"
        multiple={remaining > 1}
        aria-describedby={problem ? `${id}-error` : undefined}
        onChange={async (event) => {
          const input = event.currentTarget
          const files = [...(input.files ?? [])].slice(0, remaining)
          input.value = '' // the same file can be chosen again
          const reasons: string[] = []
          const names: string[] = []
          for (const file of files) {
            const picked = await fileSample(file)
            if (picked.ok) {
              onPicked(picked.sample)
              names.push(file.name)
            } else reasons.push(picked.reason)
          }
          setAdded(names)
          setProblem(reasons.length ? reasons.join(' ') : null)
        }}
      />
      {added.length ? (
        <p className="hint" role="status">
          Added {added.join(', ')}.
        </p>
      ) : null}
      {problem ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  )
}

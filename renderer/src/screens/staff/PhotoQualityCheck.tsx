import { useEffect, useState } from 'react'
import type { CheckSamplesResult } from '@shared/workflows'
import { kiosk } from '../../bridge/kiosk'
import { Busy, Button, ErrorNotice, Notice } from '../../components/ui'
import { readImageFile, type PickedImage } from '../image-file'
import { formatQuality } from '../scores'
import { formatBytes } from './format'
import { useAction } from './hooks'

/**
 * "Check photo quality": the BioEngine makes a template from a chosen photo (its create-template
 * call) and reports the quality; nothing is enrolled and the template itself is dropped by the
 * services, so only its size is shown.
 */
export function PhotoQualityCheck() {
  const [image, setImage] = useState<PickedImage | null>(null)
  const [reason, setReason] = useState<string | null>(null)
  /** What was done to fit an oversize photo to the limits, said to staff. */
  const [note, setNote] = useState<string | null>(null)
  const [result, setResult] = useState<CheckSamplesResult | null>(null)
  const check = useAction()
  const inputId = 'quality-check-file'

  // A preview's object URL is let go when it is replaced or the section goes.
  useEffect(() => {
    const url = image?.previewUrl
    return () => {
      if (url?.startsWith('blob:')) URL.revokeObjectURL(url)
    }
  }, [image])

  const choose = async (file: File | undefined) => {
    setResult(null)
    check.clear()
    if (!file) {
      setImage(null)
      return
    }
    const read = await readImageFile(file)
    setReason(read.ok ? null : read.reason)
    setNote(read.ok ? read.note : null)
    setImage(read.ok ? read.image : null)
  }

  const run = async () => {
    if (!image) return
    setResult(null)
    const outcome = await check.run(() => kiosk.checkSamples({ samples: [image.base64] }))
    if (outcome.ok) setResult(outcome.value)
  }

  return (
    <section aria-labelledby="quality-check-title" data-testid="quality-check">
      <h3 id="quality-check-title">Check photo quality</h3>
      <p className="hint">
        Asks the BioEngine to make a template from a photo and report its quality, without enrolling anyone. JPEG or PNG; larger photos are
        resized to fit (150–1024 pixels per side, at most 2 MB).
      </p>
      <div className="field">
        <label htmlFor={inputId}>Photo to check</label>
        <input
          id={inputId}
          type="file"
          accept="image/jpeg,image/png"
          aria-invalid={reason ? true : undefined}
          aria-describedby={reason ? `${inputId}-error` : undefined}
          onChange={(event) => void choose(event.target.files?.[0])}
        />
        {reason ? (
          <p id={`${inputId}-error`} className="field-error" role="alert">
            {reason}
          </p>
        ) : null}
      </div>
      {image ? (
        <p>
          <img src={image.previewUrl} alt={`Photo to check: ${image.description}`} width={160} />
        </p>
      ) : null}
      {image && note ? (
        <p className="hint" role="status">
          {note}
        </p>
      ) : null}
      <div className="actions">
        <Button onClick={() => void run()} busy={check.busy} disabled={!image}>
          Check photo quality
        </Button>
      </div>
      <div aria-live="polite" data-testid="quality-check-result">
        {check.busy ? <Busy label="The BioEngine is checking the photo…" /> : null}
        {check.error ? <ErrorNotice error={check.error} title="The photo could not be checked" /> : null}
        {result ? (
          <Notice kind="success" title={result.quality === null ? 'The BioEngine made a template from this photo.' : `Quality ${formatQuality(result.quality)}`}>
            <p>
              {result.quality === null ? 'It reported no quality for it. ' : ''}Template type {result.templateType}; the template is {formatBytes(result.templateBytes)}.
            </p>
            <p>Nothing was enrolled: the template was discarded, and no visitor was created or changed.</p>
          </Notice>
        ) : null}
      </div>
    </section>
  )
}

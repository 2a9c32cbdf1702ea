import { useState, type DragEvent } from 'react'
import { formatScore } from '../../../electron/shared/score-scale'
import type { FaceMatchResult } from '../../../electron/shared/workflows'
import { kiosk } from '../bridge/kiosk'
import { GuidedCapture } from '../components/GuidedCapture'
import { Busy, Button, ErrorNotice, Notice } from '../components/ui'
import { readImageFile, type PickedImage } from './image-file'
import { ScreenFrame } from './ScreenFrame'
import { formatMark } from './scores'

type Slot = 0 | 1

/** Face match: two images from the camera or from files, compared on the spot; the BioEngine's own verdict, its pass mark 48 of 100. */
export function FaceMatchScreen() {
  const [images, setImages] = useState<[PickedImage | null, PickedImage | null]>([null, null])
  const [camera, setCamera] = useState<Slot | null>(null)
  const [result, setResult] = useState<FaceMatchResult | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)

  const put = (slot: Slot, image: PickedImage | null) => {
    setResult(null)
    setImages((current) => {
      const next: [PickedImage | null, PickedImage | null] = [...current]
      if (current[slot]?.previewUrl.startsWith('blob:')) URL.revokeObjectURL(current[slot]!.previewUrl)
      next[slot] = image
      return next
    })
  }

  const compare = async () => {
    const [a, b] = images
    if (!a || !b) return
    setBusy(true)
    setError(null)
    try {
      setResult(await kiosk.faceMatch({ image1: a.base64, image2: b.base64 }))
    } catch (caught) {
      setError(caught)
    } finally {
      setBusy(false)
    }
  }

  if (camera !== null) {
    return (
      <ScreenFrame title="Face match" purpose={`Take image ${camera + 1} with the camera.`}>
        <GuidedCapture
          count={1}
          label={`Image ${camera + 1}`}
          onDone={([sample]) => {
            if (sample) put(camera, { base64: sample.base64, previewUrl: sample.dataUrl, description: `camera photo, ${sample.width}×${sample.height} px` })
            setCamera(null)
          }}
          onCancel={() => setCamera(null)}
        />
      </ScreenFrame>
    )
  }

  return (
    <ScreenFrame title="Face match" purpose="Compare two face images on the spot. JPEG or PNG, 150–1024 pixels per side, at most 2 MB each.">
      <div className="match-slots">
        {([0, 1] as const).map((slot) => (
          <ImageSlot key={slot} slot={slot} image={images[slot]} onImage={(image) => put(slot, image)} onCamera={() => setCamera(slot)} />
        ))}
      </div>
      {error ? <ErrorNotice error={error} title="The comparison did not run" /> : null}
      <div className="actions">
        <Button busy={busy} disabled={!images[0] || !images[1]} onClick={() => void compare()}>
          Compare
        </Button>
      </div>
      {busy ? <Busy label="Comparing…" /> : null}
      {result ? <MatchGauge result={result} /> : null}
    </ScreenFrame>
  )
}

function ImageSlot({ slot, image, onImage, onCamera }: { slot: Slot; image: PickedImage | null; onImage: (image: PickedImage | null) => void; onCamera: () => void }) {
  const [reason, setReason] = useState<string | null>(null)
  const [over, setOver] = useState(false)
  const take = async (file: File | undefined) => {
    if (!file) return
    const read = await readImageFile(file)
    setReason(read.ok ? null : read.reason)
    if (read.ok) onImage(read.image)
  }
  const drop = (event: DragEvent) => {
    event.preventDefault()
    setOver(false)
    void take(event.dataTransfer.files[0])
  }
  const inputId = `match-file-${slot}`
  return (
    <section
      className={`match-slot${over ? ' drag-over' : ''}`}
      aria-labelledby={`${inputId}-title`}
      onDragOver={(event) => {
        event.preventDefault()
        setOver(true)
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      data-testid={`match-slot-${slot + 1}`}
    >
      <h2 id={`${inputId}-title`}>Image {slot + 1}</h2>
      {image ? <img src={image.previewUrl} alt={`Image ${slot + 1}: ${image.description}`} width={200} /> : <p className="hint">Drop a photo here, choose a file, or use the camera.</p>}
      <label htmlFor={inputId}>Choose a file for image {slot + 1}</label>
      <input id={inputId} type="file" accept="image/jpeg,image/png" onChange={(event) => void take(event.target.files?.[0])} />
      <div className="actions">
        <Button variant="secondary" onClick={onCamera}>
          Use the camera
        </Button>
        {image ? (
          <Button variant="secondary" onClick={() => onImage(null)}>
            Clear
          </Button>
        ) : null}
      </div>
      {reason ? (
        <p className="field-error" role="alert">
          {reason}
        </p>
      ) : null}
    </section>
  )
}

/** The BioEngine's verdict and score, on a 0–100 gauge with the pass mark at the threshold. */
function MatchGauge({ result }: { result: FaceMatchResult }) {
  return (
    <section className="match-result" aria-labelledby="match-result-title">
      <Notice kind={result.pass ? 'success' : 'error'} title={result.pass ? 'Same person' : 'Different people'}>
        <p id="match-result-title" className="result" data-testid="match-decision">
          Score {formatScore(result.score, 100)} of 100: {result.pass ? 'passes' : 'does not pass'} the pass mark of {formatMark(result.threshold, 100)}.
        </p>
      </Notice>
      <div className="gauge" aria-hidden="true">
        <div className="gauge-fill" style={{ width: `${Math.max(0, Math.min(100, result.score))}%` }} />
        <div className="gauge-mark" style={{ left: `${result.threshold}%` }} />
      </div>
      <label className="visually-hidden" htmlFor="match-meter">
        Match score
      </label>
      <meter id="match-meter" className="visually-hidden" min={0} max={100} low={result.threshold} optimum={100} value={result.score} />
    </section>
  )
}

import { useRef, useState } from 'react'
import { KioskError } from '@shared/errors'
import { formatScore } from '@shared/score-scale'
import type { FaceMatchResult } from '@shared/workflows'
import { kiosk } from '../bridge/kiosk'
import { GuidedCapture, type LivenessSend } from '../components/GuidedCapture'
import { CaptureError, isLivenessError, LivenessResult } from '../components/LivenessResult'
import { OfflineDecision } from '../components/OfflineDecision'
import { Busy, Button, describeError, Notice } from '../components/ui'
import { useSession } from '../store/session'
import { matchNextStep, type PhotoSources } from './match-errors'
import { useMatchSlots, type Slot } from './match-slots'
import { MatchImageSlot } from './MatchImageSlot'
import { ScreenFrame } from './ScreenFrame'
import { formatMark } from './scores'

/** Face match: two images from the camera or from files, compared on the spot; the BioEngine's own verdict, its pass mark 48 of 100. */
export function FaceMatchScreen() {
  const [camera, setCamera] = useState<Slot | null>(null)
  const [result, setResult] = useState<FaceMatchResult | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const staff = useSession((s) => s.role !== 'visitor')
  // The liveness evidence (or override) of the last camera image, for that image only.
  const [liveness, setLiveness] = useState<{ slot: Slot; base64: string; send: LivenessSend } | null>(null)
  // A result or error was about the previous pair of images: either goes when an image is replaced,
  // and a comparison still running for that pair is not shown when it ends.
  const pair = useRef(0)
  const { slots, chooseFile, takeCamera, clear } = useMatchSlots(() => {
    pair.current += 1
    setResult(null)
    setError(null)
  })
  const [a, b] = [slots[0].image, slots[1].image]

  const compare = async () => {
    if (!a || !b) return
    const asked = pair.current
    setBusy(true)
    setError(null)
    try {
      const camera = liveness && slots[liveness.slot].image?.base64 === liveness.base64 && (liveness.send.liveness || liveness.send.livenessOverride) ? liveness : null
      const answer = await kiosk.faceMatch({
        image1: a.base64,
        image2: b.base64,
        ...(camera ? { livenessFor: camera.slot === 0 ? ('image1' as const) : ('image2' as const), ...camera.send } : {}),
      })
      if (asked === pair.current) setResult(answer)
    } catch (caught) {
      if (asked === pair.current) setError(caught)
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
          onDone={([sample], send) => {
            if (sample) {
              takeCamera(camera, { base64: sample.base64, previewUrl: sample.dataUrl, description: `camera photo, ${sample.width}×${sample.height} px`, source: 'camera' })
              setLiveness({ slot: camera, base64: sample.base64, send })
            }
            setCamera(null)
          }}
          onCancel={() => setCamera(null)}
          liveness={() => kiosk.startLivenessChallenge({ purpose: 'face-match' })}
          livenessOverride={staff}
        />
      </ScreenFrame>
    )
  }

  return (
    <ScreenFrame title="Face match" purpose="Compare two face images on the spot. JPEG or PNG; larger photos are resized to fit (150–1024 pixels per side, at most 2 MB).">
      <div className="match-slots">
        {([0, 1] as const).map((slot) => (
          <MatchImageSlot key={slot} slot={slot} state={slots[slot]} onFile={(file) => void chooseFile(slot, file)} onCamera={() => setCamera(slot)} onClear={() => clear(slot)} />
        ))}
      </div>
      <div className="actions">
        <Button busy={busy} disabled={!a || !b} onClick={() => void compare()}>
          Compare
        </Button>
      </div>
      {busy ? <Busy label="Comparing…" /> : null}
      {/* Under Compare, where the result appears: an error never moves the button away. */}
      {error ? (
        isLivenessError(error) ? (
          <CaptureError error={error} title="The comparison did not run" onRetry={() => liveness && setCamera(liveness.slot)} />
        ) : (
          <MatchError error={error} sources={{ image1: a?.source ?? null, image2: b?.source ?? null }} onCamera={setCamera} />
        )
      ) : null}
      {result ? <MatchGauge result={result} /> : null}
    </ScreenFrame>
  )
}

/** Why the comparison did not run, naming the photo, with the next step that fits its source (and the camera at hand for a camera photo). */
function MatchError({ error, sources, onCamera }: { error: unknown; sources: PhotoSources; onCamera: (slot: Slot) => void }) {
  const { message } = describeError(error)
  const next = matchNextStep(error, sources)
  const about = error instanceof KioskError ? error.about : undefined
  const slot: Slot | null = about === 'image1' ? 0 : about === 'image2' ? 1 : null
  return (
    <Notice kind="error" title="The comparison did not run">
      <p data-testid="match-error">{message}</p>
      {next ? <p>{next}</p> : null}
      {slot !== null && sources[about!] === 'camera' ? (
        <div className="actions">
          <Button variant="secondary" onClick={() => onCamera(slot)}>
            Take image {slot + 1} again
          </Button>
        </div>
      ) : null}
    </Notice>
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
      <OfflineDecision offline={result.offline} />
      <LivenessResult outcome={result.liveness} />
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

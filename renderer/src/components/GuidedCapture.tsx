import { useCallback, useEffect, useId, useRef, useState, type CSSProperties, type JSX } from 'react'
import { useTranslation } from 'react-i18next'
import type { EvidenceStep, LivenessChallenge } from '@shared/liveness'
import { OVAL_RY } from '../camera/frame-canvas'
import type { CapturedSample } from '../camera/sample'
import { t as translate } from '../i18n'
import { useCamera, type CameraState } from '../camera/useCamera'
import { useDetector, type DetectorState } from '../camera/useDetector'
import { useQualityLoop } from '../camera/useQualityLoop'
import { useSampleSet } from '../camera/useSampleSet'
import { CaptureThumbnails } from './CaptureThumbnails'
import { LivenessCheck, type LivenessSend } from './LivenessCheck'
import { PhotoFilePicker } from './PhotoFilePicker'
import { Button, Notice } from './ui'
import './GuidedCapture.css'

export type { CapturedSample } from '../camera/sample'
export type { LivenessSend } from './LivenessCheck'

export interface GuidedCaptureProps {
  /** How many photos to take. */
  count: number
  /**
   * Called once `count` photos are taken (the camera is already stopped). The component then shows
   * the photos with "Retake" buttons; a retake reopens the camera and calls onDone again when the
   * set is complete again.
   */
  onDone: (samples: CapturedSample[], liveness: LivenessSend, notSeen?: EvidenceStep | null) => void
  onCancel?: () => void
  /** Heading of the capture panel, e.g. "Photo of the visitor"; it takes the focus when the panel opens. */
  label?: string
  /** Staff: offer a JPG/PNG file instead of the camera. Never for a visitor. */
  fileFallback?: boolean
  /**
   * Liveness: asks the services for this attempt's challenge (startLivenessChallenge). When it says
   * `required`, the camera stays on after the photos and the person is guided through it; onDone
   * then gets the evidence (or a staff override). Without it, or when not required: as before.
   */
  liveness?: (() => Promise<LivenessChallenge>) | undefined
  /** Staff session: a person who cannot do the challenge may go on with a reason. Never for a visitor. */
  livenessOverride?: boolean
  /** Identify and face match: a photo file goes on without liveness (the result says "not checked"); elsewhere it needs the override. */
  fileSkipsLiveness?: boolean
}

/**
 * Guided face capture: camera picker, live preview with an oval guide, per-frame quality checks
 * with plain guidance (aria-live), automatic capture of the best frame once the checks have passed
 * steadily, "Capture now" as a manual fallback, thumbnails with "Retake". The camera is stopped when
 * the set is complete and whenever the component goes away. The work is in the hooks (useCamera,
 * useDetector, useQualityLoop, useSampleSet); this is the view.
 */
export function GuidedCapture({ count, onDone, onCancel, label, fileFallback = false, liveness, livenessOverride = false, fileSkipsLiveness = false }: GuidedCaptureProps): JSX.Element {
  const { t } = useTranslation(['visitor', 'staff'])
  const ids = useId()
  const videoRef = useRef<HTMLVideoElement>(null)
  const titleRef = useRef<HTMLHeadingElement>(null)
  const total = Math.max(1, Math.floor(count))
  const stopRef = useRef<() => void>(() => {})
  // The photos waiting for the liveness step (the camera stays on for it), or null.
  const [checking, setChecking] = useState<CapturedSample[] | null>(null)
  const withLiveness = liveness !== undefined
  const set = useSampleSet(
    total,
    useCallback(
      (samples: CapturedSample[]) => {
        if (withLiveness && !(fileSkipsLiveness && samples.some((sample) => sample.source === 'file'))) setChecking(samples)
        else onDone(samples, {})
      },
      [withLiveness, fileSkipsLiveness, onDone],
    ),
    // Privacy: the camera goes off with the last photo, unless the liveness step needs it (it stops it after).
    useCallback(() => {
      if (!withLiveness) stopRef.current()
    }, [withLiveness]),
  )
  const capturing = set.phase === 'capturing'
  const camera = useCamera(videoRef, capturing || checking !== null)
  useEffect(() => {
    stopRef.current = camera.stop
  }, [camera.stop])
  const detector = useDetector()
  const loop = useQualityLoop({
    video: videoRef,
    detector: detector.kind === 'ready' ? detector.detector : null,
    running: camera.state.kind === 'running' && capturing,
    onCapture: set.addFrame,
    onGuidance: set.setMessage,
    onProblem: set.setProblem,
  })

  // The step changed to capture: the panel's heading takes the focus (screen readers announce it).
  useEffect(() => titleRef.current?.focus(), [])

  const finishLiveness = useCallback(
    (send: LivenessSend, notSeen?: EvidenceStep | null) => {
      // Privacy: the camera goes off the moment the liveness step is over.
      stopRef.current()
      setChecking((samples) => {
        if (samples) queueMicrotask(() => onDone(samples, send, notSeen))
        return null
      })
    },
    [onDone],
  )
  const retake = useCallback(
    (index: number) => {
      setChecking(null)
      set.retake(index)
    },
    [set],
  )

  const cameraFailed = camera.state.kind === 'error' && (capturing || checking !== null)
  const titleId = `${ids}-title`
  const state = camera.state
  const ovalRy = state.kind === 'running' ? OVAL_RY * state.height : 0
  const viewWidth = state.kind === 'running' ? state.width : 4
  const viewHeight = state.kind === 'running' ? state.height : 3

  return (
    <section className="gc" aria-labelledby={label ? titleId : undefined} aria-label={label ? undefined : t('capture.region')} data-fps={loop.fps || undefined}>
      {label ? (
        <h2 id={titleId} className="gc-title" ref={titleRef} tabIndex={-1}>
          {label}
        </h2>
      ) : null}

      {state.kind === 'error' && capturing ? (
        <Notice kind="error" title={state.problem.title}>
          <p>
            {state.problem.message} {fileFallback ? t('staff:capture.orFile') : t('capture.keepsFailing')}
          </p>
          <Button variant="secondary" onClick={camera.retry}>
            {t('common.tryAgain')}
          </Button>
        </Notice>
      ) : null}

      {detector.kind === 'failed' && capturing && !cameraFailed ? (
        <Notice kind="warning" title={t('capture.noGuidanceTitle')}>
          <p>{t('capture.noGuidance')}</p>
          {fileFallback ? <p className="gc-detail">{detector.reason}</p> : null}
        </Notice>
      ) : null}

      {capturing && camera.cameras.length > 1 ? (
        <div className="field gc-camera">
          <label htmlFor={`${ids}-camera`}>{t('capture.camera')}</label>
          <select id={`${ids}-camera`} value={camera.deviceId} onChange={(e) => camera.choose(e.target.value || undefined)}>
            {camera.cameras.map((device, i) => (
              <option key={device.deviceId || i} value={device.deviceId}>
                {device.label || t('capture.cameraNumber', { number: i + 1 })}
              </option>
            ))}
          </select>
        </div>
      ) : null}

      {/* The picture's shape, so the stage can grow to the screen's room without distorting the oval. */}
      <div className={`gc-stage${(capturing || checking) && !cameraFailed ? '' : ' gc-hidden'}`} style={{ '--gc-aspect': viewWidth / viewHeight } as CSSProperties}>
        <video ref={videoRef} className="gc-video" muted playsInline aria-hidden="true" />
        {state.kind === 'running' ? (
          <svg className="gc-guide" viewBox={`0 0 ${viewWidth} ${viewHeight}`} preserveAspectRatio="none" aria-hidden="true" focusable="false">
            <path
              className="gc-shade"
              fillRule="evenodd"
              d={`M0 0H${viewWidth}V${viewHeight}H0Z M${viewWidth / 2 - 0.75 * ovalRy} ${viewHeight / 2}a${0.75 * ovalRy} ${ovalRy} 0 1 0 ${1.5 * ovalRy} 0a${0.75 * ovalRy} ${ovalRy} 0 1 0 ${-1.5 * ovalRy} 0Z`}
            />
            <ellipse className={`gc-oval${loop.progress > 0 ? ' gc-oval-steady' : ''}`} cx={viewWidth / 2} cy={viewHeight / 2} rx={0.75 * ovalRy} ry={ovalRy} />
            {loop.progress > 0 ? <ellipse className="gc-progress" cx={viewWidth / 2} cy={viewHeight / 2} rx={0.75 * ovalRy} ry={ovalRy} pathLength={100} strokeDasharray={`${loop.progress * 100} 100`} /> : null}
          </svg>
        ) : null}
      </div>

      {checking && liveness ? (
        <LivenessCheck
          video={videoRef}
          detector={detector.kind === 'ready' ? detector.detector : detector.kind === 'failed' ? 'failed' : null}
          cameraRunning={state.kind === 'running'}
          start={liveness}
          fromFile={checking.some((sample) => sample.source === 'file')}
          allowOverride={livenessOverride}
          onFinished={finishLiveness}
        />
      ) : null}

      <p className={`gc-guidance${checking ? ' gc-hidden' : ''}`} role="status" aria-live="polite" aria-atomic="true" data-testid="capture-guidance">
        {checking ? '' : guidanceText(set.phase, state, detector, set.message)}
      </p>
      <p className="hint gc-count">
        {set.phase === 'done' ? t('capture.takenCount', { taken: set.samples.length, count: total }) : t('capture.photoNumber', { number: Math.min(set.samples.length + 1, total), total })}
      </p>

      {set.problem ? (
        <Notice kind="error" title={t('capture.notTakenTitle')}>
          <p>{set.problem}</p>
        </Notice>
      ) : null}

      {fileFallback && capturing ? <PhotoFilePicker remaining={total - set.samples.length} onPicked={set.addFile} /> : null}

      <div className="actions">
        {capturing && !cameraFailed ? (
          <Button onClick={loop.captureNow} disabled={state.kind !== 'running'}>
            {t('capture.captureNow')}
          </Button>
        ) : null}
        {onCancel ? (
          <Button variant="secondary" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
        ) : null}
      </div>

      <CaptureThumbnails samples={set.samples} onRetake={retake} />
    </section>
  )
}

/** The live guidance line. A camera error says nothing here: its notice holds the title and the next step, once. */
function guidanceText(phase: 'capturing' | 'done', camera: CameraState, detector: DetectorState, message: string): string {
  if (phase === 'done') return message
  if (camera.kind === 'starting' || camera.kind === 'off') return translate('capture.startingCamera')
  if (camera.kind === 'error') return ''
  if (message) return message
  if (detector.kind === 'loading') return translate('capture.loadingGuidance')
  if (detector.kind === 'failed') return translate('capture.manualOnly')
  return translate('guidance.noFace')
}

import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type JSX } from 'react'
import { AutoCapture } from '../camera/auto-capture'
import { cameraLost, describeCameraError, listCameras, openCamera, stopStream, type CameraProblem } from '../camera/camera'
import { loadFaceDetector, type FaceDetector } from '../camera/detector'
import { encodeFrame } from '../camera/encode'
import { FrameAnalyzer } from '../camera/frame-analyzer'
import { canvas, context2d, ovalRegion, OVAL_RY, readRegion } from '../camera/frame-canvas'
import { GuidanceSettler } from '../camera/guidance'
import { armNextFrame } from '../camera/next-frame'
import { assessWithoutDetection, CROP_WIDTH } from '../camera/quality'
import { FpsMeter, loopStats, recordFrame, resetLoopStats } from '../camera/stats'
import { CaptureThumbnails } from './CaptureThumbnails'
import { Button, Notice } from './ui'
import './GuidedCapture.css'

export interface CapturedSample {
  /** JPEG, base64 without a data: prefix; within the image limits (checked with checkImage). */
  base64: string
  width: number
  height: number
  /** 0..1: how well the frame passed the quality checks. */
  quality: number
  /** data: URL of the same JPEG, for a thumbnail. */
  dataUrl: string
}

export interface GuidedCaptureProps {
  /** How many photos to take. */
  count: number
  /**
   * Called once `count` photos are taken (the camera is already stopped). The component then shows
   * the photos with "Retake" buttons; a retake reopens the camera and calls onDone again when the
   * set is complete again.
   */
  onDone: (samples: CapturedSample[]) => void
  onCancel?: () => void
  /** Heading of the capture panel, e.g. "Photo of the visitor". */
  label?: string
}

/** At most this often (ms): ~30 judged frames a second is plenty, even from a faster camera. */
const MIN_FRAME_MS = 33
/** The longest wait for a new camera frame before judging anyway (see armNextFrame). */
const FRAME_FALLBACK_MS = 200
/** A new guidance message must hold this long before it replaces the shown one (no flicker). */
const GUIDANCE_SETTLE_MS = 300

type CameraState = { kind: 'off' } | { kind: 'starting' } | { kind: 'running'; width: number; height: number } | { kind: 'error'; problem: CameraProblem }
type DetectorState = { kind: 'loading' } | { kind: 'ready'; detector: FaceDetector } | { kind: 'failed'; reason: string }

/**
 * Guided face capture: camera picker, live preview with an oval guide, per-frame quality checks
 * with plain guidance (aria-live), automatic capture of the best frame once the checks have passed
 * steadily, "Capture now" as a manual fallback, thumbnails with "Retake". The camera is stopped when
 * the set is complete and whenever the component goes away.
 */
export function GuidedCapture({ count, onDone, onCancel, label }: GuidedCaptureProps): JSX.Element {
  const ids = useId()
  const videoRef = useRef<HTMLVideoElement>(null)
  const streamRef = useRef<MediaStream | null>(null)
  const samplesRef = useRef<CapturedSample[]>([])
  const pendingRef = useRef(0)
  const mountedRef = useRef(true)
  const onDoneRef = useRef(onDone)
  useLayoutEffect(() => {
    onDoneRef.current = onDone
  })
  /** The latest judged frame, for a manual capture's quality. */
  const lastRef = useRef<{ at: number; quality: number } | null>(null)
  const autoRef = useRef(new AutoCapture())

  const [phase, setPhase] = useState<'capturing' | 'done'>('capturing')
  const [camera, setCamera] = useState<CameraState>({ kind: 'starting' })
  const [attempt, setAttempt] = useState(0)
  const [deviceId, setDeviceId] = useState<string | undefined>(undefined)
  const [cameras, setCameras] = useState<MediaDeviceInfo[]>([])
  const [detector, setDetector] = useState<DetectorState>({ kind: 'loading' })
  const [guidance, setGuidance] = useState('')
  const [progress, setProgress] = useState(0)
  const [samples, setSamples] = useState<CapturedSample[]>([])
  const [problem, setProblem] = useState<string | null>(null)
  /** Quality-loop frames per second over the last second (diagnostics: data-fps on the panel). */
  const [fps, setFps] = useState(0)

  const total = Math.max(1, Math.floor(count))

  useEffect(() => {
    mountedRef.current = true
    return () => {
      mountedRef.current = false
    }
  }, [])

  // The face detector: loaded once per page, shared by every capture.
  useEffect(() => {
    let current = true
    loadFaceDetector().then(
      (loaded) => {
        loopStats.backend = loaded.backend
        if (current) setDetector({ kind: 'ready', detector: loaded })
      },
      (error: unknown) => {
        if (current) setDetector({ kind: 'failed', reason: error instanceof Error ? error.message : String(error) })
      },
    )
    return () => {
      current = false
    }
  }, [])

  const stopCamera = useCallback(() => {
    stopStream(streamRef.current)
    streamRef.current = null
    const video = videoRef.current
    if (video) video.srcObject = null
  }, [])

  // The camera: open while capturing, for the chosen device; stopped on done, on switch and on unmount.
  useEffect(() => {
    if (phase !== 'capturing') return
    let current = true
    setCamera({ kind: 'starting' })
    openCamera(deviceId)
      .then(async (stream) => {
        if (!current) return stopStream(stream)
        streamRef.current = stream
        // Unplugged or taken over by another program (stop() by us does not fire this).
        stream.getVideoTracks()[0]?.addEventListener('ended', () => {
          if (current) setCamera({ kind: 'error', problem: cameraLost })
        })
        const video = videoRef.current
        if (!video) return stopStream(stream)
        video.srcObject = stream
        await video.play().catch(() => {})
        if (!video.videoWidth) await new Promise((resolve) => video.addEventListener('loadedmetadata', resolve, { once: true }))
        if (!current) return
        setCamera({ kind: 'running', width: video.videoWidth, height: video.videoHeight })
        setCameras(await listCameras().catch(() => []))
      })
      .catch((error: unknown) => {
        if (current) setCamera({ kind: 'error', problem: describeCameraError(error) })
      })
    return () => {
      current = false
      stopCamera()
    }
  }, [phase, deviceId, attempt, stopCamera])

  // Cameras plugged in or out while the picker is shown.
  useEffect(() => {
    const devices = navigator.mediaDevices
    if (!devices?.addEventListener) return
    const refresh = () => void listCameras().then((list) => mountedRef.current && setCameras(list), () => {})
    devices.addEventListener('devicechange', refresh)
    return () => devices.removeEventListener('devicechange', refresh)
  }, [])

  /** Encodes a frame and adds it to the set; completes the set when it is full. */
  const addSample = useCallback(
    async (source: HTMLCanvasElement, quality: number) => {
      if (samplesRef.current.length + pendingRef.current >= total) return
      pendingRef.current++
      try {
        const image = await encodeFrame(source, source.width, source.height)
        if (!mountedRef.current) return
        const sample: CapturedSample = { base64: image.base64, width: image.width, height: image.height, dataUrl: image.dataUrl, quality: Math.round(quality * 1000) / 1000 }
        const next = [...samplesRef.current, sample]
        samplesRef.current = next
        setSamples(next)
        setProblem(null)
        if (next.length >= total) {
          // Privacy: the camera goes off the moment the set is complete.
          stopCamera()
          setCamera({ kind: 'off' })
          setPhase('done')
          setGuidance(total === 1 ? 'Photo taken.' : `All ${total} photos taken.`)
          onDoneRef.current(next)
        } else {
          setGuidance(`Photo ${next.length} of ${total} taken. Stay in the oval for the next one.`)
        }
      } catch (error) {
        if (mountedRef.current) setProblem(error instanceof Error ? error.message : 'The photo could not be taken.')
      } finally {
        pendingRef.current--
      }
    },
    [total, stopCamera],
  )

  // The quality loop: grab a frame, detect, judge, guide, and take the best frame once steady.
  const running = camera.kind === 'running' && phase === 'capturing'
  const activeDetector = detector.kind === 'ready' ? detector.detector : null
  useEffect(() => {
    const video = videoRef.current
    if (!running || !activeDetector || !video) return
    let stopped = false
    const auto = autoRef.current
    auto.reset()
    const analyzer = new FrameAnalyzer(video, activeDetector)
    const { width, height } = analyzer
    const best = canvas(width, height)
    const guide = new GuidanceSettler(setGuidance, GUIDANCE_SETTLE_MS)
    const fps = new FpsMeter()
    let shownProgress = -1

    const step = async () => {
      const started = performance.now()
      const analysis = await analyzer.analyze()
      if (stopped) return
      const { assessment, at: now } = analysis
      lastRef.current = { at: now, quality: assessment.quality }

      const decision = auto.update(now, assessment.ok, assessment.quality)
      if (decision.keep) context2d(best).drawImage(analyzer.frame, 0, 0)
      const shownStep = Math.round(decision.progress * 20) / 20
      if (shownStep !== shownProgress) {
        shownProgress = shownStep
        setProgress(shownStep)
      }
      if (decision.capture) {
        const quality = auto.bestQuality
        auto.captured(now)
        const snapshot = canvas(width, height)
        context2d(snapshot).drawImage(best, 0, 0)
        void addSample(snapshot, quality)
        guide.release() // the capture's own message is shown; the next one replaces it at once
      } else if (decision.state === 'steady') {
        guide.propose('Hold still…', now, true)
      } else if (decision.state === 'waiting' && assessment.failing?.guidance) {
        guide.propose(assessment.failing.guidance, now)
      }
      recordFrame(analysis, performance.now() - started)
      const rate = fps.tick(now)
      if (rate !== null) setFps(rate)
    }

    const loop = async () => {
      resetLoopStats()
      while (!stopped) {
        const started = performance.now()
        // Armed before the work: a frame that arrives meanwhile is judged right after it, none twice.
        const nextFrame = armNextFrame(video, FRAME_FALLBACK_MS)
        if (video.readyState >= 2 && video.videoWidth === width) {
          try {
            await step()
          } catch (error) {
            nextFrame.cancel()
            // One bad frame (e.g. the camera switching) is not worth stopping for; a broken detector is.
            if (!stopped) setProblem(`Face guidance stopped: ${error instanceof Error ? error.message : String(error)}. Use “Capture now”.`)
            return
          }
        }
        await nextFrame.ready
        const wait = MIN_FRAME_MS - (performance.now() - started)
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
      }
    }
    void loop()
    return () => {
      stopped = true
      setProgress(0)
      setFps(0)
    }
  }, [running, activeDetector, addSample])

  const captureNow = () => {
    const video = videoRef.current
    if (!video || camera.kind !== 'running' || !video.videoWidth) return
    const snapshot = canvas(video.videoWidth, video.videoHeight)
    context2d(snapshot).drawImage(video, 0, 0)
    const now = performance.now()
    const last = lastRef.current
    let quality: number
    if (activeDetector && last && now - last.at < 500) quality = last.quality
    else {
      const centre = readRegion(snapshot, ovalRegion(snapshot.width, snapshot.height), canvas(CROP_WIDTH, CROP_WIDTH))
      quality = centre ? assessWithoutDetection(centre).quality : 0
    }
    autoRef.current.captured(now)
    void addSample(snapshot, quality)
  }

  const retake = (index: number) => {
    const next = samplesRef.current.filter((_, i) => i !== index)
    samplesRef.current = next
    setSamples(next)
    setGuidance(`Photo ${index + 1} removed. Look at the camera for a new one.`)
    if (phase === 'done') setPhase('capturing')
  }

  const titleId = `${ids}-title`
  const guidanceText =
    phase === 'done'
      ? guidance
      : camera.kind === 'starting' || camera.kind === 'off'
        ? 'Starting the camera…'
        : camera.kind === 'error'
          ? camera.problem.title
          : guidance ||
            (detector.kind === 'loading'
              ? 'Loading face guidance… You can already use “Capture now”.'
              : detector.kind === 'failed'
                ? 'Centre the face in the oval, then press “Capture now”.'
                : 'Look at the camera with your face inside the oval.')
  const ovalRy = camera.kind === 'running' ? OVAL_RY * camera.height : 0
  const viewWidth = camera.kind === 'running' ? camera.width : 4
  const viewHeight = camera.kind === 'running' ? camera.height : 3

  return (
    <section className="gc" aria-labelledby={label ? titleId : undefined} aria-label={label ? undefined : 'Face capture'} data-fps={fps || undefined}>
      {label ? (
        <h2 id={titleId} className="gc-title">
          {label}
        </h2>
      ) : null}

      {camera.kind === 'error' && phase === 'capturing' ? (
        <Notice kind="error" title={camera.problem.title}>
          <p>{camera.problem.message}</p>
          <Button variant="secondary" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </Button>
        </Notice>
      ) : null}

      {detector.kind === 'failed' && phase === 'capturing' ? (
        <Notice kind="warning" title="Face guidance is unavailable">
          <p>The face detector could not load on this computer, so photos are not taken automatically. Centre the face in the oval, check that it is sharp and well lit, then press “Capture now”.</p>
          <p className="gc-detail">{detector.reason}</p>
        </Notice>
      ) : null}

      {phase === 'capturing' && cameras.length > 1 ? (
        <div className="field gc-camera">
          <label htmlFor={`${ids}-camera`}>Camera</label>
          <select id={`${ids}-camera`} value={deviceId ?? streamRef.current?.getVideoTracks()[0]?.getSettings().deviceId ?? ''} onChange={(e) => setDeviceId(e.target.value || undefined)}>
            {cameras.map((device, i) => (
              <option key={device.deviceId || i} value={device.deviceId}>
                {device.label || `Camera ${i + 1}`}
              </option>
            ))}
          </select>
        </div>
      ) : null}

      <div className={`gc-stage${phase === 'capturing' && camera.kind !== 'error' ? '' : ' gc-hidden'}`}>
        <video ref={videoRef} className="gc-video" muted playsInline aria-hidden="true" />
        {camera.kind === 'running' ? (
          <svg className="gc-guide" viewBox={`0 0 ${viewWidth} ${viewHeight}`} preserveAspectRatio="none" aria-hidden="true" focusable="false">
            <path
              className="gc-shade"
              fillRule="evenodd"
              d={`M0 0H${viewWidth}V${viewHeight}H0Z M${viewWidth / 2 - 0.75 * ovalRy} ${viewHeight / 2}a${0.75 * ovalRy} ${ovalRy} 0 1 0 ${1.5 * ovalRy} 0a${0.75 * ovalRy} ${ovalRy} 0 1 0 ${-1.5 * ovalRy} 0Z`}
            />
            <ellipse className={`gc-oval${progress > 0 ? ' gc-oval-steady' : ''}`} cx={viewWidth / 2} cy={viewHeight / 2} rx={0.75 * ovalRy} ry={ovalRy} />
            {progress > 0 ? <ellipse className="gc-progress" cx={viewWidth / 2} cy={viewHeight / 2} rx={0.75 * ovalRy} ry={ovalRy} pathLength={100} strokeDasharray={`${progress * 100} 100`} /> : null}
          </svg>
        ) : null}
      </div>

      <p className="gc-guidance" role="status" aria-live="polite" aria-atomic="true" data-testid="capture-guidance">
        {guidanceText}
      </p>
      <p className="hint gc-count">
        {phase === 'done' ? `${samples.length} of ${total} photo${total === 1 ? '' : 's'} taken` : `Photo ${Math.min(samples.length + 1, total)} of ${total}`}
      </p>

      {problem ? (
        <Notice kind="error" title="The photo was not taken">
          <p>{problem}</p>
        </Notice>
      ) : null}

      <div className="actions">
        {phase === 'capturing' ? (
          <Button onClick={captureNow} disabled={camera.kind !== 'running'}>
            Capture now
          </Button>
        ) : null}
        {onCancel ? (
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>

      <CaptureThumbnails samples={samples} onRetake={retake} />
    </section>
  )
}

/** The photos taken so far, each with its quality and a "Retake" button. */

import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react'
import { t } from '../i18n'
import { AutoCapture } from './auto-capture'
import type { FaceDetector } from './detector'
import { FrameAnalyzer } from './frame-analyzer'
import { canvas, context2d, ovalRegion, readRegion } from './frame-canvas'
import { GuidanceSettler } from './guidance'
import { armNextFrame } from './next-frame'
import { notePresence } from './presence'
import { assessWithoutDetection, CROP_WIDTH } from './quality'
import { FpsMeter, recordFrame, resetLoopStats } from './stats'

/** At most this often (ms): ~30 judged frames a second is plenty, even from a faster camera. */
const MIN_FRAME_MS = 33
/** The longest wait for a new camera frame before judging anyway (see armNextFrame). */
const FRAME_FALLBACK_MS = 200
/** A new guidance message must hold this long before it replaces the shown one (no flicker). */
const GUIDANCE_SETTLE_MS = 300
/** A manual capture reuses the loop's judgement of a frame at most this old (ms). */
const RECENT_MS = 500

export interface QualityLoopOptions {
  video: RefObject<HTMLVideoElement | null>
  /** null: no face guidance (still loading, or it failed): "Capture now" only. */
  detector: FaceDetector | null
  /** The camera is running and photos are wanted. */
  running: boolean
  /** A frame to keep as a photo, with its quality (0..1). */
  onCapture: (frame: HTMLCanvasElement, quality: number) => void
  /** Settled guidance for the person (no flicker), or a loop failure. */
  onGuidance: (text: string) => void
  onProblem: (text: string) => void
}

export interface QualityLoop {
  /** 0..1 of the steady moment before a photo is taken by itself (the oval's progress ring). */
  progress: number
  /** Judged frames per second over the last second (diagnostics). */
  fps: number
  /** "Capture now": the current frame, with the loop's latest quality or a detection-free one. */
  captureNow(): void
}

/**
 * The quality loop: grab a frame, detect, judge, guide, and take the best frame of a steady moment
 * by itself. A face seen counts as presence (the idle timer). Stops when `running` turns false.
 */
export function useQualityLoop({ video, detector, running, onCapture, onGuidance, onProblem }: QualityLoopOptions): QualityLoop {
  const [progress, setProgress] = useState(0)
  const [fps, setFps] = useState(0)
  const autoRef = useRef(new AutoCapture())
  const lastRef = useRef<{ at: number; quality: number } | null>(null)
  const handlers = useRef({ onCapture, onGuidance, onProblem })
  useLayoutEffect(() => {
    handlers.current = { onCapture, onGuidance, onProblem }
  })

  useEffect(() => {
    const element = video.current
    if (!running || !detector || !element) return
    let stopped = false
    const auto = autoRef.current
    auto.reset()
    const analyzer = new FrameAnalyzer(element, detector)
    const { width, height } = analyzer
    const best = canvas(width, height)
    const guide = new GuidanceSettler((text) => handlers.current.onGuidance(text), GUIDANCE_SETTLE_MS)
    const meter = new FpsMeter()
    let shownProgress = -1

    const step = async () => {
      const started = performance.now()
      const analysis = await analyzer.analyze()
      if (stopped) return
      const { assessment, at: now } = analysis
      lastRef.current = { at: now, quality: assessment.quality }
      if (analysis.faces.length > 0) notePresence(now)

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
        handlers.current.onCapture(snapshot, quality)
        guide.release() // the capture's own message is shown; the next one replaces it at once
      } else if (decision.state === 'steady') {
        guide.propose(t('capture.holdStill'), now, true)
      } else if (decision.state === 'waiting' && assessment.failing?.guidance) {
        guide.propose(t(assessment.failing.guidance), now)
      }
      recordFrame(analysis, performance.now() - started)
      const rate = meter.tick(now)
      if (rate !== null) setFps(rate)
    }

    const loop = async () => {
      resetLoopStats()
      while (!stopped) {
        const started = performance.now()
        // Armed before the work: a frame that arrives meanwhile is judged right after it, none twice.
        const nextFrame = armNextFrame(element, FRAME_FALLBACK_MS)
        if (element.readyState >= 2 && element.videoWidth === width) {
          try {
            await step()
          } catch (error) {
            nextFrame.cancel()
            // One bad frame (e.g. the camera switching) is not worth stopping for; a broken detector is.
            if (!stopped) {
              console.error('Face guidance stopped:', error)
              handlers.current.onProblem(t('capture.guidanceStopped'))
            }
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
  }, [running, detector, video])

  const captureNow = useCallback(() => {
    const element = video.current
    if (!element || !element.videoWidth) return
    const snapshot = canvas(element.videoWidth, element.videoHeight)
    context2d(snapshot).drawImage(element, 0, 0)
    const now = performance.now()
    const last = lastRef.current
    let quality: number
    if (detector && last && now - last.at < RECENT_MS) quality = last.quality
    else {
      const centre = readRegion(snapshot, ovalRegion(snapshot.width, snapshot.height), canvas(CROP_WIDTH, CROP_WIDTH))
      quality = centre ? assessWithoutDetection(centre).quality : 0
      // A busy loop's last judgement is older than that, but it saw the pose and the face, which
      // light and sharpness alone cannot: a face that failed them a moment ago is not rated higher now.
      if (detector && last) quality = Math.min(quality, last.quality)
    }
    autoRef.current.captured(now)
    handlers.current.onCapture(snapshot, quality)
  }, [video, detector])

  return { progress, fps, captureNow }
}

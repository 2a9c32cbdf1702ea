import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react'
import type { EvidenceStep, LightColour, LivenessChallenge, LivenessEvidence } from '@shared/liveness'
import type { FaceDetector } from './detector'
import { canvas, context2d } from './frame-canvas'
import { FRAMES_KEPT, LivenessRun, type RunView } from './liveness-run'
import { armNextFrame } from './next-frame'
import { notePresence } from './presence'
import { FpsMeter, recordLivenessFrame, resetLoopStats } from './stats'
import { t } from '../i18n'

/**
 * Evidence frames at most this wide: what the engine recomputes from, and what the page's mesh runs
 * on. Both must measure the same pixels at this size: on a smaller copy (320 or 480 px), or with the
 * evidence itself at 480, the engine measured recorded turns ~0.01 of the eye distance short of what
 * the page saw and refused 2 presentations in 6; at 640 none in 24.
 */
export const EVIDENCE_MAX_WIDTH = 640
export const EVIDENCE_JPEG_QUALITY = 0.85
const MIN_FRAME_MS = 33
const FRAME_FALLBACK_MS = 200

export interface LivenessLoopOptions {
  video: RefObject<HTMLVideoElement | null>
  detector: FaceDetector | null
  challenge: LivenessChallenge | null
  /** The camera is running and the challenge is wanted. */
  running: boolean
  /** The challenge ended (done, or a step ran out of time): the frames to send, the step that was not seen in time, and when the screen showed each of its light's colours. */
  onFinished: (frames: LivenessEvidence['frames'], notSeen: EvidenceStep | null, lightShownAt: number[]) => void
  onProblem: (text: string) => void
}

export interface LivenessLoop {
  view: RunView | null
  fps: number
  /** The colour the screen paints now (performance.now()), or null: asked on each animation frame, each paint noted. */
  paintLight: (now: number) => LightColour | null
}

function jpeg(source: HTMLCanvasElement): string {
  const url = source.toDataURL('image/jpeg', EVIDENCE_JPEG_QUALITY)
  const comma = url.indexOf(',')
  if (!url.startsWith('data:image/jpeg;base64,')) throw new Error('The browser could not encode the photo.')
  return url.slice(comma + 1)
}

/**
 * The challenge loop: grab a frame at evidence size, run the face mesh on it, feed the run
 * (liveness-run.ts), keep the frames it asks for as JPEGs, and report when it ends.
 */
export function useLivenessLoop({ video, detector, challenge, running, onFinished, onProblem }: LivenessLoopOptions): LivenessLoop {
  const [view, setView] = useState<RunView | null>(null)
  const [fps, setFps] = useState(0)
  const current = useRef<LivenessRun | null>(null)
  const handlers = useRef({ onFinished, onProblem })
  useLayoutEffect(() => {
    handlers.current = { onFinished, onProblem }
  })

  useEffect(() => {
    const element = video.current
    if (!running || !detector || !challenge || !element || !element.videoWidth) return
    let stopped = false
    const scale = Math.min(1, EVIDENCE_MAX_WIDTH / element.videoWidth)
    const width = Math.round(element.videoWidth * scale)
    const height = Math.round(element.videoHeight * scale)
    const frame = canvas(width, height)
    const frameCtx = context2d(frame)
    // The latest judged frames, with when each was taken: a step's run is sent from them once it is done.
    const kept = Array.from({ length: FRAMES_KEPT }, () => ({ image: canvas(width, height), at: 0 }))
    let observed = 0
    const run = new LivenessRun(challenge)
    current.current = run
    const frames: LivenessEvidence['frames'] = []
    const meter = new FpsMeter()
    let shown = ''

    const show = () => {
      const next = run.view()
      const key = JSON.stringify(next)
      if (key !== shown) {
        shown = key
        setView(next)
      }
    }

    const step = async () => {
      const started = performance.now()
      frameCtx.drawImage(element, 0, 0, width, height)
      const faces = await detector.detect(frame, { iris: true })
      if (stopped) return
      const at = performance.now()
      if (faces.length > 0) notePresence(at)
      const meshes = faces.map((face) => face.mesh ?? [])
      const slot = kept[observed++ % FRAMES_KEPT]!
      context2d(slot.image).drawImage(frame, 0, 0)
      slot.at = Math.round(started) // when the camera frame was taken
      // The run judges a step on the times sent with its frames: when each camera frame was taken.
      const update = run.update({ at: started, meshes })
      for (const grab of update.grabs) {
        const source = kept[(observed - 1 - grab.back + FRAMES_KEPT) % FRAMES_KEPT]!
        frames.push({ step: grab.step, image: jpeg(source.image), at: source.at })
      }
      show()
      recordLivenessFrame(faces.length, performance.now() - started)
      const rate = meter.tick(at)
      if (rate !== null) setFps(rate)
    }

    const loop = async () => {
      resetLoopStats('liveness')
      show()
      while (!stopped && run.status === 'running') {
        const started = performance.now()
        const nextFrame = armNextFrame(element, FRAME_FALLBACK_MS)
        if (element.readyState >= 2) {
          try {
            await step()
          } catch (error) {
            nextFrame.cancel()
            if (!stopped) {
              console.error('The liveness check stopped:', error)
              handlers.current.onProblem(t('liveness.stopped'))
            }
            return
          }
        }
        await nextFrame.ready
        const wait = MIN_FRAME_MS - (performance.now() - started)
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
      }
      if (!stopped && run.status !== 'running') handlers.current.onFinished(frames, run.status === 'timed-out' ? run.view().step : null, run.lightShow.shownAt.map(Math.round))
    }
    void loop()
    return () => {
      stopped = true
      current.current = null
      setFps(0)
    }
  }, [running, detector, challenge, video])

  return { view, fps, paintLight: (now) => current.current?.paintLight(now) ?? null }
}

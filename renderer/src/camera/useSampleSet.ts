import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react'
import { encodeFrame } from './encode'
import type { CapturedSample } from './sample'
import { t } from '../i18n'

export interface SampleSet {
  phase: 'capturing' | 'done'
  samples: CapturedSample[]
  /** The set's own messages ("Photo 1 of 3 taken…"); the quality loop's guidance goes through setMessage too. */
  message: string
  setMessage(text: string): void
  problem: string | null
  setProblem(text: string | null): void
  /** Encodes a camera frame and adds it. */
  addFrame(frame: HTMLCanvasElement, quality: number): void
  /** Adds a photo chosen from a file (staff). */
  addFile(sample: CapturedSample): void
  retake(index: number): void
}

/**
 * The photos of one capture: `total` of them, in order. When the set is complete `onComplete`
 * runs first (the camera goes off), then `onDone` with the photos. A retake reopens the set.
 */
export function useSampleSet(count: number, onDone: (samples: CapturedSample[]) => void, onComplete: () => void): SampleSet {
  const total = Math.max(1, Math.floor(count))
  const samplesRef = useRef<CapturedSample[]>([])
  const pendingRef = useRef(0)
  const mountedRef = useRef(true)
  const callbacks = useRef({ onDone, onComplete })
  useLayoutEffect(() => {
    callbacks.current = { onDone, onComplete }
  })
  useEffect(() => {
    mountedRef.current = true
    return () => {
      mountedRef.current = false
    }
  }, [])

  const [phase, setPhase] = useState<'capturing' | 'done'>('capturing')
  const [samples, setSamples] = useState<CapturedSample[]>([])
  const [message, setMessage] = useState('')
  const [problem, setProblem] = useState<string | null>(null)

  const add = useCallback(
    (sample: CapturedSample) => {
      const next = [...samplesRef.current, sample]
      samplesRef.current = next
      setSamples(next)
      setProblem(null)
      if (next.length >= total) {
        // Privacy: the camera goes off the moment the set is complete.
        callbacks.current.onComplete()
        setPhase('done')
        setMessage(total === 1 ? t('capture.photoTaken') : t('capture.allTaken', { count: total }))
        callbacks.current.onDone(next)
      } else {
        setMessage(t('capture.nextPhoto', { number: next.length, total }))
      }
    },
    [total],
  )

  const addFrame = useCallback(
    (frame: HTMLCanvasElement, quality: number) => {
      if (samplesRef.current.length + pendingRef.current >= total) return
      pendingRef.current++
      encodeFrame(frame, frame.width, frame.height)
        .then((image) => {
          if (!mountedRef.current) return
          add({ base64: image.base64, width: image.width, height: image.height, dataUrl: image.dataUrl, quality: Math.round(quality * 1000) / 1000, source: 'camera' })
        })
        .catch((error: unknown) => {
          if (!mountedRef.current) return
          console.error('The photo could not be taken:', error)
          setProblem(t('capture.notTaken'))
        })
        .finally(() => pendingRef.current--)
    },
    [total, add],
  )

  const addFile = useCallback(
    (sample: CapturedSample) => {
      if (samplesRef.current.length + pendingRef.current >= total) return
      add(sample)
    },
    [total, add],
  )

  const retake = useCallback((index: number) => {
    samplesRef.current = samplesRef.current.filter((_, i) => i !== index)
    setSamples(samplesRef.current)
    setMessage(t('capture.removed', { number: index + 1 }))
    setPhase('capturing')
  }, [])

  return { phase, samples, message, setMessage, problem, setProblem, addFrame, addFile, retake }
}

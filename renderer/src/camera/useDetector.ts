import { useEffect, useState } from 'react'
import { loadFaceDetector, type FaceDetector } from './detector'
import { loopStats } from './stats'

export type DetectorState = { kind: 'loading' } | { kind: 'ready'; detector: FaceDetector } | { kind: 'failed'; reason: string }

/** The face detector: loaded once per page (loadFaceDetector caches it), shared by every capture. */
export function useDetector(): DetectorState {
  const [state, setState] = useState<DetectorState>({ kind: 'loading' })
  useEffect(() => {
    let current = true
    loadFaceDetector().then(
      (loaded) => {
        loopStats.backend = loaded.backend
        if (current) setState({ kind: 'ready', detector: loaded })
      },
      (error: unknown) => {
        if (current) setState({ kind: 'failed', reason: error instanceof Error ? error.message : String(error) })
      },
    )
    return () => {
      current = false
    }
  }, [])
  return state
}

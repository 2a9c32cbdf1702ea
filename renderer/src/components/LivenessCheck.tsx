import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react'
import { LIVENESS_LIMITS, type LivenessChallenge, type LivenessEvidence, type LivenessOverride } from '../../../electron/shared/liveness'
import type { FaceDetector } from '../camera/detector'
import { useLivenessLoop } from '../camera/useLivenessLoop'
import { useSession } from '../store/session'
import { LivenessOverrideDialog } from './LivenessOverrideDialog'
import { Busy, Button, ErrorNotice, Notice } from './ui'

/** What goes with the capture's call: the evidence burst, a staff override, or nothing (not required). */
export interface LivenessSend {
  liveness?: LivenessEvidence
  livenessOverride?: LivenessOverride
}

export interface LivenessCheckProps {
  video: RefObject<HTMLVideoElement | null>
  /** null while it loads; 'failed' when it cannot run here. */
  detector: FaceDetector | null | 'failed'
  cameraRunning: boolean
  /** Asks the services for this attempt's challenge (startLivenessChallenge with the workflow's purpose). */
  start: () => Promise<LivenessChallenge>
  /** A sample came from a photo file: a file cannot do the challenge, only a staff override goes on. */
  fromFile: boolean
  /** Staff session: offer "Continue without liveness check". Never for a visitor. */
  allowOverride: boolean
  onFinished: (send: LivenessSend) => void
}

/**
 * The liveness step after the photos: asks the services what this attempt must show, then guides
 * the person through it (one prompt at a time, in an aria-live region, with the step and the time
 * left) while the camera keeps running. When nothing is required it finishes at once, saying nothing.
 */
export function LivenessCheck({ video, detector, cameraRunning, start, fromFile, allowOverride, onFinished }: LivenessCheckProps) {
  // The check's limits are for staff, who decide what it is good for; a visitor reads what it does.
  const staff = useSession((s) => s.role !== 'visitor')
  const [challenge, setChallenge] = useState<LivenessChallenge | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [attempt, setAttempt] = useState(0)
  const [overriding, setOverriding] = useState(false)
  const [problem, setProblem] = useState<string | null>(null)

  // The caller's functions may change identity on each render: the request is made once per attempt.
  const callbacks = useRef({ start, onFinished })
  useLayoutEffect(() => {
    callbacks.current = { start, onFinished }
  })

  useEffect(() => {
    let live = true
    setError(null)
    callbacks.current.start().then(
      (answer) => {
        if (!live) return
        if (answer.required) setChallenge(answer)
        else callbacks.current.onFinished({})
      },
      (caught: unknown) => live && setError(caught),
    )
    return () => {
      live = false
    }
  }, [attempt])

  const canRun = challenge !== null && !fromFile && detector !== 'failed'
  const finish = useCallback(
    (frames: LivenessEvidence['frames']) => {
      if (challenge?.challengeId) onFinished({ liveness: { challengeId: challenge.challengeId, frames } })
    },
    [challenge, onFinished],
  )
  const loop = useLivenessLoop({
    video,
    detector: detector === 'failed' ? null : detector,
    challenge: canRun ? challenge : null,
    running: cameraRunning && canRun && !overriding,
    onFinished: finish,
    onProblem: setProblem,
  })

  const overrideButton = allowOverride ? (
    <Button variant="secondary" onClick={() => setOverriding(true)}>
      Continue without liveness check
    </Button>
  ) : null
  const dialog = overriding ? <LivenessOverrideDialog onCancel={() => setOverriding(false)} onConfirm={(override) => onFinished({ livenessOverride: override })} /> : null

  if (error) {
    return (
      <>
        <ErrorNotice error={error} title="The liveness check could not start" />
        <div className="actions">
          <Button variant="secondary" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </Button>
        </div>
      </>
    )
  }
  if (!challenge) return <Busy label="Preparing the next step…" />

  const view = loop.view
  return (
    <section className="lv" aria-labelledby="lv-title" data-testid="liveness-check" data-fps={loop.fps || undefined}>
      <h3 id="lv-title" className="lv-title">
        Liveness check
      </h3>
      {fromFile || detector === 'failed' ? (
        <Notice kind="warning" title="Liveness cannot be checked">
          <p>
            {fromFile ? 'A photo file cannot show that a live person is there.' : 'The face guidance could not load on this computer, so the check cannot run.'}{' '}
            {allowOverride ? 'Continue without the liveness check, giving the reason, or take photos with the camera.' : 'Please ask staff.'}
          </p>
        </Notice>
      ) : (
        <>
          <div className="lv-live" role="status" aria-live="polite" aria-atomic="true">
            <p className="lv-step" data-testid="liveness-step">
              {view ? `Step ${view.stepNumber} of ${view.stepCount}` : 'Getting ready…'}
            </p>
            <p className="lv-prompt" data-testid="liveness-prompt">
              {view?.prompt ?? (detector === null ? 'Loading face guidance…' : '')}
            </p>
            {view?.hint ? <p className="lv-hint">{view.hint}</p> : null}
          </div>
          {view ? (
            <p className="lv-time" data-testid="liveness-time">
              {view.secondsLeft} second{view.secondsLeft === 1 ? '' : 's'} left
            </p>
          ) : null}
        </>
      )}
      {problem ? (
        <Notice kind="error" title="The liveness check stopped">
          <p>{problem}</p>
        </Notice>
      ) : null}
      <details className="lv-about">
        <summary>What is this?</summary>
        <p>The kiosk checks that a live person is in front of the camera, not a photo.</p>
        {staff ? (
          <>
            <p>The frames are checked again by the kiosk’s own services, not here.</p>
            <p data-testid="liveness-limits">{LIVENESS_LIMITS}</p>
          </>
        ) : null}
      </details>
      {overrideButton ? <div className="actions">{overrideButton}</div> : null}
      {dialog}
    </section>
  )
}

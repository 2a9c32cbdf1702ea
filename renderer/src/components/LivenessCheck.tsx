import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react'
import { useTranslation } from 'react-i18next'
import { LIVENESS_LIMITS, type EvidenceStep, type LivenessChallenge, type LivenessEvidence, type LivenessOverride } from '@shared/liveness'
import type { FaceDetector } from '../camera/detector'
import { useLivenessLoop } from '../camera/useLivenessLoop'
import { useSession } from '../store/session'
import { LivenessOverrideDialog } from './LivenessOverrideDialog'
import { ScreenLight } from './ScreenLight'
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
  /** `notSeen`: the step the page did not see in time (the burst still goes to the services, who judge and audit it). */
  onFinished: (send: LivenessSend, notSeen?: EvidenceStep | null) => void
}

/**
 * The liveness step after the photos: asks the services what this attempt must show, then guides
 * the person through it (one prompt at a time, in an aria-live region, with the step and the time
 * left) while the camera keeps running. When nothing is required it finishes at once, saying nothing.
 */
export function LivenessCheck({ video, detector, cameraRunning, start, fromFile, allowOverride, onFinished }: LivenessCheckProps) {
  const { t } = useTranslation(['visitor', 'staff'])
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
    (frames: LivenessEvidence['frames'], notSeen: EvidenceStep | null, lightShownAt: number[]) => {
      if (challenge?.challengeId) onFinished({ liveness: { challengeId: challenge.challengeId, frames, ...(lightShownAt.length > 0 ? { lightShownAt } : {}) } }, notSeen)
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
      {t('staff:liveness.continueWithout')}
    </Button>
  ) : null
  const dialog = overriding ? <LivenessOverrideDialog onCancel={() => setOverriding(false)} onConfirm={(override) => onFinished({ livenessOverride: override })} /> : null

  if (error) {
    return (
      <>
        <ErrorNotice error={error} title={t('liveness.couldNotStart')} />
        <div className="actions">
          <Button variant="secondary" onClick={() => setAttempt((n) => n + 1)}>
            {t('common.tryAgain')}
          </Button>
        </div>
      </>
    )
  }
  if (!challenge) return <Busy label={t('liveness.preparing')} />

  const view = loop.view
  return (
    <section className="lv" aria-labelledby="lv-title" data-testid="liveness-check" data-fps={loop.fps || undefined}>
      <h3 id="lv-title" className="lv-title">
        {t('liveness.title')}
      </h3>
      {fromFile || detector === 'failed' ? (
        <Notice kind="warning" title={t('liveness.cannotCheckTitle')}>
          <p>
            {fromFile ? t('staff:liveness.fromFile') : t('liveness.noGuidance')} {allowOverride ? t('staff:liveness.overrideHint') : t('common.askStaffShort')}
          </p>
        </Notice>
      ) : (
        <>
          <div className="lv-live" role="status" aria-live="polite" aria-atomic="true">
            <p className="lv-step" data-testid="liveness-step">
              {view ? t('liveness.step', { number: view.stepNumber, count: view.stepCount }) : t('liveness.gettingReady')}
            </p>
            <p className="lv-prompt" data-testid="liveness-prompt">
              {view?.prompt ?? (detector === null ? t('liveness.loadingGuidance') : '')}
            </p>
            {view?.hint ? <p className="lv-hint">{view.hint}</p> : null}
          </div>
          {view?.step === 'light' && view.status === 'running' ? <ScreenLight paint={loop.paintLight} around={video} prompt={view.prompt} /> : null}
          {view ? (
            <p className="lv-time" data-testid="liveness-time">
              {t('liveness.secondsLeft', { count: view.secondsLeft })}
            </p>
          ) : null}
        </>
      )}
      {problem ? (
        <Notice kind="error" title={t('liveness.stoppedTitle')}>
          <p>{problem}</p>
        </Notice>
      ) : null}
      <details className="lv-about">
        <summary>{t('liveness.about')}</summary>
        <p>{t('liveness.aboutText')}</p>
        {staff ? (
          <>
            <p>{t('staff:liveness.checkedAgain')}</p>
            <p data-testid="liveness-limits">{LIVENESS_LIMITS}</p>
          </>
        ) : null}
      </details>
      {overrideButton ? <div className="actions">{overrideButton}</div> : null}
      {dialog}
    </section>
  )
}

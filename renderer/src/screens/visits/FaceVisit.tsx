import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { EvidenceStep } from '@shared/liveness'
import type { VisitorCheckResult } from '@shared/visits'
import { kiosk } from '../../bridge/kiosk'
import { GuidedCapture, type LivenessSend } from '../../components/GuidedCapture'
import { CaptureError } from '../../components/LivenessResult'
import { Busy, Button } from '../../components/ui'
import { useStepFocus } from '../../components/useStepFocus'
import { useSession } from '../../store/session'
import { VisitOutcome } from './VisitOutcome'

type Step = 'capture' | 'checking' | 'done'

/**
 * What check-in and check-out by face share: one photo (with the liveness the tenant asks, judged
 * as for Verify), the services' answer, and its outcome. A failure of any kind (a refused liveness
 * check, the servers not answering in time) says why, in place of the camera, and offers the ways
 * on: "Try again" (the camera again) and "Cancel" (Home). Done and Cancel end the visitor's turn.
 */
export function FaceVisit({ send, failedTitle, onCancel }: { send: (sample: string, liveness: LivenessSend) => Promise<VisitorCheckResult>; failedTitle: string; onCancel: () => void }) {
  const { t } = useTranslation()
  const endVisit = useSession((s) => s.endVisit)
  const staff = useSession((s) => s.role !== 'visitor')
  const [step, setStep] = useState<Step>('capture')
  const [result, setResult] = useState<VisitorCheckResult | null>(null)
  // The photo sent, for the badge's face (only when the services allow it).
  const [photo, setPhoto] = useState<string | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [notSeen, setNotSeen] = useState<EvidenceStep | null>(null)
  useStepFocus(step)

  const check = async (sample: string, liveness: LivenessSend) => {
    setStep('checking')
    setError(null)
    try {
      setResult(await send(sample, liveness))
      setStep('done')
    } catch (caught) {
      setError(caught)
      setStep('capture')
    }
  }

  return (
    <>
      {error ? <CaptureError error={error} title={failedTitle} notSeen={notSeen} onRetry={() => setError(null)} onCancel={endVisit} /> : null}
      {step === 'capture' && !error ? (
        <GuidedCapture
          count={1}
          label={t('visit.captureLabel')}
          onDone={([sample], liveness, missed) => {
            setNotSeen(missed ?? null)
            if (!sample) return
            setPhoto(sample.dataUrl)
            void check(sample.base64, liveness)
          }}
          onCancel={onCancel}
          fileFallback={staff}
          liveness={() => kiosk.startLivenessChallenge({ purpose: 'verify' })}
          livenessOverride={staff}
        />
      ) : null}
      {step === 'checking' ? <Busy label={t('visit.checking')} /> : null}
      {step === 'done' && result ? (
        <section aria-labelledby="result-title" tabIndex={-1} data-step-focus>
          <VisitOutcome result={result} returning photo={photo} />
          <div className="actions">
            <Button onClick={endVisit}>{t('common.done')}</Button>
          </div>
        </section>
      ) : null}
    </>
  )
}

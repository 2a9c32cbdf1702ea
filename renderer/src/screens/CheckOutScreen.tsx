import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { EvidenceStep } from '@shared/liveness'
import type { VisitorCheckResult } from '@shared/visits'
import { kiosk } from '../bridge/kiosk'
import { GuidedCapture, type LivenessSend } from '../components/GuidedCapture'
import { CaptureError } from '../components/LivenessResult'
import { Busy, Button } from '../components/ui'
import { useStepFocus } from '../components/useStepFocus'
import { useNavigation } from '../store/navigation'
import { useSession } from '../store/session'
import { ScreenFrame } from './ScreenFrame'
import { VisitOutcome } from './visits/VisitOutcome'

type Step = 'capture' | 'checking' | 'done'

/** Check-out: the visitor's face ends their open visit. */
export function CheckOutScreen() {
  const { t } = useTranslation()
  const go = useNavigation((s) => s.go)
  const staff = useSession((s) => s.role !== 'visitor')
  const [step, setStep] = useState<Step>('capture')
  const [result, setResult] = useState<VisitorCheckResult | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [notSeen, setNotSeen] = useState<EvidenceStep | null>(null)
  useStepFocus(step)

  const check = async (sample: string, liveness: LivenessSend) => {
    setStep('checking')
    setError(null)
    try {
      setResult(await kiosk.checkOutByFace({ sample, ...liveness }))
      setStep('done')
    } catch (caught) {
      setError(caught)
      setStep('capture')
    }
  }

  return (
    <ScreenFrame title={t('screens.checkOut')} purpose={t('visit.checkOutPurpose')}>
      {error ? <CaptureError error={error} title={t('visit.checkOutFailedTitle')} notSeen={notSeen} onRetry={() => setError(null)} /> : null}
      {step === 'capture' && !error ? (
        <GuidedCapture
          count={1}
          label={t('visit.captureLabel')}
          onDone={([sample], liveness, missed) => {
            setNotSeen(missed ?? null)
            if (sample) void check(sample.base64, liveness)
          }}
          onCancel={() => go('home')}
          fileFallback={staff}
          liveness={() => kiosk.startLivenessChallenge({ purpose: 'verify' })}
          livenessOverride={staff}
        />
      ) : null}
      {step === 'checking' ? <Busy label={t('visit.checking')} /> : null}
      {step === 'done' && result ? (
        <section aria-labelledby="result-title" tabIndex={-1} data-step-focus>
          <VisitOutcome result={result} returning />
          <div className="actions">
            <Button onClick={() => go('home')}>{t('common.done')}</Button>
          </div>
        </section>
      ) : null}
    </ScreenFrame>
  )
}

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
import { HostFields } from './visits/HostFields'
import { useHostNames } from './visits/useHostNames'
import { VisitOutcome } from './visits/VisitOutcome'

type Step = 'details' | 'capture' | 'checking' | 'done'

/** "I've been here before": a returning visitor checks in by face alone; host and reason default to last time's. */
export function CheckInScreen() {
  const { t } = useTranslation()
  const go = useNavigation((s) => s.go)
  const staff = useSession((s) => s.role !== 'visitor')
  const hosts = useHostNames()
  const [step, setStep] = useState<Step>('details')
  const [hostId, setHostId] = useState('')
  const [purpose, setPurpose] = useState('')
  const [result, setResult] = useState<VisitorCheckResult | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [notSeen, setNotSeen] = useState<EvidenceStep | null>(null)
  useStepFocus(step)

  const check = async (sample: string, liveness: LivenessSend) => {
    setStep('checking')
    setError(null)
    try {
      setResult(await kiosk.checkInByFace({ sample, ...liveness, ...(hostId && { hostId }), ...(purpose.trim() && { purpose: purpose.trim() }) }))
      setStep('done')
    } catch (caught) {
      setError(caught)
      setStep('details')
    }
  }

  return (
    <ScreenFrame title={t('screens.checkIn')} purpose={t('visit.checkInPurpose')}>
      {error ? (
        <CaptureError
          error={error}
          title={t('visit.checkInFailedTitle')}
          notSeen={notSeen}
          onRetry={() => {
            setError(null)
            setStep('capture')
          }}
        />
      ) : null}
      {step === 'details' ? (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault()
            setStep('capture')
          }}
        >
          <HostFields hosts={hosts} hostId={hostId} purpose={purpose} noneLabel={t('visit.hostSame')} onHost={setHostId} onPurpose={setPurpose} />
          <div className="actions">
            <Button type="submit">{t('visit.takePhoto')}</Button>
          </div>
        </form>
      ) : null}
      {step === 'capture' ? (
        <GuidedCapture
          count={1}
          label={t('visit.captureLabel')}
          onDone={([sample], liveness, missed) => {
            setNotSeen(missed ?? null)
            if (sample) void check(sample.base64, liveness)
          }}
          onCancel={() => setStep('details')}
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

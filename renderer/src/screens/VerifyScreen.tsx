import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { EvidenceStep } from '@shared/liveness'
import { formatScore } from '@shared/score-scale'
import { emailField, type VerifyVisitorResult } from '@shared/workflows'
import { kiosk } from '../bridge/kiosk'
import { checkField, emailProblem } from '../components/field-check'
import { GuidedCapture, type LivenessSend } from '../components/GuidedCapture'
import { CaptureError, LivenessResult } from '../components/LivenessResult'
import { OfflineDecision } from '../components/OfflineDecision'
import { Busy, Button, Field, Notice } from '../components/ui'
import { useStepFocus } from '../components/useStepFocus'
import { useSession } from '../store/session'
import { ScreenFrame } from './ScreenFrame'
import { formatMark } from './scores'

type Step = 'find' | 'capture' | 'checking' | 'done'

/** Verify: the visitor says who they are (e-mail); their face decides, against the threshold. */
export function VerifyScreen() {
  const { t } = useTranslation(['visitor', 'staff'])
  const [step, setStep] = useState<Step>('find')
  const [email, setEmail] = useState('')
  const [emailError, setEmailError] = useState<string | null>(null)
  const emailInput = useRef<HTMLInputElement>(null)
  const staff = useSession((s) => s.role !== 'visitor')
  useStepFocus(step)

  // The e-mail is checked with the contract's schema before the photo is taken; empty says so.
  const continueToCapture = () => {
    const problem = emailProblem(checkField(emailField, email), email)
    setEmailError(problem)
    if (problem) emailInput.current?.focus()
    else setStep('capture')
  }
  const [result, setResult] = useState<VerifyVisitorResult | null>(null)
  const [error, setError] = useState<unknown>(null)
  // The liveness step the page did not see in time: said with the refusal.
  const [notSeen, setNotSeen] = useState<EvidenceStep | null>(null)

  const check = async (sample: string, liveness: LivenessSend) => {
    setStep('checking')
    setError(null)
    try {
      setResult(await kiosk.verifyVisitor({ userId: email.trim(), sample, ...liveness }))
      setStep('done')
    } catch (caught) {
      setError(caught)
      setStep('find')
    }
  }

  return (
    <ScreenFrame title={t('screens.verify')} purpose={t('verify.purpose')}>
      {/* Any error: "Try again" takes the photo again for the same e-mail; the e-mail stays under it to correct. */}
      {error ? (
        <CaptureError
          error={error}
          title={t('verify.failedTitle')}
          notSeen={notSeen}
          onRetry={() => {
            setError(null)
            setStep('capture')
          }}
        />
      ) : null}
      {step === 'find' ? (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault()
            continueToCapture()
          }}
        >
          <Field ref={emailInput} label={t('common.email')} type="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} error={emailError} required />
          <div className="actions">
            <Button type="submit">{t('verify.continue')}</Button>
          </div>
        </form>
      ) : null}
      {step === 'capture' ? (
        <GuidedCapture
          count={1}
          label={t('verify.captureLabel', { email: email.trim() })}
          onDone={([sample], liveness, missed) => {
            setNotSeen(missed ?? null)
            if (sample) void check(sample.base64, liveness)
          }}
          onCancel={() => setStep('find')}
          fileFallback={staff}
          liveness={() => kiosk.startLivenessChallenge({ purpose: 'verify' })}
          livenessOverride={staff}
        />
      ) : null}
      {step === 'checking' ? <Busy label={t('verify.checking')} /> : null}
      {step === 'done' && result ? (
        <section aria-label={t('verify.result')} tabIndex={-1} data-step-focus>
          <VerifyOutcome result={result} userId={email.trim()} />
          <OfflineDecision offline={result.offline} />
          <LivenessResult outcome={result.liveness} />
          <div className="actions">
            <Button
              onClick={() => {
                setResult(null)
                setEmail('')
                setStep('find')
              }}
            >
              {t('verify.again')}
            </Button>
          </div>
        </section>
      ) : null}
    </ScreenFrame>
  )
}

/** The decision; a visitor's result holds no person record (the services shape it), so the typed e-mail names them. */
function VerifyOutcome({ result, userId }: { result: VerifyVisitorResult; userId: string }) {
  const { t } = useTranslation(['visitor', 'staff'])
  const who = result.person?.userId ?? userId
  // Staff read the score against the pass mark, saying so when the mark is the override from Settings.
  const score =
    result.score === null
      ? null
      : t(result.thresholdSource === 'settings' ? 'staff:verify.scoreSettings' : 'staff:verify.score', { score: formatScore(result.score, result.scaleMax), mark: formatMark(result.threshold, result.scaleMax) })
  const decision = (kind: 'success' | 'error' | 'warning', title: string, text: string) => (
    <Notice kind={kind} title={title}>
      <p className="result" data-testid="verify-decision">
        {text}
      </p>
    </Notice>
  )
  switch (result.decision) {
    case 'match':
      return decision('success', t('verify.matchTitle'), score === null ? t('verify.match', { who }) : t('staff:verify.match', { who, score }))
    case 'no-match':
      return decision('error', t('verify.noMatchTitle'), result.person ? t('staff:verify.noMatch', { who, score: score ?? '' }) : t('verify.noMatch', { who }))
    case 'not-found':
      return result.offline ? decision('warning', t('verify.notOnDeviceTitle'), t('verify.notOnDevice', { who })) : decision('warning', t('verify.notRegisteredTitle'), t('verify.notRegistered', { who }))
    default:
      return decision('warning', t('verify.notEnrolledTitle'), t('verify.notEnrolled', { who }))
  }
}

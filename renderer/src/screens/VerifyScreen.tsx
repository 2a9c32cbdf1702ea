import { useRef, useState } from 'react'
import { formatScore } from '../../../electron/shared/score-scale'
import { emailField, type VerifyVisitorResult } from '../../../electron/shared/workflows'
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
    <ScreenFrame title="Verify identity" purpose="Check that the visitor is the person they say they are.">
      {error ? (
        <CaptureError
          error={error}
          title="The check did not run"
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
          <Field ref={emailInput} label="Visitor’s e-mail" type="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} error={emailError} required />
          <div className="actions">
            <Button type="submit">Continue to photo</Button>
          </div>
        </form>
      ) : null}
      {step === 'capture' ? (
        <GuidedCapture
          count={1}
          label={`Photo of ${email.trim()}`}
          onDone={([sample], liveness) => sample && void check(sample.base64, liveness)}
          onCancel={() => setStep('find')}
          fileFallback={staff}
          liveness={() => kiosk.startLivenessChallenge({ purpose: 'verify' })}
          livenessOverride={staff}
        />
      ) : null}
      {step === 'checking' ? <Busy label="Comparing with the enrolled face…" /> : null}
      {step === 'done' && result ? (
        <section aria-label="Result" tabIndex={-1} data-step-focus>
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
              Verify someone else
            </Button>
          </div>
        </section>
      ) : null}
    </ScreenFrame>
  )
}

/** The pass mark on its scale, saying so when it is the override from Settings rather than the server's. */
function passMark(result: VerifyVisitorResult): string {
  return `${formatMark(result.threshold, result.scaleMax)}${result.thresholdSource === 'settings' ? ' (the threshold set in Settings)' : ''}`
}

/** The decision; a visitor's result holds no person record (the services shape it), so the typed e-mail names them. */
function VerifyOutcome({ result, userId }: { result: VerifyVisitorResult; userId: string }) {
  const who = result.person?.userId ?? userId
  const score = result.score === null ? '' : `: score ${formatScore(result.score, result.scaleMax)}, needs ${passMark(result)}`
  if (result.decision === 'match') {
    return (
      <Notice kind="success" title="Identity confirmed">
        <p className="result" data-testid="verify-decision">
          This is {who}
          {score}.
        </p>
      </Notice>
    )
  }
  if (result.decision === 'no-match') {
    return (
      <Notice kind="error" title="Not confirmed">
        <p className="result" data-testid="verify-decision">
          {result.person
            ? `This face does not match ${who}${score}. Check their identity another way.`
            : `We could not confirm that this is ${who}. Try again, or please ask staff.`}
        </p>
      </Notice>
    )
  }
  if (result.decision === 'not-found' && result.offline) {
    return (
      <Notice kind="warning" title="Not known on this device">
        <p className="result" data-testid="verify-decision">
          {who} has no record on this device, and the servers cannot be reached to check. Try again when the kiosk is back online.
        </p>
      </Notice>
    )
  }
  if (result.decision === 'not-found') {
    return (
      <Notice kind="warning" title="Not registered">
        <p className="result" data-testid="verify-decision">
          Nobody is registered under {who}. Check the e-mail, or enroll them first.
        </p>
      </Notice>
    )
  }
  return (
    <Notice kind="warning" title="Not enrolled">
      <p className="result" data-testid="verify-decision">
        {who} has no enrolled face yet. Enroll them first.
      </p>
    </Notice>
  )
}

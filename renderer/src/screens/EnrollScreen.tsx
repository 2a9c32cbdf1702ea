import { useRef, useState } from 'react'
import { CONSENT } from '../../../electron/shared/consent'
import { emailField, type EnrollVisitorResult } from '../../../electron/shared/workflows'
import { kiosk } from '../bridge/kiosk'
import { checkField, emailProblem } from '../components/field-check'
import { GuidedCapture, type CapturedSample, type LivenessSend } from '../components/GuidedCapture'
import { CaptureError, LivenessResult } from '../components/LivenessResult'
import { Busy, Button, Field, Notice } from '../components/ui'
import { useStepFocus } from '../components/useStepFocus'
import { useNavigation } from '../store/navigation'
import { useSession } from '../store/session'
import { EnrollDecision, type StaffDecision } from './EnrollDecision'
import { ScreenFrame } from './ScreenFrame'
import { formatQuality } from './scores'
import { useTemplateInfo } from './useTemplateInfo'

type Step = 'details' | 'capture' | 'review' | 'sending' | 'done'

/** The tenant's enrollment status as the services pass it on (null: the server did not say). */
const statusWords = (status: string | null): string => (status === 'ENROLLED' ? 'enrolled' : (status ?? 'not reported by the server'))

/** Enroll a visitor: e-mail, consent, guided capture, review, submit, result. */
export function EnrollScreen() {
  const info = useTemplateInfo()
  const go = useNavigation((s) => s.go)
  const staff = useSession((s) => s.role !== 'visitor')
  const [step, setStep] = useState<Step>('details')
  const [email, setEmail] = useState('')
  const [emailError, setEmailError] = useState<string | null>(null)
  const emailInput = useRef<HTMLInputElement>(null)
  const [consent, setConsent] = useState(false)
  const [samples, setSamples] = useState<CapturedSample[]>([])
  const [liveness, setLiveness] = useState<LivenessSend>({})
  const [result, setResult] = useState<EnrollVisitorResult | null>(null)
  const [error, setError] = useState<unknown>(null)
  const count = info?.numSamplesForEnroll ?? 3
  useStepFocus(step === 'sending' ? 'review' : step)

  // The e-mail is checked with the contract's schema before any photo is taken.
  const continueToCapture = () => {
    const problem = emailProblem(checkField(emailField, email), email)
    setEmailError(problem)
    if (problem) {
      emailInput.current?.focus()
      return
    }
    setStep('capture')
  }

  /** Sends the enrollment; staff send it again with their decision when the services ask for one. */
  const submit = async (decision: StaffDecision = {}) => {
    setStep('sending')
    setError(null)
    try {
      setResult(await kiosk.enrollVisitor({ userId: email.trim(), samples: samples.map((s) => s.base64), consent: true, consentVersion: CONSENT.version, ...liveness, ...decision }))
      setStep('done')
    } catch (caught) {
      setError(caught)
      setStep('review')
    }
  }

  return (
    <ScreenFrame title="Enroll visitor" purpose="Register a visitor’s face so they can be recognised later.">
      {step === 'details' ? (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault()
            continueToCapture()
          }}
        >
          <Field ref={emailInput} label="Visitor’s e-mail" type="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} error={emailError} required />
          <fieldset className="consent">
            <legend>Consent</legend>
            <p>{CONSENT.text}</p>
            <label>
              <input type="checkbox" checked={consent} onChange={(e) => setConsent(e.target.checked)} /> {staff ? 'The visitor has read this and agrees' : 'I have read this and agree'}
            </label>
          </fieldset>
          <div className="actions">
            <Button type="submit" disabled={!consent}>
              Continue to photos
            </Button>
          </div>
          {!consent ? <p className="hint">{staff ? 'The visitor must agree before any photo is taken.' : 'Tick the box to agree before any photo is taken.'}</p> : null}
        </form>
      ) : null}

      {step === 'capture' ? (
        <GuidedCapture
          count={count}
          label={`Take ${count} photo${count === 1 ? '' : 's'} of ${email.trim()}`}
          onDone={(taken, send) => {
            setSamples(taken)
            setLiveness(send)
            setStep('review')
          }}
          onCancel={() => setStep('details')}
          fileFallback={staff}
          liveness={() => kiosk.startLivenessChallenge({ purpose: 'enroll' })}
          livenessOverride={staff}
        />
      ) : null}

      {step === 'review' || step === 'sending' ? (
        <section aria-labelledby="review-title">
          <h2 id="review-title" tabIndex={-1}>
            Check the photos
          </h2>
          <ul className="thumbs">
            {samples.map((sample, i) => (
              <li key={i}>
                <img src={sample.dataUrl} alt={`Photo ${i + 1} of the visitor`} width={160} />
              </li>
            ))}
          </ul>
          {error ? (
            <CaptureError
              error={error}
              title="The enrollment did not go through"
              onRetry={() => {
                setError(null)
                setStep('capture')
              }}
            />
          ) : null}
          {step === 'sending' ? (
            <Busy label="Enrolling…" />
          ) : (
            <div className="actions">
              <Button onClick={() => void submit()}>Enroll {email.trim()}</Button>
              <Button variant="secondary" onClick={() => setStep('capture')}>
                Retake photos
              </Button>
            </div>
          )}
        </section>
      ) : null}

      {step === 'done' && result ? (
        <section aria-labelledby="result-title" tabIndex={-1} data-step-focus>
          <EnrollOutcome result={result} staff={staff} onDecide={(decision) => void submit(decision)} onCancel={() => go('home')} />
          {result.outcome !== 'needs-decision' ? (
            <div className="actions">
              <Button onClick={() => go('home')}>Done</Button>
            </div>
          ) : null}
        </section>
      ) : null}
    </ScreenFrame>
  )
}

function EnrollOutcome({ result, staff, onDecide, onCancel }: { result: EnrollVisitorResult; staff: boolean; onDecide: (decision: StaffDecision) => void; onCancel: () => void }) {
  switch (result.outcome) {
    case 'enrolled':
      return (
        <Notice kind="success" title="Enrolled">
          <p id="result-title">
            {result.person.userId} is enrolled{result.created ? '' : ' (they were already known: their record was reused)'}.
            {result.quality === null ? '' : ` Photo quality ${formatQuality(result.quality)}.`}
            {staff ? ` Status: ${statusWords(result.enrollmentStatus)}.` : ''}
          </p>
          <LivenessResult outcome={result.liveness} />
        </Notice>
      )
    case 'queued':
      return (
        <Notice kind="warning" title="Saved, will be sent later">
          <p id="result-title">The kiosk cannot send this enrollment right now, so it is saved here and sent automatically. Nothing more to do.</p>
          {staff ? <p>Reason: {result.reason}</p> : null}
          <LivenessResult outcome={result.liveness} />
        </Notice>
      )
    case 'needs-staff':
      return (
        <Notice kind="warning" title="Please ask staff">
          <p id="result-title" data-testid="enroll-needs-staff">
            {result.reason === 'already-enrolled'
              ? 'This e-mail is already enrolled — please ask staff.'
              : 'We cannot finish this enrollment on your own — please ask staff.'}{' '}
            Nothing was saved.
          </p>
        </Notice>
      )
    case 'needs-decision':
      return <EnrollDecision result={result} onDecide={onDecide} onCancel={onCancel} />
  }
}

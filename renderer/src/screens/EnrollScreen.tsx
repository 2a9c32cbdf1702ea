import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { EvidenceStep } from '@shared/liveness'
import { CONSENT } from '@shared/consent'
import { emailField, type EnrollVisitorResult } from '@shared/workflows'
import { kiosk } from '../bridge/kiosk'
import { checkField, emailProblem } from '../components/field-check'
import { GuidedCapture, type CapturedSample, type LivenessSend } from '../components/GuidedCapture'
import { CaptureError, isLivenessError, LivenessResult } from '../components/LivenessResult'
import { Busy, Button, Field, Notice } from '../components/ui'
import { useStepFocus } from '../components/useStepFocus'
import { InviteScanner, type ValidInvite } from '../frontdesk/InviteScanner'
import { formatVisitDay } from '../i18n/dates'
import { useNavigation } from '../store/navigation'
import { useSession } from '../store/session'
import { EnrollDecision, type StaffDecision } from './EnrollDecision'
import { ScreenFrame } from './ScreenFrame'
import { EnrollCheckIn } from './visits/EnrollCheckIn'
import { formatQuality } from './scores'
import { useTemplateInfo } from './useTemplateInfo'

type Step = 'details' | 'capture' | 'review' | 'sending' | 'done'

/** Enroll a visitor: e-mail, consent, guided capture, review, submit, result. */
export function EnrollScreen() {
  const { t, i18n } = useTranslation(['visitor', 'staff'])
  const info = useTemplateInfo()
  const go = useNavigation((s) => s.go)
  const staff = useSession((s) => s.role !== 'visitor')
  const endVisit = useSession((s) => s.endVisit)
  const [step, setStep] = useState<Step>('details')
  const [email, setEmail] = useState('')
  const [emailError, setEmailError] = useState<string | null>(null)
  const emailInput = useRef<HTMLInputElement>(null)
  const [consent, setConsent] = useState(false)
  const [samples, setSamples] = useState<CapturedSample[]>([])
  const [liveness, setLiveness] = useState<LivenessSend>({})
  // The liveness step the page did not see in time: said with the refusal.
  const [notSeen, setNotSeen] = useState<EvidenceStep | null>(null)
  const [result, setResult] = useState<EnrollVisitorResult | null>(null)
  const [error, setError] = useState<unknown>(null)
  // An invitation shown to the camera: it fills the e-mail, and its token is kept for the check-in,
  // which uses it up once the visit is stored (the services' invites.use).
  const [scanning, setScanning] = useState(false)
  const [invite, setInvite] = useState<ValidInvite | null>(null)
  // Back from the scan to the form: the focus returns to the e-mail (filled or not).
  const scanned = useRef(false)
  useEffect(() => {
    if (scanning) scanned.current = true
    else if (scanned.current) emailInput.current?.focus()
  }, [scanning])
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
  const submit = async (decision: StaffDecision = {}, taken = { samples, liveness }) => {
    setStep('sending')
    setError(null)
    try {
      setResult(await kiosk.enrollVisitor({ userId: email.trim(), samples: taken.samples.map((s) => s.base64), consent: true, consentVersion: CONSENT.version, ...taken.liveness, ...decision }))
      setStep('done')
    } catch (caught) {
      setError(caught)
      setStep('review')
    }
  }

  return (
    <ScreenFrame title={t('screens.enroll')} purpose={t('enroll.purpose')}>
      {step === 'details' && scanning ? (
        <InviteScanner
          onFound={(found) => {
            setInvite(found)
            setEmail(found.email)
            setEmailError(null)
            setScanning(false)
          }}
          onCancel={() => setScanning(false)}
        />
      ) : null}

      {step === 'details' && !scanning ? (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault()
            continueToCapture()
          }}
        >
          <Field
            ref={emailInput}
            label={t('common.email')}
            type="email"
            autoComplete="off"
            value={email}
            onChange={(e) => {
              setEmail(e.target.value)
              // Another e-mail than the invitation's: the invitation is not theirs to use.
              if (invite && e.target.value.trim() !== invite.email) setInvite(null)
            }}
            error={emailError}
            required
          />
          {invite ? (
            <Notice kind="success" title={t('invite.readTitle')}>
              <p data-testid="invite-read">
                {t('invite.read', { date: formatVisitDay(invite.date, i18n.language) })}
                {invite.hostName ? ` ${t('invite.readHost', { host: invite.hostName })}` : ''}
              </p>
            </Notice>
          ) : (
            <div className="actions">
              <Button variant="secondary" onClick={() => setScanning(true)}>
                {t('invite.scan')}
              </Button>
            </div>
          )}
          <fieldset className="consent">
            <legend>{t('consent.legend')}</legend>
            <p>{t('consent.text')}</p>
            <label>
              <input type="checkbox" checked={consent} onChange={(e) => setConsent(e.target.checked)} /> {staff ? t('staff:consent.agree') : t('consent.agree')}
            </label>
          </fieldset>
          <div className="actions">
            <Button type="submit" disabled={!consent}>
              {t('enroll.continue')}
            </Button>
          </div>
          {!consent ? <p className="hint">{staff ? t('staff:consent.tickFirst') : t('consent.tickFirst')}</p> : null}
        </form>
      ) : null}

      {step === 'capture' ? (
        <GuidedCapture
          count={count}
          label={t('enroll.captureLabel', { count, email: email.trim() })}
          onDone={(taken, send, missed) => {
            setSamples(taken)
            setLiveness(send)
            setNotSeen(missed ?? null)
            // A step not seen in time: the services judge the burst now (and audit it), so the refusal comes at once.
            if (missed) void submit({}, { samples: taken, liveness: send })
            else setStep('review')
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
            {t('enroll.reviewTitle')}
          </h2>
          <ul className="thumbs">
            {samples.map((sample, i) => (
              <li key={i}>
                <img src={sample.dataUrl} alt={t('enroll.photoAlt', { number: i + 1 })} width={160} />
              </li>
            ))}
          </ul>
          {error ? (
            <CaptureError
              error={error}
              title={t('enroll.failedTitle')}
              notSeen={notSeen}
              // A refused liveness check starts a new capture; any other error keeps the photos, with Enroll and Retake under it.
              onRetry={
                isLivenessError(error)
                  ? () => {
                      setError(null)
                      setStep('capture')
                    }
                  : undefined
              }
            />
          ) : null}
          {step === 'sending' ? (
            <Busy label={t('enroll.sending')} />
          ) : isLivenessError(error) ? null : (
            <div className="actions">
              <Button onClick={() => void submit()}>{t('enroll.submit', { email: email.trim() })}</Button>
              <Button variant="secondary" onClick={() => setStep('capture')}>
                {t('enroll.retake')}
              </Button>
            </div>
          )}
        </section>
      ) : null}

      {step === 'done' && result ? (
        <section aria-labelledby="result-title" tabIndex={-1} data-step-focus>
          <EnrollOutcome result={result} staff={staff} onDecide={(decision) => void submit(decision)} onCancel={() => go('home')} />
          {/* Queued (the servers unreachable): a site's kiosk checks in the person this window enrolled all the same, and says so. */}
          {result.outcome === 'enrolled' || (result.outcome === 'queued' && result.checkIn) ? (
            <EnrollCheckIn personUuid={result.outcome === 'enrolled' ? result.person.uuid : null} invite={invite} photo={samples[0]?.dataUrl ?? null} onDone={endVisit} />
          ) : result.outcome !== 'needs-decision' ? (
            <div className="actions">
              <Button onClick={endVisit}>{t('common.done')}</Button>
            </div>
          ) : null}
        </section>
      ) : null}
    </ScreenFrame>
  )
}

function EnrollOutcome({ result, staff, onDecide, onCancel }: { result: EnrollVisitorResult; staff: boolean; onDecide: (decision: StaffDecision) => void; onCancel: () => void }) {
  const { t } = useTranslation(['visitor', 'staff'])
  switch (result.outcome) {
    case 'enrolled': {
      const status = result.enrollmentStatus === 'ENROLLED' ? t('staff:enroll.statusEnrolled') : (result.enrollmentStatus ?? t('staff:enroll.statusUnknown'))
      return (
        <Notice kind="success" title={t('enroll.enrolledTitle')}>
          <p id="result-title">
            {t(result.created ? 'enroll.enrolled' : 'enroll.enrolledKnown', { email: result.person.userId })}
            {result.quality === null ? '' : ` ${t('staff:enroll.quality', { quality: formatQuality(result.quality) })}`}
            {staff ? ` ${t('staff:enroll.status', { status })}` : ''}
          </p>
          <LivenessResult outcome={result.liveness} />
        </Notice>
      )
    }
    case 'queued':
      return (
        <Notice kind="warning" title={t('enroll.queuedTitle')}>
          <p id="result-title">{t(result.checkIn ? 'enroll.queuedCheckIn' : 'enroll.queued')}</p>
          {staff ? <p>{t('staff:enroll.reason', { reason: result.reason })}</p> : null}
          <LivenessResult outcome={result.liveness} />
        </Notice>
      )
    case 'needs-staff':
      // Sent to the desk with no reason given, staff or visitor at the screen (staff get the alert).
      if (result.reason === 'see-front-desk') {
        return (
          <Notice kind="warning">
            <p id="result-title" data-testid="enroll-needs-staff">
              {t('enroll.seeFrontDesk')}
            </p>
          </Notice>
        )
      }
      return (
        <Notice kind="warning" title={t('enroll.askStaffTitle')}>
          <p id="result-title" data-testid="enroll-needs-staff">
            {t(result.reason === 'already-enrolled' ? 'enroll.alreadyEnrolled' : 'enroll.cannotFinish')} {t('enroll.nothingSaved')}
          </p>
        </Notice>
      )
    case 'needs-decision':
      return <EnrollDecision result={result} onDecide={onDecide} onCancel={onCancel} />
  }
}

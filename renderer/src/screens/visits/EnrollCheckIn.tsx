import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { VisitorCheckResult } from '@shared/visits'
import { kiosk } from '../../bridge/kiosk'
import { Busy, Button, ErrorNotice, Field } from '../../components/ui'
import { ConfirmDialog } from '../staff/controls'
import { BadgePhotoConsent } from './BadgePhotoConsent'
import { HostFields } from './HostFields'
import { useHostNames } from './useHostNames'
import { VisitOutcome } from './VisitOutcome'

/**
 * After enrolling: the person just enrolled checks in (host, reason, and the first name the host and
 * badge will show). An invitation scanned before enrolling goes with it: the services use it up.
 * `photo` is the enrollment's first photo, for the badge's face where the visitor agrees to it.
 * No `personUuid`: the enrollment waits in the outbox (the servers have given no id yet), and the
 * services check in the person this window just enrolled.
 * Check in is the one main action; leaving without checking in is a quiet link that asks first.
 * `onDone` ends the visitor's turn (after the result, or leaving without checking in).
 */
export function EnrollCheckIn({ personUuid, invite, photo, onDone }: { personUuid?: string | null; invite?: { token: string; hostName: string | null } | null; photo: string | null; onDone: () => void }) {
  const { t } = useTranslation()
  const hosts = useHostNames()
  const [hostId, setHostId] = useState('')
  const [purpose, setPurpose] = useState('')
  const [firstName, setFirstName] = useState('')
  const [badgePhoto, setBadgePhoto] = useState(false)
  // A refused invitation is dropped at the visitor's word, and the check-in goes on without it.
  const [withInvite, setWithInvite] = useState(true)
  const [busy, setBusy] = useState(false)
  const [result, setResult] = useState<VisitorCheckResult | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [leaving, setLeaving] = useState(false)

  const checkIn = async () => {
    setBusy(true)
    setError(null)
    try {
      setResult(await kiosk.checkIn({ ...(personUuid && { personUuid }), ...(withInvite && invite && { inviteToken: invite.token }), ...(hostId && { hostId }), ...(purpose.trim() && { purpose: purpose.trim() }), ...(firstName.trim() && { firstName: firstName.trim() }), ...(badgePhoto && { badgePhoto }) }))
    } catch (caught) {
      setError(caught)
    } finally {
      setBusy(false)
    }
  }

  if (result) {
    return (
      <section aria-labelledby="result-title" tabIndex={-1} data-step-focus>
        <VisitOutcome result={result} returning={false} photo={photo} />
        <div className="actions">
          <Button onClick={onDone}>{t('common.done')}</Button>
          {result.outcome === 'refused' && result.reason === 'invite' ? (
            <Button
              variant="secondary"
              onClick={() => {
                setWithInvite(false)
                setResult(null)
              }}
            >
              {t('invite.checkInWithout')}
            </Button>
          ) : null}
        </div>
      </section>
    )
  }
  return (
    <form
      noValidate
      aria-labelledby="check-in-title"
      onSubmit={(event) => {
        event.preventDefault()
        void checkIn()
      }}
    >
      <h2 id="check-in-title">{t('visit.checkInTitle')}</h2>
      {error ? <ErrorNotice error={error} title={t('visit.checkInFailedTitle')} /> : null}
      <Field label={t('visit.firstName')} value={firstName} maxLength={80} autoComplete="off" onChange={(e) => setFirstName(e.target.value)} data-testid="visit-first-name" />
      <HostFields hosts={hosts} hostId={hostId} purpose={purpose} noneLabel={withInvite && invite?.hostName ? t('visit.hostInvite', { host: invite.hostName }) : t('visit.hostNone')} onHost={setHostId} onPurpose={setPurpose} />
      <BadgePhotoConsent checked={badgePhoto} onChange={setBadgePhoto} />
      <div className="actions">{busy ? <Busy label={t('visit.checking')} /> : <Button type="submit">{t('visit.checkInNow')}</Button>}</div>
      {/* Enrolling may be all this visitor came for: leaving is offered, quietly, and asked first. */}
      <button type="button" className="link" disabled={busy} onClick={() => setLeaving(true)}>
        {t('visit.leaveWithout')}
      </button>
      {leaving ? (
        // Check in (the safe answer, focused) checks in with the form as filled; Leave ends the visitor's turn; Escape stays on the form.
        <ConfirmDialog
          title={t('visit.leaveTitle')}
          confirmLabel={t('visit.leave')}
          confirmVariant="secondary"
          cancelLabel={t('visit.checkInNow')}
          cancelVariant="primary"
          onCancel={() => {
            setLeaving(false)
            void checkIn()
          }}
          onDismiss={() => setLeaving(false)}
          onConfirm={onDone}
        >
          <p>{t('visit.leaveBody')}</p>
        </ConfirmDialog>
      ) : null}
    </form>
  )
}

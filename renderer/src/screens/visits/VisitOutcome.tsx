import { useTranslation } from 'react-i18next'
import type { VisitorCheckResult } from '@shared/visits'
import { Notice } from '../../components/ui'
import { checkInBadge } from '../../frontdesk/badge-facts'
import { useBadgePhoto } from '../../frontdesk/badge-photo'
import { PrintableBadge } from '../../frontdesk/PrintableBadge'
import './visits.css'

/**
 * What a visitor reads after a check-in or check-out: their own name, that their host will be told
 * (only when that is so), with their badge to print; or why their invitation could not be used; or
 * "please see the front desk". `photo` is the photo of this check-in: the badge shows the face cut
 * from it when the services allow it.
 */
export function VisitOutcome({ result, returning, photo = null }: { result: VisitorCheckResult; returning: boolean; photo?: string | null }) {
  const { t } = useTranslation()
  const faceCrop = useBadgePhoto(result.outcome === 'checked-in' && result.badgePhoto ? photo : null)
  switch (result.outcome) {
    case 'checked-in':
      return (
        <div className="visit-checked-in">
          <Notice kind="success" title={t('visit.checkedInTitle')}>
            <p className="result" id="result-title" data-testid="visit-outcome">
              {t(returning ? 'visit.welcomeBack' : 'visit.welcome', { name: result.greeting })}
              {result.alreadyOnSite ? ` ${t('visit.alreadyHere')}` : ''}
            </p>
            {/* Promised only when a notice was queued on a channel that is set up: not to someone already here, nor when it cannot be sent. */}
            {result.hostName && result.hostNotified ? <p>{t('visit.hostTold', { host: result.hostName })}</p> : null}
          </Notice>
          <PrintableBadge visit={checkInBadge(result)} faceCrop={faceCrop} />
        </div>
      )
    case 'checked-out':
      return (
        <Notice kind="success" title={t('visit.checkedOutTitle')}>
          <p className="result" id="result-title" data-testid="visit-outcome">
            {t('visit.goodbye', { name: result.greeting })}
          </p>
        </Notice>
      )
    case 'refused':
      if (result.reason === 'invite') {
        return (
          <Notice kind="warning" title={t('invite.refusedTitle')}>
            <p className="result" id="result-title" data-testid="visit-outcome">
              {t(result.invite === 'other-email' ? 'invite.otherEmail' : `invite.${result.invite ?? 'invalid'}`)}
            </p>
          </Notice>
        )
      }
      return result.reason === 'not-on-site' ? (
        <Notice kind="warning" title={t('visit.notOnSiteTitle')}>
          <p className="result" id="result-title" data-testid="visit-outcome">
            {t('visit.notOnSite')}
          </p>
        </Notice>
      ) : (
        <Notice kind="warning" title={t('visit.seeFrontDeskTitle')}>
          <p className="result" id="result-title" data-testid="visit-outcome">
            {t('visit.seeFrontDesk')}
          </p>
        </Notice>
      )
  }
}

import { useTranslation } from 'react-i18next'
import type { VisitorCheckResult } from '@shared/visits'
import { Notice } from '../../components/ui'
import { checkInBadge } from '../../frontdesk/badge-facts'
import { useBadgePhoto } from '../../frontdesk/badge-photo'
import { PrintableBadge } from '../../frontdesk/PrintableBadge'
import { hostLine } from './host-line'
import './visits.css'

/**
 * What a visitor reads after a check-in or check-out: their own name, that their host will be told
 * (only when that is so), with their badge to print; at a site's kiosk while its site is away, that
 * the check-in or check-out is kept here and reaches the front desk (and the host) when it is back;
 * or why their invitation could not be used; or "please see the front desk". `photo` is the photo
 * of this check-in: the badge shows the face cut from it when the services allow it.
 */
export function VisitOutcome({ result, returning, photo = null }: { result: VisitorCheckResult; returning: boolean; photo?: string | null }) {
  const { t } = useTranslation()
  const faceCrop = useBadgePhoto(result.outcome === 'checked-in' && result.badgePhoto ? photo : null)
  switch (result.outcome) {
    case 'checked-in': {
      const host = hostLine(result)
      return (
        <div className="visit-checked-in">
          <Notice kind="success" title={t('visit.checkedInTitle')}>
            <p className="result" id="result-title" data-testid="visit-outcome">
              {t(returning ? 'visit.welcomeBack' : 'visit.welcome', { name: result.greeting })}
              {result.alreadyOnSite ? ` ${t('visit.alreadyHere')}` : ''}
            </p>
            {result.offline ? <p data-testid="visit-offline">{t('visit.offlineCheckedIn')}</p> : null}
            {/* "Told" only when a notice was queued on a channel that is set up; kept offline, only "told then" (see hostLine). */}
            {host === 'told' ? <p>{t('visit.hostTold', { host: result.hostName })}</p> : null}
            {host === 'later' ? <p data-testid="visit-offline-host">{t('visit.offlineHostLater', { host: result.hostName })}</p> : null}
          </Notice>
          <PrintableBadge visit={checkInBadge(result)} faceCrop={faceCrop} />
        </div>
      )
    }
    case 'checked-out':
      return (
        <Notice kind="success" title={t('visit.checkedOutTitle')}>
          <p className="result" id="result-title" data-testid="visit-outcome">
            {t('visit.goodbye', { name: result.greeting })}
          </p>
          {result.offline ? <p data-testid="visit-offline">{t('visit.offlineCheckedOut')}</p> : null}
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

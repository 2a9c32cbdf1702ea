import { useTranslation } from 'react-i18next'
import { useLive } from '../store/live'
import { useNavigation } from '../store/navigation'
import { useSession } from '../store/session'

/**
 * On every screen: the servers are unreachable, or enrollments are waiting. Enrollments the
 * servers refused (needs attention) are for staff only: a staff notice on every staff screen, with
 * the way to the outbox; a visitor can do nothing about them and is not told.
 */
export function OfflineBanner() {
  const { t } = useTranslation(['visitor', 'staff'])
  const outbox = useLive((s) => s.outbox)
  const staff = useSession((s) => s.role !== 'visitor')
  const go = useNavigation((s) => s.go)
  if (!outbox) return null
  const waiting = outbox.counts.queued + outbox.counts.inFlight
  const parked = staff ? outbox.counts.needsAttention : 0
  const offline = outbox.online === false
  if (!offline && waiting === 0 && parked === 0) return null
  const parts = [offline ? t('offline.banner') : null, waiting > 0 ? t(offline ? 'offline.waitingOffline' : 'offline.waiting', { count: waiting }) : null].filter(Boolean)
  return (
    <div className="offline-banner" role="status" data-testid="offline-banner">
      {parts.length > 0 ? <span>{parts.join(' ')}</span> : null}
      {parked > 0 ? (
        <strong data-testid="attention-notice">
          {t('staff:outbox.needsAttention', { count: parked })}
        </strong>
      ) : null}
      {staff ? (
        <button type="button" className="link" onClick={() => go('outbox')}>
          {t('staff:outbox.open')}
        </button>
      ) : null}
    </div>
  )
}

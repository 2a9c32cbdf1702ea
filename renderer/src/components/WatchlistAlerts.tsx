import { useCallback, useEffect, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { WatchlistAlert } from '@shared/watchlist'
import { kiosk } from '../bridge/kiosk'
import { formatDateTime } from '../screens/staff/format'
import { useLive } from '../store/live'
import { useSession } from '../store/session'
import { Button, ErrorNotice } from './ui'

/** A slow re-read besides the pushed events (an event missed while the page reconnected); a status read, it keeps no session alive. */
const ALERTS_POLL_MS = 15_000

/**
 * On every screen while staff are signed in: each watchlist alert nobody has dismissed, with who,
 * when and where, and a dismiss. The services push only an alert's id, and only to staff sessions;
 * the details are read here. A visitor's screen never renders this.
 */
export function WatchlistAlerts() {
  const staff = useSession((s) => s.role !== 'visitor')
  return staff ? <StaffWatchlistAlerts /> : null
}

function StaffWatchlistAlerts() {
  const { t } = useTranslation('staff')
  const pushed = useLive((s) => s.watchlistAlerts)
  const [alerts, setAlerts] = useState<WatchlistAlert[]>([])
  const [failed, setFailed] = useState<unknown>(null)
  const [busy, setBusy] = useState<string | null>(null)
  const read = useCallback(() => {
    kiosk.getWatchlistAlerts({}).then(setAlerts, () => {})
  }, [])
  useEffect(() => {
    read()
    const timer = setInterval(read, ALERTS_POLL_MS)
    return () => clearInterval(timer)
  }, [read, pushed])

  const dismiss = async (alert: WatchlistAlert) => {
    setBusy(alert.id)
    setFailed(null)
    try {
      await kiosk.dismissWatchlistAlert({ id: alert.id })
      setAlerts((shown) => shown.filter((a) => a.id !== alert.id))
    } catch (error) {
      setFailed(error)
      read()
    } finally {
      setBusy(null)
    }
  }

  if (alerts.length === 0 && !failed) return null
  return (
    <div className="watchlist-alerts" lang="en" dir="ltr">
      {alerts.map((alert) => (
        <AlertLine key={alert.id} alert={alert} busy={busy === alert.id} onDismiss={() => void dismiss(alert)} />
      ))}
      {failed ? <ErrorNotice error={failed} title={t('watchlist.notDismissed')} /> : null}
    </div>
  )
}

/**
 * One alert on one line above every screen (the Visits screen keeps its height), its words cut at
 * the end; More shows them all. The desk recognises the person by their first name, and knows the
 * kiosk by the name staff gave it: its id means nothing to them.
 */
function AlertLine({ alert, busy, onDismiss }: { alert: WatchlistAlert; busy: boolean; onDismiss: () => void }) {
  const { t } = useTranslation('staff')
  const [open, setOpen] = useState(false)
  const textId = useId()
  // No name: a kiosk on its own (its alerts are all its own), or a call with no kiosk behind it (a tool on the site).
  const where = alert.kioskName ? t('watchlist.atKiosk', { kiosk: alert.kioskName }) : alert.kioskId ? t('watchlist.atThisKiosk') : t('watchlist.atSite')
  return (
    <div className={`watchlist-alert${open ? ' open' : ''}`} role="alert" data-testid="watchlist-alert">
      <p className="watchlist-alert-text" id={textId}>
        <strong>{t('watchlist.alertTitle')}</strong>{' '}
        {t('watchlist.alert', {
          who: alert.firstName ? t('watchlist.alertWho', { firstName: alert.firstName, email: alert.email }) : alert.email,
          place: t(alert.place === 'enrollment' ? 'watchlist.placeEnrollment' : 'watchlist.placeCheckIn'),
          where,
          time: formatDateTime(alert.at),
        })}{' '}
        {alert.givenEmail ? `${t('watchlist.alertGiven', { given: alert.givenEmail })} ` : null}
        {t('watchlist.alertReason', { reason: alert.reason })} {t('watchlist.alertNext')}
      </p>
      <Button variant="secondary" className="btn-small" aria-expanded={open} aria-controls={textId} aria-label={t('watchlist.alertMoreLabel', { email: alert.email })} onClick={() => setOpen(!open)}>
        {t(open ? 'watchlist.alertLess' : 'watchlist.alertMore')}
      </Button>
      <Button variant="secondary" className="btn-small" busy={busy} aria-label={t('watchlist.dismissLabel', { email: alert.email })} onClick={onDismiss}>
        {t('watchlist.dismiss')}
      </Button>
    </div>
  )
}

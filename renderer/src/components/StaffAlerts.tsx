import { useCallback, useEffect, useId, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { InviteAlert, InviteAlertVisit } from '@shared/invite-alerts'
import type { WatchlistAlert } from '@shared/watchlist'
import { kiosk } from '../bridge/kiosk'
import { formatDateTime } from '../screens/staff/format'
import { useLive } from '../store/live'
import { useSession } from '../store/session'
import { Button, ErrorNotice } from './ui'

/** A slow re-read besides the pushed events (an event missed while the page reconnected); a status read, it keeps no session alive. */
const ALERTS_POLL_MS = 15_000

/**
 * On every screen while staff are signed in: each alert nobody has dismissed (a watchlisted person
 * stopped, an invitation code the site would not count), with a dismiss. The services push only an
 * alert's id, and only to staff sessions; the details are read here. A visitor's screen never renders this.
 */
export function StaffAlerts() {
  const staff = useSession((s) => s.role !== 'visitor')
  return staff ? (
    <div className="staff-alerts" lang="en" dir="ltr">
      <WatchlistAlerts />
      <InviteAlerts />
    </div>
  ) : null
}

// Module-level, so each kind's reader stays the same function from render to render.
const readWatchlistAlerts = () => kiosk.getWatchlistAlerts({})
const dismissWatchlistAlert = (id: string) => kiosk.dismissWatchlistAlert({ id })
const readInviteAlerts = () => kiosk.getInviteAlerts({})
const dismissInviteAlert = (id: string) => kiosk.dismissInviteAlert({ id })

function WatchlistAlerts() {
  const { t } = useTranslation('staff')
  const pushed = useLive((s) => s.watchlistAlerts)
  // No name: a kiosk on its own (its alerts are all its own), or a call with no kiosk behind it (a tool on the site).
  const where = (alert: WatchlistAlert) => (alert.kioskName ? t('alerts.atKiosk', { kiosk: alert.kioskName }) : alert.kioskId ? t('watchlist.atThisKiosk') : t('watchlist.atSite'))
  return (
    <AlertLines
      read={readWatchlistAlerts}
      dismiss={dismissWatchlistAlert}
      pushed={pushed}
      notDismissed={t('watchlist.notDismissed')}
      line={(alert) => ({
        testId: 'watchlist-alert',
        moreLabel: t('watchlist.alertMoreLabel', { email: alert.email }),
        dismissLabel: t('watchlist.dismissLabel', { email: alert.email }),
        // The desk recognises the person by their first name.
        text: (
          <>
            <strong>{t('watchlist.alertTitle')}</strong>{' '}
            {t('watchlist.alert', {
              who: alert.firstName ? t('watchlist.alertWho', { firstName: alert.firstName, email: alert.email }) : alert.email,
              place: t(alert.place === 'enrollment' ? 'watchlist.placeEnrollment' : 'watchlist.placeCheckIn'),
              where: where(alert),
              time: formatDateTime(alert.at),
            })}{' '}
            {alert.givenEmail ? `${t('watchlist.alertGiven', { given: alert.givenEmail })} ` : null}
            {t('watchlist.alertReason', { reason: alert.reason })} {t('watchlist.alertNext')}
          </>
        ),
      })}
    />
  )
}

function InviteAlerts() {
  const { t } = useTranslation('staff')
  const pushed = useLive((s) => s.inviteAlerts)
  // These visits are all a site's: no name is a kiosk since removed from it.
  const where = (visit: InviteAlertVisit) => (visit.kioskName ? t('alerts.atKiosk', { kiosk: visit.kioskName }) : t('inviteAlerts.atRemovedKiosk'))
  const what = (alert: InviteAlert) => {
    const invitation = alert.hostName ? t('inviteAlerts.invitationHost', { email: alert.email, host: alert.hostName }) : t('inviteAlerts.invitation', { email: alert.email })
    const visit = { invitation, where: where(alert.visit), time: formatDateTime(alert.visit.at) }
    if (alert.reason !== 'used') return t(`inviteAlerts.${alert.reason}`, visit)
    return alert.firstVisit ? t('inviteAlerts.used', { ...visit, firstWhere: where(alert.firstVisit), firstTime: formatDateTime(alert.firstVisit.at) }) : t('inviteAlerts.usedBefore', visit)
  }
  return (
    <AlertLines
      read={readInviteAlerts}
      dismiss={dismissInviteAlert}
      pushed={pushed}
      notDismissed={t('inviteAlerts.notDismissed')}
      line={(alert) => ({
        testId: 'invite-alert',
        moreLabel: t('inviteAlerts.moreLabel', { email: alert.email }),
        dismissLabel: t('inviteAlerts.dismissLabel', { email: alert.email }),
        text: (
          <>
            <strong>{t('inviteAlerts.title')}</strong> {what(alert)} {t('inviteAlerts.next')}
          </>
        ),
      })}
    />
  )
}

/** What one alert's line shows. */
interface LineWords {
  testId: string
  text: ReactNode
  moreLabel: string
  dismissLabel: string
}

/** One kind of alert: read at once, on each pushed event (`pushed` changes) and every ALERTS_POLL_MS; a dismissed one goes at once. */
function AlertLines<A extends { id: string }>({
  read,
  dismiss,
  pushed,
  notDismissed,
  line,
}: {
  read: () => Promise<A[]>
  dismiss: (id: string) => Promise<unknown>
  pushed: number
  notDismissed: string
  line: (alert: A) => LineWords
}) {
  const [alerts, setAlerts] = useState<A[]>([])
  const [failed, setFailed] = useState<unknown>(null)
  const [busy, setBusy] = useState<string | null>(null)
  const reread = useCallback(() => {
    read().then(setAlerts, () => {})
  }, [read])
  useEffect(() => {
    reread()
    const timer = setInterval(reread, ALERTS_POLL_MS)
    return () => clearInterval(timer)
  }, [reread, pushed])

  const onDismiss = async (id: string) => {
    setBusy(id)
    setFailed(null)
    try {
      await dismiss(id)
      setAlerts((shown) => shown.filter((a) => a.id !== id))
    } catch (error) {
      setFailed(error)
      reread()
    } finally {
      setBusy(null)
    }
  }

  return (
    <>
      {alerts.map((alert) => (
        <AlertLine key={alert.id} {...line(alert)} busy={busy === alert.id} onDismiss={() => void onDismiss(alert.id)} />
      ))}
      {failed ? <ErrorNotice error={failed} title={notDismissed} /> : null}
    </>
  )
}

/**
 * One alert on one line above every screen (the Visits screen keeps its height), its words cut at
 * the end; More shows them all. Kiosks are named as staff named them: their ids mean nothing to them.
 */
function AlertLine({ testId, text, moreLabel, dismissLabel, busy, onDismiss }: LineWords & { busy: boolean; onDismiss: () => void }) {
  const { t } = useTranslation('staff')
  const [open, setOpen] = useState(false)
  const textId = useId()
  return (
    <div className={`staff-alert${open ? ' open' : ''}`} role="alert" data-testid={testId}>
      <p className="staff-alert-text" id={textId}>
        {text}
      </p>
      <Button variant="secondary" className="btn-small" aria-expanded={open} aria-controls={textId} aria-label={moreLabel} onClick={() => setOpen(!open)}>
        {t(open ? 'alerts.less' : 'alerts.more')}
      </Button>
      <Button variant="secondary" className="btn-small" busy={busy} aria-label={dismissLabel} onClick={onDismiss}>
        {t('alerts.dismiss')}
      </Button>
    </div>
  )
}

import { useTranslation } from 'react-i18next'
import { transport } from '../bridge/kiosk'
import { readinessOf, useLive, type Readiness } from '../store/live'
import { useSession } from '../store/session'
import { formatDateTime } from '../screens/staff/format'

const engineWords = {
  stopped: 'stopped',
  starting: 'starting…',
  running: 'running',
  restarting: 'restarting…',
  failed: 'failed',
} as const

export function StatusBar() {
  const { t } = useTranslation(['visitor', 'staff'])
  // What a visitor reads: whether the kiosk can serve them, in plain words (the engine's details are for staff).
  const readinessWords: Record<Readiness, string> = { unknown: t('status.unknown'), starting: t('status.starting'), ready: t('status.ready'), failed: t('status.failed') }
  const appInfo = useLive((s) => s.appInfo)
  const engine = useLive((s) => s.engine)
  const error = useLive((s) => s.error)
  const staff = useSession((s) => s.role !== 'visitor')
  const site = useLive((s) => s.siteSync)
  return (
    <footer className="statusbar" aria-live="polite">
      {error ? (
        <span role="alert" className="error">
          {error}
        </span>
      ) : staff ? (
        <>
          <span data-testid="engine-state">
            {t('staff:status.engine', { state: engine ? engineWords[engine.state] : '…' })}
            {engine?.lastError ? ` (${engine.lastError})` : ''}
          </span>
          {site ? (
            <span data-testid="site-sync" className={site.online ? undefined : 'error'}>
              {site.online
                ? t('staff:status.siteOnline', { asOf: site.copyAsOf === null ? t('staff:status.siteNever') : formatDateTime(site.copyAsOf) })
                : t('staff:status.siteOffline', { since: formatDateTime(site.offlineSince), acts: site.waitingActs, asOf: site.copyAsOf === null ? t('staff:status.siteNever') : formatDateTime(site.copyAsOf) })}
            </span>
          ) : null}
          <span data-testid="node-version">{appInfo ? t('staff:status.node', { version: appInfo.nodeVersion }) : ''}</span>
          <span>{appInfo ? t(appInfo.shell === 'electron' ? 'staff:status.desktop' : 'staff:status.web', { transport: transport === 'ipc' ? 'IPC' : 'bridge', version: appInfo.version }) : ''}</span>
        </>
      ) : (
        <span data-testid="engine-state">{readinessWords[readinessOf(engine)]}</span>
      )}
    </footer>
  )
}

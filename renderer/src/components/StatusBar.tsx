import { transport } from '../bridge/kiosk'
import { readinessOf, useLive, type Readiness } from '../store/live'
import { useSession } from '../store/session'

const engineWords = {
  stopped: 'stopped',
  starting: 'starting…',
  running: 'running',
  restarting: 'restarting…',
  failed: 'failed',
} as const

/** What a visitor reads: whether the kiosk can serve them, in plain words (the engine's details are for staff). */
const readinessWords: Record<Readiness, string> = {
  unknown: '…',
  starting: 'Starting…',
  ready: 'Ready',
  failed: 'Out of service — please ask staff',
}

export function StatusBar() {
  const appInfo = useLive((s) => s.appInfo)
  const engine = useLive((s) => s.engine)
  const error = useLive((s) => s.error)
  const staff = useSession((s) => s.role !== 'visitor')
  return (
    <footer className="statusbar" aria-live="polite">
      {error ? (
        <span role="alert" className="error">
          {error}
        </span>
      ) : staff ? (
        <>
          <span data-testid="engine-state">
            Engine: {engine ? engineWords[engine.state] : '…'}
            {engine?.lastError ? ` (${engine.lastError})` : ''}
          </span>
          <span data-testid="node-version">{appInfo ? `Node ${appInfo.nodeVersion}` : ''}</span>
          <span>{appInfo ? `${appInfo.shell === 'electron' ? 'Desktop' : 'Web'} · ${transport === 'ipc' ? 'IPC' : 'bridge'} · v${appInfo.version}` : ''}</span>
        </>
      ) : (
        <span data-testid="engine-state">{readinessWords[readinessOf(engine)]}</span>
      )}
    </footer>
  )
}

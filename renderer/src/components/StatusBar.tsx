import type { EngineStatus } from '../../../electron/shared/contract'
import { transport } from '../bridge/kiosk'
import { useSession } from '../store/session'
import { useStatus } from '../store/status'

const engineWords = {
  stopped: 'stopped',
  starting: 'starting…',
  running: 'running',
  restarting: 'restarting…',
  failed: 'failed',
} as const

/** What a visitor reads: whether the kiosk can serve them, in plain words (the engine's details are for staff). */
function readiness(engine: EngineStatus | null): string {
  if (!engine) return '…'
  if (engine.mode === 'remote' || engine.state === 'running') return 'Ready'
  if (engine.state === 'failed') return 'Out of service — please ask staff'
  return 'Starting…'
}

export function StatusBar() {
  const { appInfo, engine, error } = useStatus()
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
        <span data-testid="engine-state">{readiness(engine)}</span>
      )}
    </footer>
  )
}

import { transport } from '../bridge/kiosk'
import { useStatus } from '../store/status'

const engineWords = {
  stopped: 'stopped',
  starting: 'starting…',
  running: 'running',
  restarting: 'restarting…',
  failed: 'failed',
} as const

export function StatusBar() {
  const { appInfo, engine, error } = useStatus()
  return (
    <footer className="statusbar" aria-live="polite">
      {error ? (
        <span role="alert" className="error">
          {error}
        </span>
      ) : (
        <>
          <span data-testid="engine-state">
            Engine: {engine ? engineWords[engine.state] : '…'}
            {engine?.lastError ? ` (${engine.lastError})` : ''}
          </span>
          <span data-testid="node-version">{appInfo ? `Node ${appInfo.nodeVersion}` : ''}</span>
          <span>{appInfo ? `${appInfo.shell === 'electron' ? 'Desktop' : 'Web'} · ${transport === 'ipc' ? 'IPC' : 'bridge'} · v${appInfo.version}` : ''}</span>
        </>
      )}
    </footer>
  )
}

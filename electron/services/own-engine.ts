import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { defaultSettings, usesRemoteServers, type KioskSettings } from '../shared/settings'
import type { Backend } from './backend'
import { BackendResolver, engineNotRunning } from './backend-resolver'
import type { LaunchEngine } from './engine-launch'
import { EngineSupervisor } from './engine-supervisor'
import type { CredentialStore } from './secrets/credentials'

export interface OwnEngineDeps {
  dataDir: string
  credentials: CredentialStore
  launchEngine: LaunchEngine
  settings: () => Promise<KioskSettings>
  log: (line: string) => void
}

/**
 * The kiosk's own engine process: embedded mode's servers on `engine/`, and in remote mode (on
 * demand) the liveness judge, the offline replica on `replica/` and the offline face match. The
 * two folders never mix: the engine always runs on the one its mode needs.
 */
export function ownEngine(deps: OwnEngineDeps) {
  let launchSpec: Parameters<LaunchEngine>[0] | null = null
  const supervisor = new EngineSupervisor({
    launch: () => {
      if (!launchSpec) throw new Error('the engine launch was not prepared')
      return deps.launchEngine(launchSpec)
    },
    log: (line) => deps.log(`engine: ${line}`),
  })
  const target = { url: () => supervisor.getStatus().url, state: () => supervisor.getStatus().state }
  const replicaDir = join(deps.dataDir, 'replica')
  const dirFor = (current: KioskSettings) => (usesRemoteServers(current.mode) ? replicaDir : join(deps.dataDir, 'engine'))
  let runningDir: string | null = null
  const resolver = new BackendResolver(deps.credentials, target)

  /** Starts the engine with this install's credentials from the keychain (never on argv). */
  async function start(current: KioskSettings): Promise<string> {
    const [client, templateKey] = [await deps.credentials.embeddedEngineCredentials(), await deps.credentials.engineTemplateKey()]
    const dir = dirFor(current)
    // One still up on the other mode's folder (the mode changed while it started) is stopped first.
    if (runningDir !== dir && supervisor.getStatus().state !== 'stopped') await supervisor.stop()
    runningDir = dir
    launchSpec = {
      argv: ['--port', '0', '--data', dir, '--tenant', current.tenantCode],
      env: { ENGINE_CLIENT_ID: client.clientId, ENGINE_CLIENT_SECRET: client.clientSecret, ENGINE_TEMPLATE_KEY: templateKey.toString('base64') },
    }
    return supervisor.start()
  }

  /**
   * The engine's URL for liveness, the replica or an offline face match. In remote mode it is off
   * until one of them needs it; then it starts and stays up (it is stopped only when the mode
   * changes to remote again, or the replica is wiped).
   */
  async function url(): Promise<string> {
    const current = await deps.settings()
    const status = supervisor.getStatus()
    if (status.state === 'running' && status.url && runningDir === dirFor(current)) return status.url
    if (current.mode === 'embedded') throw engineNotRunning(status.state)
    return start(current)
  }

  return {
    supervisor,
    /** What the remote/embedded BackendResolver needs of it. */
    target,
    replicaDir,
    start,
    url,
    /** The engine as a Backend whatever the mode: the settings' tenant, its own template type and thresholds. */
    async backend(): Promise<Backend> {
      await url()
      const current = await deps.settings()
      return resolver.backend({ ...current, mode: 'embedded', templateType: defaultSettings.templateType, verifyThresholdOverride: null, identifyThresholdOverride: null })
    },
    /** Deletes the replica's folder, stopping the engine first when it runs on it. */
    async eraseReplica(): Promise<void> {
      if (runningDir === replicaDir) {
        await supervisor.stop()
        await resolver.reset()
      }
      rmSync(replicaDir, { recursive: true, force: true })
    },
    close: () => resolver.reset(),
  }
}

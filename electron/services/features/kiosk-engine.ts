import type { AppInfo, EngineStatus } from '../../shared/contract'
import type { KioskEvent } from '../../shared/events'
import type { KioskSettings } from '../../shared/settings'
import type { Backend } from '../backend'
import type { EngineSupervisor } from '../engine-supervisor'
import { engineAdmin } from '../workflows/engine-admin'
import { migrateTemplates, templateCoverage } from '../workflows/template-coverage'
import type { Feature } from './feature'

export interface KioskEngineDeps {
  shell: AppInfo['shell']
  version: string
  /** The kiosk's own engine process, and what closes its clients. */
  own: { supervisor: Pick<EngineSupervisor, 'getStatus' | 'onChange' | 'stop'>; close(): Promise<void> }
  /** The settings as last read: the mode the status reports (embedded until they are read). */
  known: () => KioskSettings | null
  backend: () => Promise<Backend>
  /** Drops the servers' clients (and their tokens). */
  resetServers: () => Promise<void>
  emit: (event: KioskEvent) => void
}

/**
 * The kiosk and its engine: what runs, its status (pushed to every screen), the BioEngine's
 * administration and template types. Stopping it stops the kiosk's own engine process.
 */
export function kioskEngine(deps: KioskEngineDeps): Feature {
  const { own, backend } = deps
  const startedAt = new Date().toISOString()
  const admin = async () => engineAdmin(await backend())
  // The kiosk's mode, as getEngineStatus says it: a screen told "stopped" must know whether that matters (remote and site mode need no engine of their own).
  const withMode = (status: EngineStatus): EngineStatus => ({ ...status, mode: deps.known()?.mode ?? 'embedded' })
  own.supervisor.onChange((status) => deps.emit({ type: 'engine', status: withMode(status) }))
  return {
    handlers: {
      getAppInfo: async () => ({
        name: 'Identity Kiosk',
        version: deps.version,
        shell: deps.shell,
        platform: `${process.platform}-${process.arch}`,
        nodeVersion: process.versions.node,
        startedAt,
      }),
      getEngineStatus: async (): Promise<EngineStatus> => withMode(own.supervisor.getStatus()),
      getTemplateTypes: async () => (await admin()).templateTypes(),
      rebuildCaches: async (input) => (await admin()).rebuildCaches(input.pluginName),
      getEngineLogs: async () => (await admin()).logs(),
      getTemplateCoverage: async (input) => templateCoverage(await backend(), input.templateType),
      migrateTemplates: async (input) => migrateTemplates(await backend(), input.templateType),
    },
    async stop() {
      await own.supervisor.stop()
      await deps.resetServers()
      await own.close()
    },
  }
}

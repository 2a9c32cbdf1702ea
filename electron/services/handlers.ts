import type { AppInfo, EngineStatus } from '../shared/contract'
import type { Handlers } from './dispatch'

export interface ServiceContext {
  shell: AppInfo['shell']
  version: string
  engineStatus: () => EngineStatus
}

/** The kiosk's handler table. Later workflows join here, one entry per contract method. */
export function createHandlers(ctx: ServiceContext): Handlers {
  const startedAt = new Date().toISOString()
  return {
    getAppInfo: async () => ({
      name: 'Identity Kiosk',
      version: ctx.version,
      shell: ctx.shell,
      platform: `${process.platform}-${process.arch}`,
      nodeVersion: process.versions.node,
      startedAt,
    }),
    getEngineStatus: async () => ctx.engineStatus(),
  }
}

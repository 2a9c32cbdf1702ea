import { create } from 'zustand'
import type { AppInfo, EngineStatus } from '../../../electron/shared/contract'
import { KioskError } from '../../../electron/shared/errors'
import { kiosk } from '../bridge/kiosk'

interface StatusState {
  appInfo: AppInfo | null
  engine: EngineStatus | null
  error: string | null
  refresh: () => Promise<void>
}

/** What the Node side reports about itself and the engine, refreshed on demand and by polling. */
export const useStatus = create<StatusState>((set) => ({
  appInfo: null,
  engine: null,
  error: null,
  refresh: async () => {
    try {
      const [appInfo, engine] = await Promise.all([kiosk.getAppInfo({}), kiosk.getEngineStatus({})])
      set({ appInfo, engine, error: null })
    } catch (error) {
      set({ error: error instanceof KioskError ? error.message : 'The kiosk service could not be reached.' })
    }
  },
}))

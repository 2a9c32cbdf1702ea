import { create } from 'zustand'
import type { EngineStatus } from '../../../electron/shared/contract'
import type { OutboxState } from '../../../electron/shared/outbox'
import type { KioskSettings } from '../../../electron/shared/settings'
import { kiosk } from '../bridge/kiosk'

interface LiveState {
  engine: EngineStatus | null
  outbox: OutboxState | null
  settings: KioskSettings | null
  setSettings: (settings: KioskSettings) => void
  /** Loads the initial state and follows pushed events; returns the function that stops it. */
  follow: () => () => void
}

/** What the services push (engine and outbox state), and the settings every screen reads. */
export const useLive = create<LiveState>((set) => ({
  engine: null,
  outbox: null,
  settings: null,
  setSettings: (settings) => set({ settings }),
  follow: () => {
    const load = () => {
      kiosk.getEngineStatus({}).then((engine) => set({ engine }), () => {})
      kiosk.getOutbox({}).then((outbox) => set({ outbox }), () => {})
      kiosk.getSettings({}).then((settings) => set({ settings }), () => {})
    }
    load()
    const stop = kiosk.onEvent((event) => {
      if (event.type === 'engine') set({ engine: event.status })
      else set({ outbox: event.state })
    })
    // Events can be missed while the host restarts; a slow poll keeps the picture honest.
    const timer = setInterval(load, 15_000)
    return () => {
      stop()
      clearInterval(timer)
    }
  },
}))

import { create } from 'zustand'
import type { EngineStatus } from '../../../electron/shared/contract'
import type { OutboxState } from '../../../electron/shared/outbox'
import type { KioskSettings } from '../../../electron/shared/settings'
import { kiosk } from '../bridge/kiosk'

interface LiveState {
  engine: EngineStatus | null
  outbox: OutboxState | null
  /** The kiosk's settings: staff only (a visitor's session may not read them), null until loaded. */
  settings: KioskSettings | null
  setSettings: (settings: KioskSettings | null) => void
  /**
   * Reads the settings; a refusal (a visitor, an expired session) leaves them unknown, silently.
   * Called at sign-in, never polled: a read counts as staff activity in the services.
   */
  loadSettings: () => void
  /** Loads the initial state and follows pushed events; returns the function that stops it. */
  follow: () => () => void
}

/** What the services push (engine and outbox state), and the settings the staff screens read. */
export const useLive = create<LiveState>((set) => ({
  engine: null,
  outbox: null,
  settings: null,
  setSettings: (settings) => set({ settings }),
  loadSettings: () => {
    kiosk.getSettings({}).then(
      (settings) => set({ settings }),
      () => set({ settings: null }),
    )
  },
  follow: () => {
    const load = () => {
      kiosk.getEngineStatus({}).then((engine) => set({ engine }), () => {})
      // A visitor gets the counts only, which is all the banner needs.
      kiosk.getOutbox({}).then((outbox) => set({ outbox }), () => {})
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

import { create } from 'zustand'
import type { Branding } from '@shared/branding'
import type { AppInfo, EngineStatus } from '@shared/contract'
import { KioskError } from '@shared/errors'
import type { OutboxState } from '@shared/outbox'
import type { SiteSyncState } from '@shared/site-sync'
import { usesRemoteServers, type KioskSettings } from '@shared/settings'
import { kiosk } from '../bridge/kiosk'
import { t } from '../i18n'

/** Events carry every change; this slow read only repairs a picture that missed some (a host restart). */
export const SAFETY_POLL_MS = 15_000

interface LiveState {
  appInfo: AppInfo | null
  engine: EngineStatus | null
  outbox: OutboxState | null
  /** The organisation's look (name, welcome line, accent, logo); null until read: the screens then look as they always did. */
  branding: Branding | null
  /** Bumped by each watchlist alert the services push (only to staff sessions): the alert banner reads the alerts again. */
  watchlistAlerts: number
  /** The same for invitation alerts (a code the site would not count). */
  inviteAlerts: number
  /** A site kiosk's hold on its site (staff only; null off a site or until told). */
  siteSync: SiteSyncState | null
  /** Set when the kiosk service cannot be read at all; cleared by the next read that works. */
  error: string | null
  /** The kiosk's settings: staff only (a visitor's session may not read them), null until loaded. */
  settings: KioskSettings | null
  setSettings: (settings: KioskSettings | null) => void
  /**
   * Reads the settings; a refusal (a visitor, an expired session) leaves them unknown, silently.
   * Called at sign-in, never polled: a read counts as staff activity in the services.
   */
  loadSettings: () => void
  /** Reads the site kiosk's hold on its site once staff sign in (a visitor may not); `site-sync` events keep it after. */
  loadSiteSync: () => void
  /** Reads engine, outbox, branding (and app info until known) now: at start, as a safety net, and when the role changes what may be seen. */
  reload: () => void
  /** Loads the initial state and follows pushed events; returns the function that stops it. */
  follow: () => () => void
}

/** The host's own words when it answered (e.g. a page opened without its launch link); otherwise, in the visitor's language, that it did not. */
const unreachable = (error: unknown) => (error instanceof KioskError ? error.message : t('status.unreachable'))

/**
 * The one live picture of the kiosk: app info, engine and outbox state as the services push them,
 * and the settings the staff screens read. Every screen reads it from here; nothing else polls.
 */
export const useLive = create<LiveState>((set, get) => ({
  appInfo: null,
  engine: null,
  outbox: null,
  branding: null,
  watchlistAlerts: 0,
  inviteAlerts: 0,
  siteSync: null,
  error: null,
  settings: null,
  setSettings: (settings) => set({ settings }),
  loadSettings: () => {
    kiosk.getSettings({}).then(
      (settings) => set({ settings }),
      () => set({ settings: null }),
    )
  },
  reload: () => {
    if (!get().appInfo) kiosk.getAppInfo({}).then((appInfo) => set({ appInfo }), () => {})
    kiosk.getEngineStatus({}).then(
      (engine) => set({ engine, error: null }),
      (error: unknown) => set({ error: unreachable(error) }),
    )
    // A visitor gets the counts only, which is all the banner needs.
    kiosk.getOutbox({}).then((outbox) => set({ outbox }), () => {})
    kiosk.getBranding({}).then((branding) => set({ branding }), () => {})
  },
  loadSiteSync: () => {
    kiosk.getSiteSync({}).then(
      (siteSync) => set({ siteSync }),
      () => set({ siteSync: null }),
    )
  },
  follow: () => {
    get().reload()
    const stop = kiosk.onEvent((event) => {
      if (event.type === 'engine') set({ engine: event.status, error: null })
      else if (event.type === 'outbox') set({ outbox: event.state })
      // Raised or dismissed anywhere: the alerts are read again.
      else if (event.type === 'watchlist-alert' || event.type === 'watchlist-alert-dismissed') set((state) => ({ watchlistAlerts: state.watchlistAlerts + 1 }))
      else if (event.type === 'invite-alert' || event.type === 'invite-alert-dismissed') set((state) => ({ inviteAlerts: state.inviteAlerts + 1 }))
      else if (event.type === 'site-sync') set({ siteSync: event.state })
      else set({ branding: event.branding })
    })
    const timer = setInterval(() => get().reload(), SAFETY_POLL_MS)
    return () => {
      stop()
      clearInterval(timer)
    }
  },
}))

/** Whether the kiosk can serve a visitor now: its servers are remote, or its own engine runs. */
export type Readiness = 'unknown' | 'starting' | 'ready' | 'failed'

export function readinessOf(engine: EngineStatus | null): Readiness {
  if (!engine) return 'unknown'
  if (usesRemoteServers(engine.mode) || engine.state === 'running') return 'ready'
  if (engine.state === 'failed') return 'failed'
  return 'starting'
}

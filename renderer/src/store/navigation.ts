import { create } from 'zustand'
import type { Role } from '@shared/staff'
import { t } from '../i18n'

/** Every screen with the least role that may open it (the services enforce the same per method). */
export const screens = [
  { id: 'home', role: 'visitor' },
  { id: 'enroll', role: 'visitor' },
  { id: 'verify', role: 'visitor' },
  { id: 'checkIn', role: 'visitor' },
  { id: 'checkOut', role: 'visitor' },
  { id: 'identify', role: 'operator' },
  { id: 'match', role: 'operator' },
  { id: 'persons', role: 'operator' },
  { id: 'outbox', role: 'operator' },
  { id: 'audit', role: 'operator' },
  { id: 'visits', role: 'operator' },
  { id: 'invites', role: 'operator' },
  { id: 'watchlist', role: 'operator' },
  { id: 'admin', role: 'admin' },
  { id: 'settings', role: 'admin' },
  { id: 'accounts', role: 'admin' },
  { id: 'kiosks', role: 'admin' },
] as const satisfies ReadonlyArray<{ id: string; role: Role }>

export type ScreenId = (typeof screens)[number]['id']

/** Screens a visitor reaches from Home's tiles only: the navigation bar stays short at every kiosk size. */
export const fromHomeOnly: ReadonlySet<ScreenId> = new Set<ScreenId>(['checkIn', 'checkOut'])

/** The least role a screen needs. */
export const screenRole = (id: ScreenId): Role => screens.find((s) => s.id === id)?.role ?? 'admin'

/** A screen's title, as the navigation names it: a visitor's screens in the visitor's language. */
export function screenTitle(id: ScreenId): string {
  return id === 'home' || id === 'enroll' || id === 'verify' || id === 'checkIn' || id === 'checkOut' ? t(`screens.${id}`) : t(`staff:screens.${id}`)
}

const isScreen = (value: unknown): value is ScreenId => screens.some((s) => s.id === value)

interface NavigationState {
  screen: ScreenId
  /** Opens a screen as a new browser history entry, so Back returns to the one before. */
  go: (screen: ScreenId) => void
}

export const useNavigation = create<NavigationState>((set, get) => ({
  screen: 'home',
  go: (screen) => {
    if (screen === get().screen) return
    set({ screen })
    history.pushState({ screen }, '')
  },
}))

/**
 * Browser Back and Forward move between the kiosk's screens. Under the first screen lies a floor
 * entry: Back onto it puts Home back on top, so Back never leaves the kiosk. Returns the unsubscribe.
 */
export function followBrowserHistory(): () => void {
  history.replaceState({ floor: true }, '')
  history.pushState({ screen: useNavigation.getState().screen }, '')
  const onPopState = (event: PopStateEvent) => {
    const state: unknown = event.state
    const screen = state && typeof state === 'object' && 'screen' in state && isScreen(state.screen) ? state.screen : null
    if (screen) {
      useNavigation.setState({ screen })
      return
    }
    history.pushState({ screen: 'home' }, '')
    useNavigation.setState({ screen: 'home' })
  }
  window.addEventListener('popstate', onPopState)
  return () => window.removeEventListener('popstate', onPopState)
}

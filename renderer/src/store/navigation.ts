import { create } from 'zustand'
import type { Role } from '../../../electron/shared/staff'

/** Every screen with the least role that may open it (the services enforce the same per method). */
export const screens = [
  { id: 'home', title: 'Home', role: 'visitor' },
  { id: 'enroll', title: 'Enroll visitor', role: 'visitor' },
  { id: 'verify', title: 'Verify identity', role: 'visitor' },
  { id: 'identify', title: 'Who is this?', role: 'operator' },
  { id: 'match', title: 'Face match', role: 'operator' },
  { id: 'persons', title: 'Persons', role: 'operator' },
  { id: 'outbox', title: 'Outbox', role: 'operator' },
  { id: 'audit', title: 'Audit', role: 'operator' },
  { id: 'admin', title: 'Admin', role: 'admin' },
  { id: 'settings', title: 'Settings', role: 'admin' },
  { id: 'accounts', title: 'Accounts', role: 'admin' },
] as const satisfies ReadonlyArray<{ id: string; title: string; role: Role }>

export type ScreenId = (typeof screens)[number]['id']

/** The least role a screen needs. */
export const screenRole = (id: ScreenId): Role => screens.find((s) => s.id === id)?.role ?? 'admin'

interface NavigationState {
  screen: ScreenId
  go: (screen: ScreenId) => void
}

export const useNavigation = create<NavigationState>((set) => ({
  screen: 'home',
  go: (screen) => set({ screen }),
}))

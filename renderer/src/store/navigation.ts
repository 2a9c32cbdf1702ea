import { create } from 'zustand'

export const screens = [
  { id: 'home', title: 'Home', staff: false },
  { id: 'enroll', title: 'Enroll visitor', staff: false },
  { id: 'verify', title: 'Verify identity', staff: false },
  { id: 'identify', title: 'Who is this?', staff: false },
  { id: 'match', title: 'Face match', staff: false },
  { id: 'persons', title: 'Persons', staff: true },
  { id: 'admin', title: 'Admin', staff: true },
  { id: 'outbox', title: 'Outbox', staff: true },
  { id: 'audit', title: 'Audit', staff: true },
  { id: 'settings', title: 'Settings', staff: true },
] as const

export type ScreenId = (typeof screens)[number]['id']

interface NavigationState {
  screen: ScreenId
  go: (screen: ScreenId) => void
}

export const useNavigation = create<NavigationState>((set) => ({
  screen: 'home',
  go: (screen) => set({ screen }),
}))

import { create } from 'zustand'
import { useNavigation } from './navigation'

interface SessionState {
  /** Staff areas (Persons, Admin, Outbox, Settings) are shown. */
  staff: boolean
  /** Bumped at every reset: screens are keyed by it, so their visitor data is dropped with them. */
  generation: number
  enterStaff: () => void
  /** Back to Home, staff mode off, every screen's state (e-mails, photos, results) forgotten. */
  reset: () => void
}

export const useSession = create<SessionState>((set) => ({
  staff: false,
  generation: 0,
  enterStaff: () => set({ staff: true }),
  reset: () => {
    useNavigation.getState().go('home')
    set((state) => ({ staff: false, generation: state.generation + 1 }))
  },
}))

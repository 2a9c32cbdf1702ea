import { create } from 'zustand'

/**
 * A template type staff are about to change to (Settings → "See who on the Persons screen"):
 * Persons then shows who lacks it, beside the kiosk's own type. Null: only the kiosk's own type matters.
 */
export const useTypeFocus = create<{ type: string | null; focus: (type: string | null) => void }>((set) => ({
  type: null,
  focus: (type) => set({ type }),
}))

import { create } from 'zustand'
import { KioskError } from '@shared/errors'
import { roleAllows, type Role, type SessionView } from '@shared/staff'
import { kiosk, onForbidden } from '../bridge/kiosk'
import { resetLanguage } from '../i18n'
import { useLive } from './live'
import { screenRole, useNavigation } from './navigation'

/** A site this kiosk just joined; `keptApart`: accounts it brought that the site took in disabled (it has staff), some under another name. */
export interface JoinedSite {
  url: string
  name: string
  broughtRecords?: boolean
  keptApart?: ReadonlyArray<{ name: string; importedAs: string }>
}

interface SessionState {
  /** Who is at the screen, as the services see this window or tab: a visitor until staff sign in. */
  role: Role
  /** The signed-in account's name; null for a visitor. */
  account: string | null
  /** No staff account exists yet: the kiosk asks for its first administrator. */
  firstRun: boolean
  /** The kiosk's idle timeout, from the session (a visitor may not read the settings). */
  idleTimeoutSeconds: number | null
  /** The template type the kiosk enrolls with (the capture screens read its sample count); null until loaded. */
  templateType: string | null
  /** The services answered getSession at least once. */
  loaded: boolean
  /** Why the session could not be read (the services are away); null once they answer. */
  loadError: unknown
  /** Bumped at every reset: screens are keyed by it, so their visitor data is dropped with them. */
  generation: number
  /** Reads the session from the services (at start, and now and then to follow an idle expiry). */
  load: () => Promise<void>
  /** Takes a session view the services answered with. */
  apply: (view: SessionView) => void
  /** Signs staff in; throws the services' KioskError (UNAUTHORIZED, TOO_MANY_ATTEMPTS…). */
  signIn: (name: string, secret: string) => Promise<void>
  /** Creates the first administrator, who is then signed in; throws the services' KioskError. */
  createFirstAdmin: (name: string, secret: string) => Promise<void>
  /**
   * Joins the site at `url` with a pairing code; throws the services' KioskError (the site's
   * refusal, or that it cannot be reached). The session is read again: the site's staff sign in
   * next (Home opens its sign-in), or, when the site has none yet, its first administrator is made.
   */
  joinSite: (input: { url: string; code: string; name?: string; bringRecords?: boolean }) => Promise<void>
  /**
   * The site this kiosk just joined, and its name there, until someone signs in or leaves the sign-in; when it brought its records,
   * the accounts the site took in under another name (theirs was taken), for the administrator to see.
   */
  joinedSite: JoinedSite | null
  /** Done with the just-joined sign-in (signed in, cancelled, or reset). */
  forgetJoined: () => void
  /** Ends the staff session in the services; the screen stays where it is allowed to. */
  signOut: () => Promise<void>
  /** Sign-out, back to Home as a visitor, every screen's state (e-mails, photos, results) forgotten. */
  reset: () => void
  /**
   * A visitor's turn is over (Done on a result, or they gave up): back to Home in the kiosk's own
   * language, every screen's visitor data forgotten, as at an idle reset; staff stay signed in.
   */
  endVisit: () => void
}

export const roleWords: Record<Role, string> = { visitor: 'Visitor', operator: 'Operator', admin: 'Administrator' }

/** Leaves a screen the role may not see (after a sign-out or an expiry) for Home. */
function leaveForbiddenScreen(role: Role): void {
  const { screen, go } = useNavigation.getState()
  if (!roleAllows(role, screenRole(screen))) go('home')
}

/**
 * Each session request takes a number when it starts; an answer older than one already applied is
 * dropped, so a status poll sent just before a sign-in cannot undo it when it lands after.
 */
let requested = 0
let applied = 0
async function ordered(request: () => Promise<SessionView>): Promise<SessionView | null> {
  const mine = ++requested
  const view = await request()
  if (mine < applied) return null
  applied = mine
  return view
}

export const useSession = create<SessionState>((set, get) => ({
  role: 'visitor',
  account: null,
  firstRun: false,
  idleTimeoutSeconds: null,
  templateType: null,
  loaded: false,
  loadError: null,
  generation: 0,
  joinedSite: null,
  apply: (view) => {
    const before = get()
    const droppedToVisitor = before.role !== 'visitor' && view.role === 'visitor'
    set({ role: view.role, account: view.account, firstRun: view.firstRun, idleTimeoutSeconds: view.idleTimeoutSeconds, templateType: view.templateType, loaded: true, loadError: null })
    if (view.role !== 'visitor' && (before.role !== view.role || before.account !== view.account)) {
      // Staff may read the settings (the template type, the kiosk's app): load them now.
      useLive.getState().loadSettings()
    }
    if (droppedToVisitor) {
      // The services ended the session (idle, or the account was disabled): nothing of it stays.
      useLive.getState().setSettings(null)
      get().endVisit()
    } else {
      leaveForbiddenScreen(view.role)
    }
  },
  load: async () => {
    try {
      const view = await ordered(() => kiosk.getSession({}))
      if (view) get().apply(view)
    } catch (error) {
      set({ loadError: error instanceof KioskError ? error : new KioskError('INTERNAL', 'The kiosk service could not be reached.') })
    }
  },
  signIn: async (name, secret) => {
    const view = await ordered(() => kiosk.signIn({ name, secret }))
    if (view) get().apply(view)
  },
  createFirstAdmin: async (name, secret) => {
    const view = await ordered(() => kiosk.createFirstAdmin({ name, secret }))
    if (view) get().apply(view)
  },
  joinSite: async (input) => {
    const joined = await kiosk.joinSite(input)
    set({ joinedSite: { url: joined.url, name: joined.name, broughtRecords: joined.brought !== undefined, keptApart: joined.keptApart ?? [] } })
    await get().load()
  },
  forgetJoined: () => set({ joinedSite: null }),
  signOut: async () => {
    try {
      const view = await ordered(() => kiosk.signOut({}))
      if (view) get().apply(view)
    } catch {
      // The services are away: the page forgets the staff session all the same.
      get().apply({ role: 'visitor', account: null, firstRun: get().firstRun, idleTimeoutSeconds: get().idleTimeoutSeconds ?? 0, templateType: get().templateType ?? '' })
    }
  },
  endVisit: () => {
    useNavigation.getState().go('home')
    // The next person starts in the kiosk's own language.
    resetLanguage()
    set((state) => ({ generation: state.generation + 1 }))
  },
  reset: () => {
    const staff = get().role !== 'visitor'
    get().endVisit()
    set({ joinedSite: null })
    // Only a staff session is ended in the services (each sign-out is audited); a visitor's reset
    // is the screen's alone. The session poll keeps the page's idea of its role current.
    if (staff) void get().signOut()
  },
}))

// A refused call means the page's idea of its session is out of date: read it again at once.
onForbidden(() => void useSession.getState().load())

import { KioskError } from '../../shared/errors'
import type { SessionView } from '../../shared/staff'
import { audited, type Actor } from '../audited-handlers'
import { ApiError } from '../clients/api-error'
import type { Call, ResolveActor } from '../dispatch'
import type { KioskDesk, StaffDesk } from '../front-desk/desk'
import { Sessions, type DeskSession, type SessionActor } from '../staff/sessions'
import type { AuditTrail } from './audit'
import type { Feature } from './feature'

/** How long a desk's "it has accounts" is taken as read. */
const SETTLED_MS = 10_000

export interface StaffDeps {
  /** The front desk in use now: the kiosk's own, or its site's. */
  desk: () => Promise<KioskDesk>
  /** The settings a visitor's screen needs: the idle timeout and the template type. */
  kiosk: () => Promise<{ idleTimeoutSeconds: number; templateType: string }>
  /** The idle timeout as last read (sessions are swept without waiting for the settings). */
  idleMs: () => number
  /** Sign-ins outside any window and sessions that ended are audited. */
  audit: Pick<AuditTrail, 'log' | 'record'>
  log: (line: string) => void
}

export interface StaffFeature extends Feature {
  resolveActor: ResolveActor
  sessions: Sessions
  /** The front desk in use now (the watchlist and the site's methods use the same one). */
  desk: () => Promise<KioskDesk>
  /** The front desk as the caller's own staff session: its calls carry that session and no other. */
  staffDesk(call: Call): Promise<StaffDesk>
  /** The window or tab under `key` went away or reloaded: its staff session ends (audited). */
  endSession(key: string, reason: string): void
  /** An administrator's sign-in outside any window (Electron's exit prompt): resolves for a valid, active administrator. */
  verifyAdmin(name: string, secret: string): Promise<void>
}

const VISITOR: SessionActor = { role: 'visitor', account: null }

/**
 * Staff sign-in and accounts. The front desk (the kiosk's own, or its site's) keeps the accounts,
 * issues each session and answers, on every call, who the session is now; the kiosk binds the
 * session to the caller's window or tab and ends it after its own idle timeout. Idle sessions are
 * swept every few seconds.
 */
export function staffFeature(deps: StaffDeps): StaffFeature {
  const sessions = new Sessions({
    idleMs: deps.idleMs,
    onExpired: (_key, who, session) => {
      deps.audit.record({ action: 'sign-out', ...who, detail: 'idle timeout' })
      void signOutAtDesk(session)
    },
  })
  const sweep = setInterval(() => sessions.sweep(), 5_000)
  sweep.unref()

  /** Ends the session at the desk that issued it too (best effort: it idles out there anyway). */
  async function signOutAtDesk(session: DeskSession): Promise<void> {
    try {
      const desk = await deps.desk()
      if (desk.id === session.desk) await desk.signOut(session.token)
    } catch (error) {
      if (!(error instanceof KioskError && error.code === 'UNAUTHORIZED')) deps.log(`staff: a session was not ended at the front desk: ${error instanceof Error ? error.message : 'unknown error'}`)
    }
  }

  /**
   * Desks known to have accounts, until when: no account is ever deleted, so the answer does not go
   * back to "none", but a site may remove this kiosk, and its screen must then offer the first run
   * (join a site) again within seconds.
   */
  const settled = new Map<string, number>()
  async function firstRun(desk: KioskDesk): Promise<boolean> {
    if ((settled.get(desk.id) ?? 0) > Date.now()) return false
    try {
      const none = (await desk.accountCount()) === 0
      if (!none) settled.set(desk.id, Date.now() + SETTLED_MS)
      return none
    } catch (error) {
      // A site out of reach: its sign-in screen (not a first run) says so when staff try.
      if (desk.onSite && error instanceof ApiError && error.retryable) return false
      // The site refuses this kiosk's credential (removed from the site): it may be paired again.
      if (desk.onSite && error instanceof KioskError && error.code === 'UNAUTHORIZED') return true
      throw error
    }
  }
  const view = async (actor: SessionActor): Promise<SessionView> => ({
    role: actor.role,
    account: actor.account,
    firstRun: await firstRun(await deps.desk()),
    ...(await deps.kiosk()),
  })
  const bindable = (call: Call): string => {
    if (call.key === null) throw new KioskError('FORBIDDEN', 'This window cannot hold a staff session: open the kiosk page again.')
    return call.key
  }
  /** A session issued just now, bound to the caller's window (the one it replaces is ended at its desk). */
  function begin(key: string, desk: KioskDesk, issued: { session: string; account: { name: string; role: 'operator' | 'admin' } }): SessionActor {
    const replaced = sessions.begin(key, { account: issued.account.name, role: issued.account.role, token: issued.session, desk: desk.id })
    if (replaced) void signOutAtDesk(replaced)
    return { role: issued.account.role, account: issued.account.name }
  }
  function ended(key: string, token: string, detail: string): SessionActor {
    const gone = sessions.end(key, token)
    if (gone) deps.audit.record({ action: 'sign-out', ...gone.actor, detail })
    return VISITOR
  }

  /**
   * Who calls through `key`: the front desk is asked about the session on every call (a cheap read
   * on the kiosk's own; on a site, the site decides), so an account disabled or demoted anywhere is
   * refused here on its next call.
   */
  const resolveActor: ResolveActor = async (key, active) => {
    const held = sessions.held(key, active)
    if (!held || key === null) return VISITOR
    const desk = await deps.desk()
    if (held.desk !== desk.id) return ended(key, held.token, 'the kiosk changed its front desk')
    try {
      const who = await desk.session(held.token)
      sessions.update(key, held.token, who)
      return { role: who.role, account: who.account }
    } catch (error) {
      if (error instanceof KioskError && error.code === 'UNAUTHORIZED') return ended(key, held.token, 'ended by the front desk')
      throw error
    }
  }

  async function staffDesk(call: Call): Promise<StaffDesk> {
    const held = sessions.held(call.key)
    const desk = await deps.desk()
    if (!held || held.desk !== desk.id) throw new KioskError('FORBIDDEN', 'Staff must sign in to do this.')
    return desk.as({ token: held.token, account: held.account })
  }

  return {
    resolveActor,
    sessions,
    desk: deps.desk,
    staffDesk,
    handlers: {
      getSession: (_input, call) => view(call.actor),
      keepSession: (_input, call) => view(call.actor),
      async signIn(input, call) {
        const key = bindable(call)
        const desk = await deps.desk()
        return view(begin(key, desk, await desk.signIn(input.name, input.secret)))
      },
      async signOut(_input, call) {
        const gone = call.key === null ? null : sessions.end(call.key)
        if (gone) await signOutAtDesk(gone.session)
        return view(VISITOR)
      },
      async createFirstAdmin(input, call) {
        const key = bindable(call)
        const desk = await deps.desk()
        return view(begin(key, desk, await desk.createFirstAdmin(input.name, input.secret)))
      },
      listAccounts: async (_input, call) => (await staffDesk(call)).listAccounts(),
      createAccount: async (input, call) => (await staffDesk(call)).createAccount(input.name, input.role, input.secret),
      async setAccountDisabled(input, call) {
        const account = await (await staffDesk(call)).setAccountDisabled(input.name, input.disabled)
        // The desk ended its sessions; this kiosk's windows hear it now, not on their next call.
        if (account.disabled) sessions.endAccount(account.name)
        return account
      },
    },
    endSession(key, reason) {
      const gone = sessions.end(key)
      if (!gone) return
      deps.audit.record({ action: 'sign-out', ...gone.actor, detail: reason })
      void signOutAtDesk(gone.session)
    },
    async verifyAdmin(name, secret) {
      const visitor: Actor = { role: 'visitor', account: null }
      await audited(deps.audit.log, deps.log, visitor, { action: 'sign-in', account: name, detail: 'leave kiosk mode' }, async () => {
        const desk = await deps.desk()
        const issued = await desk.signIn(name, secret)
        // Only the answer is needed, not a session: it ends at once.
        await desk.signOut(issued.session).catch(() => undefined)
        if (issued.account.role !== 'admin') throw new KioskError('FORBIDDEN', 'Only an administrator may leave kiosk mode.')
      })
    },
    stop() {
      clearInterval(sweep)
    },
  }
}

import { KioskError } from '../../shared/errors'
import type { SessionView } from '../../shared/staff'
import { audited, type Actor } from '../audited-handlers'
import type { Call, ResolveActor } from '../dispatch'
import { openAccounts, type Accounts } from '../staff/accounts'
import { Sessions, type SessionActor } from '../staff/sessions'
import type { AuditTrail } from './audit'
import type { Feature } from './feature'

export interface StaffDeps {
  dataDir: string
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
  /** The window or tab under `key` went away or reloaded: its staff session ends (audited). */
  endSession(key: string, reason: string): void
  /** An administrator's sign-in outside any window (Electron's exit prompt): resolves for a valid, active administrator. */
  verifyAdmin(name: string, secret: string): Promise<void>
}

/**
 * Staff sign-in and accounts: a session starts here and is bound to the caller's window or tab.
 * The accounts open on first use; idle sessions are swept every few seconds.
 */
export function staffFeature(deps: StaffDeps): StaffFeature {
  let opened: Accounts | null = null
  const accounts = (): Accounts => (opened ??= openAccounts({ dir: deps.dataDir }))
  const sessions = new Sessions({ idleMs: deps.idleMs, onExpired: (_key, who) => deps.audit.record({ action: 'sign-out', ...who, detail: 'idle timeout' }) })
  const sweep = setInterval(() => sessions.sweep(), 5_000)
  sweep.unref()

  const view = async (actor: SessionActor): Promise<SessionView> => ({
    role: actor.role,
    account: actor.account,
    firstRun: accounts().count() === 0,
    ...(await deps.kiosk()),
  })
  const bindable = (call: Call): string => {
    if (call.key === null) throw new KioskError('FORBIDDEN', 'This window cannot hold a staff session: open the kiosk page again.')
    return call.key
  }
  return {
    resolveActor: (key, active) => sessions.actor(key, active),
    sessions,
    handlers: {
      getSession: (_input, call) => view(call.actor),
      keepSession: (_input, call) => view(call.actor),
      async signIn(input, call) {
        const key = bindable(call)
        const account = await accounts().verify(input.name, input.secret)
        sessions.begin(key, account.name, account.role)
        return view({ role: account.role, account: account.name })
      },
      async signOut(_input, call) {
        if (call.key !== null) sessions.end(call.key)
        return view({ role: 'visitor', account: null })
      },
      async createFirstAdmin(input, call) {
        const key = bindable(call)
        const account = await accounts().createFirst(input.name, input.secret)
        sessions.begin(key, account.name, account.role)
        return view({ role: account.role, account: account.name })
      },
      listAccounts: async () => accounts().list(),
      createAccount: (input) => accounts().create(input.name, input.role, input.secret),
      async setAccountDisabled(input) {
        const account = accounts().setDisabled(input.name, input.disabled)
        if (account.disabled) sessions.endAccount(account.name)
        return account
      },
    },
    endSession(key, reason) {
      const who = sessions.end(key)
      if (who) deps.audit.record({ action: 'sign-out', ...who, detail: reason })
    },
    async verifyAdmin(name, secret) {
      const visitor: Actor = { role: 'visitor', account: null }
      await audited(deps.audit.log, deps.log, visitor, { action: 'sign-in', account: name, detail: 'leave kiosk mode' }, async () => {
        const account = await accounts().verify(name, secret)
        if (account.role !== 'admin') throw new KioskError('FORBIDDEN', 'Only an administrator may leave kiosk mode.')
      })
    },
    stop() {
      clearInterval(sweep)
      opened?.close()
      opened = null
    },
  }
}

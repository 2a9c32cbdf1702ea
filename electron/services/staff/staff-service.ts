import type { z } from 'zod'
import { KioskError } from '../../shared/errors'
import type { AccountView, createAccountInput, firstAdminInput, setAccountDisabledInput, SessionView, signInInput } from '../../shared/staff'
import type { Call, ResolveActor } from '../dispatch'
import type { Accounts } from './accounts'
import type { SessionActor, Sessions } from './sessions'

export interface StaffDeps {
  accounts: () => Accounts
  sessions: Sessions
  /** The settings a visitor's screen needs: the idle timeout and the template type. */
  kiosk: () => Promise<{ idleTimeoutSeconds: number; templateType: string }>
}

export interface Staff {
  resolveActor: ResolveActor
  session(call: Call): Promise<SessionView>
  signIn(input: z.infer<typeof signInInput>, call: Call): Promise<SessionView>
  signOut(call: Call): Promise<SessionView>
  createFirstAdmin(input: z.infer<typeof firstAdminInput>, call: Call): Promise<SessionView>
  list(): Promise<AccountView[]>
  create(input: z.infer<typeof createAccountInput>): Promise<AccountView>
  setDisabled(input: z.infer<typeof setAccountDisabledInput>): Promise<AccountView>
}

/** Staff sign-in and accounts: a session starts here and is bound to the caller's window or tab. */
export function createStaff(deps: StaffDeps): Staff {
  const { accounts, sessions } = deps
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
    session: (call) => view(call.actor),
    async signIn(input, call) {
      const key = bindable(call)
      const account = await accounts().verify(input.name, input.secret)
      sessions.begin(key, account.name, account.role)
      return view({ role: account.role, account: account.name })
    },
    async signOut(call) {
      if (call.key !== null) sessions.end(call.key)
      return view({ role: 'visitor', account: null })
    },
    async createFirstAdmin(input, call) {
      const key = bindable(call)
      const account = await accounts().createFirst(input.name, input.secret)
      sessions.begin(key, account.name, account.role)
      return view({ role: account.role, account: account.name })
    },
    list: async () => accounts().list(),
    create: (input) => accounts().create(input.name, input.role, input.secret),
    async setDisabled(input) {
      const account = accounts().setDisabled(input.name, input.disabled)
      if (account.disabled) sessions.endAccount(account.name)
      return account
    },
  }
}

import { accountKey, type Role, type StaffRole } from '../../shared/staff'

/** Who is calling through a window or tab: its session's role and account (null for a visitor). */
export interface SessionActor {
  role: Role
  account: string | null
}

/** What the front desk issued for a session: its token, and which desk issued it (a token is good only there). */
export interface DeskSession {
  token: string
  desk: string
}

/** One staff session: bound to one window or browser tab by the transport's key. */
interface StaffSession extends DeskSession {
  account: string
  role: StaffRole
  lastActive: number
}

/** A session that ended here: who it was (for the audit), and its token (so the front desk can end it too). */
export interface EndedSession {
  actor: SessionActor
  session: DeskSession
}

export interface SessionsOptions {
  /** The idle limit, read on every check (it follows the idleTimeoutSeconds setting). */
  idleMs: () => number
  now?: () => number
  /** Told when a session ends by itself (idle): the caller audits it and ends it at the front desk. */
  onExpired?: (key: string, actor: SessionActor, session: DeskSession) => void
}

/**
 * Staff sessions, keyed by what the transport knows of the caller (Electron: the window's
 * webContents; the web host: the tab's session id it issued). A key without a session, or whose
 * session has been idle past the limit, is a visitor. The front desk issues each session and checks
 * it on every call; the kiosk keeps its token here, beside the key, and its own (shorter) idle
 * limit. The renderer never holds a credential.
 */
export class Sessions {
  private readonly table = new Map<string, StaffSession>()
  private readonly now: () => number

  constructor(private readonly options: SessionsOptions) {
    this.now = options.now ?? Date.now
  }

  /** Who is calling through `key` as last known here; `touch` counts the call as activity (status polls do not). */
  actor(key: string | null, touch = false): SessionActor {
    const session = this.live(key, touch)
    return session ? { role: session.role, account: session.account } : { role: 'visitor', account: null }
  }

  /** The front desk's session under `key` (idle ones end first), or null for a visitor. */
  held(key: string | null, touch = false): (DeskSession & { account: string; role: StaffRole }) | null {
    const session = this.live(key, touch)
    return session ? { token: session.token, desk: session.desk, role: session.role, account: session.account } : null
  }

  /** Starts a session under `key`; answers the one it replaces (to be ended at its front desk), if any. */
  begin(key: string, who: { account: string; role: StaffRole } & DeskSession): DeskSession | null {
    const replaced = this.table.get(key)
    this.table.set(key, { ...who, lastActive: this.now() })
    return replaced && replaced.token !== who.token ? { token: replaced.token, desk: replaced.desk } : null
  }

  /** The front desk's answer for the session: its account and role as they are now (a demotion applies at once). */
  update(key: string, token: string, who: { account: string; role: StaffRole }): void {
    const session = this.table.get(key)
    if (session?.token === token) Object.assign(session, who)
  }

  /** Ends the session under `key` (only the one holding `token`, when given); returns it, or null when there was none. */
  end(key: string, token?: string): EndedSession | null {
    const session = this.table.get(key)
    if (!session || (token !== undefined && session.token !== token)) return null
    this.table.delete(key)
    return { actor: { role: session.role, account: session.account }, session: { token: session.token, desk: session.desk } }
  }

  /** Ends every session of an account here (it was disabled; the front desk ended them there). */
  endAccount(account: string): void {
    for (const [key, session] of this.table) if (accountKey(session.account) === accountKey(account)) this.table.delete(key)
  }

  /** Ends sessions idle past the limit (a timer calls this, so an idle sign-out is audited on time). */
  sweep(): void {
    for (const key of [...this.table.keys()]) this.live(key)
  }

  private live(key: string | null, touch = false): StaffSession | null {
    const session = key === null ? undefined : this.table.get(key)
    if (!session || key === null) return null
    const now = this.now()
    if (now - session.lastActive > this.options.idleMs()) {
      this.table.delete(key)
      this.options.onExpired?.(key, { role: session.role, account: session.account }, { token: session.token, desk: session.desk })
      return null
    }
    if (touch) session.lastActive = now
    return session
  }
}

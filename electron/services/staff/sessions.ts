import type { Role, StaffRole } from '../../shared/staff'

/** Who is calling through a window or tab: its session's role and account (null for a visitor). */
export interface SessionActor {
  role: Role
  account: string | null
}

/** One staff session: bound to one window or browser tab by the transport's key. */
interface StaffSession {
  account: string
  role: StaffRole
  lastActive: number
}

export interface SessionsOptions {
  /** The idle limit, read on every check (it follows the idleTimeoutSeconds setting). */
  idleMs: () => number
  now?: () => number
  /** Told when a session ends by itself (idle): the caller audits it. */
  onExpired?: (key: string, actor: SessionActor) => void
}

/**
 * Staff sessions, keyed by what the transport knows of the caller (Electron: the window's
 * webContents; the web host: the tab's session id it issued). A key without a session, or whose
 * session has been idle past the limit, is a visitor. The renderer never holds a credential.
 */
export class Sessions {
  private readonly table = new Map<string, StaffSession>()
  private readonly now: () => number

  constructor(private readonly options: SessionsOptions) {
    this.now = options.now ?? Date.now
  }

  /** Who is calling through `key`; `touch` counts the call as activity (status polls do not). */
  actor(key: string | null, touch = false): SessionActor {
    const session = key === null ? undefined : this.table.get(key)
    if (!session || key === null) return { role: 'visitor', account: null }
    const now = this.now()
    if (now - session.lastActive > this.options.idleMs()) {
      this.table.delete(key)
      this.options.onExpired?.(key, { role: session.role, account: session.account })
      return { role: 'visitor', account: null }
    }
    if (touch) session.lastActive = now
    return { role: session.role, account: session.account }
  }

  begin(key: string, account: string, role: StaffRole): void {
    this.table.set(key, { account, role, lastActive: this.now() })
  }

  /** Ends the session under `key`; returns who it was, or null when there was none. */
  end(key: string): SessionActor | null {
    const session = this.table.get(key)
    if (!session) return null
    this.table.delete(key)
    return { role: session.role, account: session.account }
  }

  /** Ends every session of an account (it was disabled). */
  endAccount(account: string): void {
    for (const [key, session] of this.table) if (session.account.toLowerCase() === account.toLowerCase()) this.table.delete(key)
  }

  /** Ends sessions idle past the limit (a timer calls this, so an idle sign-out is audited on time). */
  sweep(): void {
    for (const key of [...this.table.keys()]) this.actor(key)
  }
}

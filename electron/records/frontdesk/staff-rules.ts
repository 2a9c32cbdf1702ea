import { timingSafeEqual } from 'node:crypto'
import { KioskError } from '../../shared/errors'
import type { StaffSessionResult } from '../../shared/frontdesk-api'
import { accountKey, type StaffRole } from '../../shared/staff'
import { StoreUnavailableError, UniqueViolationError } from '../sql/types'
import { accountView, type AccountRow } from './accounts-repository'
import type { FrontDesk } from './front-desk'
import type { FrontDeskRecords, RulesContext } from './records'
import { pauseAfter, signInPaused, signInRefused, SIGN_IN_BACKOFF, type SignInBackoff } from './sign-in-backoff'
import { derivePin, newSalt, newSessionToken, PIN_PARAMS, readPinParams, sha256 } from './secrets'

export interface StaffRulesOptions {
  freeFailures?: number | undefined
  firstPauseMs?: number | undefined
  maxPauseMs?: number | undefined
  sessionIdleMs?: number | undefined
}

/** How stale a session's last-active time may be: an hour's idle limit does not need it to the millisecond. */
const TOUCH_EVERY_MS = 5_000

type StaffRules = Pick<FrontDesk, 'accountCount' | 'createFirstAdmin' | 'signIn' | 'session' | 'signOut' | 'listAccounts' | 'createAccount' | 'setAccountDisabled'>

/** Unknown names remembered for their back-off, at most this many (a flood of made-up names cannot grow memory). */
const UNKNOWN_NAMES_KEPT = 10_000

/**
 * The site's staff: accounts (each PIN scrypt-hashed with its own salt) and the sessions the
 * front desk issues at sign-in. Failed sign-ins pause the account exponentially, counted in its row,
 * so the pause holds across restarts and across every kiosk and engine of the site. An unknown name
 * costs the same scrypt as a known one and is answered in the same words, so neither the time nor
 * the answer tells which names exist (its back-off is kept in this process's memory: there is no
 * row to count in, and a made-up name must not create one).
 */
export function staffRules(context: RulesContext, options: StaffRulesOptions = {}): StaffRules {
  const { now } = context
  const backoff: SignInBackoff = {
    freeFailures: options.freeFailures ?? SIGN_IN_BACKOFF.freeFailures,
    firstPauseMs: options.firstPauseMs ?? SIGN_IN_BACKOFF.firstPauseMs,
    maxPauseMs: options.maxPauseMs ?? SIGN_IN_BACKOFF.maxPauseMs,
  }
  const idleMs = options.sessionIdleMs ?? 60 * 60_000
  const unknownFailures = new Map<string, { failures: number; lockedUntil: number }>()
  const decoySalt = newSalt()

  function refused(): never {
    throw signInRefused()
  }
  function locked(until: number): never {
    throw signInPaused(until, now())
  }
  function ended(): never {
    throw new KioskError('UNAUTHORIZED', 'Your staff session has ended: sign in again.')
  }
  /** A bookkeeping write's result, or undefined when the database takes no writes now. */
  async function unlessUnwritable<T>(write: Promise<T>): Promise<T | undefined> {
    try {
      return await write
    } catch (error) {
      if (error instanceof StoreUnavailableError) return undefined
      throw error
    }
  }
  const firstExists = () => new KioskError('FORBIDDEN', 'The first administrator already exists: sign in instead.')
  const nameTaken = (name: string) => new KioskError('REJECTED', `An account named ${name} already exists.`)

  /** Issues a session for the account, in the caller's transaction; idle ones are swept on the way. */
  async function beginSession(records: FrontDeskRecords, key: string, kioskId: string | null): Promise<string> {
    const token = newSessionToken()
    await records.sessions.deleteIdle(now() - idleMs)
    await records.sessions.insert({ tokenHash: sha256(token), accountKey: key, kioskId, at: now() })
    return token
  }

  /**
   * Hashes outside any transaction (a tenth of a second), then inserts under the accounts lock,
   * after `check` (read again there); `signInAt` signs the new account in, in the same transaction.
   */
  async function create(
    name: string,
    role: StaffRole,
    secret: string,
    options: { check?: (records: FrontDeskRecords) => Promise<void>; signInAt?: { kioskId: string | null } } = {},
  ): Promise<{ row: AccountRow; session: string | null }> {
    const salt = newSalt()
    const hash = await derivePin(secret, salt, PIN_PARAMS)
    try {
      return await context.transaction(async (records) => {
        await records.accounts.lock()
        await options.check?.(records)
        if (await records.accounts.byName(name)) throw nameTaken(name)
        const at = now()
        const signIn = options.signInAt
        await records.accounts.insert({ name, role, salt, hash, params: JSON.stringify(PIN_PARAMS), createdAt: at, lastSignInAt: signIn ? at : null })
        const session = signIn ? await beginSession(records, accountKey(name), signIn.kioskId) : null
        return { row: (await records.accounts.byName(name))!, session }
      })
    } catch (error) {
      // The lock makes this rare; the unique key is the last word.
      if (error instanceof UniqueViolationError) throw nameTaken(name)
      throw error
    }
  }

  return {
    accountCount: () => context.records.accounts.count(),

    async createFirstAdmin(name, secret, kioskId) {
      if ((await context.records.accounts.count()) > 0) throw firstExists()
      // Two first-run requests may race through the hashing: the count is read again under the
      // lock, so only the first to commit counts. Creating the first administrator signs them in.
      const { row, session } = await create(name, 'admin', secret, {
        check: async (records) => {
          if ((await records.accounts.count()) > 0) throw firstExists()
        },
        signInAt: { kioskId },
      })
      return { session: session!, account: accountView(row) }
    },

    async signIn(name, secret, kioskId): Promise<StaffSessionResult> {
      const key = accountKey(name)
      const row = await context.records.accounts.byKey(key)
      const pending = row ? { failures: row.failures, lockedUntil: row.locked_until } : unknownFailures.get(key)
      if (pending && pending.lockedUntil > now()) locked(pending.lockedUntil)
      // Parameters this code did not write (a damaged row) are hashed as a decoy's: the PIN is refused, never trusted.
      const stored = row ? readPinParams(row.params) : null
      const derived = await derivePin(secret, row?.salt ?? decoySalt, stored ?? PIN_PARAMS)
      const good = row !== undefined && stored !== null && derived.length === row.hash.length && timingSafeEqual(derived, row.hash) && row.disabled === 0
      if (good) {
        const signedIn = await context.transaction(async (records) => {
          // Disabled while the PIN was hashing: refused, as it would be a moment later.
          if (!(await records.accounts.signedIn(key, now()))) return null
          return { session: await beginSession(records, key, kioskId), account: accountView((await records.accounts.byKey(key))!) }
        })
        return signedIn ?? refused()
      }
      if (row) {
        // Counted in the row, under its lock: failures racing on several kiosks all count.
        await context.transaction(async (records) => {
          const failures = await records.accounts.addFailure(key)
          await records.accounts.pauseUntil(key, now() + pauseAfter(failures, backoff))
        })
      } else {
        const failures = (unknownFailures.get(key)?.failures ?? 0) + 1
        if (unknownFailures.has(key) || unknownFailures.size < UNKNOWN_NAMES_KEPT) unknownFailures.set(key, { failures, lockedUntil: now() + pauseAfter(failures, backoff) })
      }
      return refused()
    },

    /**
     * The session's account and role, from reads: its writes (the activity, forgetting an ended
     * session) are bookkeeping, skipped while the database takes no writes (a site's primary lost,
     * its standby answering reads), so staff keep acting through a failover and the activity is
     * written on a later call.
     */
    async session(token) {
      const tokenHash = sha256(token)
      const { sessions, accounts } = context.records
      const row = await sessions.get(tokenHash)
      if (!row || row.last_active_at < now() - idleMs) {
        // Gone, or idle past the limit: an idle one is forgotten now.
        if (row) await unlessUnwritable(sessions.delete(tokenHash))
        return ended()
      }
      // Every staff call (status polls too) asks: the activity is written at most every few seconds, not per call.
      if (now() - row.last_active_at >= TOUCH_EVERY_MS && (await unlessUnwritable(sessions.touch(tokenHash, now(), now() - idleMs))) === false) return ended()
      const account = await accounts.byKey(row.account_key)
      if (!account || account.disabled === 1) {
        await unlessUnwritable(sessions.delete(tokenHash))
        return ended()
      }
      return { account: account.name, role: account.role }
    },

    async signOut(token) {
      await context.records.sessions.delete(sha256(token))
    },

    listAccounts: () => context.records.accounts.list(),

    async createAccount(name, role, secret) {
      return accountView((await create(name, role, secret)).row)
    },

    async setAccountDisabled(name, disabled) {
      return context.transaction(async (records) => {
        await records.accounts.lock()
        const row = await records.accounts.byName(name)
        if (!row) throw new KioskError('NOT_FOUND', `There is no account named ${name}.`)
        if (disabled && row.role === 'admin' && row.disabled === 0 && (await records.accounts.activeAdmins()) <= 1) {
          throw new KioskError('REJECTED', 'This is the last active administrator: add another before disabling it.')
        }
        await records.accounts.setDisabled(row.name_key, disabled)
        // A disabled account's sessions end at once, on every kiosk.
        if (disabled) await records.sessions.deleteForAccount(row.name_key)
        return accountView((await records.accounts.byKey(row.name_key))!)
      })
    },
  }
}

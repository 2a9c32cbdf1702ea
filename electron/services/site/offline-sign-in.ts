import { randomBytes, timingSafeEqual } from 'node:crypto'
import { pauseAfter, signInPaused, signInRefused } from '../../records/frontdesk/sign-in-backoff'
import { derivePin, newSalt, PIN_PARAMS, readPinParams } from '../../records/frontdesk/secrets'
import { KioskError } from '../../shared/errors'
import type { StaffSessionResult } from '../../shared/frontdesk-api'
import { defaultSettings } from '../../shared/settings'
import type { CopiedAccount } from '../../shared/site-sync'
import { accountKey } from '../../shared/staff'
import type { SiteCopy } from './site-copy'
import type { SiteSync } from './site-sync'

/** A session issued here from the copy while the site was away: the site never knew it (and says so once back). */
export const AWAY_SESSION_PREFIX = 'away.'

/** Names remembered for their back-off, at most this many besides the copy's accounts (made-up names cannot grow memory). */
const NAMES_KEPT = 10_000

export interface OfflineSignInDeps {
  queue: SiteSync['queue']
  /** How long after the last pull the site answered an operator may still sign in (the offlineSignInHours setting); absent: its default. */
  offlineSignInMs?: (() => Promise<number>) | undefined
  /** The clock the copy's age is read by (the copy's pulledAt is site-sync's). */
  now?: (() => number) | undefined
  log: (line: string) => void
}

/** "12 hours", "1 hour", "30 minutes": how long the copy may be for an operator, as staff read it. */
function spanWords(ms: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`
  return ms >= 3_600_000 && ms % 3_600_000 === 0 ? plural(ms / 3_600_000, 'hour') : plural(Math.max(1, Math.round(ms / 60_000)), 'minute')
}

/**
 * Staff sign-in from a site kiosk's copy of the accounts (PIN hashes, as of the last pull) while the
 * site is away: the site's refusals and back-off (per kiosk, in this process's memory), an operator
 * only while the copy is younger than the setting says, administrators always, and an act for the
 * site to audit. The session is made here: the site never issued it, so its first answer once back
 * ends it (staff.ts resolveActor); meanwhile it reads what a held session may (away-sessions.ts).
 * `failure` is the site's: it stands when the copy holds no accounts yet.
 */
export function offlineSignIn(deps: OfflineSignInDeps) {
  const now = deps.now ?? Date.now
  const failures = new Map<string, { failures: number; lockedUntil: number }>()
  const decoySalt = newSalt()

  function failed(key: string, known: boolean): void {
    const count = (failures.get(key)?.failures ?? 0) + 1
    if (known || failures.has(key) || failures.size < NAMES_KEPT) failures.set(key, { failures: count, lockedUntil: now() + pauseAfter(count) })
  }

  /** Whether `secret` is the account's PIN and the account was active at the last pull: the same scrypt for any name (a decoy's for none). */
  async function verified(account: CopiedAccount | null, secret: string): Promise<boolean> {
    // Parameters this code did not write are hashed as a decoy's: the PIN is refused, never trusted.
    const params = account ? readPinParams(account.params) : null
    const derived = await derivePin(secret, account ? Buffer.from(account.salt, 'base64') : decoySalt, params ?? PIN_PARAMS)
    const stored = account ? Buffer.from(account.hash, 'base64') : null
    return account !== null && params !== null && stored !== null && stored.length === derived.length && timingSafeEqual(derived, stored) && !account.disabled
  }

  return async function signIn(name: string, secret: string, found: SiteCopy, failure: unknown): Promise<StaffSessionResult> {
    // A copy filled before the accounts were asked for knows none: the site's failure stands, not "no such account".
    if (!found.accountsCopied()) throw failure
    const key = accountKey(name)
    const pending = failures.get(key)
    if (pending && pending.lockedUntil > now()) throw signInPaused(pending.lockedUntil, now())
    const account = found.account(key)
    // Hashed whether or not the name is known: neither the time nor the answer tells which names exist.
    const good = await verified(account, secret)
    if (!account || !good) {
      failed(key, account !== null)
      throw signInRefused()
    }
    failures.delete(key)
    const limitMs = deps.offlineSignInMs ? await deps.offlineSignInMs() : defaultSettings.offlineSignInHours * 3_600_000
    const age = now() - (found.state().pulledAt ?? 0)
    if (account.role !== 'admin' && age >= limitMs) {
      throw new KioskError(
        'FORBIDDEN',
        limitMs === 0
          ? 'The site cannot be reached: only an administrator can sign in until it is.'
          : `The site has not been reached for over ${spanWords(limitMs)}: only an administrator can sign in until it is.`,
      )
    }
    const act = await deps.queue({ kind: 'staff-sign-in', args: { account: account.name, role: account.role } })
    deps.log(`staff: a sign-in from the site copy (the site is away); act ${act.id} waits for the site`)
    return {
      session: `${AWAY_SESSION_PREFIX}${randomBytes(32).toString('base64url')}`,
      // The copy keeps no dates of the account's (they are the site's own): only what a session needs is true here.
      account: { name: account.name, role: account.role, disabled: false, createdAt: 0, lastSignInAt: act.at },
    }
  }
}

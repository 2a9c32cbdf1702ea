import { KioskError } from '../../shared/errors'

/**
 * How failed sign-ins pause a name: a few free, then a pause doubling up to a ceiling. The site's
 * rule (staff-rules.ts), and a site kiosk's while its site is away (offline-sign-in.ts).
 */
export interface SignInBackoff {
  freeFailures: number
  firstPauseMs: number
  maxPauseMs: number
}

export const SIGN_IN_BACKOFF: SignInBackoff = { freeFailures: 3, firstPauseMs: 5_000, maxPauseMs: 15 * 60_000 }

export const pauseAfter = (failures: number, backoff: SignInBackoff = SIGN_IN_BACKOFF): number =>
  failures < backoff.freeFailures ? 0 : Math.min(backoff.firstPauseMs * 2 ** (failures - backoff.freeFailures), backoff.maxPauseMs)

/** One refusal for a wrong name, a wrong PIN and a disabled account: the answer does not tell which names exist. */
export const signInRefused = () => new KioskError('UNAUTHORIZED', 'That name and PIN or password do not match an active staff account.')

/** A name paused until `until`. */
export function signInPaused(until: number, now: number): KioskError {
  const seconds = Math.max(1, Math.ceil((until - now) / 1000))
  return new KioskError('TOO_MANY_ATTEMPTS', `Too many failed sign-ins. Try again in ${seconds} seconds.`, { retryAfterSeconds: seconds })
}

import type { ErrorCode } from '../../shared/errors'

/**
 * The front desk's refusals (KioskErrors from the FrontDesk) as HTTP statuses, and back: a
 * front-desk error body carries the kiosk's code, so the kiosk passes the site's words on as they
 * are. A code not listed is the engine's own fault (500, logged).
 */
const statuses: Partial<Record<ErrorCode, number>> = {
  INVALID_INPUT: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  REJECTED: 409,
  /** The site lacks what the call needs (a tenant): nothing the caller can fix by retrying. */
  NOT_CONFIGURED: 409,
  TOO_MANY_ATTEMPTS: 429,
}

export function statusOfKioskError(code: ErrorCode): number {
  return statuses[code] ?? 500
}

/** The kiosk's code for an error the engine raised itself (a refused token, a bad body, overload). */
export function kioskCodeOfStatus(status: number): ErrorCode {
  if (status === 400 || status === 413 || status === 415) return 'INVALID_INPUT'
  if (status === 401) return 'UNAUTHORIZED'
  if (status === 403) return 'FORBIDDEN'
  if (status === 404) return 'NOT_FOUND'
  if (status === 429 || status >= 500) return 'SERVER_ERROR'
  return 'REJECTED'
}

import { KioskError } from '../../shared/errors'
import { ApiError } from '../clients/api-error'
import { SiteError } from './site-http'

/**
 * True when a call to the site failed because the site could not be reached or did not answer as
 * itself: a refused or dropped connection, a timeout, a 5xx (a gateway's, or the site's own while
 * it cannot serve), a reply that is not the site's JSON (a proxy's HTML page, a captive portal, a
 * truncated or malformed body: the HTTP client reads those as UNREACHABLE or BAD_REPLY). A refusal
 * the site made in its own words (400, 401, 403, 404, 409, 429 with its error body) is not: the
 * site was there and said no, and a kiosk's copy must not overrule it.
 */
export function siteAway(error: unknown): boolean {
  // A non-2xx reply that got past the client's "not the API" check: its status says whose it is, whatever code its body names.
  if (error instanceof SiteError) return (error.status ?? 0) >= 500
  if (error instanceof ApiError) {
    if (error.code === 'UNREACHABLE' || error.code === 'TIMEOUT' || error.code === 'BAD_REPLY') return true
    return error.status !== null && error.status >= 500
  }
  // A wrapper that rethrew a transport failure as a plain KioskError.
  return error instanceof KioskError && (error.code === 'UNREACHABLE' || error.code === 'TIMEOUT')
}

import type { Backend } from '../backend'
import { ApiError } from '../clients/api-error'
import type { HttpClient } from '../clients/http-client'
import type { TokenProvider } from '../clients/token-provider'
import type { ProbeFn } from './dispatcher'

export interface ProbeTarget {
  http: Pick<HttpClient, 'request'>
  tokens: Pick<TokenProvider, 'get' | 'invalidate'>
  /** A read the reference allows, sent with its bearer token. */
  path: string
}

/**
 * An active health probe made only of calls the reference allows, each with its credentials (a
 * server would log an unauthenticated call as a failed sign-in, and may lock the client out).
 * It measures reachability: any HTTP answer below 500 but 429 means "up"; 5xx, 429, a timeout or
 * no connection mean "not now". A credential problem (none stored, a locked keychain, a refused
 * token call) is not "offline": it answers "up" so that delivery runs and reports the real reason,
 * and the token provider holds a refusal instead of asking again on every probe.
 */
export function httpProbe(targets: readonly ProbeTarget[]): ProbeFn {
  return async (signal) => (await Promise.all(targets.map((target) => answers(target, signal)))).every(Boolean)
}

async function answers({ http, tokens, path }: ProbeTarget, signal: AbortSignal): Promise<boolean> {
  let token: string
  try {
    token = await tokens.get()
  } catch (error) {
    return !(error instanceof ApiError && error.retryable)
  }
  try {
    const reply = await http.request('the health probe', { method: 'GET', path, headers: { authorization: `Bearer ${token}` }, signal })
    if (reply.status === 401) tokens.invalidate(token)
    return reply.status < 500 && reply.status !== 429
  } catch {
    return false
  }
}

/** The probe for a kiosk backend: the kiosk's tenant on the person server, the template types on the BioEngine. */
export function backendProbe(backend: Pick<Backend, 'persons' | 'bio' | 'tenantCode'>): ProbeFn {
  return httpProbe([
    { http: backend.persons.http, tokens: backend.persons.tokens, path: `/v2/gmiserver/tenant/${encodeURIComponent(backend.tenantCode)}` },
    { http: backend.bio.http, tokens: backend.bio.tokens, path: '/template-types' },
  ])
}

import type { Backend } from '../backend'
import { ApiError } from '../clients/api-error'
import type { z } from 'zod'
import { tenantReply, templateTypeResponseSchema } from '../../shared/api-models'
import { isApiErrorBody, type HttpClient } from '../clients/http-client'
import type { TokenProvider } from '../clients/token-provider'
import type { ProbeFn } from '../../records/queue/job-runner'

export interface ProbeTarget {
  http: Pick<HttpClient, 'request' | 'parse'>
  tokens: Pick<TokenProvider, 'get' | 'invalidate'>
  /** A read the reference allows, sent with its bearer token. */
  path: string
  /** The shape its 2xx reply has in the API: anything else did not come from the servers. */
  schema: z.ZodType
}

/**
 * An active health probe made only of calls the reference allows, each with its credentials (a
 * server would log an unauthenticated call as a failed sign-in, and may lock the client out).
 * It measures whether the API answers: a 2xx of the API's shape, or another status below 500 (but
 * 429) with the API's error body, means "up". 5xx, 429, a timeout, no connection, and anything that
 * is not the API (a redirect, an HTML page, a 404 of a gateway, a 2xx of another shape, a token
 * call answered so) mean "not now". A credential problem (none stored, a locked keychain, a refused
 * token call) is not "offline": it answers "up" so that delivery runs and reports the real reason,
 * and the token provider holds a refusal instead of asking again on every probe.
 */
export function httpProbe(targets: readonly ProbeTarget[]): ProbeFn {
  return async (signal) => (await Promise.all(targets.map((target) => answers(target, signal)))).every(Boolean)
}

async function answers({ http, tokens, path, schema }: ProbeTarget, signal: AbortSignal): Promise<boolean> {
  let token: string
  try {
    token = await tokens.get()
  } catch (error) {
    return !(error instanceof ApiError && error.retryable)
  }
  try {
    const reply = await http.request('the health probe', { method: 'GET', path, headers: { authorization: `Bearer ${token}` }, signal })
    if (reply.status === 401) tokens.invalidate(token)
    if (reply.status >= 500 || reply.status === 429) return false
    if (reply.status < 200 || reply.status >= 300) return isApiErrorBody(reply.body)
    http.parse('the health probe', schema, reply)
    return true
  } catch {
    return false
  }
}

/** The probe for a kiosk backend: the kiosk's tenant on the person server, the template types on the BioEngine. */
export function backendProbe(backend: Pick<Backend, 'persons' | 'bio' | 'tenantCode'>): ProbeFn {
  return httpProbe([
    { http: backend.persons.http, tokens: backend.persons.tokens, path: `/v2/gmiserver/tenant/${encodeURIComponent(backend.tenantCode)}`, schema: tenantReply(backend.tenantCode) },
    { http: backend.bio.http, tokens: backend.bio.tokens, path: '/template-types', schema: templateTypeResponseSchema },
  ])
}

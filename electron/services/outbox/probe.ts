import type { Backend } from '../backend'
import type { HttpClient } from '../clients/http-client'
import type { ProbeFn } from './dispatcher'

/**
 * An active health probe: one unauthenticated GET per server. Any HTTP answer below 500 (a 401
 * included) proves the server is up and reachable; 5xx, 429, a timeout or no connection mean
 * "not now". Unauthenticated on purpose: it needs neither the keychain nor a token, so it tells
 * "the network is back" apart from "the credentials are wrong" (which delivery reports).
 */
export function httpProbe(targets: ReadonlyArray<{ http: Pick<HttpClient, 'request'>; path: string }>): ProbeFn {
  return async (signal) => {
    const answers = await Promise.all(
      targets.map(async ({ http, path }) => {
        try {
          const reply = await http.request('the health probe', { method: 'GET', path, signal })
          return reply.status < 500 && reply.status !== 429
        } catch {
          return false
        }
      }),
    )
    return answers.every(Boolean)
  }
}

/** The probe for a kiosk backend: the person server and the BioEngine must both answer. */
export function backendProbe(backend: Pick<Backend, 'persons' | 'bio'>): ProbeFn {
  return httpProbe([
    { http: backend.persons.http, path: '/v2/gmiserver/person' },
    { http: backend.bio.http, path: '/template-types' },
  ])
}

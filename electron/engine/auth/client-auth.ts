import { createHash } from 'node:crypto'
import { createBackOff, type BackOff } from './back-off'
import { createWorkLimit } from './work-limit'

export interface ClientCredentials {
  clientId: string
  secret: string
}

/** What client authentication needs of the client store (ClientRepository). */
export interface ClientVerifier {
  has(clientId: string): boolean | Promise<boolean>
  /** The client's scopes when the secret is right, else null; one scrypt either way. */
  verify(clientId: string, secret: string): Promise<string[] | null>
}

export type ClientAuthResult =
  | { ok: true; clientId: string; scopes: string[] }
  /** Missing, malformed or wrong credentials. */
  | { ok: false; status: 401 }
  /** 429: this client id or peer is paused after failures. 503: too much hashing under way. Nothing was hashed. */
  | { ok: false; status: 429 | 503; retryAfterSeconds: number }

export type ClientAuthRefusal = Extract<ClientAuthResult, { ok: false }>

export interface ClientAuth {
  /** `peer` is the caller's address (request.ip). */
  authenticate(credentials: ClientCredentials | null, peer: string): Promise<ClientAuthResult>
}

export interface ClientAuthOptions {
  now?: () => number
  /** Failures a client id, or a peer, may have before its first pause (default 3). */
  freeFailures?: number
  /** First pause (default 1 s); doubles with each further failure up to maxPauseMs (default 5 min). */
  firstPauseMs?: number
  maxPauseMs?: number
  /** Peers, and unknown client ids, remembered at most (default 10 000 each). */
  maxTrackedKeys?: number
  /** scrypt runs at once (default 2, half of libuv's default pool) and calls that may wait for one (default 16). */
  maxConcurrentHashes?: number
  maxWaitingHashes?: number
  /** Told when a client id or peer starts a pause; not for every refused call, so a flood cannot flood the log. */
  log?: (line: string) => void
}

/**
 * Client authentication for the token call, hardened against floods and guessing:
 * failures pause the client id and the peer exponentially; while paused, calls are refused
 * before any scrypt runs, so a flood costs nothing; and scrypt work under way is bounded, so
 * many peers together cannot occupy libuv's thread pool. State is in memory: an engine restart
 * clears it, which costs an attacker a restart they cannot cause from outside.
 */
export function createClientAuth(clients: ClientVerifier, options: ClientAuthOptions = {}): ClientAuth {
  const settings = {
    now: options.now ?? (() => Date.now()), // looked up at each call, so a faked clock reaches it
    freeFailures: options.freeFailures ?? 3,
    firstPauseMs: options.firstPauseMs ?? 1000,
    maxPauseMs: options.maxPauseMs ?? 5 * 60_000,
  }
  const maxKeys = options.maxTrackedKeys ?? 10_000
  // Known ids are as many as the clients table holds. Unknown ids are made up at will, so they
  // live in their own bounded map: spraying them cannot push a real client's pause out of memory.
  const knownIds = createBackOff({ ...settings, maxKeys: Number.POSITIVE_INFINITY })
  const unknownIds = createBackOff({ ...settings, maxKeys })
  const peers = createBackOff({ ...settings, maxKeys })
  const hashing = createWorkLimit(options.maxConcurrentHashes ?? 2, options.maxWaitingHashes ?? 16)
  const log = options.log ?? (() => {})

  const retryAfter = (ms: number) => Math.max(1, Math.ceil(ms / 1000))
  const paused = (what: string, ms: number) => {
    if (ms > 0) log(`client authentication: ${what} paused for ${retryAfter(ms)} s after repeated failures`)
  }

  return {
    async authenticate(credentials, peer) {
      // Nothing to hash: refused at no cost, and not counted.
      if (!credentials) return { ok: false, status: 401 }
      const { clientId, secret } = credentials
      const ids: BackOff = (await clients.has(clientId)) ? knownIds : unknownIds
      // Unknown ids are the caller's to choose, of any length: remember a digest of them.
      const idKey = ids === knownIds ? clientId : createHash('sha256').update(clientId).digest('base64')
      const peerKey = peer.replace(/^::ffff:/, '')

      const wait = Math.max(ids.waitMs(idKey), peers.waitMs(peerKey))
      if (wait > 0) return { ok: false, status: 429, retryAfterSeconds: retryAfter(wait) }

      ids.begin(idKey)
      peers.begin(peerKey)
      let scopes: string[] | null
      try {
        const run = hashing.run(() => clients.verify(clientId, secret))
        if (!run) {
          ids.end(idKey, 'abandoned')
          peers.end(peerKey, 'abandoned')
          return { ok: false, status: 503, retryAfterSeconds: 1 }
        }
        scopes = await run
      } catch (error) {
        ids.end(idKey, 'abandoned')
        peers.end(peerKey, 'abandoned')
        throw error
      }
      if (scopes) {
        ids.end(idKey, 'succeeded')
        // A success does not clear the peer: it would let one valid client launder guesses at others.
        peers.end(peerKey, 'abandoned')
        return { ok: true, clientId, scopes }
      }
      paused(`client id ${JSON.stringify(clientId.slice(0, 64))}`, ids.end(idKey, 'failed'))
      paused(`peer ${peerKey}`, peers.end(peerKey, 'failed'))
      return { ok: false, status: 401 }
    },
  }
}

/**
 * The token endpoint's answer to a refusal (RFC 6749 §5.2 error bodies):
 * - 401 `invalid_client`, with `WWW-Authenticate: Basic`: the credentials are wrong or missing.
 * - 429 `slow_down`, with `Retry-After`: this client id or peer is paused. Not `invalid_client`:
 *   the credentials were not judged, and a client told they are wrong would stop retrying.
 *   `slow_down` is the registered OAuth token-endpoint error for "retry, later" (RFC 8628 §3.5).
 * - 503 `temporarily_unavailable`, with `Retry-After`: the engine is busy hashing (RFC 6749 §4.1.2.1's
 *   name for an overloaded server).
 */
export function clientAuthRefusal(refusal: ClientAuthRefusal): {
  status: 401 | 429 | 503
  headers: Record<string, string>
  body: { error: string; error_description: string }
} {
  if (refusal.status === 401) {
    return {
      status: 401,
      headers: { 'WWW-Authenticate': 'Basic realm="person-server"' },
      body: { error: 'invalid_client', error_description: 'Client authentication failed.' },
    }
  }
  const headers = { 'Retry-After': String(refusal.retryAfterSeconds) }
  if (refusal.status === 429) {
    return {
      status: 429,
      headers,
      body: { error: 'slow_down', error_description: `Too many failed client authentications: retry after ${refusal.retryAfterSeconds} s.` },
    }
  }
  return {
    status: 503,
    headers,
    body: { error: 'temporarily_unavailable', error_description: `The engine is busy checking client credentials: retry after ${refusal.retryAfterSeconds} s.` },
  }
}

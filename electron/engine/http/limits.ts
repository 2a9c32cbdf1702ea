import type { EventStreamLimits } from '../routes/frontdesk-events'
import type { AdmissionLimits } from './admission'

/** Request bodies, sized to the call. Fastify answers 413 past a route's limit, reading no further. */
export const BODY_LIMITS = {
  /** Person-server calls, the token call and every call without a body: a few KB. */
  small: 16 * 1024,
  /** Calls that carry samples (enroll, create, identify, verify): ten 2 MB images, base64, with room to spare. */
  samples: 32 * 1024 * 1024,
} as const

export interface HttpLimits extends AdmissionLimits, EventStreamLimits {
  /** The whole request, headers and body, must arrive within this (else 408). */
  requestTimeoutMs: number
  /** The headers must arrive within this. */
  headersTimeoutMs: number
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number
  /** A connection with no traffic either way for this long is closed (work per request is far shorter). */
  idleSocketTimeoutMs: number
  /** Connections beyond this are closed as they arrive. */
  maxConnections: number
  /** A token call from a caller in back-off waits this long for its 429 ... */
  tarpitMs: number
  /** ... when fewer than this many already wait (fewer than a caller may have in flight, so the rest
   * are not refused 503 for the held ones); else it is answered at once and its connection closed. */
  maxTarpitted: number
}

export const HTTP_LIMITS: HttpLimits = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5_000,
  idleSocketTimeoutMs: 60_000,
  maxConnections: 256,
  tarpitMs: 1000,
  maxTarpitted: 16,
  maxInFlight: 128,
  maxInFlightPerCaller: 32,
  maxEventStreams: 64,
  eventKeepAliveMs: 15_000,
}

import type { FastifyInstance } from 'fastify'
import { OverloadError } from './errors'

export interface AdmissionLimits {
  /** Requests being handled at once, all callers together. */
  maxInFlight: number
  /** Requests being handled at once for one caller (a client id, or a peer before it authenticates). */
  maxInFlightPerCaller: number
}

/**
 * Refuses work beyond the limits with 503 + Retry-After before it starts, so a flood queues
 * nowhere. Registered after authentication, so a caller is counted under its client id.
 */
export function admitRequests(app: FastifyInstance, limits: AdmissionLimits): void {
  let total = 0
  const perCaller = new Map<string, number>()
  app.addHook('onRequest', async (request, reply) => {
    // A stream would hold its slot for hours: the event stream route bounds streams itself.
    if (request.routeOptions.config.stream) return
    const caller = request.caller
    const mine = perCaller.get(caller) ?? 0
    if (total >= limits.maxInFlight) throw new OverloadError(`The engine is busy with ${total} requests; try again shortly.`, 1)
    if (mine >= limits.maxInFlightPerCaller) throw new OverloadError(`This caller already has ${mine} requests in progress; try again shortly.`, 1)
    total++
    perCaller.set(caller, mine + 1)
    // 'close' comes once whether the reply was sent or the caller went away.
    reply.raw.once('close', () => {
      total--
      const left = (perCaller.get(caller) ?? 1) - 1
      if (left > 0) perCaller.set(caller, left)
      else perCaller.delete(caller)
    })
  })
}

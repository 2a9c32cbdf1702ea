import fc from 'fast-check'
import { requestsOf, type FuzzContext, type FuzzRequest } from './requests'
import type { FuzzRoute } from './route-table'

/** The default seed; FUZZ_SEED overrides it to replay or explore. */
export const DEFAULT_SEED = 1313

export function fuzzSeed(env: NodeJS.ProcessEnv = process.env): number {
  const seed = env.FUZZ_SEED === undefined || env.FUZZ_SEED === '' ? DEFAULT_SEED : Number(env.FUZZ_SEED)
  if (!Number.isSafeInteger(seed)) throw new Error(`FUZZ_SEED must be an integer, not ${env.FUZZ_SEED}`)
  return seed
}

/**
 * `perRoute` requests for every route, each route sampled from its own seed (seed + its index), then
 * interleaved route by route, so destructive calls (deletes) are spread over the run rather than
 * bunched, and the same seed sends the same requests in the same order.
 */
export function plan(routes: readonly FuzzRoute[], ctx: FuzzContext, seed: number, perRoute: number): FuzzRequest[] {
  const perRouteRequests = routes.map((route, i) => fc.sample(requestsOf(route, ctx), { seed: seed + i, numRuns: perRoute }))
  const requests: FuzzRequest[] = []
  for (let n = 0; n < perRoute; n++) for (const list of perRouteRequests) requests.push(list[n]!)
  return requests
}

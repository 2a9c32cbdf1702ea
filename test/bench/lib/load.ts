import { performance } from 'node:perf_hooks'
import { latency, type Latency } from './stats'

export interface LoadResult {
  /** Completed requests per second over the run. */
  throughput: number
  latency: Latency
  errors: number
  firstError: string | null
}

/**
 * `concurrency` callers, each issuing `fn` back to back for `durationMs` (requests in flight at the
 * end finish and count). Errors are counted, never thrown: zero errors is one of the results.
 */
export async function runLoad(durationMs: number, concurrency: number, fn: (i: number) => Promise<unknown>): Promise<LoadResult> {
  const ms: number[] = []
  let errors = 0
  let firstError: string | null = null
  let next = 0
  const started = performance.now()
  const deadline = started + durationMs
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const at = performance.now()
        try {
          await fn(next++)
          ms.push(performance.now() - at)
        } catch (error) {
          errors++
          firstError ??= error instanceof Error ? error.message : String(error)
        }
      }
    }),
  )
  const seconds = (performance.now() - started) / 1000
  return { throughput: ms.length / seconds, latency: latency(ms), errors, firstError }
}

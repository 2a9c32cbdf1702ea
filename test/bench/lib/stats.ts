import { performance } from 'node:perf_hooks'

export interface Latency {
  p50: number
  p95: number
  p99: number
  count: number
}

/** Percentiles of a list of milliseconds (nearest rank). */
export function latency(ms: number[]): Latency {
  const sorted = [...ms].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), count: sorted.length }
}

export interface Measured extends Latency {
  /** Sum of the measured calls' times, for throughputs (work / total time). */
  totalMs: number
}

/**
 * Interleaves two measurements call by call (a, b, a, b, ...), so noise from a shared machine lands
 * on both alike. Warm-up calls get the indices times .. times+warmup-1, so every call sees a
 * distinct index (callers may use it to make each call's input new).
 */
export async function timePair(
  times: number,
  a: (i: number) => Promise<unknown> | unknown,
  b: (i: number) => Promise<unknown> | unknown,
  warmup = Math.min(10, times),
): Promise<[Measured, Measured]> {
  for (let i = 0; i < warmup; i++) {
    await a(times + i)
    await b(times + i)
  }
  const msA: number[] = []
  const msB: number[] = []
  for (let i = 0; i < times; i++) {
    let started = performance.now()
    await a(i)
    msA.push(performance.now() - started)
    started = performance.now()
    await b(i)
    msB.push(performance.now() - started)
  }
  const measured = (ms: number[]): Measured => ({ ...latency(ms), totalMs: ms.reduce((sum, x) => sum + x, 0) })
  return [measured(msA), measured(msB)]
}

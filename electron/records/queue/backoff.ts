/**
 * Full-jitter exponential backoff (the AWS architecture blog's "full jitter"):
 * delay = random(0, min(cap, base * 2^(n - 1))) for the n-th consecutive failure (n >= 1).
 *
 * Full jitter rather than a fixed exponential: a fleet of kiosks that lost the network together
 * would otherwise retry together, in lockstep, against a server that is just coming back.
 */
export interface Backoff {
  baseMs: number
  capMs: number
}

/** 1 s doubling to a 5 min ceiling: a lost item is retried within seconds at first, and no more than ~12 times an hour later on. */
export const DEFAULT_BACKOFF: Backoff = { baseMs: 1_000, capMs: 5 * 60_000 }

export function fullJitter(failures: number, { baseMs, capMs }: Backoff, random: () => number = Math.random): number {
  const n = Math.max(1, Math.floor(failures))
  // 2^(n-1) overflows to Infinity long after it has passed any cap; Math.min handles that.
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(n - 1, 1_000))
  return Math.floor(random() * ceiling)
}

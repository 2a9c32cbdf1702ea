export interface BackOffOptions {
  /** Failures a key may have before its first pause. */
  freeFailures: number
  /** The first pause; each further failure doubles it, up to maxPauseMs. */
  firstPauseMs: number
  maxPauseMs: number
  /** Most keys remembered; past it the least recently failed key is forgotten. */
  maxKeys: number
  now: () => number
}

export type AttemptOutcome = 'failed' | 'succeeded' | 'abandoned'

/** Failure back-off for one kind of key (client ids, peers), in memory. */
export interface BackOff {
  /** Milliseconds before `key` may try again; 0 when it may try now. */
  waitMs(key: string): number
  /** An attempt for `key` began. Until it ends it counts as a failure, so concurrent tries cannot outrun the count. */
  begin(key: string): void
  /**
   * The attempt ended. `failed` counts a failure and returns the pause it starts (0 while failures
   * are still free); `succeeded` clears the key; `abandoned` only ends the attempt.
   */
  end(key: string, outcome: AttemptOutcome): number
  readonly size: number
}

interface Entry {
  failures: number
  inFlight: number
  /** End of the current pause, or the time of the last failure when there is no pause. */
  quietFrom: number
}

/** When only attempts in flight hold a key back, retry this much later: they settle within it. */
const IN_FLIGHT_WAIT_MS = 1000

export function createBackOff(options: BackOffOptions): BackOff {
  const { freeFailures, firstPauseMs, maxPauseMs, maxKeys, now } = options
  // Map order is recency order: a touched entry is re-inserted at the end, the first is the oldest.
  const entries = new Map<string, Entry>()
  const pauseAfter = (failures: number) => (failures < freeFailures ? 0 : Math.min(firstPauseMs * 2 ** (failures - freeFailures), maxPauseMs))

  /** The key's entry, forgetting it once it has been quiet for a whole maximum pause. */
  function current(key: string): Entry | undefined {
    const entry = entries.get(key)
    if (entry && entry.inFlight === 0 && now() >= entry.quietFrom + maxPauseMs) {
      entries.delete(key)
      return undefined
    }
    return entry
  }

  function touch(key: string, entry: Entry): void {
    entries.delete(key)
    entries.set(key, entry)
    // An attacker can make up keys without end: keep the newest maxKeys.
    while (entries.size > maxKeys) entries.delete(entries.keys().next().value!)
  }

  return {
    waitMs(key) {
      const entry = current(key)
      if (!entry) return 0
      const paused = entry.quietFrom - now()
      if (paused > 0) return paused
      if (entry.inFlight > 0 && entry.failures + entry.inFlight >= freeFailures) return IN_FLIGHT_WAIT_MS
      return 0
    },
    begin(key) {
      const entry = current(key) ?? { failures: 0, inFlight: 0, quietFrom: now() }
      entry.inFlight++
      touch(key, entry)
    },
    end(key, outcome) {
      const entry = current(key) ?? { failures: 0, inFlight: 1, quietFrom: now() }
      entry.inFlight = Math.max(0, entry.inFlight - 1)
      if (outcome === 'succeeded') {
        entry.failures = 0
        entry.quietFrom = now()
        if (entry.inFlight === 0) entries.delete(key)
        return 0
      }
      if (outcome === 'abandoned') {
        if (entry.inFlight === 0 && entry.failures === 0) entries.delete(key)
        return 0
      }
      entry.failures++
      const pause = pauseAfter(entry.failures)
      entry.quietFrom = now() + pause
      touch(key, entry)
      return pause
    },
    get size() {
      return entries.size
    },
  }
}

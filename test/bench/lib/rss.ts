import { setTimeout as sleep } from 'node:timers/promises'

export interface SettledRss {
  mb: number
  /** Reads taken, the last two of which are compared. */
  polls: number
  /** Whether the last two reads were within `tolerance` of each other (false: the poll limit hit). */
  settled: boolean
}

/**
 * Polls a process's RSS until two reads `intervalMs` apart differ by less than `tolerance` (relative),
 * at most `maxPolls` reads; returns the last read. Right after start or a burst of work, heaps and
 * the allocator are still shrinking, so a single read would depend on when it was taken.
 */
export async function settledRss(read: () => number, { intervalMs, maxPolls, tolerance = 0.02 }: { intervalMs: number; maxPolls: number; tolerance?: number }): Promise<SettledRss> {
  let previous = read()
  for (let polls = 2; polls <= Math.max(2, maxPolls); polls++) {
    await sleep(intervalMs)
    const current = read()
    if (Math.abs(current - previous) < tolerance * previous) return { mb: current, polls, settled: true }
    previous = current
  }
  return { mb: previous, polls: maxPolls, settled: false }
}

/**
 * Peak of `read()` sampled every `intervalMs` until stop() is called (which returns the peak). A read
 * that throws (the process has exited) is skipped: whoever watches the process reports its death.
 */
export function samplePeak(read: () => number, intervalMs = 250): { stop(): number } {
  let peak = 0
  const sample = () => {
    try {
      peak = Math.max(peak, read())
    } catch {
      // gone: see above
    }
  }
  sample()
  const timer = setInterval(sample, intervalMs)
  return {
    stop() {
      clearInterval(timer)
      sample()
      return peak
    },
  }
}

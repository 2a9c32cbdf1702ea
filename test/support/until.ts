/**
 * Resolves once `holds()` is true, checking every `everyMs`, or after each turn of the event loop
 * when none is given; the test's own timeout bounds the wait.
 */
export async function until(holds: () => boolean, everyMs?: number): Promise<void> {
  while (!holds()) await new Promise((resolve) => (everyMs === undefined ? setImmediate(resolve) : setTimeout(resolve, everyMs)))
}

export interface Polling {
  /** How many times `probe` runs before the wait fails. */
  attempts?: number
  everyMs?: number
  /** A probe that throws counts as "not yet" (a server still restarting); otherwise its error fails the wait at once. */
  retryErrors?: boolean
}

/** Polls `probe` until it yields a value and returns it; fails with `never: <what>` after `attempts` tries. */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined | false>, { attempts = 300, everyMs = 100, retryErrors = false }: Polling = {}): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const value = await (retryErrors ? probe().catch(() => undefined) : probe())
    if (value) return value
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
  throw new Error(`never: ${what}`)
}

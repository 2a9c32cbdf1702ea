import type { BenchRow } from './report'

export interface BenchContext {
  /** Small sizes and short runs: CI runs this to prove the benchmarks work, not to measure. */
  quick: boolean
  /** Progress lines for the console (not part of the report). */
  log(line: string): void
}

/** One benchmark section: measures and returns its rows; throws only when the benchmark itself breaks. */
export interface BenchSection {
  name: string
  run(ctx: BenchContext): Promise<BenchRow[]>
}

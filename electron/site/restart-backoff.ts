/**
 * How long to wait before restarting something that exited: not at all after a good run, then
 * doubling (0.5 s, 1 s, 2 s … up to 30 s) while it keeps failing soon after each start, so a
 * process that cannot start does not spin a core.
 */
export class RestartBackoff {
  private failures = 0

  constructor(
    private readonly goodRunMs = 30_000,
    private readonly maxMs = 30_000,
  ) {}

  /** The delay before the next start, given how long the last one ran. */
  next(ranMs: number): number {
    if (ranMs >= this.goodRunMs) this.failures = 0
    const delayMs = this.failures === 0 ? 0 : Math.min(this.maxMs, 500 * 2 ** (this.failures - 1))
    this.failures++
    return delayMs
  }
}

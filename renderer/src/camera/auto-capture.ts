/**
 * When to take a photo by itself: once the frames have passed every check for STABLE_MS without a
 * break, take the best frame of that window. A failing frame starts the window again. After a
 * photo, COOLDOWN_MS pass before the next window opens, so a set of photos are not near copies of
 * one instant. Pure logic (times are passed in), so it is unit-tested in Node.
 */
export const STABLE_MS = 700
export const COOLDOWN_MS = 1200

export interface AutoCaptureStep {
  /** This frame is the best of the current window so far: keep a copy of it. */
  keep: boolean
  /** The window is complete: take the kept frame now. */
  capture: boolean
  /** 0..1 of the way through the window (for the on-screen progress). */
  progress: number
  state: 'waiting' | 'steady' | 'cooldown'
}

export class AutoCapture {
  private since: number | null = null
  private best = -1
  private cooldownUntil = Number.NEGATIVE_INFINITY

  constructor(
    private readonly stableMs = STABLE_MS,
    private readonly cooldownMs = COOLDOWN_MS,
  ) {}

  /** Feeds one judged frame: whether it passed every check and its quality (0..1). */
  update(now: number, ok: boolean, quality: number): AutoCaptureStep {
    if (now < this.cooldownUntil) return { keep: false, capture: false, progress: 0, state: 'cooldown' }
    if (!ok) {
      this.reset()
      return { keep: false, capture: false, progress: 0, state: 'waiting' }
    }
    this.since ??= now
    const keep = quality > this.best
    if (keep) this.best = quality
    const elapsed = now - this.since
    return { keep, capture: elapsed >= this.stableMs, progress: Math.min(1, elapsed / this.stableMs), state: 'steady' }
  }

  /** The best quality kept in the current window, -1 when none. */
  get bestQuality(): number {
    return this.best
  }

  /** A photo was taken (automatically or by hand): start the pause before the next window. */
  captured(now: number): void {
    this.reset()
    this.cooldownUntil = now + this.cooldownMs
  }

  reset(): void {
    this.since = null
    this.best = -1
  }
}

/**
 * When to take a photo by itself: once the frames have passed every check for STABLE_MS without a
 * break, take the best frame of that window. A failing frame starts the window again. After a
 * photo, COOLDOWN_MS pass before the next photo, so a set of photos are not near copies of one
 * instant; frames from the pause are never taken, the next photo is the best of at least BEST_OF_MS
 * of frames after it. The steady window runs on through the pause, so someone who stays still is
 * not made to hold still all over again (the timings: README.md beside this file).
 * Pure logic (times are passed in), so it is unit-tested in Node.
 */
export const STABLE_MS = 500
export const COOLDOWN_MS = 900
export const BEST_OF_MS = 200

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
  /** The first frame of the current run of passing frames. */
  private since: number | null = null
  /** The first frame after the pause that may be taken. */
  private firstCandidate: number | null = null
  private best = -1
  private cooldownUntil = Number.NEGATIVE_INFINITY

  constructor(
    private readonly stableMs = STABLE_MS,
    private readonly cooldownMs = COOLDOWN_MS,
    private readonly bestOfMs = Math.min(BEST_OF_MS, stableMs),
  ) {}

  /** Feeds one judged frame: whether it passed every check and its quality (0..1). */
  update(now: number, ok: boolean, quality: number): AutoCaptureStep {
    if (!ok) {
      this.reset()
      return { keep: false, capture: false, progress: 0, state: now < this.cooldownUntil ? 'cooldown' : 'waiting' }
    }
    this.since ??= now
    if (now < this.cooldownUntil) return { keep: false, capture: false, progress: 0, state: 'cooldown' }
    this.firstCandidate ??= now
    const keep = quality > this.best
    if (keep) this.best = quality
    const start = this.firstCandidate
    const due = Math.max(this.since + this.stableMs, start + this.bestOfMs)
    const progress = due > start ? Math.min(1, (now - start) / (due - start)) : 1
    return { keep, capture: now >= due, progress, state: 'steady' }
  }

  /** The best quality kept in the current window, -1 when none. */
  get bestQuality(): number {
    return this.best
  }

  /** A photo was taken (automatically or by hand): start the pause before the next one. */
  captured(now: number): void {
    this.reset()
    this.cooldownUntil = now + this.cooldownMs
  }

  reset(): void {
    this.since = null
    this.firstCandidate = null
    this.best = -1
  }
}

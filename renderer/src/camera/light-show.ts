import type { LightColour, LightPeriod } from '@shared/liveness'

/**
 * The screen's light as it is painted: a colour goes on at the first paint after the one before has
 * been on screen its drawn time, and the show notes when each went on; the engine judges the frames
 * by those times. A busy page paints late (the face mesh runs on the same thread, and the light's
 * first paint waits for its screen to render): timed from a plan instead, the frames read as the
 * colour before and CI refused a live stand-in.
 */
export class LightShow {
  /** When each colour went on screen (the page's clock), in order. */
  readonly shownAt: number[] = []

  constructor(private readonly light: readonly LightPeriod[]) {}

  /** The colour to paint at `now` (a paint's time); null once the last colour has had its time. */
  paint(now: number): LightColour | null {
    const on = this.shownAt.length - 1
    if (on >= 0 && now < this.shownAt[on]! + this.light[on]!.ms) return this.light[on]!.colour
    if (on + 1 >= this.light.length) return null
    this.shownAt.push(now)
    return this.light[on + 1]!.colour
  }

  /** When the first colour went on, or null before. */
  get startedAt(): number | null {
    return this.shownAt[0] ?? null
  }

  /** When the last colour's time is over, or null before it went on. */
  get endsAt(): number | null {
    const last = this.light.length - 1
    return this.shownAt.length === this.light.length ? this.shownAt[last]! + this.light[last]!.ms : null
  }
}

/** How long "Still there?" counts down before the kiosk starts over. */
export const WARNING_MS = 10_000

export type IdlePhase = { kind: 'active' } | { kind: 'warning'; secondsLeft: number } | { kind: 'expired' }

/**
 * When the kiosk is idle: `timeoutMs` after the last sign of someone there (a touch, a key, a face
 * in view of the camera) it asks "Still there?" for WARNING_MS, then it has expired. Pure: times
 * are passed in, so it is unit-tested in Node.
 */
export class IdleClock {
  private last: number

  constructor(
    private readonly timeoutMs: number,
    now: number,
    private readonly warningMs = WARNING_MS,
  ) {
    this.last = now
  }

  /** Someone is there: the count starts again (and a shown warning goes away). */
  activity(now: number): void {
    this.last = now
  }

  phase(now: number): IdlePhase {
    const idle = now - this.last
    if (idle < this.timeoutMs) return { kind: 'active' }
    const left = this.timeoutMs + this.warningMs - idle
    return left > 0 ? { kind: 'warning', secondsLeft: Math.ceil(left / 1000) } : { kind: 'expired' }
  }

  /** Milliseconds from `now` until the phase can next change (when to look again). */
  nextChange(now: number): number {
    const idle = now - this.last
    if (idle < this.timeoutMs) return this.timeoutMs - idle
    const left = this.timeoutMs + this.warningMs - idle
    // While warning, once a second so the countdown ticks.
    return Math.max(0, Math.min(left, left % 1000 || 1000))
  }
}

/** How long "Still there?" counts down before the kiosk starts over. */
export const WARNING_MS = 10_000

export type IdlePhase = { kind: 'active' } | { kind: 'warning'; secondsLeft: number } | { kind: 'expired' }

/**
 * When the kiosk is idle: `timeoutMs` after the last sign of someone there (a touch, a key, a face
 * in view of the camera) it has expired; for the last WARNING_MS before that it asks "Still
 * there?". The reset comes at the configured idle timeout, the moment the services end a staff
 * session too, so "I'm still here" (a touch: the activity ping keeps the session) is always in
 * time. Pure: times are passed in, so it is unit-tested in Node.
 */
export class IdleClock {
  private last: number
  private readonly warnAfter: number

  constructor(
    private readonly timeoutMs: number,
    now: number,
    warningMs = WARNING_MS,
  ) {
    this.last = now
    // A timeout shorter than the countdown warns from the start.
    this.warnAfter = Math.max(0, timeoutMs - warningMs)
  }

  /** Someone is there: the count starts again (and a shown warning goes away). */
  activity(now: number): void {
    this.last = now
  }

  phase(now: number): IdlePhase {
    const idle = now - this.last
    if (idle < this.warnAfter) return { kind: 'active' }
    const left = this.timeoutMs - idle
    return left > 0 ? { kind: 'warning', secondsLeft: Math.ceil(left / 1000) } : { kind: 'expired' }
  }

  /** Milliseconds from `now` until the phase can next change (when to look again). */
  nextChange(now: number): number {
    const idle = now - this.last
    if (idle < this.warnAfter) return this.warnAfter - idle
    const left = this.timeoutMs - idle
    // While warning, at each whole second left so the countdown ticks.
    return Math.max(0, left % 1000 || Math.min(left, 1000))
  }
}

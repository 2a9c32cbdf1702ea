/**
 * Counters of the capture quality loop, for the benchmark and the e2e test (which read them from the
 * test harness page) and for diagnostics. Plain module state: one capture runs at a time.
 */
export const loopStats = {
  /** Frames taken through detection and the checks since the last reset. */
  frames: 0,
  /** Time spent in those frames (grab + detect + checks), ms. */
  busyMs: 0,
  /** performance.now() of the last reset. */
  since: 0,
  /** The tfjs backend the detector runs on, once loaded. */
  backend: null as string | null,
  /** The last judged frame: what was measured and which check failed first. */
  last: null as null | { faces: number; failing: string | null; quality: number; eyeDistance?: number; pose?: { yaw: number; pitch: number; roll: number }; brightness?: number; sharpness?: number },
}

export function resetLoopStats(): void {
  loopStats.frames = 0
  loopStats.busyMs = 0
  loopStats.since = performance.now()
}

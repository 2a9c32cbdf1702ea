import { eyeDistance, type Assessment, type FaceObservation } from './quality'

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
  /** Which loop counted the frames: the photo's quality loop, or the liveness challenge's. */
  loop: 'quality' as 'quality' | 'liveness',
  /** The last judged frame: what was measured and which check failed first. */
  last: null as null | { faces: number; failing: string | null; quality: number; eyeDistance?: number; pose?: { yaw: number; pitch: number; roll: number }; brightness?: number; sharpness?: number },
}

export function resetLoopStats(loop: 'quality' | 'liveness' = 'quality'): void {
  loopStats.loop = loop
  loopStats.frames = 0
  loopStats.busyMs = 0
  loopStats.since = performance.now()
}

/** Counts one judged frame: what was measured, and the time it took. */
export function recordFrame({ faces, assessment }: { faces: FaceObservation[]; assessment: Assessment }, busyMs: number): void {
  const face = faces[0]
  loopStats.last = {
    faces: faces.length,
    failing: assessment.failing?.check ?? null,
    quality: assessment.quality,
    eyeDistance: face ? eyeDistance(face) : undefined,
    pose: face?.pose,
    brightness: assessment.brightness,
    sharpness: assessment.sharpness,
  }
  loopStats.frames++
  loopStats.busyMs += busyMs
}

/** Counts one frame of the liveness challenge's loop (grab + mesh + run): faces seen, and the time it took. */
export function recordLivenessFrame(faces: number, busyMs: number): void {
  loopStats.last = { faces, failing: null, quality: 0 }
  loopStats.frames++
  loopStats.busyMs += busyMs
}

/** Frames per second over the last whole second or more; `tick` answers a new rate once one has passed. */
export class FpsMeter {
  private frames = 0
  private since = performance.now()

  tick(now: number): number | null {
    this.frames++
    if (now - this.since < 1000) return null
    const fps = Math.round((this.frames * 10000) / (now - this.since)) / 10
    this.frames = 0
    this.since = now
    return fps
  }
}

import type { ChallengeStep } from './liveness'

/**
 * The active challenge's checks on face-mesh landmark sequences (MediaPipe's 468-point topology,
 * image pixels). Pure functions: the page uses them only to guide the person and to know when to
 * take a frame; the embedded engine runs the same ones on landmarks it recomputes from the burst,
 * and only its verdict counts.
 */

export type MeshPoint = readonly [number, number, number?] | readonly number[]
export type Mesh = readonly MeshPoint[]

export interface FrameSignals {
  /** Both eyes' lid gap over eye width, averaged: drops sharply during a blink. */
  openness: number
  /** Nose tip along the eye axis: 0 at the image-left outer eye corner, 1 at the image-right one. */
  parallax: number
}

export interface StepVerdict {
  passed: boolean
  /** Plain words with the measured numbers, for logs, audit and tests (no landmarks). */
  detail: string
}

export function frameSignals(_mesh: Mesh): FrameSignals {
  throw new Error('liveness-motion: not implemented yet')
}

/** RMS distance left after the best homography maps `from` onto `to`, over the inter-ocular distance: ~0 for a plane. */
export function planarResidual(_from: Mesh, _to: Mesh): number {
  throw new Error('liveness-motion: not implemented yet')
}

/**
 * Whether `meshes` (the step's start first, then later frames in order) show the step done by a
 * real head. `margin` > 1 asks for more than the engine does (the page uses it so the engine agrees).
 */
export function judgeStep(_step: ChallengeStep, _meshes: readonly Mesh[], _options: { margin?: number } = {}): StepVerdict {
  throw new Error('liveness-motion: not implemented yet')
}

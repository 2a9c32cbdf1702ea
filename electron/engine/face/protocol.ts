/**
 * Messages between the engine's main thread and a face worker thread. Kept in one place so both
 * sides agree on the shapes; everything here must survive structured cloning.
 */

/** Which recognition model a worker loads. */
export type ModelKind = 'human' | 'faceapi'

/** workerData of a face worker. */
export interface WorkerInit {
  model: ModelKind
}

/** One decoded image to analyse: tightly packed RGB, 3 bytes per pixel, row by row. */
export interface InferRequest {
  id: number
  rgb: Uint8Array
  width: number
  height: number
  /** Also return the mesh and the anti-spoofing / liveness scores (the liveness models load on the first such request). */
  liveness?: boolean
}

/** What a liveness request adds to a face (Human only). */
export interface LivenessSignals {
  /** The 468 face-mesh points, [x, y, z] in the pixels of the image the worker was given. */
  mesh: number[][]
  /** Anti-spoofing model: 0 (a print or screen) .. 1 (a real face). */
  real: number
  /** Liveness model: 0 .. 1 (live). */
  live: number
}

/** A face as the model reports it, in the pixels of the image the worker was given. */
export interface RawFace {
  box: { x: number; y: number; width: number; height: number }
  detectorScore: number
  /** Head pose in radians where the model estimates it; null when it cannot. */
  pose: { yaw: number; pitch: number; roll: number } | null
  /** The model's descriptor as it comes out (not normalised yet). */
  embedding: Float32Array
  /** Only for a request with `liveness`. */
  liveness?: LivenessSignals
}

export type WorkerMessage =
  | { type: 'ready'; info: string }
  | { type: 'result'; id: number; faces: RawFace[]; ms: number }
  | { type: 'error'; id: number; message: string }
  | { type: 'fatal'; message: string }
  | { type: 'log'; line: string }

/** What a worker runs: one loaded model that turns RGB pixels into faces. */
export interface FaceModel {
  /** One line for the log: model, backend, load time. */
  readonly info: string
  infer(rgb: Uint8Array, width: number, height: number, options?: { liveness?: boolean }): Promise<RawFace[]>
}

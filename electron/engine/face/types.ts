import type { PoolStats } from './pool'

/**
 * The face plugin contract between the engine's HTTP layer and its recognition models.
 * A plugin turns image bytes into detected faces with L2-normalised embeddings, and maps the
 * cosine similarity of two embeddings onto its calibrated 0–100 score.
 */

export interface DetectedFace {
  /** Bounding box in source-image pixels. */
  box: { x: number; y: number; width: number; height: number }
  /** Detector confidence, 0..1. */
  detectorScore: number
  /** Sample quality for enrollment responses, 0..1 (detector confidence, size, pose). */
  quality: number
  /** L2-normalised embedding, length === plugin.dimensions. */
  embedding: Float32Array
}

/** A face with what the liveness checks read (plugins whose model gives them: Human). */
export interface LivenessFace extends DetectedFace {
  /** The 468 face-mesh points, [x, y, z], in source-image pixels. */
  mesh: number[][]
  /** Anti-spoofing score, 0 (print or screen) .. 1 (real). */
  real: number
  /** Liveness score, 0 .. 1 (live). */
  live: number
}

export interface FacePlugin {
  /** Plugin name; the template type is `Face:<name>`. Letters and digits only. */
  readonly name: string
  /** Embedding length. */
  readonly dimensions: number
  /** Bumped whenever embeddings from an older model would no longer be comparable. */
  readonly modelVersion: number
  /** Default decision threshold on the 0–100 score scale (TemplateTypeInfo.scoreThreshold). */
  readonly scoreThreshold: number
  /** How many samples an enrollment should carry (TemplateTypeInfo.numSamplesForEnroll). */
  readonly numSamplesForEnroll: number
  /** Maps cosine similarity (-1..1) of two normalised embeddings to the calibrated 0–100 score. */
  score(similarity: number): number
  /**
   * Decodes a JPEG/PNG and returns every face found, largest first. Rejects with FaceImageError
   * when the bytes cannot be decoded as an image, and with OverloadError (face/overload.ts) when
   * too much work is waiting. `caller` is the scheduling key: waiting images are served
   * round-robin per caller.
   */
  analyze(image: Uint8Array, caller?: string): Promise<DetectedFace[]>
  /**
   * Like analyze, with the mesh and the anti-spoofing / liveness scores; the same queue and budgets.
   * Absent when the model has no liveness models.
   */
  analyzeLiveness?: (image: Uint8Array, caller?: string) => Promise<LivenessFace[]>
  /** The workers' current load (see face/pool.ts). */
  stats(): PoolStats
  /** Stops the plugin's workers. */
  close(): Promise<void>
}

/** The bytes are not a decodable image (truncated, corrupt, unsupported). */
export class FaceImageError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'FaceImageError'
  }
}

export interface FacePluginOptions {
  /** Worker threads per plugin. */
  threads: number
  /** Receives plugin log lines (they end up in the engine's /logs zip). */
  log: (line: string) => void
  /**
   * Called with the worker's own inference time of each analysed image, before `analyze` resolves:
   * the benchmarks set the pipeline's wall time against it (test/bench/sections/pipeline.ts).
   */
  onInference?: (ms: number) => void
  /** A worker idle this long is retired (default 60 s); the next image starts one again. */
  idleMs?: number
  /** Images waiting for a worker beyond this many are refused with OverloadError (default 1000). */
  maxQueuedJobs?: number
  /** Pixels of unfinished images beyond this are refused with OverloadError (default 256 M). */
  maxQueuedPixels?: number
}

import { Worker } from 'node:worker_threads'
import { decodeImage } from './decode'
import { FaceWorkerPool } from './pool'
import type { ModelKind, WorkerInit } from './protocol'
import { faceQuality } from './quality'
import { l2Normalise, similarityToScore, type ScoreCalibration } from './score'
import type { DetectedFace, FacePlugin, FacePluginOptions } from './types'
import { faceWorkerEntry } from './worker-entry'

/** Everything that distinguishes one face plugin from another; the machinery is shared. */
export interface FacePluginSpec {
  /** Letters and digits only: the template type is `Face:<name>`. */
  name: string
  model: ModelKind
  dimensions: number
  modelVersion: number
  scoreThreshold: number
  numSamplesForEnroll: number
  calibration: ScoreCalibration
}

/**
 * Starts `options.threads` workers for the spec's model and wraps them as a FacePlugin: the main
 * thread decodes (async, libvips), the workers infer, and the results come back normalised, in
 * source-image pixels, with a quality, largest face first.
 */
export async function startFacePlugin(spec: FacePluginSpec, options: FacePluginOptions): Promise<FacePlugin> {
  if (!/^[A-Za-z0-9]+$/.test(spec.name)) throw new Error(`face plugin name must be letters and digits only: ${spec.name}`)
  const entry = faceWorkerEntry()
  const init: WorkerInit = { model: spec.model }
  const pool = new FaceWorkerPool({
    name: spec.name,
    size: options.threads,
    // execArgv []: do not inherit the parent's loader flags; the entry sets up what it needs.
    spawn: () => new Worker(entry, { workerData: init, execArgv: [], name: `face-${spec.name}` }),
    log: options.log,
  })
  try {
    const infos = await pool.start()
    options.log(`${spec.name}: ${infos.length} worker(s) ready: ${infos[0] ?? ''}`)
  } catch (error) {
    await pool.close()
    throw error
  }

  return {
    name: spec.name,
    dimensions: spec.dimensions,
    modelVersion: spec.modelVersion,
    scoreThreshold: spec.scoreThreshold,
    numSamplesForEnroll: spec.numSamplesForEnroll,
    score: (similarity) => similarityToScore(similarity, spec.calibration),
    async analyze(image) {
      const decoded = await decodeImage(image)
      const { faces, ms } = await pool.run({ rgb: decoded.rgb, width: decoded.width, height: decoded.height })
      options.onInference?.(ms)
      const detected: DetectedFace[] = []
      for (const face of faces) {
        if (face.embedding.length !== spec.dimensions) throw new Error(`${spec.name}: embedding of length ${face.embedding.length}, expected ${spec.dimensions}`)
        const embedding = l2Normalise(face.embedding)
        if (!embedding) continue // a degenerate descriptor cannot be matched: treat as no face
        const s = decoded.scale
        const box = { x: face.box.x * s, y: face.box.y * s, width: face.box.width * s, height: face.box.height * s }
        detected.push({ box, detectorScore: face.detectorScore, quality: faceQuality(face, box), embedding })
      }
      return detected.sort((a, b) => b.box.width * b.box.height - a.box.width * a.box.height)
    },
    close: () => pool.close(),
  }
}

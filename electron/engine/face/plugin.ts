import { Worker } from 'node:worker_threads'
import { decodeImage, type DecodedImage } from './decode'
import { imagePixels } from './image-pixels'
import { FaceWorkerPool } from './pool'
import type { ModelKind, WorkerInit } from './protocol'
import { faceQuality } from './quality'
import { l2Normalise, similarityToScore, type ScoreCalibration } from './score'
import type { DetectedFace, FacePlugin, FacePluginOptions, LivenessFace } from './types'
import { workerEntry } from '../worker-entry'

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
 * Wraps a worker pool for the spec's model as a FacePlugin: the main thread decodes (async, libvips)
 * when a worker is free for the image, the workers infer, and the results come back normalised, in
 * source-image pixels, with a quality, largest face first. One worker is started here to prove the
 * model loads; the pool then runs up to `options.threads` as work needs them and retires idle ones.
 */
export async function startFacePlugin(spec: FacePluginSpec, options: FacePluginOptions): Promise<FacePlugin> {
  if (!/^[A-Za-z0-9]+$/.test(spec.name)) throw new Error(`face plugin name must be letters and digits only: ${spec.name}`)
  const entry = workerEntry('face-worker', './face/worker-bootstrap.mjs')
  const init: WorkerInit = { model: spec.model }
  const pool = new FaceWorkerPool({
    name: spec.name,
    size: options.threads,
    // execArgv []: do not inherit the parent's loader flags; the entry sets up what it needs.
    spawn: () => new Worker(entry, { workerData: init, execArgv: [], name: `face-${spec.name}` }),
    log: options.log,
    ...(options.idleMs !== undefined && { idleMs: options.idleMs }),
    ...(options.maxQueuedJobs !== undefined && { maxQueue: options.maxQueuedJobs }),
    ...(options.maxQueuedPixels !== undefined && { maxPixels: options.maxQueuedPixels }),
  })
  try {
    options.log(`${spec.name}: model loads: ${await pool.start()}`)
  } catch (error) {
    await pool.close()
    throw error
  }

  async function detect(image: Uint8Array, caller: string, liveness: boolean): Promise<LivenessFace[]> {
    let scale = 1
    const prepare = async () => {
      const decoded: DecodedImage = await decodeImage(image)
      scale = decoded.scale
      return { rgb: decoded.rgb, width: decoded.width, height: decoded.height, ...(liveness && { liveness: true }) }
    }
    const { faces, ms } = await pool.run({ caller, pixels: imagePixels(image), prepare })
    options.onInference?.(ms)
    const detected: LivenessFace[] = []
    for (const face of faces) {
      if (face.embedding.length !== spec.dimensions) throw new Error(`${spec.name}: embedding of length ${face.embedding.length}, expected ${spec.dimensions}`)
      const embedding = l2Normalise(face.embedding)
      if (!embedding) continue // a degenerate descriptor cannot be matched: treat as no face
      const box = { x: face.box.x * scale, y: face.box.y * scale, width: face.box.width * scale, height: face.box.height * scale }
      const signals = face.liveness
      if (liveness && !signals) throw new Error(`${spec.name}: the model gave no liveness signals`)
      detected.push({
        box,
        detectorScore: face.detectorScore,
        quality: faceQuality(face, box),
        embedding,
        mesh: signals ? signals.mesh.map(([x = 0, y = 0, z = 0]) => [x * scale, y * scale, z * scale]) : [],
        real: signals?.real ?? 0,
        live: signals?.live ?? 0,
      })
    }
    return detected.sort((a, b) => b.box.width * b.box.height - a.box.width * a.box.height)
  }

  return {
    name: spec.name,
    dimensions: spec.dimensions,
    modelVersion: spec.modelVersion,
    scoreThreshold: spec.scoreThreshold,
    numSamplesForEnroll: spec.numSamplesForEnroll,
    score: (similarity) => similarityToScore(similarity, spec.calibration),
    async analyze(image, caller = '') {
      const faces = await detect(image, caller, false)
      return faces.map(({ box, detectorScore, quality, embedding }): DetectedFace => ({ box, detectorScore, quality, embedding }))
    },
    ...(spec.model === 'human' && { analyzeLiveness: (image: Uint8Array, caller = '') => detect(image, caller, true) }),
    stats: () => pool.stats(),
    close: () => pool.close(),
  }
}

import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import type { Config, FaceResult, Human } from '@vladmandic/human'
import { inputWidener } from './input-buffer'
import { installLocalModelFetch } from './model-fetch'
import type { FaceModel, RawFace } from './protocol'
import { humanDir, humanModelsDir, requireByPath, tfjsWasmDir } from './runtime-paths'

/**
 * @vladmandic/human in a worker thread: BlazeFace finds faces, FaceMesh refines each box and gives
 * the head pose, FaceRes describes the aligned crop with a 1024-d vector. Runs on the tfjs WASM
 * backend (tfjs-node cannot be installed here; the CPU backend is ~26x slower).
 */
export const HUMAN_CONFIG = {
  backend: 'wasm',
  // Analysing independent photos: never reuse a previous frame's results (video-oriented caching).
  cacheSensitivity: 0,
  warmup: 'none',
  debug: false,
  async: false,
  filter: { enabled: false },
  face: {
    enabled: true,
    // rotation: align the crop before FaceRes, as Human's faceid demo does. maxDetected: enough for
    // a group photo; each extra face costs ~30 ms. minConfidence 0.5 keeps clutter out.
    detector: { rotation: true, maxDetected: 20, minConfidence: 0.5, minSize: 24, skipFrames: 0, skipTime: 0, return: false },
    mesh: { enabled: true, keepInvalid: false },
    description: { enabled: true, skipFrames: 0, skipTime: 0 },
    iris: { enabled: false },
    emotion: { enabled: false },
    antispoof: { enabled: false },
    liveness: { enabled: false },
    attention: { enabled: false },
    gear: { enabled: false },
  },
  body: { enabled: false },
  hand: { enabled: false },
  object: { enabled: false },
  gesture: { enabled: false },
  segmentation: { enabled: false },
} as const

/**
 * What a liveness request switches on for its images only: the iris model (it refines the eye
 * contour, so blinks show), the anti-spoofing and the liveness models. Loaded on the first such
 * request, so an engine that never judges liveness never loads them.
 */
export const LIVENESS_ON = { face: { iris: { enabled: true }, antispoof: { enabled: true }, liveness: { enabled: true } } } as const
const LIVENESS_OFF = { face: { iris: { enabled: false }, antispoof: { enabled: false }, liveness: { enabled: false } } } as const

type HumanModule = { Human: new (config?: Partial<Config>) => Human }

export async function loadHumanModel(): Promise<FaceModel> {
  const started = performance.now()
  const modelBasePath = installLocalModelFetch(humanModelsDir())
  // Loaded by path: the package's export map gives Node the tfjs-node build, which is not installed.
  const { Human: HumanClass } = requireByPath(join(humanDir(), 'dist/human.node-wasm.js')) as HumanModule
  const human = new HumanClass({ ...HUMAN_CONFIG, modelBasePath, wasmPath: tfjsWasmDir() } as unknown as Partial<Config>)
  await human.init()
  await human.load()
  if (human.tf.getBackend() !== 'wasm') throw new Error(`Human started on the ${String(human.tf.getBackend())} backend, not wasm`)
  const loaded = Object.values(human.models.loaded()).join(',')
  const info = `Human ${human.version} tfjs ${String(human.tf.version_core)} backend wasm (simd ${String(human.env.wasm.simd)}) models [${loaded}] loaded in ${Math.round(performance.now() - started)} ms`

  const widen = inputWidener()
  let livenessModels: Promise<void> | null = null

  return {
    info,
    async infer(rgb, width, height, options = {}) {
      const liveness = options.liveness === true
      if (liveness) {
        livenessModels ??= human.load(LIVENESS_ON as unknown as Partial<Config>).then(() => undefined)
        await livenessModels
      }
      const tensor = human.tf.tensor3d(widen(rgb), [height, width, 3], 'int32')
      try {
        // Human merges a per-call config into its own: say both ways every time.
        const result = await human.detect(tensor, (liveness ? LIVENESS_ON : LIVENESS_OFF) as unknown as Partial<Config>)
        if (result.error) throw new Error(`Human: ${result.error}`)
        return result.face.flatMap((face) => toRawFace(face, width, height, liveness))
      } finally {
        human.tf.dispose(tensor)
      }
    },
  }
}

function toRawFace(face: FaceResult, width: number, height: number, liveness: boolean): RawFace[] {
  if (!face.embedding || face.embedding.length === 0) return [] // mesh kept it, FaceRes did not run
  return [
    {
      ...(liveness && {
        // The iris model appends its points after the 468 of the mesh; the checks read the 468.
        liveness: { mesh: face.mesh.slice(0, 468).map((p) => [p[0], p[1], p[2] ?? 0]), real: face.real ?? 0, live: face.live ?? 0 },
      }),
      box: tightBox(face, width, height),
      detectorScore: face.boxScore,
      pose: face.rotation ? { yaw: face.rotation.angle.yaw, pitch: face.rotation.angle.pitch, roll: face.rotation.angle.roll } : null,
      embedding: Float32Array.from(face.embedding),
    },
  ]
}

/**
 * Human's own box is the detector box enlarged 1.4x for the mesh crop; callers want the face itself,
 * so report the extent of the 468 mesh points, clamped to the image.
 */
function tightBox(face: FaceResult, width: number, height: number): RawFace['box'] {
  if (face.mesh.length < 100) {
    const [x, y, w, h] = face.box
    return { x, y, width: w, height: h }
  }
  let minX = Infinity
  let minY = Infinity
  let maxX = -Infinity
  let maxY = -Infinity
  for (const [px, py] of face.mesh) {
    minX = Math.min(minX, px)
    minY = Math.min(minY, py)
    maxX = Math.max(maxX, px)
    maxY = Math.max(maxY, py)
  }
  minX = Math.max(0, minX)
  minY = Math.max(0, minY)
  maxX = Math.min(width, maxX)
  maxY = Math.min(height, maxY)
  return { x: minX, y: minY, width: Math.max(0, maxX - minX), height: Math.max(0, maxY - minY) }
}

import type { Config, FaceResult, Human } from '@vladmandic/human'
import type { FaceObservation, Point } from './quality'

/**
 * Face detection in the renderer with @vladmandic/human: its BlazeFace detector plus the face mesh
 * (for head pose and eye positions), nothing heavier (no descriptor, emotion, age, iris). The models
 * and tfjs's WASM binaries are served by the app itself under models/ and wasm/ (copied from
 * node_modules at build time, served by the dev server too): nothing comes from a CDN, capture works
 * offline, and the CSP's connect-src 'self' plus 'wasm-unsafe-eval' is all it needs.
 *
 * Human (about 2 MB with its bundled tfjs) is imported dynamically, so it loads only when a capture
 * screen opens and never weighs on the rest of the app.
 */

type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] }

/** Where the build puts the files, relative to the page (works under file://, app:// and http://). */
export const MODEL_BASE = 'models/'
export const WASM_BASE = 'wasm/'

const baseConfig: DeepPartial<Config> = {
  debug: false,
  // Served locally: caching a copy in IndexedDB gains nothing and could go stale across upgrades.
  cacheModels: false,
  // Every frame is judged on its own: no result caching across similar frames, no warm-up image.
  cacheSensitivity: 0,
  warmup: 'none',
  // The image filters run on WebGL, which headless and GPU-less machines lack; quality is ours to judge.
  filter: { enabled: false, equalization: false, autoBrightness: false, flip: false, return: false },
  face: {
    enabled: true,
    // Up to 3 faces so "only one person, please" can be said; the detector runs on every frame so a
    // second face is seen at once (Human otherwise tracks the first face from the mesh for a while).
    // rotation: the face is turned upright before the mesh runs, so landmarks stay right on a tilted head.
    detector: { rotation: true, maxDetected: 3, minConfidence: 0.5, skipFrames: 0, skipTime: 0, return: false, mask: false },
    mesh: { enabled: true, keepInvalid: false },
    iris: { enabled: false },
    attention: { enabled: false },
    description: { enabled: false },
    emotion: { enabled: false },
    antispoof: { enabled: false },
    liveness: { enabled: false },
  },
  body: { enabled: false },
  hand: { enabled: false },
  object: { enabled: false },
  gesture: { enabled: false },
  segmentation: { enabled: false },
}

export interface FaceDetector {
  /** The tfjs backend in use: 'wasm' normally. */
  readonly backend: string
  /**
   * Faces in the input's pixel coordinates. `iris`: also run the iris model, which refines the eye
   * contour so a blink shows in the mesh (the liveness challenge; the engine judges with it too).
   */
  detect(input: HTMLCanvasElement, options?: { iris?: boolean }): Promise<FaceObservation[]>
}

/** The backends to try, best first: WASM (fast on CPU, works headless), then WebGL where present, then plain JS. */
function candidateBackends(): string[] {
  const backends = ['wasm']
  try {
    if (document.createElement('canvas').getContext('webgl2')) backends.push('humangl')
  } catch {
    // no WebGL: skip it
  }
  backends.push('cpu')
  return backends
}

const RAD_TO_DEG = 180 / Math.PI
// Face mesh indices (MediaPipe's 468-point topology): outer and inner corners of each eye.
const RIGHT_EYE = [33, 133] as const
const LEFT_EYE = [263, 362] as const

function eyeCentre(mesh: FaceResult['mesh'], [a, b]: readonly [number, number]): Point | undefined {
  const p = mesh[a]
  const q = mesh[b]
  return p && q ? { x: (p[0] + q[0]) / 2, y: (p[1] + q[1]) / 2 } : undefined
}

export function toObservation(face: FaceResult): FaceObservation {
  const hasMesh = face.mesh.length >= 468
  const angle = hasMesh ? face.rotation?.angle : undefined
  const leftEye = hasMesh ? eyeCentre(face.mesh, LEFT_EYE) : undefined
  const rightEye = hasMesh ? eyeCentre(face.mesh, RIGHT_EYE) : undefined
  // Roll straight from the line between the eyes (the visitor's right eye is on the image's left),
  // the most direct measure of tilt. The detector's rotation correction (detector.rotation) is what
  // lets the mesh follow a tilted head: without it the test photo's ~45° tilt read as 18°.
  const roll = leftEye && rightEye ? Math.atan2(leftEye.y - rightEye.y, leftEye.x - rightEye.x) * RAD_TO_DEG : angle ? angle.roll * RAD_TO_DEG : 0
  return {
    box: { x: face.box[0], y: face.box[1], width: face.box[2], height: face.box[3] },
    score: face.score,
    leftEye,
    rightEye,
    pose: angle ? { yaw: angle.yaw * RAD_TO_DEG, pitch: angle.pitch * RAD_TO_DEG, roll } : undefined,
    // The iris model appends its points after the mesh's 468; the liveness checks read those 468.
    mesh: hasMesh ? face.mesh.slice(0, 468) : undefined,
  }
}

async function tryBackend(HumanClass: typeof Human, backend: string): Promise<FaceDetector> {
  const config = {
    ...baseConfig,
    backend,
    modelBasePath: new URL(MODEL_BASE, document.baseURI).href,
    wasmPath: new URL(WASM_BASE, document.baseURI).href,
  } as Partial<Config>
  const human = new HumanClass(config)
  await human.init()
  const active = String(human.tf.getBackend())
  if (active !== backend) throw new Error(`the ${backend} backend did not start (tfjs is on ${active})`)
  await human.load()
  // Human logs a model that fails to load and goes on without it; a model counts as loaded once its weights are in.
  const loaded = human.models.list().filter((model) => model.loaded && model.size > 0)
  for (const model of ['blazeface', 'facemesh']) {
    if (!loaded.some(({ name }) => name.toLowerCase().includes(model))) throw new Error(`the ${model} model did not load`)
  }
  const missing = human.models.validate().filter((m) => m.missing.length > 0)
  if (missing.length > 0) throw new Error(`the ${backend} backend lacks operations for ${missing.map((m) => m.name).join(', ')}`)
  return {
    backend: active,
    async detect(input, options) {
      // Said on every call: Human keeps a per-call config for the calls after it.
      const result = await human.detect(input, { face: { iris: { enabled: options?.iris === true } } } as Partial<Config>)
      if (result.error) throw new Error(result.error)
      return result.face.map(toObservation)
    },
  }
}

let loading: Promise<FaceDetector> | null = null

/**
 * Loads the detector once per page (later calls share it). Rejects with a readable reason when no
 * backend can run the models; the capture then falls back to manual, and a later call tries again.
 */
export function loadFaceDetector(): Promise<FaceDetector> {
  loading ??= (async () => {
    const { Human: HumanClass } = await import('@vladmandic/human')
    const reasons: string[] = []
    for (const backend of candidateBackends()) {
      try {
        return await tryBackend(HumanClass, backend)
      } catch (error) {
        reasons.push(`${backend}: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
    throw new Error(`The face detector could not start (${reasons.join('; ')}).`)
  })()
  loading.catch(() => {
    loading = null
  })
  return loading
}

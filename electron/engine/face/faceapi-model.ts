import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import type * as FaceApi from '@vladmandic/face-api'
import { inputWidener } from './input-buffer'
import type { FaceModel, RawFace } from './protocol'
import { faceApiDir, faceApiModelsDir, requireByPath, tfjsWasmDir } from './runtime-paths'

/**
 * @vladmandic/face-api in a worker thread: SSD MobileNet v1 finds faces, the 68-point landmark net
 * aligns them, and the ResNet-34-like recognition net describes each with a 128-d vector. Runs on
 * the tfjs WASM backend; weights are read from the package's model/ folder (loadFromDisk uses fs).
 */
type FaceApiModule = typeof FaceApi

/** The few tfjs calls used here; face-api's bundled typings only declare a slice of tfjs. */
interface Tfjs {
  setWasmPaths(prefix: string): void
  setBackend(name: string): Promise<boolean>
  ready(): Promise<void>
  getBackend(): string
  tensor3d(values: Int32Array, shape: [number, number, number], dtype: 'int32'): FaceApi.tf.Tensor3D
  dispose(tensor: unknown): void
  version_core: string
}

export const FACEAPI_MIN_CONFIDENCE = 0.5
export const FACEAPI_MAX_RESULTS = 20

export async function loadFaceApiModel(): Promise<FaceModel> {
  const started = performance.now()
  // Loaded by path: the package's main entry is the tfjs-node build, which is not installed.
  const faceapi = requireByPath(join(faceApiDir(), 'dist/face-api.node-wasm.js')) as FaceApiModule
  const tf = faceapi.tf as unknown as Tfjs
  tf.setWasmPaths(tfjsWasmDir())
  if (!(await tf.setBackend('wasm'))) throw new Error('face-api: the tfjs wasm backend did not start')
  await tf.ready()
  const models = faceApiModelsDir()
  await faceapi.nets.ssdMobilenetv1.loadFromDisk(models)
  await faceapi.nets.faceLandmark68Net.loadFromDisk(models)
  await faceapi.nets.faceRecognitionNet.loadFromDisk(models)
  const options = new faceapi.SsdMobilenetv1Options({ minConfidence: FACEAPI_MIN_CONFIDENCE, maxResults: FACEAPI_MAX_RESULTS })
  const info = `face-api ${faceapi.version} tfjs ${tf.version_core} backend ${tf.getBackend()} models [ssdMobilenetv1,faceLandmark68Net,faceRecognitionNet] loaded in ${Math.round(performance.now() - started)} ms`

  const widen = inputWidener()

  return {
    info,
    async infer(rgb, width, height) {
      const tensor = tf.tensor3d(widen(rgb), [height, width, 3], 'int32')
      try {
        const results = await faceapi.detectAllFaces(tensor, options).withFaceLandmarks().withFaceDescriptors()
        return results.map(
          (r): RawFace => ({
            box: { x: r.detection.box.x, y: r.detection.box.y, width: r.detection.box.width, height: r.detection.box.height },
            detectorScore: r.detection.score,
            pose: poseFromLandmarks(r.landmarks),
            embedding: Float32Array.from(r.descriptor),
          }),
        )
      } finally {
        tf.dispose(tensor)
      }
    },
  }
}

/**
 * A rough head pose from the 68 landmarks (face-api has no pose model), good enough to lower the
 * quality of clearly turned faces. Yaw: how far the nose tip sits from the eyes' midpoint, relative
 * to the eye distance; pitch: where the nose tip sits between the eye line and the mouth; roll: the
 * eye line's angle.
 */
export function poseFromLandmarks(landmarks: FaceApi.FaceLandmarks68): RawFace['pose'] {
  const mean = (points: FaceApi.Point[]) => ({
    x: points.reduce((sum, p) => sum + p.x, 0) / points.length,
    y: points.reduce((sum, p) => sum + p.y, 0) / points.length,
  })
  const leftEye = mean(landmarks.getLeftEye())
  const rightEye = mean(landmarks.getRightEye())
  const mouth = mean(landmarks.getMouth())
  const noseTip = landmarks.getNose()[3] // point 30 of the 68
  if (!noseTip) return null
  const eyeDistance = Math.hypot(rightEye.x - leftEye.x, rightEye.y - leftEye.y)
  if (eyeDistance < 1) return null
  const roll = Math.atan2(rightEye.y - leftEye.y, rightEye.x - leftEye.x)
  // Undo the roll so yaw and pitch are measured along the face's own axes.
  const cos = Math.cos(-roll)
  const sin = Math.sin(-roll)
  const rotate = (p: { x: number; y: number }) => ({ x: p.x * cos - p.y * sin, y: p.x * sin + p.y * cos })
  const eyes = rotate({ x: (leftEye.x + rightEye.x) / 2, y: (leftEye.y + rightEye.y) / 2 })
  const nose = rotate(noseTip)
  const mouthR = rotate(mouth)
  const clamp1 = (v: number) => Math.max(-1, Math.min(1, v))
  const yaw = Math.asin(clamp1((nose.x - eyes.x) / (0.6 * eyeDistance)))
  const span = mouthR.y - eyes.y
  // On frontal faces the nose tip sits ~60% of the way from the eye line to the mouth.
  const pitch = span > 0 ? Math.asin(clamp1(((nose.y - eyes.y) / span - 0.6) / 0.4)) : 0
  return { yaw, pitch, roll }
}

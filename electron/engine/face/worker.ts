import { parentPort, workerData } from 'node:worker_threads'
import { format } from 'node:util'
import type { FaceModel, InferRequest, WorkerInit, WorkerMessage } from './protocol'

/**
 * A face worker thread: loads one model, then answers InferRequests one at a time (the pool never
 * sends a second request before the first is answered). Inference is synchronous WASM work that
 * would stall an event loop for ~100 ms per image, which is why it lives here and not in the engine.
 */
const port = parentPort
if (!port) throw new Error('face worker: must run as a worker thread')
const post = (message: WorkerMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer)

// tfjs and Human print to the console (banners, warnings); route it to the plugin log instead of the
// engine's stdout, where the supervisor reads the "ready" line.
for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
  console[level] = (...args: unknown[]) => post({ type: 'log', line: format(...args) })
}

async function loadModel(init: WorkerInit): Promise<FaceModel> {
  if (init.model === 'human') return (await import('./human-model')).loadHumanModel()
  if (init.model === 'faceapi') return (await import('./faceapi-model')).loadFaceApiModel()
  throw new Error(`face worker: unknown model ${String((init as { model: unknown }).model)}`)
}

let model: FaceModel
try {
  model = await loadModel(workerData as WorkerInit)
} catch (error) {
  post({ type: 'fatal', message: error instanceof Error ? (error.stack ?? error.message) : String(error) })
  process.exit(1)
}

port.on('message', (request: InferRequest) => {
  const started = performance.now()
  model.infer(request.rgb, request.width, request.height, { liveness: request.liveness === true }).then(
    (faces) => post({ type: 'result', id: request.id, faces, ms: performance.now() - started }, faces.map((f) => f.embedding.buffer as ArrayBuffer)),
    (error: unknown) => post({ type: 'error', id: request.id, message: error instanceof Error ? error.message : String(error) }),
  )
})
post({ type: 'ready', info: model.info })

import type { FacePluginSpec } from './plugin'

/**
 * The face plugins the engine offers, in order of preference. The calibration anchors come from
 * test/bench/calibrate-faces.ts (see CALIBRATION.md); rerun it and copy its suggestion here whenever a
 * model, its configuration or the decoding changes, and bump modelVersion when old embeddings stop
 * being comparable with new ones.
 */
export const HUMAN_FACERES: FacePluginSpec = {
  name: 'HumanFaceRes',
  model: 'human',
  dimensions: 1024,
  modelVersion: 1,
  scoreThreshold: 48,
  numSamplesForEnroll: 3,
  calibration: { floor: 0.36, threshold: 0.64 },
}

export const FACEAPI_RESNET: FacePluginSpec = {
  name: 'FaceApiResNet',
  model: 'faceapi',
  dimensions: 128,
  modelVersion: 1,
  scoreThreshold: 48,
  numSamplesForEnroll: 3,
  calibration: { floor: 0.84, threshold: 0.95 },
}

export const FACE_PLUGIN_SPECS: readonly FacePluginSpec[] = [HUMAN_FACERES, FACEAPI_RESNET]

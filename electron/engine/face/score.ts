/**
 * Cosine similarity → the BioEngine's 0–100 score, piecewise linear through three anchors:
 *
 *   similarity <= floor       →   0
 *   similarity  = threshold   →  48   (the decision point: /match passes at score >= 48)
 *   similarity  = 1           → 100
 *
 * so score = 48·(s − floor)/(threshold − floor) below the threshold and
 * 48 + 52·(s − threshold)/(1 − threshold) above it, clamped to 0..100. Monotonic, so ranking by
 * score equals ranking by similarity, and the decision is exactly "similarity >= threshold".
 * The anchors per model are measured on real face pairs: see CALIBRATION.md and
 * test/bench/calibrate-faces.ts, which recomputes them.
 */
export interface ScoreCalibration {
  /** Cosine similarity at and below which the score is 0 (typical different-person similarity). */
  floor: number
  /** Cosine similarity that maps to the decision score. */
  threshold: number
}

export const DECISION_SCORE = 48

export function similarityToScore(similarity: number, calibration: ScoreCalibration): number {
  const { floor, threshold } = calibration
  if (!Number.isFinite(similarity)) return 0
  const score =
    similarity >= threshold
      ? DECISION_SCORE + ((100 - DECISION_SCORE) * (similarity - threshold)) / (1 - threshold)
      : (DECISION_SCORE * (similarity - floor)) / (threshold - floor)
  // Not rounded: rounding could lift a 47.996 to 48 and flip the decision.
  return Math.max(0, Math.min(100, score))
}

/** Cosine similarity of two L2-normalised vectors (their dot product). */
export function cosineSimilarity(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new Error(`embedding lengths differ: ${a.length} vs ${b.length}`)
  let dot = 0
  for (let i = 0; i < a.length; i++) dot += (a[i] as number) * (b[i] as number)
  return dot
}

/** Scales a vector to unit length in place; returns null for a zero or non-finite vector. */
export function l2Normalise(vector: Float32Array): Float32Array | null {
  let sum = 0
  for (const value of vector) sum += value * value
  const norm = Math.sqrt(sum)
  if (!Number.isFinite(norm) || norm === 0) return null
  for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] as number) / norm
  return vector
}

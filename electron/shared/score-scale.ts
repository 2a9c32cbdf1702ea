/**
 * Score scales. The reference gives each template type a `scoreThreshold` but no scale: the
 * embedded engine scores 0–100 (threshold 48), the vendor documents thresholds like 0.80. A
 * threshold of at most 1 is read as a 0–1 scale, anything larger as 0–100.
 */
export type ScaleMax = 1 | 100

export function scaleOf(threshold: number): ScaleMax {
  return threshold <= 1 ? 1 : 100
}

/** "0–1" or "0–100", for labels beside a threshold. */
export function scaleLabel(max: ScaleMax): string {
  return `0–${max}`
}

/** A score as people read it on its scale: two decimals on 0–1, one on 0–100. */
export function formatScore(score: number, max: ScaleMax): string {
  return score.toFixed(max === 1 ? 2 : 1)
}

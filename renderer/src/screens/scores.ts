import { formatScore, scaleLabel, scaleOf, type ScaleMax } from '@shared/score-scale'

/**
 * A pass mark as people read it on its scale: 0.80 on 0–1, 48 on 0–100 (a whole mark without
 * ".0"). A mark the usual rounding would change (0.875) is shown as it is, so "needs" never lies.
 */
export function formatMark(threshold: number, max: ScaleMax): string {
  if (max === 100 && Number.isInteger(threshold)) return String(threshold)
  const fixed = formatScore(threshold, max)
  return Number(fixed) === threshold ? fixed : String(threshold)
}

/** "48 on a 0–100 scale", "0.80 on a 0–1 scale": a template type's own threshold with its scale. */
export function markOnScale(threshold: number): string {
  const max = scaleOf(threshold)
  return `${formatMark(threshold, max)} on a ${scaleLabel(max)} scale`
}

/**
 * A photo quality as the BioEngine reports it: a fraction (0–1) as a percentage; anything larger
 * is on a scale the reference does not name, so it is shown as the number it is.
 */
export function formatQuality(quality: number): string {
  return quality >= 0 && quality <= 1 ? `${Math.round(quality * 100)}%` : `${Number(quality.toFixed(1))} (on the BioEngine’s own scale)`
}

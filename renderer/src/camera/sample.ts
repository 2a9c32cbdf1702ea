import { t } from '../i18n'

/** A photo taken by the guided capture (or chosen from a file by staff), ready to send. */
export interface CapturedSample {
  /** JPEG or PNG, base64 without a data: prefix; within the image limits (checked with checkImage). */
  base64: string
  width: number
  height: number
  /**
   * 0..1: how well the camera frame passed the kiosk's own checks; null for a chosen file. It steers
   * auto-capture and the words under a thumbnail. It is not shown as a number: the only quality
   * figure a person sees is the BioEngine's, on the result (see qualityWords).
   */
  quality: number | null
  /** data: or blob: URL of the same image, for a thumbnail. */
  dataUrl: string
  /** 'file' when staff chose a photo file instead of the camera. */
  source: 'camera' | 'file'
}

/** A frame at or above this passed every check (auto-capture takes only such frames). */
const GOOD = 0.6

/**
 * What a thumbnail says about its photo. The kiosk's check score is a guidance heuristic, not the
 * BioEngine's quality (which the result shows as "Photo quality 74%"): showing both as percentages
 * gave one photo two different numbers, so the capture says in words whether the checks passed.
 */
export function qualityWords(sample: Pick<CapturedSample, 'quality' | 'source'>): string {
  if (sample.source === 'file' || sample.quality === null) return t('staff:capture.fromFile')
  return sample.quality >= GOOD ? t('capture.good') : t('capture.couldBeBetter')
}

import { KioskError } from '../../shared/errors'
import { scaleLabel, scaleOf, type ScaleMax } from '../../shared/score-scale'
import type { Backend } from '../backend'

export interface DecisionThreshold {
  value: number
  scaleMax: ScaleMax
  /** Where the value came from: the template type's scoreThreshold, or a staff override in Settings. */
  source: 'server' | 'settings'
}

/**
 * The threshold a verify or identify is decided at: the template type's own scoreThreshold, on
 * its own scale, unless staff set an override. An override off that scale (48 against a 0–1
 * type) would accept or refuse everyone, so it is refused instead.
 */
export async function decisionThreshold(backend: Backend, kind: 'verify' | 'identify'): Promise<DecisionThreshold> {
  const info = await backend.templateInfo()
  if (!info) throw new KioskError('NOT_CONFIGURED', `The BioEngine does not offer ${backend.templateType}: choose an installed template type in Settings.`)
  const override = kind === 'verify' ? backend.verifyThresholdOverride : backend.identifyThresholdOverride
  if (info.scoreThreshold === null) {
    if (override === null) throw new KioskError('NOT_CONFIGURED', `The BioEngine gives no threshold for ${info.templateType}: set the ${kind} threshold in Settings.`)
    return { value: override, scaleMax: scaleOf(override), source: 'settings' }
  }
  const scaleMax = scaleOf(info.scoreThreshold)
  if (override === null) return { value: info.scoreThreshold, scaleMax, source: 'server' }
  if (override > scaleMax) {
    throw new KioskError(
      'NOT_CONFIGURED',
      `The ${kind} threshold ${override} in Settings is off ${info.templateType}'s ${scaleLabel(scaleMax)} scale (its own threshold is ${info.scoreThreshold}): change or clear it in Settings.`,
    )
  }
  return { value: override, scaleMax, source: 'settings' }
}

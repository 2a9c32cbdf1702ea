import type { TemplateTypeInfo } from '@shared/api-models'
import type { KioskSettings, SettingsPatch } from '@shared/settings'
import { scaleLabel, scaleOf } from '@shared/score-scale'

/** Threshold overrides: empty means "the template type's own threshold" (null). */
export const overrideKeys = ['verifyThresholdOverride', 'identifyThresholdOverride'] as const
/** Whole numbers that may be left empty (null): visitor retention off. */
export const optionalNumberKeys = ['visitorRetentionDays'] as const
/** Whole numbers every kiosk needs. */
export const numberKeys = [
  'identifyMaxResults',
  'idleTimeoutSeconds',
  'auditRetentionDays',
  'connectTimeoutSeconds',
  'requestTimeoutSeconds',
  'livenessStepSeconds',
  'offlineReplicaDays',
  'offlineReplicaMaxPersons',
  'offlineSignInHours',
] as const
export const textKeys = ['mode', 'personServerUrl', 'bioEngineUrl', 'tenantCode', 'appCode', 'templateType', 'bioEngineAuth', 'basicAuthEncoding', 'organisationName', 'welcomeLine', 'accentColour', 'kioskName'] as const
export const booleanKeys = ['offlineReplica'] as const
export const settingKeys = [...textKeys, ...booleanKeys, ...numberKeys, ...overrideKeys, ...optionalNumberKeys] as const
export type SettingKey = (typeof settingKeys)[number]
type TypedKey = (typeof numberKeys)[number] | (typeof overrideKeys)[number] | (typeof optionalNumberKeys)[number]

/** The form's values: numbers as typed, so a half-typed value is kept as it is. */
export type Draft = Omit<KioskSettings, TypedKey> & Record<TypedKey, string>

const asText = (value: number | null): string => (value === null ? '' : String(value))

export const toDraft = (s: KioskSettings): Draft => ({
  ...s,
  verifyThresholdOverride: asText(s.verifyThresholdOverride),
  identifyThresholdOverride: asText(s.identifyThresholdOverride),
  identifyMaxResults: asText(s.identifyMaxResults),
  idleTimeoutSeconds: asText(s.idleTimeoutSeconds),
  auditRetentionDays: asText(s.auditRetentionDays),
  visitorRetentionDays: asText(s.visitorRetentionDays),
  connectTimeoutSeconds: asText(s.connectTimeoutSeconds),
  requestTimeoutSeconds: asText(s.requestTimeoutSeconds),
  livenessStepSeconds: asText(s.livenessStepSeconds),
  offlineReplicaDays: asText(s.offlineReplicaDays),
  offlineReplicaMaxPersons: asText(s.offlineReplicaMaxPersons),
  offlineSignInHours: asText(s.offlineSignInHours),
})

/** Whether any typed field differs from the saved settings as text (a half-typed number counts). */
export function typedFieldsChanged(draft: Draft, saved: KioskSettings): boolean {
  return [...numberKeys, ...overrideKeys, ...optionalNumberKeys].some((key) => draft[key].trim() !== asText(saved[key]))
}

/** The template type's own threshold, as the BioEngine gives it for the type the draft names. */
export function serverThreshold(types: TemplateTypeInfo[] | null, templateType: string): { known: false } | { known: true; info: TemplateTypeInfo } {
  const info = types?.find((t) => t.templateType === templateType.trim())
  return info ? { known: true, info } : { known: false }
}

/**
 * What changed against the saved settings, as a patch; number fields that are not numbers come
 * back as errors, and so does an override off the template type's 0–1 scale (the services check
 * 0–100 themselves and would only refuse a 48 on a 0–1 type when a visitor is checked).
 */
export function diff(draft: Draft, saved: KioskSettings, types: TemplateTypeInfo[] | null): { patch: SettingsPatch; errors: Partial<Record<SettingKey, string>> } {
  const patch: Record<string, unknown> = {}
  const errors: Partial<Record<SettingKey, string>> = {}
  for (const key of textKeys) {
    const value = draft[key].trim()
    if (value !== saved[key]) patch[key] = value
  }
  for (const key of booleanKeys) if (draft[key] !== saved[key]) patch[key] = draft[key]
  for (const key of numberKeys) {
    const text = draft[key].trim()
    const value = Number(text)
    if (text === '' || !Number.isFinite(value)) errors[key] = 'Enter a number.'
    else if (value !== saved[key]) patch[key] = value
  }
  for (const key of optionalNumberKeys) {
    const text = draft[key].trim()
    const value = text === '' ? null : Number(text)
    if (value !== null && !Number.isFinite(value)) errors[key] = 'Enter a number of days, or leave it empty to keep enrollments.'
    else if (value !== saved[key]) patch[key] = value
  }
  const server = serverThreshold(types, draft.templateType)
  const scale = server.known && server.info.scoreThreshold !== null ? scaleOf(server.info.scoreThreshold) : null
  for (const key of overrideKeys) {
    const text = draft[key].trim()
    const value = text === '' ? null : Number(text)
    if (value !== null && !Number.isFinite(value)) {
      errors[key] = 'Enter a number, or leave it empty to use the server’s threshold.'
      continue
    }
    if (value !== null && scale === 1 && value > 1 && value <= 100) {
      errors[key] = `${draft.templateType.trim()} scores on a ${scaleLabel(1)} scale: enter a value from 0 to 1, or leave it empty to use the server’s threshold.`
      continue
    }
    if (value !== saved[key]) patch[key] = value
  }
  return { patch: patch as SettingsPatch, errors }
}

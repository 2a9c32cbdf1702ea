import type { TemplateTypeInfo } from '../shared/api-models'
import type { BioEngineClient } from './clients/bioengine'
import type { PersonServerClient } from './clients/person-server'

/**
 * The two servers the workflows talk to, and where the kiosk stands in them. The same shape
 * serves the embedded engine and a remote deployment.
 */
export interface Backend {
  persons: PersonServerClient
  bio: BioEngineClient
  tenantCode: string
  appCode: string
  templateType: string
  /** Staff overrides on the template type's scale; null: the server's scoreThreshold decides. */
  verifyThresholdOverride: number | null
  identifyThresholdOverride: number | null
  identifyMaxResults: number
  /** The configured template type as the BioEngine describes it (cached); null when not installed. */
  templateInfo(): Promise<TemplateTypeInfo | null>
}

/** The BioEngine's description of one template type, asked for at most once per `ttlMs`. */
export function templateInfoCache(bio: Pick<BioEngineClient, 'templateTypes'>, ttlMs = 300_000, now = Date.now) {
  let cached: { at: number; types: Promise<TemplateTypeInfo[]> } | null = null
  return async (templateType: string): Promise<TemplateTypeInfo | null> => {
    if (!cached || now() - cached.at > ttlMs) {
      const types = bio.templateTypes()
      cached = { at: now(), types }
      // A failed look-up is not kept: the next decision asks again.
      types.catch(() => {
        if (cached?.types === types) cached = null
      })
    }
    return (await cached.types).find((t) => t.templateType === templateType) ?? null
  }
}

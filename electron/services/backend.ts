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
  verifyThreshold: number
  identifyThreshold: number
  identifyMaxResults: number
}

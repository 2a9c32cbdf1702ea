import { z } from 'zod'
import { biometricInfoSchema, personSchema } from './api-models'

/**
 * The embedded engine's replies, exactly: its routes declare these as response schemas, so what
 * it sends is checked against them, and each is a shape the kiosk's tolerant readers (api-models.ts) accept.
 */
export const personRecord = personSchema.extend({ id: z.string(), created: z.number(), modified: z.number() })
export const tenantPersonRecord = personRecord.extend({
  tenantCode: z.string(),
  associated: z.number(),
  enrollmentStatus: z.enum(['ENROLLED', 'NOT_ENROLLED']),
  templateTypes: z.array(z.string()),
})
export const appUserRecord = personRecord.extend({ appCode: z.string(), tenantCodes: z.array(z.string()) })
export const appAssociationRecord = z.object({ code: z.string(), associated: z.number() })
export const algorithmRecord = z.object({
  code: z.string(),
  licenseData: z.object({ info: z.string().nullable(), maxIdentities: z.number().int().nullable(), expireDate: z.number().int().nullable() }),
  liveness: z.array(z.string()),
  associated: z.number(),
})
export const tenantRecord = z.object({
  code: z.string(),
  name: z.string(),
  maxIdentities: z.number().int(),
  defaultPostBack: z.string().nullable(),
  /** The embedded engine's own extension (the reference is silent): whether enrollments keep normalized face crops. */
  keepFaceCrops: z.boolean(),
  created: z.number(),
  modified: z.number(),
  apps: z.array(appAssociationRecord),
  algorithms: z.array(algorithmRecord),
})
export const tokenRecord = z.object({ access_token: z.string(), token_type: z.literal('bearer'), expires_in: z.number().int(), scope: z.string() })
/** RFC 6749 §5.2 error replies of the token endpoint. */
export const tokenErrorRecord = z.object({ error: z.string(), error_description: z.string() })

export const templateTypesRecord = z.object({
  templateTypes: z.array(z.object({ templateType: z.string(), scoreThreshold: z.number(), numSamplesForEnroll: z.number().int(), isInstantiated: z.boolean() })),
})
export const biometricInfosRecord = z.object({ biometricInfos: z.array(biometricInfoSchema.extend({ size: z.number().int(), timestamp: z.number() })) })
export const enrollRecord = biometricInfosRecord.extend({ quality: z.number().nullable() })
export const createTemplateRecord = z.object({ quality: z.number().nullable(), templatedata: z.string() })
const itemErrorRecord = { errorCode: z.number().int().optional(), errorMessage: z.string().optional() }
export const identifyRecord = z.object({
  allIdentifyResults: z.array(
    z.object({
      identifyResults: z.array(
        z.object({
          targetId: z.number().int(),
          templateType: z.string(),
          totalDurationMS: z.number(),
          identifyMatchResults: z.array(z.object({ personId: z.string(), personUUID: z.string().optional(), score: z.number() })),
          ...itemErrorRecord,
        }),
      ),
    }),
  ),
})
export const verifyRecord = z.object({
  allMatchResults: z.array(z.object({ matchResults: z.array(z.object({ personId: z.string(), score: z.number().optional(), ...itemErrorRecord })) })),
})
export const faceMatchRecord = z.object({ status: z.string(), score: z.number(), pass: z.boolean(), durationMS: z.number() })

/* The engine's store hands out these records as they are: one wire model, no hand-written copies. */
export type PersonRecord = z.infer<typeof personRecord>
export type TenantPersonRecord = z.infer<typeof tenantPersonRecord>
export type TenantRecord = z.infer<typeof tenantRecord>
export type AppAssociationRecord = z.infer<typeof appAssociationRecord>
export type AlgorithmRecord = z.infer<typeof algorithmRecord>
export type LicenseRecord = AlgorithmRecord['licenseData']
export type TemplateTypeRecord = z.infer<typeof templateTypesRecord>['templateTypes'][number]
export type BiometricInfoRecord = z.infer<typeof biometricInfosRecord>['biometricInfos'][number]

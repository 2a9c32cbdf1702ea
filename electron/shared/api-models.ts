import { z } from 'zod'

/**
 * The person server's and BioEngine's reply models as the kiosk reads them. Objects are loose:
 * a remote server may send more fields than ours, and the kiosk only relies on these.
 */

export const personSchema = z.looseObject({
  uuid: z.string(),
  userId: z.string(),
  deviceId: z.string().nullable().optional(),
  created: z.number().optional(),
  modified: z.number().optional(),
})
export type Person = z.infer<typeof personSchema>

export const licenseDataSchema = z.looseObject({
  info: z.string().nullable().optional(),
  maxIdentities: z.number().int().nullable().optional(),
  expireDate: z.number().int().nullable().optional(),
})
export type LicenseData = z.infer<typeof licenseDataSchema>

export const appAssociationSchema = z.looseObject({ code: z.string(), associated: z.number().optional() })
export const algorithmAssociationSchema = z.looseObject({
  code: z.string(),
  licenseData: licenseDataSchema.optional(),
  liveness: z.array(z.string()).optional(),
})
export type AlgorithmAssociation = z.infer<typeof algorithmAssociationSchema>

export const tenantSchema = z.looseObject({
  code: z.string(),
  name: z.string(),
  maxIdentities: z.number().int(),
  defaultPostBack: z.string().nullable().optional(),
  apps: z.array(appAssociationSchema).optional(),
  algorithms: z.array(algorithmAssociationSchema).optional(),
})
export type Tenant = z.infer<typeof tenantSchema>

export const tenantPersonSchema = personSchema.extend({
  tenantCode: z.string().optional(),
  enrollmentStatus: z.string(),
  templateTypes: z.array(z.string()).optional(),
})
export type TenantPerson = z.infer<typeof tenantPersonSchema>

export const pageSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    content: z.array(item),
    pageNo: z.number().int(),
    pageSize: z.number().int(),
    totalElements: z.number().int(),
    totalPages: z.number().int(),
  })
export interface Page<T> {
  content: T[]
  pageNo: number
  pageSize: number
  totalElements: number
  totalPages: number
}

export const tokenResponseSchema = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string().regex(/^bearer$/i),
  expires_in: z.number().positive(),
  scope: z.string().optional(),
})

export const templateTypeInfoSchema = z.looseObject({
  templateType: z.string(),
  scoreThreshold: z.number(),
  numSamplesForEnroll: z.number().int(),
  isInstantiated: z.boolean(),
})
export type TemplateTypeInfo = z.infer<typeof templateTypeInfoSchema>

export const biometricInfoSchema = z.looseObject({
  templateType: z.string(),
  templateContext: z.string(),
  size: z.number().int(),
  timestamp: z.number(),
})
export type BiometricInfo = z.infer<typeof biometricInfoSchema>

export const enrollResponseSchema = z.looseObject({ quality: z.number(), biometricInfos: z.array(biometricInfoSchema).optional() })
export const createTemplateResponseSchema = z.looseObject({ quality: z.number(), templatedata: z.string() })
export const biometricInfoResponseSchema = z.looseObject({ biometricInfos: z.array(biometricInfoSchema) })
export const templateTypeResponseSchema = z.looseObject({ templateTypes: z.array(templateTypeInfoSchema) })

const itemError = { errorCode: z.number().int().optional(), errorMessage: z.string().optional() }

export const identifyResponseSchema = z.looseObject({
  allIdentifyResults: z.array(
    z.looseObject({
      identifyResults: z.array(
        z.looseObject({
          targetId: z.number().int(),
          templateType: z.string(),
          totalDurationMS: z.number(),
          identifyMatchResults: z.array(
            z.looseObject({ personId: z.string().optional(), personUUID: z.string().optional(), score: z.number().optional(), ...itemError }),
          ),
          ...itemError,
        }),
      ),
    }),
  ),
})
export type IdentifyResponse = z.infer<typeof identifyResponseSchema>

export const verifyResponseSchema = z.looseObject({
  allMatchResults: z.array(z.looseObject({ matchResults: z.array(z.looseObject({ personId: z.string().optional(), score: z.number().optional(), ...itemError })) })),
})
export type VerifyResponse = z.infer<typeof verifyResponseSchema>

/** FaceMatchResponse; the reference lists capitalised variants too, so both are read. */
export const faceMatchResponseSchema = z
  .looseObject({
    status: z.string().optional(),
    Status: z.string().optional(),
    score: z.number().optional(),
    Score: z.number().optional(),
    pass: z.boolean().optional(),
    Pass: z.boolean().optional(),
    durationMS: z.number().optional(),
    DurationMS: z.number().optional(),
  })
  .refine((r) => (r.score ?? r.Score) !== undefined && (r.pass ?? r.Pass) !== undefined, 'score and pass are required')
  .transform((r) => ({ status: r.status ?? r.Status, score: (r.score ?? r.Score)!, pass: (r.pass ?? r.Pass)!, durationMS: r.durationMS ?? r.DurationMS }))
export type FaceMatchResponse = z.infer<typeof faceMatchResponseSchema>

import { z } from 'zod'

/**
 * The person server's and BioEngine's payloads, in two layers:
 * - the kiosk's own records (`personSchema`, `tenantSchema`, …): what the services hand the
 *   renderer, one shape whatever the server;
 * - the replies as servers send them (`personReply`, `listReply`, …): tolerant readers for every
 *   shape the reference leaves unshown, each turning what it reads into the kiosk's record.
 * Unknown fields are ignored; docs/api.md lists each shape accepted and why.
 */

/** Epoch ms, or an ISO date string (Jackson writes Dates as ms, other stacks as ISO); null when unreadable. */
const timestamp = z
  .union([z.number(), z.string(), z.null()])
  .optional()
  .transform((value) => {
    if (typeof value === 'number') return Number.isFinite(value) ? value : null
    if (typeof value === 'string') {
      const ms = /^\d+$/.test(value) ? Number(value) : Date.parse(value)
      return Number.isFinite(ms) ? ms : null
    }
    return null
  })

/** A string a server may leave out, send as null, or send as another scalar. */
const optionalText = z
  .unknown()
  .optional()
  .transform((value) => (typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : null))

/* ---------------------------------------------------------------- persons */

export const personSchema = z.object({
  uuid: z.string(),
  userId: z.string(),
  deviceId: z.string().nullable(),
  created: z.number().nullable(),
  modified: z.number().nullable(),
})
export type Person = z.infer<typeof personSchema>

/**
 * A person record. The vendor's Person entity carries its UUID as `id` (no `uuid`); the embedded
 * engine sends both. Either is read, `uuid` first.
 */
const personFields = {
  id: z.string().min(1).optional(),
  uuid: z.string().min(1).optional(),
  userId: z.string(),
  deviceId: optionalText,
  created: timestamp,
  modified: timestamp,
}
type PersonFields = { id?: string | undefined; uuid?: string | undefined; userId: string; deviceId: string | null; created: number | null; modified: number | null }
const hasUuid = (p: { id?: string | undefined; uuid?: string | undefined }) => (p.uuid ?? p.id) !== undefined
const uuidIssue = { message: 'a person needs its UUID (id or uuid)', path: ['id'] }
const toPerson = (p: PersonFields): Person => ({ uuid: (p.uuid ?? p.id)!, userId: p.userId, deviceId: p.deviceId, created: p.created, modified: p.modified })

export const personReply = z.looseObject(personFields).refine(hasUuid, uuidIssue).transform(toPerson)

export const tenantPersonSchema = personSchema.extend({
  /** As the server words it (the embedded engine: ENROLLED / NOT_ENROLLED); null when it sent none. */
  enrollmentStatus: z.string().nullable(),
  templateTypes: z.array(z.string()).nullable(),
})
export type TenantPerson = z.infer<typeof tenantPersonSchema>

/** Get Tenant User Data: "includes an enrollment status" under a name the reference does not give. */
export const tenantPersonReply = z
  .looseObject({
    ...personFields,
    enrollmentStatus: optionalText,
    enrollStatus: optionalText,
    status: optionalText,
    enrolled: z.boolean().optional(),
    templateTypes: z.array(z.string()).optional(),
  })
  .refine(hasUuid, uuidIssue)
  .transform(
    (p): TenantPerson => ({
      ...toPerson(p),
      enrollmentStatus: p.enrollmentStatus ?? p.enrollStatus ?? p.status ?? (p.enrolled === undefined ? null : p.enrolled ? 'ENROLLED' : 'NOT_ENROLLED'),
      templateTypes: p.templateTypes ?? null,
    }),
  )

export const appUserSchema = z.object({ person: personSchema, appCode: z.string().nullable(), tenantCodes: z.array(z.string()).nullable() })
export type AppUser = z.infer<typeof appUserSchema>

/** App user data: a person record, with the app and the person's tenants where the server adds them. */
export const appUserReply = z
  .looseObject({ ...personFields, appCode: optionalText, tenantCodes: z.array(z.string()).optional() })
  .refine(hasUuid, uuidIssue)
  .transform((p): AppUser => ({ person: toPerson(p), appCode: p.appCode, tenantCodes: p.tenantCodes ?? null }))

/* ---------------------------------------------------------------- lists */

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

/** A list as read, before the query fills in what the server did not say. */
export interface ListReply<T> {
  content: T[]
  pageNo: number | null
  pageSize: number | null
  totalElements: number | null
  totalPages: number | null
}

const count = z.number().int().nonnegative().optional()

/**
 * "Returns a list": a plain JSON array, the embedded engine's page object, or a Spring Data page
 * ({content, number, size, totalElements, totalPages, …}).
 */
export const listReply = <T extends z.ZodType>(item: T) =>
  z.union([
    z.array(item).transform((content): ListReply<z.output<T>> => ({ content, pageNo: null, pageSize: null, totalElements: null, totalPages: null })),
    z
      .looseObject({ content: z.array(item), pageNo: count, number: count, pageSize: count, size: count, totalElements: count, totalPages: count })
      .transform(
        (p): ListReply<z.output<T>> => ({
          content: p.content,
          pageNo: p.pageNo ?? p.number ?? null,
          pageSize: p.pageSize ?? p.size ?? null,
          totalElements: p.totalElements ?? null,
          totalPages: p.totalPages ?? null,
        }),
      ),
  ])

/**
 * A list reply as a page. Where the server gave no totals (a plain array), they are what can be
 * known: a page as long as asked for may have more after it, so one more page is announced.
 */
export function toPage<T>(list: ListReply<T>, asked: { pageNo?: number | undefined; pageSize?: number | undefined }): Page<T> {
  const pageNo = list.pageNo ?? asked.pageNo ?? 0
  const pageSize = list.pageSize ?? (asked.pageSize !== undefined && list.content.length <= asked.pageSize ? asked.pageSize : Math.max(1, list.content.length))
  if (list.totalElements !== null) {
    return { content: list.content, pageNo, pageSize, totalElements: list.totalElements, totalPages: list.totalPages ?? Math.ceil(list.totalElements / pageSize) }
  }
  const full = list.content.length >= pageSize && asked.pageSize !== undefined
  return { content: list.content, pageNo, pageSize, totalElements: pageNo * pageSize + list.content.length, totalPages: pageNo + (full ? 2 : 1) }
}

/* ---------------------------------------------------------------- tenants */

export const licenseDataSchema = z.object({
  info: z.string().nullable().optional(),
  maxIdentities: z.number().int().nullable().optional(),
  /** Epoch milliseconds (the reference says "integer timestamp" without a unit). */
  expireDate: z.number().int().nullable().optional(),
})
export type LicenseData = z.infer<typeof licenseDataSchema>

/** An entry named by a code: a plain string, or an object carrying the code under one of these names. */
const codeOf = (...names: string[]) =>
  z.union([z.string(), z.looseObject({})]).transform((entry) => {
    if (typeof entry === 'string') return entry
    for (const name of names) if (typeof entry[name] === 'string') return entry[name] as string
    return null
  })

export const appRecordSchema = z.object({ code: z.string(), name: z.string().nullable(), associated: z.number().nullable() })
export type AppRecord = z.infer<typeof appRecordSchema>

/**
 * An application record ("not shown" in the reference): its code and name. Anything else the
 * server sends (the vendor's Application entity holds push-notification keys) is dropped here.
 */
export const appRecordReply = z
  .union([z.string().transform((code) => ({ code, name: null, appCode: undefined, associated: null })), z.looseObject({ code: z.string().optional(), appCode: z.string().optional(), name: optionalText, associated: timestamp })])
  .refine((a) => (a.code ?? a.appCode) !== undefined, 'an application needs its code')
  .transform((a): AppRecord => ({ code: (a.code ?? a.appCode)!, name: a.name, associated: a.associated }))

export const algorithmAssociationSchema = z.object({ code: z.string(), licenseData: licenseDataSchema.nullable(), liveness: z.array(z.string()) })
export type AlgorithmAssociation = z.infer<typeof algorithmAssociationSchema>

const looseLicense = z
  .looseObject({ info: optionalText, maxIdentities: z.number().nullable().optional(), expireDate: timestamp })
  .transform((l): LicenseData => ({ info: l.info, maxIdentities: l.maxIdentities ?? null, expireDate: l.expireDate }))

const algorithmReply = z
  .looseObject({
    code: z.string().optional(),
    algCode: z.string().optional(),
    licenseData: looseLicense.nullable().optional(),
    liveness: z.array(codeOf('code', 'livenessCode', 'name')).optional(),
  })
  .refine((a) => (a.code ?? a.algCode) !== undefined, 'an algorithm needs its code')
  .transform(
    (a): AlgorithmAssociation => ({
      code: (a.code ?? a.algCode)!,
      licenseData: a.licenseData ?? null,
      liveness: (a.liveness ?? []).filter((l): l is string => l !== null),
    }),
  )

export const tenantSchema = z.object({
  code: z.string(),
  name: z.string(),
  maxIdentities: z.number().int().nullable(),
  defaultPostBack: z.string().nullable(),
  /** Null when the server's tenant record does not carry them (the reference does not show it). */
  apps: z.array(appRecordSchema).nullable(),
  algorithms: z.array(algorithmAssociationSchema).nullable(),
  /** The embedded engine's opt-in to keeping face crops; null when the server does not say (the reference has no such field). */
  keepFaceCrops: z.boolean().nullable(),
})
export type Tenant = z.infer<typeof tenantSchema>

/** A tenant record: only the update body's fields are known, and the code may be left to the path. */
export const tenantReply = (requestedCode?: string) =>
  z
    .looseObject({
      code: z.string().optional(),
      name: optionalText,
      maxIdentities: z.number().nullable().optional(),
      defaultPostBack: z.unknown().optional(),
      apps: z.array(appRecordReply).optional(),
      algorithms: z.array(algorithmReply).optional(),
      keepFaceCrops: z.boolean().optional(),
    })
    .refine((t) => (t.code ?? requestedCode) !== undefined, 'a tenant needs its code')
    .transform((t): Tenant => {
      const code = (t.code ?? requestedCode)!
      const postBack = t.defaultPostBack
      return {
        code,
        name: t.name ?? code,
        maxIdentities: t.maxIdentities ?? null,
        defaultPostBack: postBack === undefined || postBack === null ? null : typeof postBack === 'string' ? postBack : JSON.stringify(postBack),
        apps: t.apps ?? null,
        algorithms: t.algorithms ?? null,
        keepFaceCrops: t.keepFaceCrops ?? null,
      }
    })

/* ---------------------------------------------------------------- token */

export const tokenResponseSchema = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string().regex(/^bearer$/i).optional(),
  /** Seconds; some servers send it as a string, some leave it out (then a 401 tells the kiosk to renew). */
  expires_in: z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).optional(),
  scope: z.string().optional(),
})

/* ---------------------------------------------------------------- BioEngine */

export const templateTypeInfoSchema = z.object({
  templateType: z.string(),
  /** The type's own decision threshold, on its own scale; null when the server did not say. */
  scoreThreshold: z.number().nullable(),
  numSamplesForEnroll: z.number().int(),
  isInstantiated: z.boolean().nullable(),
})
export type TemplateTypeInfo = z.infer<typeof templateTypeInfoSchema>

const templateTypeInfoReply = z
  .looseObject({
    templateType: z.string(),
    scoreThreshold: z.number().nullable().optional(),
    numSamplesForEnroll: z.number().int().positive().nullable().optional(),
    isInstantiated: z.boolean().nullable().optional(),
  })
  .transform(
    (t): TemplateTypeInfo => ({ templateType: t.templateType, scoreThreshold: t.scoreThreshold ?? null, numSamplesForEnroll: t.numSamplesForEnroll ?? 1, isInstantiated: t.isInstantiated ?? null }),
  )
export const templateTypeResponseSchema = z.looseObject({ templateTypes: z.array(templateTypeInfoReply) })

export const biometricInfoSchema = z.object({
  templateType: z.string(),
  templateContext: z.string(),
  size: z.number().int().nullable(),
  timestamp: z.number().nullable(),
})
export type BiometricInfo = z.infer<typeof biometricInfoSchema>

const biometricInfoReply = z
  .looseObject({ templateType: z.string(), templateContext: z.string(), size: z.number().int().nullable().optional(), timestamp })
  .transform((b): BiometricInfo => ({ templateType: b.templateType, templateContext: b.templateContext, size: b.size ?? null, timestamp: b.timestamp }))
/** "Missing templates produce empty placeholders": null entries are skipped. */
const biometricInfos = z.array(biometricInfoReply.nullable()).transform((list) => list.filter((b): b is BiometricInfo => b !== null))
export const biometricInfoResponseSchema = z.looseObject({ biometricInfos })

/** Enroll's 201 lists two models (BiometricEnrollResponse and BiometricInfoResponse): either, or an empty body. */
export const enrollResponseSchema = z
  .union([z.looseObject({ quality: z.number().nullable().optional(), biometricInfos: biometricInfos.optional() }), z.undefined()])
  .transform((r) => ({ quality: r?.quality ?? null, biometricInfos: r?.biometricInfos ?? null }))
export const createTemplateResponseSchema = z.looseObject({ quality: z.number().nullable().optional(), templatedata: z.string() })

const itemError = { errorCode: z.number().int().optional(), errorMessage: z.string().optional() }
/** A result array in which a server may leave null placeholders. */
const results = <T extends z.ZodType>(item: T) => z.array(item.nullable()).transform((list) => list.filter((x): x is NonNullable<z.output<T>> => x !== null))

export const identifyResponseSchema = z.looseObject({
  allIdentifyResults: results(
    z.looseObject({
      identifyResults: results(
        z.looseObject({
          targetId: z.number().int().optional(),
          templateType: z.string().optional(),
          totalDurationMS: z.number().optional(),
          identifyMatchResults: results(z.looseObject({ personId: z.string().optional(), personUUID: z.string().optional(), score: z.number().optional(), ...itemError })).optional(),
          ...itemError,
        }),
      ),
    }),
  ),
})
export type IdentifyResponse = z.infer<typeof identifyResponseSchema>

export const verifyResponseSchema = z.looseObject({
  allMatchResults: results(z.looseObject({ matchResults: results(z.looseObject({ personId: z.string().optional(), score: z.number().optional(), ...itemError })) })),
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

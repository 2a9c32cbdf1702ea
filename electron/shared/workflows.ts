import { z } from 'zod'
import {
  appRecordSchema,
  appUserSchema,
  biometricInfoSchema,
  licenseDataSchema,
  pageSchema,
  personSchema,
  tenantPersonSchema,
  tenantSchema,
  templateTypeInfoSchema,
} from './api-models'
import { livenessEvidenceInput, livenessOutcomeSchema, livenessOverrideInput } from './liveness'
import { templateType } from './settings'
import { email } from './email'

/**
 * Inputs and results of the kiosk's workflows: what the renderer sends and gets back through
 * window.kiosk. Inputs are strict (the services validate every call with them).
 */

const base64Image = z.string().min(16, 'an image is required').max(8 * 1024 * 1024, 'the image is too large')
const personUuid = z.uuid('not a person id')
const code = z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'letters, digits, dot, dash or underscore (1–64)')

/**
 * Liveness beside a capture (electron/shared/liveness.ts): the burst for the challenge the services
 * issued, or, from staff only, an override with its reason. Judged and audited in the services.
 */
const livenessParts = { liveness: livenessEvidenceInput.optional(), livenessOverride: livenessOverrideInput.optional() }
/** In each result: null when the tenant requires no liveness (nothing is said about it then). */
const livenessResult = { liveness: livenessOutcomeSchema.nullable().optional() }

/**
 * Present when the remote servers could not be reached and the kiosk decided on this device
 * instead (its offline replica, or its own engine for a face match); absent when the servers decided.
 */
export const offlineCheckSchema = z.object({
  /** When the local record behind the decision was made or last confirmed (epoch ms); null when there is none to show. */
  recordAt: z.number().nullable(),
  /** When the replica was last checked against the servers (epoch ms); null: never. */
  lastSyncAt: z.number().nullable(),
})
export type OfflineCheck = z.infer<typeof offlineCheckSchema>
const offlineResult = { offline: offlineCheckSchema.optional() }

/** The field schemas as the renderer's forms check them before anything is sent: the same rules, no second copy. */
export const emailField = email
export const codeField = code

export const enrollVisitorInput = z.strictObject({
  userId: email,
  samples: z.array(base64Image).min(1).max(10),
  /** The consent the visitor gave on screen; enrollment refuses to run without it. */
  consent: z.literal(true, 'the visitor must consent first'),
  /** The version of the consent text shown (electron/shared/consent.ts); recorded with the enrollment. */
  consentVersion: z.string().min(1).max(32),
  /** Staff only: the e-mail already has a face enrolled; add these samples to it, or replace it. */
  onExisting: z.enum(['add', 'replace']).optional(),
  /** Staff only: enroll although the face matches another enrolled person (they looked at both). */
  acceptDuplicates: z.literal(true).optional(),
  ...livenessParts,
})

/** An enrolled person whose face matches the new samples at or above the identify threshold. */
export const faceCandidateSchema = z.object({ personUuid: z.string(), userId: z.string().nullable(), score: z.number() })
export type FaceCandidate = z.infer<typeof faceCandidateSchema>

export const enrollVisitorResult = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('enrolled'), person: personSchema, created: z.boolean(), quality: z.number().nullable(), enrollmentStatus: z.string().nullable(), ...livenessResult }),
  z.object({
    outcome: z.literal('queued'),
    outboxId: z.string(),
    reason: z.string(),
    /** This screen may check the person in now (a site's kiosk keeps the check-in for its site until both are delivered); absent: after delivery only. */
    checkIn: z.literal(true).optional(),
    ...livenessResult,
  }),
  /** A visitor alone cannot go on: the e-mail is enrolled with another face, or the face is someone else's. */
  // 'see-front-desk': the kiosk stops here and the visitor is sent to the desk, with no reason given (staff are told why).
  z.object({ outcome: z.literal('needs-staff'), reason: z.enum(['already-enrolled', 'duplicate-face', 'see-front-desk']) }),
  /** Staff decide: the existing record of this e-mail and/or the other persons the face matches. */
  z.object({
    outcome: z.literal('needs-decision'),
    existing: z.object({ person: personSchema, templates: z.number().int(), sameFace: z.boolean() }).nullable(),
    duplicates: z.array(faceCandidateSchema),
  }),
])

export const verifyVisitorInput = z.strictObject({
  userId: email.optional(),
  personUuid: personUuid.optional(),
  sample: base64Image,
  ...livenessParts,
})
/** A decision threshold as the services applied it: on the template type's scale, from the server or Settings. */
const appliedThreshold = {
  threshold: z.number(),
  scaleMax: z.union([z.literal(1), z.literal(100)]),
  thresholdSource: z.enum(['server', 'settings']),
}

export const verifyVisitorResult = z.object({
  /** 'not-found': nobody has that e-mail; 'not-enrolled': they have no face of the kiosk's type. */
  decision: z.enum(['match', 'no-match', 'not-enrolled', 'not-found']),
  score: z.number().nullable(),
  ...appliedThreshold,
  /**
   * The person checked, for staff. A visitor gets null, and 'no-match' without a score for an
   * unknown e-mail, a missing face and a different face alike: Verify tells nobody which e-mails exist.
   */
  person: personSchema.nullable(),
  ...livenessResult,
  ...offlineResult,
})

export const identifyVisitorInput = z.strictObject({ sample: base64Image, maxResults: z.number().int().min(1).max(100).optional(), ...livenessParts })
export const identifyVisitorResult = z.object({
  /** 'tie': the two best persons are within TIE_MARGIN of each other, so neither is declared the match. */
  decision: z.enum(['match', 'no-match', 'tie']),
  ...appliedThreshold,
  candidates: z.array(faceCandidateSchema),
  ...livenessResult,
  ...offlineResult,
})

/** Two persons whose scores differ by less than this share of the scale are a tie. */
export const TIE_MARGIN = 0.02

/** Liveness evidence, when sent, is for the camera image; the other image is a photo file. */
export const faceMatchInput = z.strictObject({ image1: base64Image, image2: base64Image, livenessFor: z.enum(['image1', 'image2']).optional(), ...livenessParts })
/** The BioEngine's own verdict: its `pass` and score; `threshold` is the reference's pass mark (48 of 100). */
export const faceMatchResult = z.object({ score: z.number(), pass: z.boolean(), threshold: z.number(), durationMS: z.number().nullable(), ...livenessResult, ...offlineResult })

export const removeVisitorInput = z.strictObject({ userId: email })
export const removeVisitorResult = z.object({
  outcome: z.enum(['deleted', 'disassociated', 'not-found']),
  /** Tenants that still hold the person, when they were only disassociated. */
  otherTenants: z.array(z.string()),
})

export const searchPersonsInput = z.strictObject({
  find: z.string().max(256).optional(),
  sort: z.string().regex(/^[+-]\w+$/).optional(),
  pageSize: z.number().int().min(1).max(100).optional(),
  pageNo: z.number().int().min(0).optional(),
})
export const searchPersonsResult = pageSchema(tenantPersonSchema)

export const personDetailInput = z.strictObject({ personUuid })
export const personDetailResult = z.object({
  person: personSchema,
  tenants: z.array(tenantSchema),
  inTenant: tenantPersonSchema.nullable(),
  templates: z.array(biometricInfoSchema),
})

export const findPersonInput = z.union([z.strictObject({ userId: email }), z.strictObject({ deviceId: z.string().trim().min(1).max(128) })])
export const findPersonResult = z.object({ person: personSchema.nullable() })

export const appUserInput = z.union([
  z.strictObject({ appCode: code.optional(), userId: email }),
  z.strictObject({ appCode: code.optional(), deviceId: z.string().trim().min(1).max(128) }),
])
export const appUserResult = z.object({ appCode: z.string(), user: appUserSchema.nullable() })

export const personTemplatesInput = z.strictObject({ personUuid, templateType: z.string().min(1).max(100).optional() })
export const personTemplatesResult = z.array(biometricInfoSchema)

/** Create template (POST /biometrics) for a quality check: the template itself never leaves the services. */
export const checkSamplesInput = z.strictObject({ samples: z.array(base64Image).min(1).max(10) })
export const checkSamplesResult = z.object({ templateType: z.string(), quality: z.number().nullable(), templateBytes: z.number().int() })

export const deleteTemplatesInput = z.strictObject({
  personUuid,
  templateType: z.string().min(1).max(100).optional(),
  templateContext: z.string().min(1).max(128).optional(),
})

export const updateTenantInput = z.strictObject({
  name: z.string().min(1).max(200),
  maxIdentities: z.number().int().min(0),
  defaultPostBack: z.string().url().max(2048).nullable(),
  /** Embedded engine only (the server reports keepFaceCrops): keep normalized face crops to rebuild templates from. */
  keepFaceCrops: z.boolean().optional(),
})
export const appInput = z.strictObject({ appCode: code })
export const algorithmInput = z.strictObject({ algCode: code, licenseData: licenseDataSchema.optional() })
export const livenessInput = z.strictObject({ algCode: code, livenessCode: code })
export const rebuildCachesInput = z.strictObject({ pluginName: z.string().regex(/^[A-Za-z0-9]{1,64}$/).optional() })

/** A template type staff consider switching to, or rebuilding templates of. */
export const templateTypeInput = z.strictObject({ templateType })
/** How many of the tenant's enrolled visitors hold a template of one type (each person's templates, as the BioEngine lists them). */
export const templateCoverageResult = z.object({
  templateType: z.string(),
  /** Visitors of the tenant with at least one template of any type. */
  enrolled: z.number().int(),
  /** Of those, the ones without a template of this type: not recognisable under it. */
  missing: z.number().int(),
  /** Whether the tenant keeps face crops to rebuild templates from; null when the server does not say. */
  keepsFaceCrops: z.boolean().nullable(),
})
/** The migrate action: the BioEngine asked to recreate its caches (building from kept crops where it can), then recounted. */
export const migrateTemplatesResult = templateCoverageResult.extend({
  /** Missing before the rebuild; `missing` is what is left: visitors who must come back to enroll again. */
  missingBefore: z.number().int(),
  rebuilt: z.number().int(),
})
export type TemplateCoverage = z.infer<typeof templateCoverageResult>
export type MigrateTemplatesResult = z.infer<typeof migrateTemplatesResult>

export const appsResult = z.array(appRecordSchema)
export const appResult = appRecordSchema

export const engineLogsResult = z.object({ fileName: z.string(), contentBase64: z.string(), bytes: z.number().int() })
export const templateTypesResult = z.array(templateTypeInfoSchema)
export { tenantSchema }

export type EnrollVisitorResult = z.infer<typeof enrollVisitorResult>
export type VerifyVisitorResult = z.infer<typeof verifyVisitorResult>
export type IdentifyVisitorResult = z.infer<typeof identifyVisitorResult>
export type FaceMatchResult = z.infer<typeof faceMatchResult>
export type RemoveVisitorResult = z.infer<typeof removeVisitorResult>
export type PersonDetail = z.infer<typeof personDetailResult>
export type AppUserResult = z.infer<typeof appUserResult>
export type CheckSamplesResult = z.infer<typeof checkSamplesResult>

export const connectionTestStepSchema = z.object({
  name: z.enum(['servers', 'token', 'templateTypes', 'tenant']),
  ok: z.boolean(),
  detail: z.string(),
  ms: z.number().int(),
})
export const connectionTestResult = z.object({ ok: z.boolean(), steps: z.array(connectionTestStepSchema) })
export type ConnectionTestStep = z.infer<typeof connectionTestStepSchema>
export type ConnectionTestResult = z.infer<typeof connectionTestResult>

/** The offline replica as staff see it: how much it holds, how old it is, when it was last synced. */
export const replicaStatusSchema = z.object({
  enabled: z.boolean(),
  persons: z.number().int(),
  /** Bytes the replica takes on disk. */
  bytes: z.number().int(),
  oldestAt: z.number().nullable(),
  newestAt: z.number().nullable(),
  lastSyncAt: z.number().nullable(),
  /** A sync found more persons gone from the servers than it removes without staff: nothing was removed. */
  heldRemovals: z.object({ count: z.number().int(), checked: z.number().int(), at: z.number() }).nullable(),
})
export type ReplicaHeldRemovals = NonNullable<z.infer<typeof replicaStatusSchema>['heldRemovals']>
export type ReplicaStatus = z.infer<typeof replicaStatusSchema>
/** `held`: persons gone from the servers but not removed here, waiting for staff (0 when none). */
export const replicaSyncResult = z.object({ checked: z.number().int(), removed: z.number().int(), held: z.number().int(), at: z.number() })
export type ReplicaSyncResult = z.infer<typeof replicaSyncResult>

import { z } from 'zod'
import { email } from './email'

/**
 * What a caller sends the person server and the BioEngine: path parameters, queries and bodies.
 * The kiosk's clients type what they send with these; the embedded engine's routes validate with
 * them (electron/engine/http/zod-provider.ts). One model for both ends.
 */

/* ---------------------------------------------------------------- limits */

/** Samples in one enrollment or template creation. */
export const MAX_SAMPLES_PER_REQUEST = 10
/** Inputs in one identify or verify call. */
export const MAX_INPUTS_PER_REQUEST = 100
/** A sample is a base64 JPEG/PNG of at most 5 MB: 4/3 of that, with room for line breaks. */
export const MAX_SAMPLE_CHARS = 7_200_000
/** A template is a few KB; 64 KB leaves room for any plugin's vector. */
export const MAX_TEMPLATE_CHARS = 65_536

/* ---------------------------------------------------------------- path and query parts */

/**
 * Codes and ids as they may appear in a path. Anything else (slashes, dots-only segments, control
 * characters: path traversal attempts) is refused before any handler runs.
 */
export const tenantCode = z.string().regex(/^(?!\.+$)[A-Za-z0-9_.-]{1,64}$/, 'must be 1–64 letters, digits, dot, dash or underscore')
export const code = tenantCode
/** Read in any case, used in lower case: one person, one id. */
export const personUuid = z
  .string()
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a person UUID')
  .transform((uuid) => uuid.toLowerCase())
/** A BioEngine person id: the kiosk uses person UUIDs, but any id of this shape is accepted. */
export const bioPersonId = z.string().regex(/^(?!\.+$)[A-Za-z0-9@._+-]{1,128}$/, 'must be 1–128 letters, digits or @._+-')
export const templateType = z.string().regex(/^[A-Za-z]{1,32}:[A-Za-z0-9]{1,64}$/, 'must look like BioType:Plugin')
export const templateContext = z.string().regex(/^(?!\.+$)[A-Za-z0-9@._:+-]{1,128}$/, 'must be 1–128 letters, digits or @._:+-')
const pluginName = z.string().regex(/^[A-Za-z0-9]{1,64}$/, 'must be 1–64 letters or digits')

const wholeNumber = z.string().regex(/^\d{1,9}$/, 'must be a whole number')
/** Fields a list can be sorted by; a bare '+' arrives as a space. */
export const SORT_FIELDS = ['userId', 'uuid', 'deviceId', 'created', 'modified'] as const
export const NOT_EMPTY_FIELDS = ['deviceId', 'templates', 'tenants'] as const

/** The list parameters shared by the person and tenant-user lists (reference §4.2). */
export const listQuery = z.object({
  find: z.string().max(256).optional(),
  sort: z
    .string()
    .regex(new RegExp(`^[ +-]?(${SORT_FIELDS.join('|')})$`), `must be a field name prefixed with + or -: one of ${SORT_FIELDS.join(', ')}`)
    .or(z.literal(''))
    .optional(),
  pageSize: wholeNumber.or(z.literal('')).optional(),
  pageNo: wholeNumber.or(z.literal('')).optional(),
  notEmpty: z.enum(NOT_EMPTY_FIELDS).optional(),
})
export type ListQuery = z.infer<typeof listQuery>

/** Get Person by userId / deviceId, or the person list when neither is given. */
export const personLookupQuery = listQuery.extend({
  userId: z.string().min(1).max(254).optional(),
  deviceId: z.string().min(1).max(128).optional(),
})

/** The scope of person-server calls (reference §4.1): the engine grants it, the kiosk asks for it. */
export const SCOPE_TENANT_ADMIN = 'SCOPE_TENANT_ADMIN'

/** OAuth2 client credentials: grant_type and scope in the query (as the reference sends them) or the form body. */
export const tokenParams = z.object({ grant_type: z.string().max(64).optional(), scope: z.string().max(512).optional() })

/* ---------------------------------------------------------------- person server bodies */

export const createPersonRequest = z.object({ userId: email, deviceId: z.string().min(1).max(128).optional() })
export type CreatePersonRequest = z.input<typeof createPersonRequest>

export const tenantUpdateRequest = z.object({
  name: z.string().min(1).max(200),
  code: tenantCode,
  maxIdentities: z.number().int().min(0).max(100_000_000),
  defaultPostBack: z.string().max(2048).nullable().optional(),
  /**
   * The embedded engine's extension, sent only when staff set it: keep each enrollment's normalized
   * face crop (sealed) so templates of another type can be built without the visitor (POST /createcache).
   */
  keepFaceCrops: z.boolean().optional(),
})
export type TenantUpdateRequest = z.input<typeof tenantUpdateRequest>

const licenseFields = z.strictObject({
  info: z.string().max(2000).nullable().optional(),
  maxIdentities: z.number().int().min(0).max(100_000_000).nullable().optional(),
  expireDate: z.number().int().min(0).nullable().optional(),
})
/** The reference names the field licenseData; a body of its fields alone, or none, is accepted too. */
export const licenseRequest = z
  .union([z.strictObject({ licenseData: licenseFields }), licenseFields, z.undefined()])
  .transform((body) => (body === undefined ? {} : 'licenseData' in body ? body.licenseData : body))
export type LicenseRequest = z.input<typeof licenseRequest>

/* ---------------------------------------------------------------- BioEngine bodies */

const sample = z.string().max(MAX_SAMPLE_CHARS, 'is larger than a 5 MB image')
const templateData = z.string().max(MAX_TEMPLATE_CHARS, 'is larger than any template')

export const enrollRequest = z.object({
  templateType,
  templateContext,
  samples: z.array(sample).max(MAX_SAMPLES_PER_REQUEST).optional(),
  template: templateData.optional(),
})
export type EnrollRequest = z.input<typeof enrollRequest>

export const createTemplateRequest = z.object({ templateType, samples: z.array(sample).min(1).max(MAX_SAMPLES_PER_REQUEST) })
export type CreateTemplateRequest = z.input<typeof createTemplateRequest>

/** One verify input: a sample or a template, to be scored against the person's templates of its type. */
export const verifyInput = z.object({
  templateType: z.string().max(100),
  sample: sample.optional(),
  template: templateData.optional(),
  thresholdValue: z.number().optional(),
})
export type VerifyInput = z.input<typeof verifyInput>
export const identifyInput = verifyInput.extend({ maxResults: z.number().optional() })
export type IdentifyInput = z.input<typeof identifyInput>

/**
 * Inputs are read one by one where they are used, so a malformed input fails alone, as an item
 * error (reference §4.4 rule 2): the request schema admits any item, and names the item's shape.
 */
const itemOf = <T extends z.ZodType>(item: T) => z.union([item, z.unknown()])

export const identifyRequest = z.object({ identifyInputs: z.array(itemOf(identifyInput)).min(1).max(MAX_INPUTS_PER_REQUEST) })
export type IdentifyRequest = { identifyInputs: IdentifyInput[] }
export const verifyRequest = z.object({ verifyInputs: z.array(itemOf(verifyInput)).min(1).max(MAX_INPUTS_PER_REQUEST) })
export type VerifyRequest = { verifyInputs: VerifyInput[] }

/* ---------------------------------------------------------------- BioEngine paths */

export const personIdParams = z.object({ personid: bioPersonId })
export const personTypeParams = personIdParams.extend({ templatetype: templateType })
export const personTypeContextParams = personTypeParams.extend({ templatecontext: templateContext })
export const pluginParams = z.object({ pluginName })

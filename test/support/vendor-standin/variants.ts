import type { PersonRec, Store, TenantRec } from './store'
import { isRecord } from './strict'
import type { ReplyVariant, VariantName } from './types'

/**
 * Three readings of the shapes the reference leaves unshown. None is known to be the vendor's;
 * a client must read them all.
 */
export const VARIANTS: Record<VariantName, ReplyVariant> = {
  /** The Jackson Person entity, lists as the reference words them (a plain array), 0–1 scores, capitalised FaceMatch fields. */
  vendor: { personShape: 'id', listShape: 'array', livenessShape: 'objects', scoreScale: 'unit', faceMatchCase: 'capitalised', enrollReply: 'biometricInfos', extraFields: true },
  /** What the kiosk's embedded engine sends (electron/engine/README.md). */
  'engine-like': { personShape: 'uuid', listShape: 'page', livenessShape: 'strings', scoreScale: 'percent', faceMatchCase: 'lower', enrollReply: 'quality', extraFields: false },
  /** A Spring Data REST stack: full Page objects, both ids, extra fields everywhere. */
  spring: { personShape: 'both', listShape: 'spring', livenessShape: 'objects', scoreScale: 'percent', faceMatchCase: 'capitalised', enrollReply: 'quality', extraFields: true },
}

export function personReply(v: ReplyVariant, store: Store, p: PersonRec): Record<string, unknown> {
  const byUuid = { uuid: p.uuid, userId: p.userId, deviceId: p.deviceId, created: p.created, modified: p.modified }
  if (v.personShape === 'uuid') return byUuid
  const templates = store.templatesOf(p)
  const tenantCode = [...p.tenants][0] ?? null
  const enrollmentData = templates.map((t) => ({ tenantCode, captureType: t.templateContext, bioType: t.templateType.split(':')[0], enrollTimestamp: t.timestamp }))
  const entity = {
    id: p.uuid,
    userId: p.userId,
    data: templates.length ? { biometricMetadata: { enrollmentData } } : null,
    enrollServer: null,
    verifyServer: null,
    tenantData: null,
    tenantEnrollServer: null,
    tenantVerifyServer: null,
    voiceDigits: null,
  }
  return v.personShape === 'id' ? entity : { ...entity, ...byUuid }
}

export interface PageAsk {
  pageNo: number
  pageSize: number
  sorted: boolean
}

/** One page of `all` (pageNo is 0-based, as in Spring Data). Lists without paging parameters come whole. */
export function listReply(v: ReplyVariant, all: unknown[], ask: PageAsk = { pageNo: 0, pageSize: Math.max(all.length, 1), sorted: false }): unknown {
  const { pageNo, pageSize, sorted } = ask
  const content = all.slice(pageNo * pageSize, (pageNo + 1) * pageSize)
  if (v.listShape === 'array') return content
  const totalPages = Math.ceil(all.length / pageSize)
  if (v.listShape === 'page') return { content, pageNo, pageSize, totalElements: all.length, totalPages }
  const sort = { sorted, unsorted: !sorted, empty: !sorted }
  const pageable = { pageNumber: pageNo, pageSize, offset: pageNo * pageSize, paged: true, unpaged: false, sort }
  const last = pageNo >= totalPages - 1
  return { content, pageable, totalElements: all.length, totalPages, last, first: pageNo === 0, size: pageSize, number: pageNo, numberOfElements: content.length, sort, empty: content.length === 0 }
}

export function tenantReply(v: ReplyVariant, t: TenantRec): Record<string, unknown> {
  const liveness = (code: string) => (v.livenessShape === 'strings' ? code : { code, name: code.charAt(0) + code.slice(1).toLowerCase() })
  return {
    code: t.code,
    name: t.name,
    maxIdentities: t.maxIdentities,
    defaultPostBack: t.defaultPostBack,
    apps: [...t.apps].map(([code, name]) => ({ code, name })),
    algorithms: [...t.algorithms].map(([code, a]) => ({ code, licenseData: a.licenseData, liveness: [...a.liveness].map(liveness) })),
  }
}

/** Adds fields a tolerant reader must ignore to every object; licenseData is the client's own data and comes back untouched. */
export function sprinkle(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sprinkle)
  if (!isRecord(value)) return value
  const inner = Object.entries(value).map(([k, x]) => [k, k === 'licenseData' ? x : sprinkle(x)])
  return { ...Object.fromEntries(inner), _links: { self: { href: 'urn:standin' } }, vendorRevision: 3 }
}

import { describe, expect, it } from 'vitest'
import {
  appRecordReply,
  enrollResponseSchema,
  identifyResponseSchema,
  listReply,
  personReply,
  templateTypeResponseSchema,
  tenantPersonReply,
  tenantReply,
  toPage,
  tokenResponseSchema,
  verifyResponseSchema,
} from '../../electron/shared/api-models'

// The readers of what a vendor server may send where the reference shows no reply.
const uuid = '0b3c1a52-6f0e-4a4e-9d57-5f1f3b0c9e11'

/** The vendor's Person entity as Jackson writes it: UUID in `id`, no `uuid`, Dates as epoch ms. */
const vendorPerson = {
  id: uuid,
  userId: 'ana@example.org',
  data: { biometricMetadata: { enrollmentData: [{ tenantCode: 'KIOSK', captureType: null, bioType: 2, enrollTimestamp: 1_700_000_000_000 }] } },
  enrollServer: null,
  verifyServer: null,
  tenantData: null,
  tenantEnrollServer: null,
  tenantVerifyServer: null,
  voiceDigits: null,
}

describe('person replies', () => {
  it("reads the vendor's Person entity: the UUID from id, unknown fields ignored", () => {
    expect(personReply.parse(vendorPerson)).toEqual({ uuid, userId: 'ana@example.org', deviceId: null, created: null, modified: null })
  })

  it('reads uuid too, preferring it when both are sent, and ISO or epoch timestamps', () => {
    expect(personReply.parse({ uuid, userId: 'a@b.c', deviceId: 'dev-1', created: 5, modified: '2026-01-02T03:04:05Z' })).toEqual({
      uuid,
      userId: 'a@b.c',
      deviceId: 'dev-1',
      created: 5,
      modified: Date.parse('2026-01-02T03:04:05Z'),
    })
    expect(personReply.parse({ id: 'other', uuid, userId: 'a@b.c' }).uuid).toBe(uuid)
  })

  it('refuses a person with no UUID at all, naming the field', () => {
    const result = personReply.safeParse({ userId: 'a@b.c' })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.path).toEqual(['id'])
  })

  it('reads the enrollment status under the names servers use, or none', () => {
    expect(tenantPersonReply.parse({ ...vendorPerson, enrollmentStatus: 'ENROLLED' }).enrollmentStatus).toBe('ENROLLED')
    expect(tenantPersonReply.parse({ ...vendorPerson, status: 'PENDING' }).enrollmentStatus).toBe('PENDING')
    expect(tenantPersonReply.parse({ ...vendorPerson, enrolled: false }).enrollmentStatus).toBe('NOT_ENROLLED')
    expect(tenantPersonReply.parse(vendorPerson)).toMatchObject({ uuid, enrollmentStatus: null, templateTypes: null })
  })
})

describe('list replies', () => {
  const people = [vendorPerson, { ...vendorPerson, id: 'b', userId: 'bo@example.org' }]

  it('reads a plain array, announcing one more page when it is as long as asked for', () => {
    const list = listReply(personReply).parse(people)
    expect(toPage(list, { pageNo: 0, pageSize: 2 })).toMatchObject({ pageNo: 0, pageSize: 2, totalElements: 2, totalPages: 2 })
    expect(toPage(list, { pageNo: 3, pageSize: 10 })).toMatchObject({ pageNo: 3, pageSize: 10, totalElements: 32, totalPages: 4 })
    // A server that ignores paging and sends everything: one page of all of it.
    expect(toPage(list, {})).toMatchObject({ pageNo: 0, pageSize: 2, totalElements: 2, totalPages: 1 })
    expect(list.content.map((p) => p.uuid)).toEqual([uuid, 'b'])
  })

  it("reads the embedded engine's page object", () => {
    const page = toPage(listReply(personReply).parse({ content: people, pageNo: 1, pageSize: 2, totalElements: 5, totalPages: 3 }), {})
    expect(page).toMatchObject({ pageNo: 1, pageSize: 2, totalElements: 5, totalPages: 3 })
  })

  it('reads a Spring Data page', () => {
    const spring = {
      content: people,
      pageable: { pageNumber: 2, pageSize: 2, offset: 4, paged: true, unpaged: false, sort: { sorted: false, unsorted: true, empty: true } },
      totalElements: 6,
      totalPages: 3,
      last: true,
      first: false,
      size: 2,
      number: 2,
      numberOfElements: 2,
      sort: { sorted: false, unsorted: true, empty: true },
      empty: false,
    }
    expect(toPage(listReply(personReply).parse(spring), { pageNo: 2, pageSize: 2 })).toMatchObject({ pageNo: 2, pageSize: 2, totalElements: 6, totalPages: 3 })
  })
})

describe('tenant replies', () => {
  it('reads liveness entries as strings or as objects', () => {
    const strings = tenantReply('KIOSK').parse({ code: 'KIOSK', name: 'Lobby', maxIdentities: 0, algorithms: [{ code: 'HumanFaceRes', liveness: ['BLINK'] }] })
    const objects = tenantReply('KIOSK').parse({
      code: 'KIOSK',
      name: 'Lobby',
      maxIdentities: 0,
      algorithms: [{ algCode: 'HumanFaceRes', licenseData: { info: 'x', maxIdentities: 10, expireDate: '2030-01-01T00:00:00Z' }, liveness: [{ code: 'BLINK', name: 'Blink' }, { livenessCode: 'TURN' }] }],
    })
    expect(strings.algorithms).toEqual([{ code: 'HumanFaceRes', licenseData: null, liveness: ['BLINK'] }])
    expect(objects.algorithms).toEqual([{ code: 'HumanFaceRes', licenseData: { info: 'x', maxIdentities: 10, expireDate: Date.parse('2030-01-01T00:00:00Z') }, liveness: ['BLINK', 'TURN'] }])
  })

  it('takes the code from the path and says what the record does not carry', () => {
    expect(tenantReply('KIOSK').parse({ name: 'Lobby', defaultPostBack: { url: 'https://x' } })).toEqual({
      code: 'KIOSK',
      name: 'Lobby',
      maxIdentities: null,
      defaultPostBack: '{"url":"https://x"}',
      apps: null,
      algorithms: null,
      keepFaceCrops: null,
    })
    expect(tenantReply('KIOSK').parse({ name: 'Lobby', keepFaceCrops: true }).keepFaceCrops).toBe(true)
  })

  it('reads app records as strings or objects, and drops what is not the code, name or date', () => {
    expect(listReply(appRecordReply).parse(['A1', { code: 'A2', name: 'Front desk', gcmKey: 'secret', apnsCertificatePassword: 'pw' }, { appCode: 'A3' }]).content).toEqual([
      { code: 'A1', name: null, associated: null },
      { code: 'A2', name: 'Front desk', associated: null },
      { code: 'A3', name: null, associated: null },
    ])
  })
})

describe('BioEngine and token replies', () => {
  it('reads a template type with or without its optional fields', () => {
    expect(templateTypeResponseSchema.parse({ templateTypes: [{ templateType: 'Face:X', scoreThreshold: 0.8 }] }).templateTypes).toEqual([
      { templateType: 'Face:X', scoreThreshold: 0.8, numSamplesForEnroll: 1, isInstantiated: null },
    ])
  })

  it('reads either enroll model, or an empty 201', () => {
    expect(enrollResponseSchema.parse({ quality: 0.7 })).toEqual({ quality: 0.7, biometricInfos: null })
    expect(enrollResponseSchema.parse({ biometricInfos: [{ templateType: 'Face:X', templateContext: 'c', size: 10, timestamp: 1 }] })).toEqual({
      quality: null,
      biometricInfos: [{ templateType: 'Face:X', templateContext: 'c', size: 10, timestamp: 1 }],
    })
    expect(enrollResponseSchema.parse(undefined)).toEqual({ quality: null, biometricInfos: null })
  })

  it('skips null placeholders in identify and verify results', () => {
    const identify = identifyResponseSchema.parse({ allIdentifyResults: [{ identifyResults: [{ targetId: 0, templateType: 'Face:X', identifyMatchResults: [null, { personUUID: uuid, score: 0.9 }] }] }] })
    expect(identify.allIdentifyResults[0]?.identifyResults[0]?.identifyMatchResults).toEqual([{ personUUID: uuid, score: 0.9 }])
    expect(verifyResponseSchema.parse({ allMatchResults: [{ matchResults: [null, {}] }] }).allMatchResults[0]?.matchResults).toEqual([{}])
  })

  it('reads a token without token_type or expires_in, and expires_in as a string', () => {
    expect(tokenResponseSchema.parse({ access_token: 't' })).toMatchObject({ access_token: 't' })
    expect(tokenResponseSchema.parse({ access_token: 't', token_type: 'Bearer', expires_in: '3600' }).expires_in).toBe(3600)
    expect(tokenResponseSchema.safeParse({ access_token: 't', token_type: 'mac' }).success).toBe(false)
  })
})

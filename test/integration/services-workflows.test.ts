import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadFacePlugins } from '../../electron/engine/face'
import { enrollVisitor } from '../../electron/services/workflows/enroll-visitor'
import { engineAdmin } from '../../electron/services/workflows/engine-admin'
import { faceMatch } from '../../electron/services/workflows/face-match'
import { identifyVisitor } from '../../electron/services/workflows/identify-visitor'
import { deleteTemplates, personDetail, searchPersons } from '../../electron/services/workflows/persons'
import { removeVisitor } from '../../electron/services/workflows/remove-visitor'
import { tenantAdminOf as tenantAdmin } from '../../electron/services/features/tenant-admin'
import { verifyVisitor } from '../../electron/services/workflows/verify-visitor'
import { testBackend } from '../support/backend'
import { startTestEngine, TEST_TENANT, type TestEngine } from '../support/engine'
import { projectRoot } from '../support/process'

const sample = (name: string) => readFileSync(join(projectRoot, 'test/fixtures/generated', name)).toString('base64')

// Every kiosk workflow through the real clients against the real embedded engine.
describe('kiosk workflows', () => {
  let t: TestEngine
  let backend: ReturnType<typeof testBackend>
  let ada: string
  beforeAll(async () => {
    t = await startTestEngine(await loadFacePlugins({ threads: 2, log: () => {} }))
    backend = testBackend(t.url)
    const enrolled = await enrollVisitor(backend, { userId: 'ada@flow.example', samples: [sample('person-a1.jpg')], templateType: backend.templateType, templateContext: 'c1' })
    ada = enrolled.person.uuid
  })
  afterAll(async () => {
    await backend.close()
    await t.close()
  })

  it('verifies the same visitor as a match, by e-mail or by person id, with the score and threshold', async () => {
    const byEmail = await verifyVisitor(backend, { userId: 'ada@flow.example', sample: sample('person-a2.jpg') })
    expect(byEmail).toMatchObject({ decision: 'match', threshold: 48, person: { uuid: ada } })
    expect(byEmail.score).toBeGreaterThanOrEqual(48)
    expect((await verifyVisitor(backend, { personUuid: ada, sample: sample('person-a2.jpg') })).decision).toBe('match')
  })

  it('refuses a different face, and says when the visitor is unknown or not enrolled', async () => {
    const other = await verifyVisitor(backend, { userId: 'ada@flow.example', sample: sample('person-d.jpg') })
    expect(other.decision).toBe('no-match')
    expect(other.score).toBeLessThan(48)
    expect(await verifyVisitor(backend, { userId: 'nobody@flow.example', sample: sample('person-a2.jpg') })).toMatchObject({ decision: 'not-found', score: null, person: null })
    await t.call('POST', `/v2/gmiserver/tenant/${TEST_TENANT}/person`, { userId: 'bare@flow.example' })
    expect(await verifyVisitor(backend, { userId: 'bare@flow.example', sample: sample('person-a2.jpg') })).toMatchObject({ decision: 'not-enrolled', score: null })
    await expect(verifyVisitor(backend, { userId: 'ada@flow.example', sample: sample('no-face.jpg') })).rejects.toMatchObject({ code: 'NO_FACE' })
  })

  it('identifies the visitor with their e-mail resolved, and answers an explicit no-match for a stranger', async () => {
    const found = await identifyVisitor(backend, { sample: sample('person-a2.jpg') })
    expect(found.decision).toBe('match')
    expect(found.candidates[0]).toMatchObject({ personUuid: ada, userId: 'ada@flow.example' })
    expect(await identifyVisitor(backend, { sample: sample('person-c.jpg') })).toEqual({ decision: 'no-match', threshold: 48, scaleMax: 100, thresholdSource: 'server', candidates: [] })
  })

  it('matches two images on the spot, and checks the limits before sending', async () => {
    expect(await faceMatch(backend, { image1: sample('person-a1.jpg'), image2: sample('person-a2.jpg') })).toMatchObject({ pass: true, threshold: 48 })
    expect((await faceMatch(backend, { image1: sample('person-a1.jpg'), image2: sample('person-b.jpg') })).pass).toBe(false)
    const text = Buffer.from('definitely not an image, just text').toString('base64')
    await expect(faceMatch(backend, { image1: sample('person-a1.jpg'), image2: text })).rejects.toMatchObject({ code: 'BAD_IMAGE', about: 'image2', message: 'The second photo (Image 2) cannot be used. The file is not a JPEG or PNG image.' })
    // The engine's own refusal, in the operator's words with the photo named.
    await expect(faceMatch(backend, { image1: sample('person-a1.jpg'), image2: sample('two-faces.jpg') })).rejects.toMatchObject({ code: 'MULTIPLE_FACES', about: 'image2', message: expect.stringMatching(/^The second photo \(Image 2\) shows \d faces; face match needs exactly one face in each photo\.$/) })
  })

  it('searches the tenant users and shows a person in detail; deletes templates', async () => {
    const page = await searchPersons(backend, { find: 'flow.example', sort: '+userId', pageSize: 10 })
    expect(page.content.map((p) => p.userId)).toEqual(['ada@flow.example', 'bare@flow.example'])
    const detail = await personDetail(backend, ada)
    expect(detail).toMatchObject({ person: { uuid: ada }, inTenant: { enrollmentStatus: 'ENROLLED' } })
    expect(detail.tenants.map((x) => x.code)).toEqual([TEST_TENANT])
    expect(detail.templates).toHaveLength(1)

    const bob = await enrollVisitor(backend, { userId: 'bob@flow.example', samples: [sample('person-b.jpg')], templateType: backend.templateType, templateContext: 'x' })
    expect(await deleteTemplates(backend, { personUuid: bob.person.uuid, templateType: backend.templateType, templateContext: 'x' })).toEqual({ remaining: 0 })
    await expect(personDetail(backend, '00000000-0000-4000-8000-000000000000')).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('removes a visitor by the seed rule: only disassociated while another tenant holds them, deleted otherwise', async () => {
    await t.call('PUT', '/v1/tenant/OTHER', { name: 'Other', code: 'OTHER', maxIdentities: 0 })
    const shared = await enrollVisitor(backend, { userId: 'shared@flow.example', samples: [sample('person-e.jpg')], templateType: backend.templateType, templateContext: 'x' })
    await t.call('PUT', `/v2/gmiserver/tenant/OTHER/person/${shared.person.uuid}`)

    expect(await removeVisitor(backend, 'shared@flow.example')).toEqual({ outcome: 'disassociated', otherTenants: ['OTHER'] })
    expect(await backend.persons.getPerson(shared.person.uuid)).not.toBeNull()
    expect(await backend.persons.tenantPerson(TEST_TENANT, shared.person.uuid)).toBeNull()
    expect(await backend.bio.biometrics(shared.person.uuid)).toHaveLength(1) // OTHER still relies on them

    await t.call('DELETE', `/v2/gmiserver/tenant/OTHER/person/${shared.person.uuid}`)
    await backend.persons.associatePerson(TEST_TENANT, shared.person.uuid)
    expect(await removeVisitor(backend, 'shared@flow.example')).toEqual({ outcome: 'deleted', otherTenants: [] })
    expect(await backend.persons.getPerson(shared.person.uuid)).toBeNull()
    expect(await backend.bio.biometrics(shared.person.uuid)).toEqual([])
    expect(await removeVisitor(backend, 'shared@flow.example')).toEqual({ outcome: 'not-found', otherTenants: [] })
  })

  it('administers the tenant: data, apps, algorithms with licenceData, liveness', async () => {
    const admin = tenantAdmin(backend)
    expect((await admin.update({ name: 'Front desk (main)', maxIdentities: 1000, defaultPostBack: null })).name).toBe('Front desk (main)')
    expect((await admin.associateApp('VISITORS')).apps?.map((a) => a.code)).toEqual(['VISITORS'])
    expect((await admin.disassociateApp('VISITORS')).apps).toEqual([])
    await expect(admin.disassociateApp('VISITORS')).rejects.toMatchObject({ code: 'NOT_FOUND' })
    const licence = { info: 'pilot', maxIdentities: 50, expireDate: Date.parse('2031-01-01') }
    expect((await admin.associateAlgorithm({ algCode: 'HumanFaceRes', licenseData: licence })).algorithms?.[0]).toMatchObject({ code: 'HumanFaceRes', licenseData: licence })
    expect((await admin.associateLiveness({ algCode: 'HumanFaceRes', livenessCode: 'passive-pad' })).algorithms?.[0]?.liveness).toEqual(['passive-pad'])
    expect((await admin.disassociateLiveness({ algCode: 'HumanFaceRes', livenessCode: 'passive-pad' })).algorithms?.[0]?.liveness).toEqual([])
    expect((await admin.disassociateAlgorithm('HumanFaceRes')).algorithms).toEqual([])
  })

  it('administers the engine: template types, cache rebuild, logs zip', async () => {
    const admin = engineAdmin(backend)
    expect((await admin.templateTypes()).map((x) => x.templateType)).toContain('Face:HumanFaceRes')
    expect(await admin.rebuildCaches()).toEqual({ ok: true })
    expect(await admin.rebuildCaches('HumanFaceRes')).toEqual({ ok: true })
    await expect(admin.rebuildCaches('Nope')).rejects.toMatchObject({ code: 'REJECTED' })
    const logs = await admin.logs(new Date('2026-01-02T03:04:05Z'))
    expect(logs.fileName).toBe('bioengine-logs-2026-01-02T03-04-05.zip')
    expect(Buffer.from(logs.contentBase64, 'base64').subarray(0, 2).toString()).toBe('PK')
  })
})

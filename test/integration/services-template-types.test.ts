import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadFacePlugins } from '../../electron/engine/face'
import { enrollVisitor } from '../../electron/services/workflows/enroll-visitor'
import { identifyVisitor } from '../../electron/services/workflows/identify-visitor'
import { searchPersons } from '../../electron/services/workflows/persons'
import { migrateTemplates, templateCoverage } from '../../electron/services/workflows/template-coverage'
import { tenantAdminOf as tenantAdmin } from '../../electron/services/features/tenant-admin'
import { verifyVisitor } from '../../electron/services/workflows/verify-visitor'
import { testBackend } from '../support/backend'
import { startTestEngine, type TestEngine } from '../support/engine'
import { projectRoot } from '../support/process'

// A template-type change through the kiosk's services against the real engine: the count of
// visitors it leaves without a template of the new type, and the migrate action that rebuilds
// them from kept face crops (or says who must come back when the tenant kept none).
const sample = (name: string) => readFileSync(join(projectRoot, 'test/fixtures/generated', name)).toString('base64')
const A = 'Face:HumanFaceRes'
const B = 'Face:FaceApiResNet'

describe('template types', () => {
  let t: TestEngine
  let underA: ReturnType<typeof testBackend>
  let underB: ReturnType<typeof testBackend>
  let keeping: ReturnType<typeof testBackend>
  let ada: string

  beforeAll(async () => {
    t = await startTestEngine(await loadFacePlugins({ threads: 2, log: () => {} }))
    underA = testBackend(t.url, { templateType: A })
    underB = testBackend(t.url, { templateType: B })
    // A second tenant that opted in to kept crops, through the kiosk's own tenant administration.
    await t.call('PUT', '/v1/tenant/KEEPS', { name: 'Keeps crops', code: 'KEEPS', maxIdentities: 0 })
    keeping = { ...testBackend(t.url, { templateType: A }), tenantCode: 'KEEPS' }
    const tenant = await tenantAdmin(keeping).update({ name: 'Keeps crops', maxIdentities: 0, defaultPostBack: null, keepFaceCrops: true })
    expect(tenant.keepFaceCrops).toBe(true)
  })
  afterAll(async () => {
    await Promise.all([underA.close(), underB.close(), keeping.close()])
    await t.close()
  })

  const enroll = (backend: ReturnType<typeof testBackend>, userId: string, file: string) =>
    enrollVisitor(backend, { userId, samples: [sample(file)], templateType: A, templateContext: `ctx-${userId}` })

  it('without kept crops: counts who a switch leaves behind, and the migrate says they must come back', async () => {
    await enroll(underA, 'cyd@types.example', 'person-c.jpg')
    await enroll(underA, 'dee@types.example', 'person-d.jpg')
    expect(await templateCoverage(underA, B)).toEqual({ templateType: B, enrolled: 2, missing: 2, keepsFaceCrops: false })
    expect(await templateCoverage(underA, A)).toMatchObject({ enrolled: 2, missing: 0 })

    expect(await migrateTemplates(underA, B)).toEqual({ templateType: B, enrolled: 2, missingBefore: 2, rebuilt: 0, missing: 2, keepsFaceCrops: false })
    expect((await verifyVisitor(underB, { userId: 'cyd@types.example', sample: sample('person-c.jpg') })).decision).toBe('not-enrolled')
  })

  it('with kept crops: the migrate builds the new type, and visitors are verified and identified under it without new samples', async () => {
    ada = (await enroll(keeping, 'ada@types.example', 'person-a1.jpg')).person.uuid
    await enroll(keeping, 'bob@types.example', 'person-b.jpg')
    expect(await templateCoverage(keeping, B)).toEqual({ templateType: B, enrolled: 2, missing: 2, keepsFaceCrops: true })
    const keepingUnderB = { ...underB, tenantCode: 'KEEPS' }
    expect((await verifyVisitor(keepingUnderB, { userId: 'ada@types.example', sample: sample('person-a2.jpg') })).decision).toBe('not-enrolled')

    expect(await migrateTemplates(keeping, B)).toEqual({ templateType: B, enrolled: 2, missingBefore: 2, rebuilt: 2, missing: 0, keepsFaceCrops: true })

    expect(await verifyVisitor(keepingUnderB, { userId: 'ada@types.example', sample: sample('person-a2.jpg') })).toMatchObject({ decision: 'match', person: { uuid: ada } })
    const found = await identifyVisitor(keepingUnderB, { sample: sample('person-a2.jpg') })
    expect(found).toMatchObject({ decision: 'match', candidates: [{ personUuid: ada }] })
    // The other tenant kept nothing: its visitors are still missing the new type.
    expect(await templateCoverage(underA, B)).toMatchObject({ missing: 2 })
  })

  it('lists each visitor with the template types they hold', async () => {
    const page = await searchPersons(keeping, { find: 'types.example', sort: '+userId' })
    expect(page.content.map((p) => [p.userId, p.templateTypes])).toEqual([
      ['ada@types.example', [B, A]],
      ['bob@types.example', [B, A]],
    ])
  })
})

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadFacePlugins } from '../../electron/engine/face'
import { startTestEngine, TEST_TENANT, type TestEngine } from '../support/engine'
import { projectRoot } from '../support/process'

// Kept face crops on the real engine: per-tenant opt-in, sealed at rest, templates of another type
// built from them by POST /createplugincache, and deleted with their templates and persons.
const fixture = (name: string) => readFileSync(join(projectRoot, 'test/fixtures/generated', name))
const b64 = (name: string) => fixture(name).toString('base64')
const A = 'Face:HumanFaceRes'
const B = 'Face:FaceApiResNet'

describe('kept face crops', () => {
  let t: TestEngine
  const keep = (on: boolean, code = TEST_TENANT) => t.call('PUT', `/v1/tenant/${code}`, { name: 'Front desk', code, maxIdentities: 0, keepFaceCrops: on })
  const person = async (userId: string) => (await t.call('POST', `/v2/gmiserver/tenant/${TEST_TENANT}/person`, { userId })).body.uuid as string
  const enroll = (id: string, templateType: string, sample: string, templateContext = 'c1') =>
    t.call('POST', `/bioengine/persons/${id}/biometrics`, { templateType, templateContext, samples: [b64(sample)] })
  const types = async (id: string) => ((await t.call('GET', `/bioengine/persons/${id}/biometrics`)).body.biometricInfos as Array<{ templateType: string }>).map((b) => b.templateType)
  const crops = () => t.engine.ctx.store.crops.count()

  beforeAll(async () => {
    t = await startTestEngine(await loadFacePlugins({ threads: 2, log: () => {} }))
  })
  afterAll(() => t.close())

  it('keeps no crop unless the tenant opted in, and the tenant record says which', async () => {
    expect((await t.call('GET', `/v2/gmiserver/tenant/${TEST_TENANT}`)).body.keepFaceCrops).toBe(false)
    const id = await person('off@crops.example')
    expect((await enroll(id, A, 'person-c.jpg')).status).toBe(201)
    expect(await crops()).toBe(0)
    expect((await t.call('POST', '/bioengine/createplugincache/FaceApiResNet')).status).toBe(201)
    expect(await types(id)).toEqual([A])
    await t.call('DELETE', `/v2/gmiserver/person/${id}`)
  })

  it('seals each kept crop: neither the sample nor the crop is in the database files in the clear', async () => {
    expect((await keep(true)).body.keepFaceCrops).toBe(true)
    const id = await person('sealed@crops.example')
    expect((await enroll(id, A, 'person-a1.jpg')).status).toBe(201)
    const [crop] = await t.engine.ctx.store.crops.crops(id, 'c1')
    expect(crop!.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff])) // a JPEG, once opened with the key
    const stored = Buffer.concat(['engine.db', 'engine.db-wal'].map((f) => readFileSync(join(t.dataDir, f))))
    for (const plain of [crop!, fixture('person-a1.jpg')]) {
      for (const at of [200, Math.floor(plain.length / 2), plain.length - 300]) expect(stored.includes(plain.subarray(at, at + 48))).toBe(false)
    }
    await t.call('DELETE', `/v2/gmiserver/person/${id}`)
    expect(await crops()).toBe(0)
  })

  it('builds templates of another type from the crops, and the visitor is recognised under it without new samples', async () => {
    const ada = await person('ada@crops.example')
    const bob = await person('bob@crops.example')
    await enroll(ada, A, 'person-a1.jpg')
    await enroll(bob, A, 'person-b.jpg')
    expect(await types(ada)).toEqual([A])

    expect((await t.call('POST', '/bioengine/createplugincache/FaceApiResNet')).status).toBe(201)
    expect(await types(ada)).toEqual([B, A])
    expect(await types(bob)).toEqual([B, A])

    const verify = await t.call('POST', `/bioengine/persons/${ada}/verify`, { verifyInputs: [{ templateType: B, sample: b64('person-a2.jpg') }] })
    expect(verify.body.allMatchResults[0].matchResults[0].score).toBeGreaterThanOrEqual(48)
    const identify = await t.call('POST', '/bioengine/identify', { identifyInputs: [{ templateType: B, sample: b64('person-a2.jpg'), maxResults: 1 }] })
    expect(identify.body.allIdentifyResults[0].identifyResults[0].identifyMatchResults[0]).toMatchObject({ personId: ada })

    // The log says how many were built, and nothing of a face: no crop, in bytes or base64.
    const log = readFileSync(join(t.engine.ctx.log.dir, 'engine.log'))
    expect(log.toString()).toContain('templates built from kept face crops: 2; could not be built: 0')
    const crop = (await t.engine.ctx.store.crops.crops(ada, 'c1'))[0]!
    expect(log.includes(crop.subarray(100, 148))).toBe(false)
    expect(log.toString()).not.toContain(crop.toString('base64').slice(100, 164))
  })

  it('deletes the crops with the templates and with the person, and all of them when the tenant opts out', async () => {
    const cyd = await person('cyd@crops.example')
    await enroll(cyd, A, 'person-d.jpg', 'k1')
    expect(await t.engine.ctx.store.crops.crops(cyd, 'k1')).toHaveLength(1)
    // One type gone, another of the same enrollment left: the crop stays; all gone: the crop goes.
    await t.call('POST', '/bioengine/createplugincache/FaceApiResNet')
    await t.call('DELETE', `/bioengine/persons/${cyd}/biometrics/${A}`)
    expect(await t.engine.ctx.store.crops.crops(cyd, 'k1')).toHaveLength(1)
    await t.call('DELETE', `/bioengine/persons/${cyd}/biometrics`)
    expect(await t.engine.ctx.store.crops.crops(cyd, 'k1')).toHaveLength(0)

    const dee = await person('dee@crops.example')
    await enroll(dee, A, 'person-e.jpg')
    expect(await t.engine.ctx.store.crops.crops(dee, 'c1')).toHaveLength(1)
    await t.call('DELETE', `/v2/gmiserver/person/${dee}`)
    expect(await t.engine.ctx.store.crops.crops(dee, 'c1')).toHaveLength(0)

    expect(await crops()).toBeGreaterThan(0) // ada's and bob's
    await keep(false)
    expect(await crops()).toBe(0)
  })
})

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { FormData, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadFacePlugins } from '../../electron/engine/face'
import { BACKENDS, startBackend, type BackendHandle } from '../support/backends'
import { startTestEngine, TEST_TENANT, type TestEngine } from '../support/engine'
import { projectRoot } from '../support/process'

// The BioEngine over real HTTP with the real face models (reference §4.4). Photos come from npm
// packages via `npm run fixtures`: person-a1/a2 are two photographs of one person, b–e others.
const fixture = (name: string) => readFileSync(join(projectRoot, 'test/fixtures/generated', name))
const b64 = (name: string) => fixture(name).toString('base64')

describe.each(BACKENDS)('embedded BioEngine on %s', (backend) => {
  let t: TestEngine
  let store: BackendHandle
  let types: Array<{ templateType: string; scoreThreshold: number; numSamplesForEnroll: number; isInstantiated: boolean }>
  let type: string
  const persons: Record<string, string> = {}

  beforeAll(async () => {
    store = await startBackend(backend)
    t = await startTestEngine(await loadFacePlugins({ threads: 2, log: () => {} }), undefined, store.options)
    types = (await t.call('GET', '/bioengine/template-types')).body.templateTypes
    type = types[0]!.templateType
    for (const name of ['ada', 'bob', 'cyd', 'dee']) {
      persons[name] = (await t.call('POST', `/v2/gmiserver/tenant/${TEST_TENANT}/person`, { userId: `${name}@bio.example` })).body.uuid
    }
  })
  afterAll(async () => {
    await t?.close()
    await store?.close()
  })

  const enroll = (person: string, body: Record<string, unknown>) => t.call('POST', `/bioengine/persons/${person}/biometrics`, { templateType: type, ...body })
  const identify = async (inputs: unknown[]) => (await t.call('POST', '/bioengine/identify', { identifyInputs: inputs })).body.allIdentifyResults
  const candidates = async (sample: string, extra: Record<string, unknown> = {}) =>
    (await identify([{ templateType: type, sample: b64(sample), ...extra }]))[0].identifyResults[0].identifyMatchResults as Array<{ personId: string; personUUID?: string; score: number }>

  it('lists the installed face template types', () => {
    expect(types.length).toBeGreaterThanOrEqual(1)
    for (const info of types) {
      expect(info.templateType).toMatch(/^Face:[A-Za-z0-9]+$/)
      expect(info).toMatchObject({ scoreThreshold: 48, isInstantiated: true })
      expect(info.numSamplesForEnroll).toBeGreaterThanOrEqual(1)
    }
  })

  it('enrolls samples, lists templates, and reports the person enrolled in the tenant', async () => {
    expect((await t.call('GET', `/bioengine/persons/${persons.ada}/biometrics`)).body).toEqual({ biometricInfos: [] })
    const reply = await enroll(persons.ada!, { templateContext: 'desk-1', samples: [b64('person-a1.jpg')] })
    expect(reply.status).toBe(201)
    expect(reply.body.quality).toBeGreaterThan(0)
    expect(reply.body.quality).toBeLessThanOrEqual(1)
    expect(reply.body.biometricInfos).toEqual([{ templateType: type, templateContext: 'desk-1', size: expect.any(Number), timestamp: expect.any(Number) }])

    expect((await t.call('GET', `/bioengine/persons/${persons.ada}/biometrics/${type}`)).body.biometricInfos).toHaveLength(1)
    expect((await t.call('GET', `/bioengine/persons/${persons.ada}/biometrics/Face:Other`)).body).toEqual({ biometricInfos: [] })
    const data = await t.call('GET', `/v2/gmiserver/tenant/${TEST_TENANT}/person/${persons.ada}`)
    expect(data.body).toMatchObject({ enrollmentStatus: 'ENROLLED', templateTypes: [type] })
  })

  it('creates a template from samples that can be enrolled, identified and verified later', async () => {
    const created = await t.call('POST', '/bioengine/biometrics', { templateType: type, samples: [b64('person-b.jpg')] })
    expect(created.status).toBe(201)
    expect(created.body).toEqual({ quality: expect.any(Number), templatedata: expect.any(String) })
    expect((await enroll(persons.bob!, { templateContext: 'imported', template: created.body.templatedata })).status).toBe(201)
    const verified = await t.call('POST', `/bioengine/persons/${persons.bob}/verify`, { verifyInputs: [{ templateType: type, template: created.body.templatedata }] })
    expect(verified.body.allMatchResults[0].matchResults[0].score).toBeGreaterThanOrEqual(99)
    expect((await candidates('person-b.jpg'))[0]).toMatchObject({ personId: persons.bob, personUUID: persons.bob })
  })

  it('identifies an enrolled visitor from another photograph, and answers an explicit no-match for a stranger', async () => {
    const found = await candidates('person-a2.jpg')
    expect(found[0]).toMatchObject({ personId: persons.ada, personUUID: persons.ada })
    expect(found[0]!.score).toBeGreaterThanOrEqual(48)
    expect(found.map((c) => c.personId)).not.toContain(persons.bob)
    expect(await candidates('person-c.jpg')).toEqual([])
  })

  it('applies thresholdValue and maxResults', async () => {
    const everyone = await candidates('person-a2.jpg', { thresholdValue: 0, maxResults: 10 })
    expect(everyone.map((c) => c.personId).sort()).toEqual([persons.ada, persons.bob].sort())
    expect(everyone[0]!.score).toBeGreaterThanOrEqual(everyone[1]!.score)
    expect(await candidates('person-a2.jpg', { thresholdValue: 0, maxResults: 1 })).toHaveLength(1)
    expect(await candidates('person-a2.jpg', { thresholdValue: 100 })).toEqual([])
  })

  // Identify scans compact int8 rows, then re-scores what is near the cut-off from the
  // stored vectors; 1:1 verify scores the stored vectors directly. On real faces they must agree.
  it('scores every identify hit exactly as verify scores that person, on real faces', async () => {
    for (const sample of ['person-a2.jpg', 'person-b.jpg', 'person-c.jpg', 'person-d.jpg']) {
      const hits = await candidates(sample, { thresholdValue: 0, maxResults: 10 })
      expect(hits.map((hit) => hit.personId).sort(), sample).toEqual([persons.ada, persons.bob].sort())
      for (const hit of hits) {
        const verified = await t.call('POST', `/bioengine/persons/${hit.personId}/verify`, { verifyInputs: [{ templateType: type, sample: b64(sample) }] })
        expect(verified.body.allMatchResults[0].matchResults[0].score, `${sample} against ${hit.personId}`).toBe(hit.score)
      }
    }
  })

  it('answers each identify input on its own: a bad input fails alone', async () => {
    const results = await identify([
      { templateType: type, sample: b64('person-a2.jpg') },
      { templateType: type, sample: '%%%' },
      { templateType: type, sample: b64('no-face.jpg') },
      { templateType: 'Face:Nope', sample: b64('person-a2.jpg') },
      { templateType: type, sample: b64('person-a2.jpg'), maxResults: 0 },
      { templateType: type },
      'not an object',
    ])
    const items = results.map((r: { identifyResults: Array<Record<string, unknown>> }) => r.identifyResults[0])
    expect(items.map((i: Record<string, unknown>) => i.targetId)).toEqual([0, 1, 2, 3, 4, 5, 6])
    expect(items[0]).not.toHaveProperty('errorCode')
    expect((items[0].identifyMatchResults as Array<{ personId: string }>)[0]!.personId).toBe(persons.ada)
    expect(items.slice(1).map((i: Record<string, unknown>) => i.errorCode)).toEqual([1006, 1001, 1005, 1006, 1006, 1006])
    for (const item of items.slice(1)) {
      expect(item.identifyMatchResults).toEqual([])
      expect(String(item.errorMessage).length).toBeGreaterThan(5)
      expect(item.totalDurationMS).toEqual(expect.any(Number))
    }
  })

  it('verifies: the same person passes, another fails, no template gives an empty placeholder', async () => {
    const verify = async (person: string, inputs: Array<Record<string, unknown>>) =>
      (await t.call('POST', `/bioengine/persons/${person}/verify`, { verifyInputs: inputs })).body.allMatchResults
    const [same, other, broken] = await verify(persons.ada!, [
      { templateType: type, sample: b64('person-a2.jpg') },
      { templateType: type, sample: b64('person-d.jpg') },
      { templateType: type, sample: b64('no-face.jpg') },
    ])
    expect(same.matchResults[0].personId).toBe(persons.ada)
    expect(same.matchResults[0].score).toBeGreaterThanOrEqual(48)
    expect(other.matchResults[0].score).toBeLessThan(48)
    expect(broken.matchResults[0]).toMatchObject({ personId: persons.ada, errorCode: 1001 })
    expect(await verify(persons.cyd!, [{ templateType: type, sample: b64('person-a2.jpg') }])).toEqual([{ matchResults: [] }])
  })

  it('face match: a genuine pair passes and impostor pairs fail at 48', async () => {
    const match = async (a: string, b: string) => {
      const form = new FormData()
      form.append('Image1', new Blob([fixture(a)]), a)
      form.append('Image2', new Blob([fixture(b)]), b)
      const reply = await request(`${t.bio}/match`, { method: 'POST', body: form })
      expect(reply.statusCode).toBe(200)
      return (await reply.body.json()) as { status: string; score: number; pass: boolean; durationMS: number }
    }
    const genuine = await match('person-a1.jpg', 'person-a2.jpg')
    expect(genuine).toMatchObject({ status: 'OK', pass: true })
    expect(genuine.score).toBeGreaterThanOrEqual(48)
    expect(genuine.durationMS).toEqual(expect.any(Number))
    for (const [a, b] of [['person-a1.jpg', 'person-b.jpg'], ['person-a2.jpg', 'person-c.jpg'], ['person-b.jpg', 'person-d.jpg'], ['person-c.jpg', 'person-e.jpg']]) {
      const impostor = await match(a!, b!)
      expect(impostor.pass, `${a} vs ${b}`).toBe(false)
      expect(impostor.score, `${a} vs ${b}`).toBeLessThan(48)
    }
  })

  it('deletes by context, by type and all (200 even when nothing matched), and the cache follows', async () => {
    await enroll(persons.cyd!, { templateContext: 'one', samples: [b64('person-c.jpg')] })
    await enroll(persons.cyd!, { templateContext: 'two', samples: [b64('person-c.jpg')] })
    expect((await candidates('person-c.jpg'))[0]!.personId).toBe(persons.cyd)

    expect((await t.call('DELETE', `/bioengine/persons/${persons.cyd}/biometrics/${type}/one`)).status).toBe(200)
    expect((await t.call('GET', `/bioengine/persons/${persons.cyd}/biometrics`)).body.biometricInfos.map((i: { templateContext: string }) => i.templateContext)).toEqual(['two'])
    expect((await t.call('DELETE', `/bioengine/persons/${persons.cyd}/biometrics/${type}`)).status).toBe(200)
    expect(await candidates('person-c.jpg')).toEqual([])
    for (const path of [`/bioengine/persons/${persons.cyd}/biometrics`, `/bioengine/persons/${persons.cyd}/biometrics/${type}`, `/bioengine/persons/nobody/biometrics/${type}/none`]) {
      expect((await t.call('DELETE', path)).status, path).toBe(200)
    }
  })

  it('rebuilds caches from the database with /createcache and /createplugincache', async () => {
    const cache = t.engine.ctx.bio.cacheFor(type)
    cache.clear() // a cache gone stale: the database still holds the templates
    expect(await candidates('person-a2.jpg')).toEqual([])
    const reply = await t.call('POST', '/bioengine/createcache')
    expect(reply.status).toBe(201)
    expect(reply.body).toBeUndefined()
    expect((await candidates('person-a2.jpg'))[0]!.personId).toBe(persons.ada)

    cache.clear()
    expect((await t.call('POST', `/bioengine/createplugincache/${type.split(':')[1]}`)).status).toBe(201)
    expect((await candidates('person-a2.jpg'))[0]!.personId).toBe(persons.ada)
  })

  it('deleting a person deletes their templates and removes them from identify', async () => {
    await enroll(persons.dee!, { templateContext: 'desk', samples: [b64('person-d.jpg')] })
    expect((await candidates('person-d.jpg'))[0]!.personId).toBe(persons.dee)
    expect((await t.call('DELETE', `/v2/gmiserver/person/${persons.dee}`)).status).toBe(204)
    expect((await t.call('GET', `/bioengine/persons/${persons.dee}/biometrics`)).body).toEqual({ biometricInfos: [] })
    expect(await candidates('person-d.jpg')).toEqual([])
  })

  it('enforces an algorithm licence at enrollment', async () => {
    const plugin = type.split(':')[1]
    const alg = `/v2/gmiserver/tenant/${TEST_TENANT}/svrgrp/main/alg/${plugin}`
    const erin = (await t.call('POST', `/v2/gmiserver/tenant/${TEST_TENANT}/person`, { userId: 'erin@bio.example' })).body.uuid
    await t.call('PUT', alg, { info: 'expired', maxIdentities: 100, expireDate: Date.now() - 1000 })
    const expired = await enroll(erin, { templateContext: 'x', samples: [b64('person-e.jpg')] })
    expect(expired).toMatchObject({ status: 400, body: { code: 1010, message: expect.stringContaining('expired') } })

    await t.call('PUT', alg, { info: 'full', maxIdentities: 1, expireDate: null }) // ada and bob already hold templates
    const full = await enroll(erin, { templateContext: 'x', samples: [b64('person-e.jpg')] })
    expect(full).toMatchObject({ status: 400, body: { code: 1010 } })
    expect((await enroll(persons.ada!, { templateContext: 'desk-2', samples: [b64('person-a2.jpg')] })).status).toBe(201) // already counted

    await t.call('DELETE', alg)
    expect((await enroll(erin, { templateContext: 'x', samples: [b64('person-e.jpg')] })).status).toBe(201)
  })

  it('returns the engine and plugin logs as a zip, without tokens', async () => {
    const bearer = await t.token()
    const reply = await request(`${t.bio}/logs`, { headers: { authorization: `Bearer ${bearer}` } })
    expect(reply.statusCode).toBe(200)
    expect(reply.headers['content-type']).toBe('application/zip')
    const zip = Buffer.from(await reply.body.arrayBuffer())
    expect(zip.subarray(0, 4).toString('binary')).toBe('PK\u0003\u0004')
    expect(zip.includes(Buffer.from('engine.log'))).toBe(true)
    expect(zip.includes(Buffer.from(bearer))).toBe(false)
  })
})

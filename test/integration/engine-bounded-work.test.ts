import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { Agent, FormData, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { BioErrorCode } from '../../electron/engine/bio/error-codes'
import { REQUEST_MAX_IN_FLIGHT, REQUEST_MAX_PIXELS } from '../../electron/engine/bio/request-budget'
import { encodeTemplate, normalize } from '../../electron/engine/bio/template-codec'
import { loadFacePlugins, type FacePlugin, type PoolStats } from '../../electron/engine/face'
import { HUMAN_FACERES } from '../../electron/engine/face/specs'
import { TemplateRepository } from '../../electron/engine/store/templates'
import { startTestEngine, TEST_TENANT, type TestEngine } from '../support/engine'
import { projectRoot } from '../support/process'

/**
 * The engine under hostile input: bounded work, so that no caller starves the others. A real engine with the real HumanFaceRes
 * model in one worker thread; callers told apart by their loopback source address (the engine
 * schedules by caller). Tests wait on states (inferences done, pool counters), never on time.
 */
const fixture = (name: string) => readFileSync(join(projectRoot, 'test/fixtures/generated', name))
const b64 = (name: string) => fixture(name).toString('base64')
const blankPng = async (side: number) => (await sharp({ create: { width: side, height: side, channels: 3, background: '#fff' } }).png().toBuffer()).toString('base64')

/** A JSON call from a given loopback address, so the engine sees another caller. */
async function callFrom(t: TestEngine, address: string, path: string, body: unknown) {
  const reply = await request(`${t.url}${path}`, {
    method: 'POST',
    dispatcher: new Agent({ connect: { localAddress: address } }),
    headers: { authorization: `Bearer ${await t.token()}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: reply.statusCode, body: (await reply.body.json()) as any }
}

describe('bounded work', () => {
  let t: TestEngine
  let plugin: FacePlugin
  let type: string
  let inferences = 0
  /** Called after every inference, with the pool's load right then. */
  let sample: (stats: PoolStats | undefined) => void = () => {}

  beforeAll(async () => {
    const plugins = await loadFacePlugins(
      {
        threads: 1,
        log: () => {},
        onInference: () => {
          inferences++
          sample(plugin.stats?.())
        },
      },
      [HUMAN_FACERES],
    )
    plugin = plugins[0]!
    t = await startTestEngine(plugins)
    type = `Face:${plugin.name}`
  })
  afterAll(() => t.close())

  const person = async (userId: string, tenant = TEST_TENANT) => (await t.call('POST', `/v2/gmiserver/tenant/${tenant}/person`, { userId })).body as { uuid: string; userId: string }
  const enroll = (personId: string, body: Record<string, unknown>) => t.call('POST', `/bioengine/persons/${personId}/biometrics`, { templateType: type, ...body })
  const identify = async (sample: string) =>
    (await t.call('POST', '/bioengine/identify', { identifyInputs: [{ templateType: type, sample }] })).body.allIdentifyResults[0].identifyResults[0]
      .identifyMatchResults as Array<{ personId: string; personUUID?: string }>

  it("answers a second caller's single photo while a first caller's 100-input identify is still running", async () => {
    const blank = await blankPng(128)
    const before = inferences
    let bigAnswered = false
    const big = callFrom(t, '127.0.0.1', '/bioengine/identify', { identifyInputs: Array.from({ length: 100 }, () => ({ templateType: type, sample: blank })) })
    void big.then(() => (bigAnswered = true))
    await vi.waitFor(() => expect(inferences).toBeGreaterThan(before), { timeout: 30_000, interval: 10 })

    const single = await callFrom(t, '127.0.0.2', '/bioengine/identify', { identifyInputs: [{ templateType: type, sample: b64('person-b.jpg') }] })
    expect(single.status).toBe(200)
    expect(single.body.allIdentifyResults[0].identifyResults[0]).not.toHaveProperty('errorCode')
    expect(bigAnswered).toBe(false)

    const answered = await big
    expect(answered.status).toBe(200)
    // Each input answered on its own: judged (no face), or refused as overload where a loaded machine
    // did not start it within the request's time budget (REQUEST_MAX_MS), never dropped or a 500.
    const codes: number[] = answered.body.allIdentifyResults.map((r: any) => r.identifyResults[0].errorCode)
    expect(codes).toHaveLength(100)
    expect(codes[0]).toBe(BioErrorCode.NO_FACE)
    for (const code of codes) expect([BioErrorCode.NO_FACE, BioErrorCode.OVERLOADED]).toContain(code)
  })

  it('keeps a many-input request to a few images in the queue, and only images a worker has taken are decoded', async () => {
    const large = await blankPng(2048)
    const seen: Array<PoolStats | undefined> = []
    sample = (stats) => seen.push(stats)
    try {
      const reply = await t.call('POST', '/bioengine/identify', { identifyInputs: Array.from({ length: 20 }, () => ({ templateType: type, sample: large })) })
      expect(reply.status).toBe(200)
      expect(reply.body.allIdentifyResults).toHaveLength(20)
      // Inputs a loaded machine could not start within the request's time budget are refused, not run.
      const started = reply.body.allIdentifyResults.filter((r: any) => r.identifyResults[0].errorCode !== BioErrorCode.OVERLOADED).length
      expect(started).toBeGreaterThan(0)
      expect(seen).toHaveLength(started)
    } finally {
      sample = () => {}
    }
    for (const stats of seen) {
      expect(stats).toBeDefined()
      expect(stats!.running).toBeLessThanOrEqual(1) // one worker: at most one decoded image
      expect(stats!.running + stats!.queued).toBeLessThanOrEqual(REQUEST_MAX_IN_FLIGHT)
      expect(stats!.pendingPixels).toBeLessThanOrEqual(REQUEST_MAX_PIXELS)
    }
  })

  it('reads a person’s templates once per verify request, not once per input', async () => {
    const ver = await person('verify@bounded.example')
    const created = await t.call('POST', '/bioengine/biometrics', { templateType: type, samples: [b64('person-c.jpg')] })
    for (let i = 0; i < 20; i++) expect((await enroll(ver.uuid, { templateContext: `c${i}`, template: created.body.templatedata })).status).toBe(201)
    const reads = vi.spyOn(TemplateRepository.prototype, 'ofPerson')
    try {
      const reply = await t.call('POST', `/bioengine/persons/${ver.uuid}/verify`, {
        verifyInputs: Array.from({ length: 50 }, () => ({ templateType: type, template: created.body.templatedata })),
      })
      expect(reply.body.allMatchResults).toHaveLength(50)
      expect(reply.body.allMatchResults[49].matchResults[0].score).toBeGreaterThanOrEqual(99)
      expect(reads).toHaveBeenCalledTimes(1)
    } finally {
      reads.mockRestore()
    }
  })

  it('caps the templates one person may hold: enrolling beyond is a 400 with its own code, replacing is not', async () => {
    const capped = await person('cap@bounded.example')
    const created = (await t.call('POST', '/bioengine/biometrics', { templateType: type, samples: [b64('person-d.jpg')] })).body.templatedata
    const { MAX_TEMPLATES_PER_PERSON } = await import('../../electron/engine/bio/enrollment-checks')
    expect(MAX_TEMPLATES_PER_PERSON).toBe(100)
    for (let i = 0; i < MAX_TEMPLATES_PER_PERSON; i++) expect((await enroll(capped.uuid, { templateContext: `c${i}`, template: created })).status).toBe(201)
    const refused = await enroll(capped.uuid, { templateContext: 'one-more', template: created })
    expect(refused).toMatchObject({ status: 400, body: { code: BioErrorCode.TOO_MANY_TEMPLATES, message: expect.stringContaining('100') } })
    expect((await enroll(capped.uuid.toUpperCase(), { templateContext: 'another', template: created })).status).toBe(400) // same person id in another case
    expect((await enroll(capped.uuid, { templateContext: 'c7', template: created })).status).toBe(201) // a replacement
    expect((await t.call('GET', `/bioengine/persons/${capped.uuid}/biometrics`)).body.biometricInfos).toHaveLength(MAX_TEMPLATES_PER_PERSON)
  })

  it('lets exactly one of four concurrent enrollments take a licence for one identity', async () => {
    await t.engine.ctx.store.tenants.upsert('RACE', { name: 'Race', maxIdentities: 0, defaultPostBack: null })
    const racers = await Promise.all(['r1', 'r2', 'r3', 'r4'].map((name) => person(`${name}@race.example`, 'RACE')))
    await t.call('PUT', `/v2/gmiserver/tenant/RACE/svrgrp/main/alg/${plugin.name}`, { licenseData: { info: 'one', maxIdentities: 1, expireDate: null } })
    const photos = ['person-a1.jpg', 'person-b.jpg', 'person-c.jpg', 'person-d.jpg']
    const replies = await Promise.all(racers.map((racer, i) => enroll(racer.uuid, { templateContext: 'race', samples: [b64(photos[i]!)] })))
    expect(replies.map((r) => r.status).sort()).toEqual([201, 400, 400, 400])
    for (const refused of replies.filter((r) => r.status === 400)) expect(refused.body.code).toBe(BioErrorCode.LICENSE)
  })

  it('treats person ids case-insensitively: templates under a case variant are listed, verified, identified and deleted with the person', async () => {
    const mixed = await person('Mixed.Case@bounded.example')
    const upperUuid = mixed.uuid.toUpperCase()
    expect((await enroll('MIXED.CASE@BOUNDED.EXAMPLE', { templateContext: 'by-user-id', samples: [b64('person-e.jpg')] })).status).toBe(201)
    expect((await enroll(upperUuid, { templateContext: 'by-uuid', samples: [b64('person-e.jpg')] })).status).toBe(201)

    const contexts = async (id: string) => (await t.call('GET', `/bioengine/persons/${id}/biometrics`)).body.biometricInfos.map((i: { templateContext: string }) => i.templateContext)
    expect(await contexts(mixed.uuid)).toEqual(['by-uuid'])
    expect(await contexts(upperUuid)).toEqual(['by-uuid'])
    expect(await contexts('mixed.case@bounded.example')).toEqual(['by-user-id'])

    const verified = await t.call('POST', `/bioengine/persons/Mixed.Case@Bounded.Example/verify`, { verifyInputs: [{ templateType: type, sample: b64('person-e.jpg') }] })
    expect(verified.body.allMatchResults[0].matchResults[0]).toMatchObject({ personId: 'mixed.case@bounded.example', score: expect.any(Number) })
    expect(verified.body.allMatchResults[0].matchResults[0].score).toBeGreaterThanOrEqual(48)

    const hits = await identify(b64('person-e.jpg'))
    expect(hits.map((h) => [h.personId, h.personUUID]).sort()).toEqual([[mixed.uuid, mixed.uuid], ['mixed.case@bounded.example', mixed.uuid]].sort())

    expect((await t.call('DELETE', `/v2/gmiserver/person/${mixed.uuid}`)).status).toBe(204)
    expect(await contexts(upperUuid)).toEqual([])
    expect(await contexts('MIXED.CASE@BOUNDED.EXAMPLE')).toEqual([])
    expect(await identify(b64('person-e.jpg'))).toEqual([])
  })

  it('deletes by a case variant of the enrolled person id', async () => {
    expect((await enroll('Visitor-7', { templateContext: 'desk', samples: [b64('person-e.jpg')] })).status).toBe(201)
    expect((await identify(b64('person-e.jpg'))).map((h) => h.personId)).toEqual(['visitor-7'])
    expect((await t.call('DELETE', '/bioengine/persons/VISITOR-7/biometrics')).status).toBe(200)
    expect(await identify(b64('person-e.jpg'))).toEqual([])
  })

  it('refuses templates with a quality that is not a number in 0..1, or a vector of zeros', async () => {
    const target = await person('templates@bounded.example')
    const template = (quality: number, vector: Float32Array) =>
      encodeTemplate({ plugin: plugin.name, modelVersion: plugin.modelVersion, quality, vector }).toString('base64')
    const good = normalize(Float32Array.from({ length: plugin.dimensions }, (_, i) => Math.sin(i + 1)))
    const bad = [template(Number.NaN, good), template(Number.POSITIVE_INFINITY, good), template(1.5, good), template(-0.1, good), template(0.8, new Float32Array(plugin.dimensions))]
    for (const [i, data] of bad.entries()) {
      expect(await enroll(target.uuid, { templateContext: `bad${i}`, template: data }), `template ${i}`).toMatchObject({ status: 400, body: { code: BioErrorCode.BAD_TEMPLATE } })
    }
    const identified = await t.call('POST', '/bioengine/identify', { identifyInputs: bad.map((data) => ({ templateType: type, template: data })) })
    expect(identified.body.allIdentifyResults.map((r: any) => r.identifyResults[0].errorCode)).toEqual(Array(bad.length).fill(BioErrorCode.BAD_TEMPLATE))
    expect(await enroll(target.uuid, { templateContext: 'good', template: template(0.8, good) })).toMatchObject({ status: 201, body: { quality: 0.8 } })
  })
})

describe('overload and memory at rest', () => {
  let t: TestEngine
  let plugin: FacePlugin
  let type: string
  /** Room for one 128×128 image per caller (a caller may hold half of the pool's pixels). */
  const tiny = 128 * 128 * 2

  beforeAll(async () => {
    const plugins = await loadFacePlugins({ threads: 1, log: () => {}, idleMs: 200, maxQueuedPixels: tiny }, [HUMAN_FACERES])
    plugin = plugins[0]!
    t = await startTestEngine(plugins)
    type = `Face:${plugin.name}`
  })
  afterAll(() => t.close())

  it('answers identify inputs the workers cannot take now with a per-item OVERLOADED error, never a 500', async () => {
    const blank = await blankPng(128)
    const reply = await t.call('POST', '/bioengine/identify', { identifyInputs: Array.from({ length: 8 }, () => ({ templateType: type, sample: blank })) })
    expect(reply.status).toBe(200)
    const codes: number[] = reply.body.allIdentifyResults.map((r: any) => r.identifyResults[0].errorCode)
    expect(codes[0]).toBe(BioErrorCode.NO_FACE) // admitted: the queue was empty
    expect(codes).toContain(BioErrorCode.OVERLOADED)
    for (const code of codes) expect([BioErrorCode.NO_FACE, BioErrorCode.OVERLOADED]).toContain(code)
    const overloaded = reply.body.allIdentifyResults.find((r: any) => r.identifyResults[0].errorCode === BioErrorCode.OVERLOADED).identifyResults[0]
    expect(overloaded.errorMessage).toMatch(/busy.*Retry after \d+ s/)
  })

  it('answers verify inputs the workers cannot take now with a per-item OVERLOADED error', async () => {
    const created = await t.engine.ctx.bio.create(type, [b64('person-a1.jpg')], 'verify-setup')
    await t.call('POST', '/bioengine/persons/overload-verify/biometrics', { templateType: type, templateContext: 'c', template: created.templatedata })
    const reply = await t.call('POST', '/bioengine/persons/overload-verify/verify', { verifyInputs: Array.from({ length: 4 }, () => ({ templateType: type, sample: b64('person-a2.jpg') })) })
    expect(reply.status).toBe(200)
    const items = reply.body.allMatchResults.map((r: any) => r.matchResults[0])
    expect(items[0].score).toBeGreaterThanOrEqual(48)
    expect(items.filter((i: any) => i.errorCode === BioErrorCode.OVERLOADED && /busy/.test(i.errorMessage)).length).toBeGreaterThan(0)
  })

  it('answers enroll, create and match the workers cannot take now with 503 and Retry-After, never 500', async () => {
    const samples = [b64('person-a1.jpg'), b64('person-a2.jpg')]
    const form = new FormData()
    form.append('Image1', new Blob([fixture('person-a1.jpg')]), 'a1.jpg')
    form.append('Image2', new Blob([fixture('person-a2.jpg')]), 'a2.jpg')
    const replies = [
      await t.call('POST', '/bioengine/persons/overload-enroll/biometrics', { templateType: type, templateContext: 'c', samples }),
      await t.call('POST', '/bioengine/biometrics', { templateType: type, samples }),
      await request(`${t.bio}/match`, { method: 'POST', body: form }).then(async (r) => ({ status: r.statusCode, headers: r.headers, body: await r.body.json() as any })),
    ]
    for (const reply of replies) {
      expect(reply.status).toBe(503)
      expect(Number(reply.headers['retry-after'])).toBeGreaterThanOrEqual(1)
      expect(reply.body).toMatchObject({ code: 503, message: expect.stringMatching(/busy/) })
    }
    expect(await t.engine.ctx.bio.infos('overload-enroll')).toEqual([])
  })

  it('retires idle workers, and starts one again for the next image', async () => {
    await vi.waitFor(() => expect(plugin.stats().workers).toBe(0), { timeout: 10_000, interval: 20 })
    const faces = await plugin.analyze(fixture('person-b.jpg'), 'after-idle')
    expect(faces).toHaveLength(1)
    await vi.waitFor(() => expect(plugin.stats()).toMatchObject({ workers: 0, queued: 0, running: 0, pendingPixels: 0 }), { timeout: 10_000, interval: 20 })
  })
})

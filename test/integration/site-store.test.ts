import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Biometrics } from '../../electron/engine/bio/biometrics'
import { MAX_TEMPLATES_PER_PERSON } from '../../electron/engine/bio/enrollment-checks'
import { identify as identifyWith } from '../../electron/engine/bio/matching'
import { encodeTemplate } from '../../electron/engine/bio/template-codec'
import { loadFacePlugins } from '../../electron/engine/face'
import { HUMAN_FACERES } from '../../electron/engine/face/specs'
import { createSealer, loadTemplateKey } from '../../electron/engine/store/sealer'
import { openStore } from '../../electron/engine/store/store'
import { unitVector, prng } from '../bench/lib/seed'
import { startBackend, type BackendHandle } from '../support/backends'
import { postgresClient } from '../support/postgres'
import { startTestEngine, TEST_TENANT, type TestEngine } from '../support/engine'
import { eventually, type Polling } from '../support/until'

/**
 * A site's engines: several engine processes on one PostgreSQL database. Two engines, each with its own
 * connections, its own identify cache and its own listener, as two processes of a site have; the
 * database is a real PostgreSQL 15 cluster this suite starts and stops. Waits are on states.
 */
const TYPE = `Face:${HUMAN_FACERES.name}`
const random = prng(24)
const template = () => encodeTemplate({ plugin: HUMAN_FACERES.name, modelVersion: HUMAN_FACERES.modelVersion, quality: 0.9, vector: unitVector(HUMAN_FACERES.dimensions, random) }).toString('base64')

/** How long the other engine may take to follow (400 polls, 25 ms apart); a probe that throws fails at once. */
const following: Polling = { attempts: 400, everyMs: 25 }

describe('engines of one site on PostgreSQL', () => {
  let backend: BackendHandle
  let dataDir: string
  let a: TestEngine
  let b: TestEngine

  beforeAll(async () => {
    backend = await startBackend('postgres')
    // One data folder: the engines share the template key, as a site's do (npm run site passes it to each).
    dataDir = mkdtempSync(join(tmpdir(), 'kiosk-site-store-'))
    const plugins = () => loadFacePlugins({ threads: 1, log: () => {}, idleMs: 200 }, [HUMAN_FACERES])
    // a reads from a second pool (the same server here) while its primary is away, and takes requests for 20 s after its last catch-up meanwhile.
    a = await startTestEngine(await plugins(), dataDir, { ...backend.options, readDatabaseUrl: backend.options.databaseUrl, staleServeMs: 20_000 })
    // b reads the log only when told (no safety-net poll), so a missed notification shows.
    b = await startTestEngine(await plugins(), dataDir, { ...backend.options, pollMs: 3_600_000 })
  })
  afterAll(async () => {
    await a?.close()
    await b?.close()
    await backend?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const create = (t: TestEngine, userId: string, tenant = TEST_TENANT) => t.call('POST', `/v2/gmiserver/tenant/${tenant}/person`, { userId })
  const enroll = (t: TestEngine, personId: string, templateContext: string, data = template()) =>
    t.call('POST', `/bioengine/persons/${personId}/biometrics`, { templateType: TYPE, templateContext, template: data })
  const identify = async (t: TestEngine, probe: string) =>
    (await t.call('POST', '/bioengine/identify', { identifyInputs: [{ templateType: TYPE, template: probe }] })).body.allIdentifyResults[0].identifyResults[0]
      .identifyMatchResults as Array<{ personId: string; personUUID?: string; score: number }>

  it('accepts a token issued by one engine at the other (one signing key, in the database)', async () => {
    const token = await a.token()
    const reply = await b.call('GET', `/v2/gmiserver/tenant/${TEST_TENANT}`, undefined, { authorization: `Bearer ${token}` })
    expect(reply.status).toBe(200)
  })

  it('gives one person and one 409 when two engines create the same userId at once', async () => {
    for (let i = 0; i < 8; i++) {
      const replies = await Promise.all([create(a, `twin${i}@site.example`), create(b, `TWIN${i}@site.example`)])
      expect(replies.map((r) => r.status).sort()).toEqual([201, 409])
    }
    const listed = await a.call('GET', '/v2/gmiserver/person?find=site.example&pageSize=100')
    expect(listed.body.totalElements).toBe(8)
  })

  it("holds a tenant's maxIdentities when creates race on both engines", async () => {
    await a.call('PUT', '/v1/tenant/CAPPED', { code: 'CAPPED', name: 'Capped', maxIdentities: 5 })
    const replies = await Promise.all(Array.from({ length: 12 }, (_, i) => create(i % 2 ? a : b, `cap${i}@capped.example`, 'CAPPED')))
    expect(replies.filter((r) => r.status === 201)).toHaveLength(5)
    expect(replies.filter((r) => r.status === 403)).toHaveLength(7)
    expect((await b.call('GET', '/v2/gmiserver/tenant/CAPPED/person?pageSize=100')).body.totalElements).toBe(5)
  })

  it('lets one of several enrollments racing on both engines take the last licence', async () => {
    await a.call('PUT', '/v1/tenant/LICENSED', { code: 'LICENSED', name: 'Licensed', maxIdentities: 0 })
    await a.call('PUT', `/v2/gmiserver/tenant/LICENSED/svrgrp/main/alg/${HUMAN_FACERES.name}`, { licenseData: { info: 'one', maxIdentities: 1, expireDate: null } })
    const racers = await Promise.all(['l1', 'l2', 'l3', 'l4', 'l5', 'l6'].map(async (name) => (await create(a, `${name}@licensed.example`, 'LICENSED')).body.uuid as string))
    const replies = await Promise.all(racers.map((uuid, i) => enroll(i % 2 ? a : b, uuid, 'desk')))
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1)
    expect(replies.filter((r) => r.status === 400).every((r) => /licence/.test(r.body.message))).toBe(true)
  })

  it("holds the template cap when one person's enrollments race on both engines", async () => {
    const id = 'capped-templates@site.example'
    for (let i = 0; i < MAX_TEMPLATES_PER_PERSON - 1; i++) expect((await enroll(a, id, `t${i}`)).status).toBe(201)
    const replies = await Promise.all(['x1', 'x2', 'x3', 'x4'].map((context, i) => enroll(i % 2 ? a : b, id, context)))
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1)
    expect((await b.call('GET', `/bioengine/persons/${id}/biometrics`)).body.biometricInfos).toHaveLength(MAX_TEMPLATES_PER_PERSON)
  })

  it('makes an enrollment on one engine identifiable on the other, and a deletion forgotten there', async () => {
    const { body: person } = await create(a, 'propagate@site.example')
    const probe = template()
    expect((await enroll(a, person.uuid, 'desk', probe)).status).toBe(201)
    // Identifiable where it was enrolled as soon as it is answered...
    expect((await identify(a, probe))[0]).toMatchObject({ personId: person.uuid, personUUID: person.uuid })
    // ...and on the other engine once its listener has brought the change.
    await eventually('b identifies the new enrollment', async () => (await identify(b, probe))[0]?.personId === person.uuid, following)
    expect((await a.call('DELETE', `/v2/gmiserver/person/${person.uuid}`)).status).toBe(204)
    await eventually('b forgets the deleted person', async () => (await identify(b, probe)).length === 0, following)
    expect(await identify(a, probe)).toEqual([])
  })

  it('converges from the log when a notification is missed (the listener dropped between a change and its notification)', async () => {
    const { body: person } = await create(a, 'missed@site.example')
    const probe = template()
    const admin = postgresClient(backend.options.databaseUrl!)
    await admin.connect()
    try {
      // Every listener's connection is cut; the enrollment commits (and notifies) while they reconnect.
      const cut = await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'identity-kiosk-engine listener'")
      expect(cut.rowCount).toBe(2)
    } finally {
      await admin.end()
    }
    expect((await enroll(a, person.uuid, 'desk', probe)).status).toBe(201)
    await eventually('b catches up after reconnecting', async () => (await identify(b, probe))[0]?.personId === person.uuid, following)
    await eventually('b is ready again', async () => (await b.call('GET', '/health/ready')).body.status === 'ready', following)
  })

  it('an identify at one engine finds what another acknowledged a moment before, notified or not', async () => {
    // A third engine's biometrics with no change listener and no poll: only the identify itself can bring it up to date.
    const store = await openStore({ dataDir, databaseUrl: backend.options.databaseUrl, sealer: createSealer(loadTemplateKey(dataDir)) })
    const plugins = await loadFacePlugins({ threads: 1, log: () => {}, idleMs: 200 }, [HUMAN_FACERES])
    const unfollowed = new Biometrics(plugins, store)
    try {
      await unfollowed.caches.load()
      const { body: person } = await create(a, 'just-enrolled@site.example')
      const probe = template()
      expect((await enroll(a, person.uuid, 'desk', probe)).status).toBe(201)
      const found = await identifyWith(unfollowed, [{ templateType: TYPE, template: probe }], 'test')
      expect(found.allIdentifyResults[0]!.identifyResults[0]!.identifyMatchResults[0]).toMatchObject({ personId: person.uuid })
    } finally {
      await Promise.all(plugins.map((p) => p.close()))
      await store.close()
    }
  })

  it('after a failover that lost the tail of the change log it had seen, an engine applies the changes the new primary numbers the same again', async () => {
    const admin = postgresClient(backend.options.databaseUrl!)
    await admin.connect()
    try {
      // Seen at b, then lost with its primary: never replicated, so the new primary has neither the template nor its change.
      const { body: lost } = await create(a, 'lost-with-the-primary@site.example')
      const lostProbe = template()
      expect((await enroll(a, lost.uuid, 'desk', lostProbe)).status).toBe(201)
      await eventually('b has seen it', async () => (await identify(b, lostProbe))[0]?.personId === lost.uuid, following)
      const seen = (await admin.query('SELECT max(seq) AS seq FROM change_log')).rows[0].seq as string
      await admin.query('DELETE FROM templates WHERE person_id = $1', [lost.uuid])
      await admin.query('DELETE FROM change_log WHERE seq = $1', [seen])
      await admin.query("SELECT setval(pg_get_serial_sequence('change_log', 'seq'), $1, false)", [seen])
      // The failover cuts the engines' change listeners; the new primary hands the same number to the next enrollment.
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'identity-kiosk-engine listener'")
      const { body: person } = await create(a, 'after-the-failover@site.example')
      const probe = template()
      expect((await enroll(a, person.uuid, 'desk', probe)).status).toBe(201)
      expect((await admin.query('SELECT max(seq) AS seq FROM change_log')).rows[0].seq).toBe(seen)
      await eventually('b identifies the enrollment numbered as the lost one', async () => (await identify(b, probe))[0]?.personId === person.uuid, following)
    } finally {
      await admin.end()
    }
  })

  it('rebuilds every engine’s cache on /createcache (a change with no person in the log)', async () => {
    const before = (await b.call('GET', '/health/ready')).body.seq as number
    expect((await a.call('POST', '/bioengine/createcache')).status).toBe(201)
    await eventually('b applies the rebuild', async () => ((await b.call('GET', '/health/ready')).body.seq as number) > before, following)
    const { body: person } = await create(a, 'after-rebuild@site.example')
    const probe = template()
    await enroll(b, person.uuid, 'desk', probe)
    expect((await identify(b, probe))[0]?.personId).toBe(person.uuid)
    await eventually('a identifies what b enrolled', async () => (await identify(a, probe))[0]?.personId === person.uuid, following)
  })

  it('while PostgreSQL is down: an engine with a read database is stale (still sent requests) for a while, one without is not ready; with no node to read from every call that needs it 503 with Retry-After, never a 500 or a hang; ready when it is back', async () => {
    const { body: person } = await create(a, 'through-failover@site.example')
    const probe = template()
    expect((await enroll(a, person.uuid, 'desk', probe)).status).toBe(201)
    await backend.postgres!.stop()
    try {
      // Stale, still sent requests (with a standby to read from, identify and verify go on: site-failover.test.ts).
      await eventually('a reports stale', async () => (await a.call('GET', '/health/ready')).body.status === 'stale', following)
      expect((await a.call('GET', '/health/ready')).status).toBe(200)
      await eventually('b, with nowhere to read, reports not ready', async () => (await b.call('GET', '/health/ready')).status === 503, following)
      const identifying = await a.call('POST', '/bioengine/identify', { identifyInputs: [{ templateType: TYPE, template: probe }] })
      const verifying = await b.call('POST', `/bioengine/persons/${person.uuid}/verify`, { verifyInputs: [{ templateType: TYPE, template: probe }] })
      for (const reply of [identifying, verifying, await a.call('GET', `/v2/gmiserver/tenant/${TEST_TENANT}`), await enroll(a, person.uuid, 'desk')]) {
        expect(reply.status).toBe(503)
        expect(Number(reply.headers['retry-after'])).toBeGreaterThan(0)
      }
      // Past staleServeMs since its last catch-up: no longer sent requests.
      await eventually('a reports not ready', async () => (await a.call('GET', '/health/ready')).status === 503, { attempts: 600, everyMs: 100 })
      expect((await a.call('GET', '/health/ready')).body.status).toBe('catching-up')
    } finally {
      await backend.postgres!.restart()
    }
    await eventually('a answers again', async () => (await a.call('GET', `/v2/gmiserver/tenant/${TEST_TENANT}`)).status === 200, following)
    await eventually('a is ready again', async () => (await a.call('GET', '/health/ready')).body.status === 'ready', following)
  })
})

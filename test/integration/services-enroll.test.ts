import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadFacePlugins } from '../../electron/engine/face'
import { ApiError } from '../../electron/services/clients/api-error'
import { enrollVisitor } from '../../electron/services/workflows/enroll-visitor'
import { testBackend } from '../support/backend'
import { startTestEngine, TEST_TENANT, type TestEngine } from '../support/engine'
import { projectRoot } from '../support/process'

const sample = (name: string) => readFileSync(join(projectRoot, 'test/fixtures/generated', name)).toString('base64')

describe('enroll visitor workflow (real clients, real engine)', () => {
  let t: TestEngine
  let backend: ReturnType<typeof testBackend>
  beforeAll(async () => {
    t = await startTestEngine(await loadFacePlugins({ threads: 1, log: () => {} }))
    backend = testBackend(t.url)
  })
  afterAll(async () => {
    await backend.close()
    await t.close()
  })

  it('creates a new visitor and enrolls them', async () => {
    const result = await enrollVisitor(backend, { userId: 'new@visitor.example', samples: [sample('person-a1.jpg')], templateType: backend.templateType, templateContext: 'cap-1' })
    expect(result).toMatchObject({ created: true, enrollmentStatus: 'ENROLLED', person: { userId: 'new@visitor.example' } })
    expect(result.quality).toBeGreaterThan(0)
  })

  it('is idempotent: a replay with the same context adds no person and no template', async () => {
    const request = { userId: 'replay@visitor.example', samples: [sample('person-b.jpg')], templateType: backend.templateType, templateContext: 'cap-fixed' }
    const first = await enrollVisitor(backend, request)
    const second = await enrollVisitor(backend, request)
    expect(second.person.uuid).toBe(first.person.uuid)
    expect(second.created).toBe(false)
    expect((await backend.persons.listPersons({ find: 'replay@visitor.example' })).totalElements).toBe(1)
    expect(await backend.bio.biometrics(first.person.uuid)).toHaveLength(1)
  })

  it('associates a person who exists in another tenant instead of duplicating them', async () => {
    await t.call('PUT', '/v1/tenant/ELSEWHERE', { name: 'Elsewhere', code: 'ELSEWHERE', maxIdentities: 0 })
    const other = (await t.call('POST', '/v2/gmiserver/tenant/ELSEWHERE/person', { userId: 'roaming@visitor.example' })).body
    const result = await enrollVisitor(backend, { userId: 'roaming@visitor.example', samples: [sample('person-c.jpg')], templateType: backend.templateType, templateContext: 'c' })
    expect(result).toMatchObject({ created: false, person: { uuid: other.uuid } })
    const tenants = await backend.persons.personTenants(other.uuid)
    expect(tenants.map((x) => x.code).sort()).toEqual(['ELSEWHERE', TEST_TENANT])
  })

  it('surfaces a face problem as a clear error, and undoes the person it created', async () => {
    const failing = enrollVisitor(backend, { userId: 'noface@visitor.example', samples: [sample('no-face.jpg')], templateType: backend.templateType, templateContext: 'x' })
    await expect(failing).rejects.toBeInstanceOf(ApiError)
    await expect(failing).rejects.toMatchObject({ code: 'NO_FACE', status: 400, retryable: false })
    expect(await backend.persons.findPersonByUserId('noface@visitor.example')).toBeNull()
  })

  it('keeps a person it did not create when their samples are refused', async () => {
    await enrollVisitor(backend, { userId: 'kept@visitor.example', samples: [sample('person-b.jpg')], templateType: backend.templateType, templateContext: 'k1' })
    const refused = enrollVisitor(backend, { userId: 'kept@visitor.example', samples: [sample('no-face.jpg')], templateType: backend.templateType, templateContext: 'k2' })
    await expect(refused).rejects.toMatchObject({ code: 'NO_FACE' })
    expect(await backend.persons.findPersonByUserId('kept@visitor.example')).toMatchObject({ userId: 'kept@visitor.example' })
    expect(await backend.bio.biometrics((await backend.persons.findPersonByUserId('kept@visitor.example'))!.uuid)).toHaveLength(1)
  })

  it('refreshes a token the server refuses, once', async () => {
    const stale = await backend.persons.tokens.get()
    ;(backend.persons.tokens as unknown as { cached: { token: string; expiresAt: number } }).cached = { token: `${stale}x`, expiresAt: Date.now() + 60_000 }
    expect(await backend.persons.findPersonByUserId('new@visitor.example')).toMatchObject({ userId: 'new@visitor.example' })
  })

  it('reports an unreachable server as retryable', async () => {
    const nowhere = testBackend('http://127.0.0.1:9', { requestTimeoutMs: 2000 })
    const error = await nowhere.persons.findPersonByUserId('x@example.com').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ code: 'UNREACHABLE', retryable: true })
    await nowhere.close()
  })
})

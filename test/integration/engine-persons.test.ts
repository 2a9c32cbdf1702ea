import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BACKENDS, startBackend, type BackendHandle } from '../support/backends'
import { startTestEngine, TEST_TENANT, type TestEngine } from '../support/engine'

// The person server over real HTTP (reference §4.2, §4.3), on each store. No face plugin is needed here.
describe.each(BACKENDS)('embedded person server on %s', (backend) => {
  let t: TestEngine
  let store: BackendHandle
  beforeAll(async () => {
    store = await startBackend(backend)
    t = await startTestEngine([], undefined, store.options)
  })
  afterAll(async () => {
    await t?.close()
    await store?.close()
  })

  const create = (userId: string, tenant = TEST_TENANT, extra: Record<string, unknown> = {}) =>
    t.call('POST', `/v2/gmiserver/tenant/${tenant}/person`, { userId, ...extra })

  it('creates a person in a tenant, and refuses a second person with the same userId (409)', async () => {
    const created = await create('ada@example.com')
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ userId: 'ada@example.com', deviceId: null })
    expect(created.body.uuid).toMatch(/^[0-9a-f-]{36}$/)
    // The vendor's Person entity carries the UUID as `id`; the engine answers both names.
    expect(created.body.id).toBe(created.body.uuid)
    expect(created.headers.location).toBe(`/v2/gmiserver/person/${created.body.uuid}`)

    const again = await create('ADA@example.com')
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ status: 409, error: 'Conflict', path: `/v2/gmiserver/tenant/${TEST_TENANT}/person` })
  })

  it('refuses a userId that is not an e-mail address, and an unknown tenant', async () => {
    for (const userId of ['not-an-email', '', 42, null]) {
      const reply = await t.call('POST', `/v2/gmiserver/tenant/${TEST_TENANT}/person`, { userId })
      expect(reply.status).toBe(400)
      expect(reply.body.message).toMatch(/userId/)
    }
    expect((await create('x@example.com', 'NO-SUCH-TENANT')).status).toBe(404)
  })

  it('finds a person by UUID, userId and deviceId', async () => {
    const { body: grace } = await create('grace@example.com', TEST_TENANT, { deviceId: 'kiosk-7' })
    expect((await t.call('GET', `/v2/gmiserver/person/${grace.uuid}`)).body).toEqual(grace)
    expect((await t.call('GET', '/v2/gmiserver/person?userId=grace%40example.com')).body).toEqual(grace)
    expect((await t.call('GET', '/v2/gmiserver/person?deviceId=kiosk-7')).body).toEqual(grace)
    expect((await t.call('GET', '/v2/gmiserver/person?userId=nobody%40example.com')).status).toBe(404)
    expect((await t.call('GET', '/v2/gmiserver/person?deviceId=none')).status).toBe(404)
    expect((await t.call('GET', '/v2/gmiserver/person/00000000-0000-4000-8000-000000000000')).status).toBe(404)
    expect((await t.call('GET', '/v2/gmiserver/person/not-a-uuid')).status).toBe(400)
  })

  it('lists persons with find, sort, paging and notEmpty', async () => {
    for (const name of ['list-c', 'list-a', 'list-b']) await create(`${name}@list.example`)
    const found = await t.call('GET', '/v2/gmiserver/person?find=list.example&sort=-userId&pageSize=2&pageNo=0')
    expect(found.status).toBe(200)
    expect(found.body).toMatchObject({ pageNo: 0, pageSize: 2, totalElements: 3, totalPages: 2 })
    expect(found.body.content.map((p: { userId: string }) => p.userId)).toEqual(['list-c@list.example', 'list-b@list.example'])
    const second = await t.call('GET', '/v2/gmiserver/person?find=list.example&sort=%2BuserId&pageSize=2&pageNo=1')
    expect(second.body.content.map((p: { userId: string }) => p.userId)).toEqual(['list-c@list.example'])

    const all = await t.call('GET', '/v2/gmiserver/person')
    expect(all.body.pageSize).toBe(20)
    const withDevice = await t.call('GET', '/v2/gmiserver/person?notEmpty=deviceId')
    expect(withDevice.body.content.map((p: { userId: string }) => p.userId)).toEqual(['grace@example.com'])

    for (const bad of ['pageSize=101', 'pageSize=0', 'pageNo=-1', 'pageSize=abc', 'sort=%2Bpassword', 'notEmpty=secret']) {
      const reply = await t.call('GET', `/v2/gmiserver/person?${bad}`)
      expect(reply.status, bad).toBe(400)
    }
  })

  it('associates an existing person with a second tenant, lists their tenants, and disassociates', async () => {
    await t.call('PUT', '/v1/tenant/BRANCH', { name: 'Branch office', code: 'BRANCH', maxIdentities: 0, defaultPostBack: null })
    const { body: linus } = await create('linus@example.com')
    const associated = await t.call('PUT', `/v2/gmiserver/tenant/BRANCH/person/${linus.uuid}`)
    expect(associated.status).toBe(200)
    expect(associated.body).toMatchObject({ tenantCode: 'BRANCH', uuid: linus.uuid, enrollmentStatus: 'NOT_ENROLLED', templateTypes: [] })
    expect((await t.call('PUT', `/v2/gmiserver/tenant/BRANCH/person/${linus.uuid}`)).status).toBe(200) // idempotent

    const tenants = await t.call('GET', `/v2/gmiserver/person/${linus.uuid}/tenant`, undefined, { accept: 'application/json' })
    expect(tenants.body.map((x: { code: string }) => x.code)).toEqual(['BRANCH', TEST_TENANT])

    const data = await t.call('GET', `/v2/gmiserver/tenant/BRANCH/person/${linus.uuid}`)
    expect(data.body).toMatchObject({ userId: 'linus@example.com', enrollmentStatus: 'NOT_ENROLLED' })
    const users = await t.call('GET', '/v2/gmiserver/tenant/BRANCH/person?find=linus')
    expect(users.body.content).toHaveLength(1)

    expect((await t.call('DELETE', `/v2/gmiserver/tenant/BRANCH/person/${linus.uuid}`)).status).toBe(204)
    expect((await t.call('GET', `/v2/gmiserver/tenant/BRANCH/person/${linus.uuid}`)).status).toBe(404)
    expect((await t.call('DELETE', `/v2/gmiserver/tenant/BRANCH/person/${linus.uuid}`)).status).toBe(404)
    expect((await t.call('GET', `/v2/gmiserver/person/${linus.uuid}/tenant`)).body.map((x: { code: string }) => x.code)).toEqual([TEST_TENANT])
  })

  it('deletes a person with their associations', async () => {
    const { body: temp } = await create('temp@example.com')
    expect((await t.call('DELETE', `/v2/gmiserver/person/${temp.uuid}`)).status).toBe(204)
    expect((await t.call('GET', `/v2/gmiserver/person/${temp.uuid}`)).status).toBe(404)
    expect((await t.call('GET', `/v2/gmiserver/tenant/${TEST_TENANT}/person/${temp.uuid}`)).status).toBe(404)
    expect((await t.call('DELETE', `/v2/gmiserver/person/${temp.uuid}`)).status).toBe(404)
    expect((await create('temp@example.com')).status).toBe(201) // the userId is free again
  })

  it('reads, updates and creates tenants, and enforces maxIdentities', async () => {
    const fresh = await t.call('PUT', '/v1/tenant/SMALL', { name: 'Small', code: 'SMALL', maxIdentities: 1, defaultPostBack: 'https://hooks.example/x' })
    expect(fresh.status).toBe(201)
    expect((await t.call('GET', '/v2/gmiserver/tenant/SMALL')).body).toMatchObject({ code: 'SMALL', name: 'Small', maxIdentities: 1, defaultPostBack: 'https://hooks.example/x', apps: [], algorithms: [] })
    const renamed = await t.call('PUT', '/v1/tenant/SMALL', { name: 'Small office', code: 'SMALL', maxIdentities: 1, defaultPostBack: null })
    expect(renamed.status).toBe(200)
    expect(renamed.body).toMatchObject({ name: 'Small office', defaultPostBack: null })

    expect((await create('first@small.example', 'SMALL')).status).toBe(201)
    const over = await create('second@small.example', 'SMALL')
    expect(over.status).toBe(403)
    expect(over.body.message).toMatch(/maximum of 1/)

    expect((await t.call('PUT', '/v1/tenant/SMALL', { name: 'x', code: 'OTHER', maxIdentities: 1 })).status).toBe(400)
    expect((await t.call('PUT', '/v1/tenant/SMALL', { name: 'x', code: 'SMALL', maxIdentities: -1 })).status).toBe(400)
    expect((await t.call('GET', '/v2/gmiserver/tenant/NOPE')).status).toBe(404)
  })

  it('associates and disassociates apps, and answers app user data', async () => {
    const { body: ann } = await create('ann@example.com')
    expect((await t.call('GET', '/v2/gmiserver/app/VISITORS/person?userId=ann%40example.com')).status).toBe(404)
    const put = await t.call('PUT', `/v2/gmiserver/tenant/${TEST_TENANT}/app/VISITORS`)
    expect(put.body).toMatchObject({ code: 'VISITORS' })
    expect((await t.call('GET', `/v2/gmiserver/tenant/${TEST_TENANT}/app`)).body.map((a: { code: string }) => a.code)).toEqual(['VISITORS'])
    expect((await t.call('GET', `/v2/gmiserver/tenant/${TEST_TENANT}/app/VISITORS`)).status).toBe(200)
    const user = await t.call('GET', '/v2/gmiserver/app/VISITORS/person?userId=ann%40example.com')
    expect(user.body).toMatchObject({ appCode: 'VISITORS', uuid: ann.uuid, tenantCodes: [TEST_TENANT] })
    expect((await t.call('DELETE', `/v2/gmiserver/tenant/${TEST_TENANT}/app/VISITORS`)).status).toBe(204)
    expect((await t.call('GET', `/v2/gmiserver/tenant/${TEST_TENANT}/app/VISITORS`)).status).toBe(404)
    expect((await t.call('DELETE', `/v2/gmiserver/tenant/${TEST_TENANT}/app/VISITORS`)).status).toBe(404)
  })

  it('associates algorithms with licenseData and liveness checks', async () => {
    const base = `/v2/gmiserver/tenant/${TEST_TENANT}/svrgrp/main/alg/HumanFaceRes`
    const license = { info: 'site licence', maxIdentities: 500, expireDate: Date.parse('2030-01-01') }
    const put = await t.call('PUT', base, license)
    expect(put.status).toBe(200)
    expect(put.body).toMatchObject({ code: 'HumanFaceRes', licenseData: license, liveness: [] })
    expect((await t.call('PUT', `${base}/liveness/passive-pad`)).body.liveness).toEqual(['passive-pad'])
    const tenant = await t.call('GET', `/v2/gmiserver/tenant/${TEST_TENANT}`)
    expect(tenant.body.algorithms).toEqual([expect.objectContaining({ code: 'HumanFaceRes', licenseData: license, liveness: ['passive-pad'] })])
    expect((await t.call('DELETE', `${base}/liveness/passive-pad`)).status).toBe(204)
    expect((await t.call('DELETE', `${base}/liveness/passive-pad`)).status).toBe(404)
    expect((await t.call('PUT', `/v2/gmiserver/tenant/${TEST_TENANT}/svrgrp/main/alg/OTHER/liveness/passive-pad`)).status).toBe(404)
    expect((await t.call('PUT', base, { info: 5 })).status).toBe(400)
    // The body the reference names and the vendor's samples send: { licenseData: {…} }.
    const wrapped = { info: 'renewed', maxIdentities: 600, expireDate: Date.parse('2031-01-01') }
    expect((await t.call('PUT', base, { licenseData: wrapped })).body).toMatchObject({ code: 'HumanFaceRes', licenseData: wrapped })
    expect((await t.call('DELETE', base)).status).toBe(204)
    expect((await t.call('DELETE', base)).status).toBe(404)
  })
})

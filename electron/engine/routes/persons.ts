import { z } from 'zod'
import { pageSchema } from '../../shared/api-models'
import { appUserRecord, personRecord, tenantPersonRecord, tenantRecord } from '../../shared/api-records'
import { code, createPersonRequest, listQuery, personLookupQuery, personUuid, tenantCode } from '../../shared/api-requests'
import type { EngineContext } from '../context'
import { HttpError } from '../http/errors'
import type { EngineApp } from '../http/zod-provider'
import type { Person } from '../store/persons'

const uuidParams = z.object({ uuid: personUuid })
const tenantParams = z.object({ tenant: tenantCode })
const tenantPersonParams = tenantParams.extend({ uuid: personUuid })
const admin = { auth: 'tenant-admin' } as const

/** Person calls of the person server (reference §4.2) plus the tenant-person calls they share. */
export function personRoutes(app: EngineApp, ctx: EngineContext): void {
  const { persons, tenants, db } = ctx

  const person = (uuid: string): Person => {
    const found = persons.byUuid(uuid)
    if (!found) throw new HttpError(404, 'No person has this UUID.')
    return found
  }
  const tenantOf = (codeValue: string) => {
    const tenant = tenants.get(codeValue)
    if (!tenant) throw new HttpError(404, `There is no tenant ${codeValue}.`)
    return tenant
  }

  app.get(
    '/v2/gmiserver/person',
    { config: admin, schema: { querystring: personLookupQuery, response: { 200: personRecord.or(pageSchema(personRecord)) } } },
    async (request) => {
      const { query } = request
      if (query.userId !== undefined && query.deviceId !== undefined) throw new HttpError(400, 'Give userId or deviceId, not both.')
      if (query.userId !== undefined) {
        const found = persons.byUserId(query.userId)
        if (!found) throw new HttpError(404, 'No person has this userId.')
        return found
      }
      if (query.deviceId !== undefined) {
        const found = persons.byDeviceId(query.deviceId)
        if (!found) throw new HttpError(404, 'No person has this deviceId.')
        return found
      }
      return persons.list(query)
    },
  )

  app.get('/v2/gmiserver/person/:uuid', { config: admin, schema: { params: uuidParams, response: { 200: personRecord } } }, async (request) =>
    person(request.params.uuid),
  )

  app.get('/v2/gmiserver/person/:uuid/tenant', { config: admin, schema: { params: uuidParams, response: { 200: z.array(tenantRecord) } } }, async (request) =>
    tenants.tenantsOfPerson(person(request.params.uuid).uuid),
  )

  app.delete('/v2/gmiserver/person/:uuid', { config: admin, schema: { params: uuidParams } }, async (request, reply) => {
    const found = person(request.params.uuid)
    persons.delete(found)
    ctx.bio.forgetPerson([found.uuid, found.userId])
    ctx.log.engine(`person ${found.uuid} deleted with their templates`)
    return reply.code(204).send()
  })

  app.get(
    '/v2/gmiserver/app/:app/person',
    { config: admin, schema: { params: z.object({ app: code }), querystring: personLookupQuery, response: { 200: appUserRecord } } },
    async (request) => {
      const appCode = request.params.app
      const { query } = request
      if ((query.userId === undefined) === (query.deviceId === undefined)) throw new HttpError(400, 'Give exactly one of userId and deviceId.')
      const found = query.userId !== undefined ? persons.byUserId(query.userId) : persons.byDeviceId(query.deviceId!)
      const tenantCodes = found ? tenants.appTenantsOfPerson(appCode, found.uuid) : []
      if (!found || tenantCodes.length === 0) throw new HttpError(404, `No user of app ${appCode} matches.`)
      return { appCode, ...found, tenantCodes }
    },
  )

  app.post(
    '/v2/gmiserver/tenant/:tenant/person',
    { config: admin, schema: { params: tenantParams, body: createPersonRequest, response: { 201: personRecord } } },
    async (request, reply) => {
      const tenant = tenantOf(request.params.tenant)
      const { body } = request
      const created = db.transaction(() => {
        if (persons.byUserId(body.userId)) throw new HttpError(409, 'A person with this userId already exists; look it up by userId and associate it.')
        if (body.deviceId && persons.byDeviceId(body.deviceId)) throw new HttpError(409, 'A person with this deviceId already exists.')
        if (tenant.maxIdentities > 0 && tenants.personCount(tenant.code) >= tenant.maxIdentities) {
          throw new HttpError(403, `Tenant ${tenant.code} already holds its maximum of ${tenant.maxIdentities} identities.`)
        }
        const inserted = persons.insert(body.userId, body.deviceId ?? null)
        tenants.associatePerson(tenant.code, inserted.uuid)
        return inserted
      })()
      return reply.code(201).header('Location', `/v2/gmiserver/person/${created.uuid}`).send(created)
    },
  )

  app.put(
    '/v2/gmiserver/tenant/:tenant/person/:uuid',
    { config: admin, schema: { params: tenantPersonParams, response: { 200: tenantPersonRecord } } },
    async (request) => {
      const tenant = tenantOf(request.params.tenant)
      const found = person(request.params.uuid)
      db.transaction(() => {
        if (tenants.isMember(tenant.code, found.uuid)) return
        if (tenant.maxIdentities > 0 && tenants.personCount(tenant.code) >= tenant.maxIdentities) {
          throw new HttpError(403, `Tenant ${tenant.code} already holds its maximum of ${tenant.maxIdentities} identities.`)
        }
        tenants.associatePerson(tenant.code, found.uuid)
      })()
      return tenants.tenantPerson(tenant.code, found.uuid)!
    },
  )

  app.get(
    '/v2/gmiserver/tenant/:tenant/person/:uuid',
    { config: admin, schema: { params: tenantPersonParams, response: { 200: tenantPersonRecord } } },
    async (request) => {
      const tenant = tenantOf(request.params.tenant)
      const data = tenants.tenantPerson(tenant.code, request.params.uuid)
      if (!data) throw new HttpError(404, `This person is not a user of tenant ${tenant.code}.`)
      return data
    },
  )

  app.get(
    '/v2/gmiserver/tenant/:tenant/person',
    { config: admin, schema: { params: tenantParams, querystring: listQuery.strict(), response: { 200: pageSchema(tenantPersonRecord) } } },
    async (request) => tenants.tenantPersons(tenantOf(request.params.tenant).code, request.query),
  )

  app.delete('/v2/gmiserver/tenant/:tenant/person/:uuid', { config: admin, schema: { params: tenantPersonParams } }, async (request, reply) => {
    const tenant = tenantOf(request.params.tenant)
    if (!tenants.disassociatePerson(tenant.code, request.params.uuid)) throw new HttpError(404, `This person is not a user of tenant ${tenant.code}.`)
    ctx.crops.dropUnkept() // the crops were kept for this tenant: they go unless another tenant keeps them
    return reply.code(204).send()
  })
}

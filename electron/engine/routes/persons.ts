import { z } from 'zod'
import { pageSchema } from '../../shared/api-models'
import { appUserRecord, personRecord, tenantPersonRecord, tenantRecord } from '../../shared/api-records'
import { code, createPersonRequest, listQuery, personLookupQuery, personUuid, tenantCode } from '../../shared/api-requests'
import type { EngineContext } from '../context'
import { HttpError } from '../http/errors'
import type { EngineApp } from '../http/zod-provider'
import { createPerson, deletePerson, joinTenant, leaveTenant, personOf, tenantOf } from '../rules/persons'

const uuidParams = z.object({ uuid: personUuid })
const tenantParams = z.object({ tenant: tenantCode })
const tenantPersonParams = tenantParams.extend({ uuid: personUuid })
const admin = { auth: 'tenant-admin' } as const

/** Person calls of the person server (reference §4.2) plus the tenant-person calls they share; the rules are rules/persons.ts's. */
export function personRoutes(app: EngineApp, ctx: EngineContext): void {
  const { store } = ctx
  const { persons, memberships, associations } = store

  app.get(
    '/v2/gmiserver/person',
    { config: admin, schema: { querystring: personLookupQuery, response: { 200: personRecord.or(pageSchema(personRecord)) } } },
    async (request) => {
      const { query } = request
      if (query.userId !== undefined && query.deviceId !== undefined) throw new HttpError(400, 'Give userId or deviceId, not both.')
      if (query.userId !== undefined) return found(await persons.byUserId(query.userId), 'No person has this userId.')
      if (query.deviceId !== undefined) return found(await persons.byDeviceId(query.deviceId), 'No person has this deviceId.')
      return persons.list(query)
    },
  )

  app.get('/v2/gmiserver/person/:uuid', { config: admin, schema: { params: uuidParams, response: { 200: personRecord } } }, async (request) =>
    personOf(store, request.params.uuid),
  )

  app.get('/v2/gmiserver/person/:uuid/tenant', { config: admin, schema: { params: uuidParams, response: { 200: z.array(tenantRecord) } } }, async (request) =>
    memberships.tenantsOfPerson((await personOf(store, request.params.uuid)).uuid),
  )

  app.delete('/v2/gmiserver/person/:uuid', { config: admin, schema: { params: uuidParams } }, async (request, reply) => {
    const deleted = await deletePerson(ctx.bio, request.params.uuid)
    request.log.info(`person ${deleted.uuid} deleted with their templates`)
    return reply.code(204).send()
  })

  app.get(
    '/v2/gmiserver/app/:app/person',
    { config: admin, schema: { params: z.object({ app: code }), querystring: personLookupQuery, response: { 200: appUserRecord } } },
    async (request) => {
      const appCode = request.params.app
      const { query } = request
      if ((query.userId === undefined) === (query.deviceId === undefined)) throw new HttpError(400, 'Give exactly one of userId and deviceId.')
      const person = query.userId !== undefined ? await persons.byUserId(query.userId) : await persons.byDeviceId(query.deviceId!)
      const tenantCodes = person ? await associations.appTenantsOfPerson(appCode, person.uuid) : []
      if (!person || tenantCodes.length === 0) throw new HttpError(404, `No user of app ${appCode} matches.`)
      return { appCode, ...person, tenantCodes }
    },
  )

  app.post(
    '/v2/gmiserver/tenant/:tenant/person',
    { config: admin, schema: { params: tenantParams, body: createPersonRequest, response: { 201: personRecord } } },
    async (request, reply) => {
      const created = await createPerson(store, request.params.tenant, request.body.userId, request.body.deviceId ?? null)
      return reply.code(201).header('Location', `/v2/gmiserver/person/${created.uuid}`).send(created)
    },
  )

  app.put('/v2/gmiserver/tenant/:tenant/person/:uuid', { config: admin, schema: { params: tenantPersonParams, response: { 200: tenantPersonRecord } } }, async (request) =>
    joinTenant(store, request.params.tenant, request.params.uuid),
  )

  app.get(
    '/v2/gmiserver/tenant/:tenant/person/:uuid',
    { config: admin, schema: { params: tenantPersonParams, response: { 200: tenantPersonRecord } } },
    async (request) => {
      const tenant = await tenantOf(store, request.params.tenant)
      return found(await memberships.tenantPerson(tenant.code, request.params.uuid), `This person is not a user of tenant ${tenant.code}.`)
    },
  )

  app.get(
    '/v2/gmiserver/tenant/:tenant/person',
    { config: admin, schema: { params: tenantParams, querystring: listQuery.strict(), response: { 200: pageSchema(tenantPersonRecord) } } },
    async (request) => memberships.tenantPersons((await tenantOf(store, request.params.tenant)).code, request.query),
  )

  app.delete('/v2/gmiserver/tenant/:tenant/person/:uuid', { config: admin, schema: { params: tenantPersonParams } }, async (request, reply) => {
    await leaveTenant(store, request.params.tenant, request.params.uuid)
    return reply.code(204).send()
  })
}

function found<T>(value: T | null, message: string): T {
  if (value === null) throw new HttpError(404, message)
  return value
}

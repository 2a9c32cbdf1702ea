import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { EngineContext } from '../context'
import { HttpError } from '../http/errors'
import { code, email, parse, personUuid, tenantCode } from '../http/params'
import type { Person } from '../store/persons'

const lookupQuery = z.object({
  userId: z.string().min(1).max(254).optional(),
  deviceId: z.string().min(1).max(128).optional(),
  find: z.string().optional(),
  sort: z.string().optional(),
  pageSize: z.string().optional(),
  pageNo: z.string().optional(),
  notEmpty: z.string().optional(),
})
const createBody = z.object({ userId: email, deviceId: z.string().min(1).max(128).optional() })

/** Person calls of the person server (reference §4.2) plus the tenant-person calls they share. */
export function personRoutes(app: FastifyInstance, ctx: EngineContext): void {
  const { persons, tenants, db } = ctx

  const person = (uuid: unknown): Person => {
    const found = persons.byUuid(parse(personUuid, uuid, 'person UUID'))
    if (!found) throw new HttpError(404, 'No person has this UUID.')
    return found
  }
  const tenantOf = (raw: unknown) => {
    const codeValue = parse(tenantCode, raw, 'tenant code')
    const tenant = tenants.get(codeValue)
    if (!tenant) throw new HttpError(404, `There is no tenant ${codeValue}.`)
    return tenant
  }

  app.get('/v2/gmiserver/person', async (request) => {
    const query = parse(lookupQuery, request.query, 'query')
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
  })

  app.get<{ Params: { uuid: string } }>('/v2/gmiserver/person/:uuid', async (request) => person(request.params.uuid))

  app.get<{ Params: { uuid: string } }>('/v2/gmiserver/person/:uuid/tenant', async (request) => tenants.tenantsOfPerson(person(request.params.uuid).uuid))

  app.delete<{ Params: { uuid: string } }>('/v2/gmiserver/person/:uuid', async (request, reply) => {
    const found = person(request.params.uuid)
    persons.delete(found)
    ctx.bio.forgetPerson([found.uuid, found.userId])
    ctx.log.engine(`person ${found.uuid} deleted with their templates`)
    return reply.code(204).send()
  })

  app.get<{ Params: { app: string } }>('/v2/gmiserver/app/:app/person', async (request) => {
    const appCode = parse(code, request.params.app, 'app code')
    const query = parse(lookupQuery, request.query, 'query')
    if ((query.userId === undefined) === (query.deviceId === undefined)) throw new HttpError(400, 'Give exactly one of userId and deviceId.')
    const found = query.userId !== undefined ? persons.byUserId(query.userId) : persons.byDeviceId(query.deviceId!)
    const tenantCodes = found ? tenants.appTenantsOfPerson(appCode, found.uuid) : []
    if (!found || tenantCodes.length === 0) throw new HttpError(404, `No user of app ${appCode} matches.`)
    return { appCode, ...found, tenantCodes }
  })

  app.post<{ Params: { tenant: string } }>('/v2/gmiserver/tenant/:tenant/person', async (request, reply) => {
    const tenant = tenantOf(request.params.tenant)
    const body = parse(createBody, request.body, 'body')
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
  })

  app.put<{ Params: { tenant: string; uuid: string } }>('/v2/gmiserver/tenant/:tenant/person/:uuid', async (request) => {
    const tenant = tenantOf(request.params.tenant)
    const found = person(request.params.uuid)
    db.transaction(() => {
      if (tenants.isMember(tenant.code, found.uuid)) return
      if (tenant.maxIdentities > 0 && tenants.personCount(tenant.code) >= tenant.maxIdentities) {
        throw new HttpError(403, `Tenant ${tenant.code} already holds its maximum of ${tenant.maxIdentities} identities.`)
      }
      tenants.associatePerson(tenant.code, found.uuid)
    })()
    return tenants.tenantPerson(tenant.code, found.uuid)
  })

  app.get<{ Params: { tenant: string; uuid: string } }>('/v2/gmiserver/tenant/:tenant/person/:uuid', async (request) => {
    const tenant = tenantOf(request.params.tenant)
    const data = tenants.tenantPerson(tenant.code, parse(personUuid, request.params.uuid, 'person UUID'))
    if (!data) throw new HttpError(404, `This person is not a user of tenant ${tenant.code}.`)
    return data
  })

  app.get<{ Params: { tenant: string } }>('/v2/gmiserver/tenant/:tenant/person', async (request) => {
    const tenant = tenantOf(request.params.tenant)
    return tenants.tenantPersons(tenant.code, parse(lookupQuery.omit({ userId: true, deviceId: true }).strict(), request.query, 'query'))
  })

  app.delete<{ Params: { tenant: string; uuid: string } }>('/v2/gmiserver/tenant/:tenant/person/:uuid', async (request, reply) => {
    const tenant = tenantOf(request.params.tenant)
    if (!tenants.disassociatePerson(tenant.code, parse(personUuid, request.params.uuid, 'person UUID'))) {
      throw new HttpError(404, `This person is not a user of tenant ${tenant.code}.`)
    }
    return reply.code(204).send()
  })
}

import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { EngineContext } from '../context'
import { HttpError } from '../http/errors'
import { code, parse, tenantCode } from '../http/params'
import type { LicenseData } from '../store/tenants'

const tenantBody = z.object({
  name: z.string().min(1).max(200),
  code: tenantCode,
  maxIdentities: z.number().int().min(0).max(100_000_000),
  defaultPostBack: z.string().max(2048).nullable().optional(),
})
const licenseFields = z.object({
  info: z.string().max(2000).nullable().optional(),
  maxIdentities: z.number().int().min(0).max(100_000_000).nullable().optional(),
  expireDate: z.number().int().min(0).nullable().optional(),
})
// The reference sends licenseData's fields as the body; a body wrapped in { licenseData } is accepted too.
const licenseBody = z.union([z.object({ licenseData: licenseFields }).strict(), licenseFields.strict()])

/** Tenant calls of the person server (reference §4.3), apart from the tenant-person ones. */
export function tenantRoutes(app: FastifyInstance, ctx: EngineContext): void {
  const { tenants } = ctx
  const tenantOf = (raw: unknown) => {
    const value = parse(tenantCode, raw, 'tenant code')
    const tenant = tenants.get(value)
    if (!tenant) throw new HttpError(404, `There is no tenant ${value}.`)
    return tenant
  }

  app.get<{ Params: { tenant: string } }>('/v2/gmiserver/tenant/:tenant', async (request) => tenantOf(request.params.tenant))

  // Updates the tenant, or creates it when it does not exist yet (201).
  app.put<{ Params: { tenant: string } }>('/v1/tenant/:tenant', async (request, reply) => {
    const codeValue = parse(tenantCode, request.params.tenant, 'tenant code')
    const body = parse(tenantBody, request.body, 'body')
    if (body.code !== codeValue) throw new HttpError(400, `The body's code ${body.code} does not match the path's ${codeValue}.`)
    const created = tenants.upsert(codeValue, { name: body.name, maxIdentities: body.maxIdentities, defaultPostBack: body.defaultPostBack ?? null })
    return reply.code(created ? 201 : 200).send(tenants.get(codeValue))
  })

  app.get<{ Params: { tenant: string } }>('/v2/gmiserver/tenant/:tenant/app', async (request) => tenantOf(request.params.tenant).apps)

  app.get<{ Params: { tenant: string; app: string } }>('/v2/gmiserver/tenant/:tenant/app/:app', async (request) => {
    const tenant = tenantOf(request.params.tenant)
    const appCode = parse(code, request.params.app, 'app code')
    const found = tenant.apps.find((a) => a.code === appCode)
    if (!found) throw new HttpError(404, `App ${appCode} is not associated with tenant ${tenant.code}.`)
    return found
  })

  app.put<{ Params: { tenant: string; app: string } }>('/v2/gmiserver/tenant/:tenant/app/:app', async (request) => {
    const tenant = tenantOf(request.params.tenant)
    const appCode = parse(code, request.params.app, 'app code')
    tenants.associateApp(tenant.code, appCode)
    return tenants.apps(tenant.code).find((a) => a.code === appCode)
  })

  app.delete<{ Params: { tenant: string; app: string } }>('/v2/gmiserver/tenant/:tenant/app/:app', async (request, reply) => {
    const tenant = tenantOf(request.params.tenant)
    const appCode = parse(code, request.params.app, 'app code')
    if (!tenants.disassociateApp(tenant.code, appCode)) throw new HttpError(404, `App ${appCode} is not associated with tenant ${tenant.code}.`)
    return reply.code(204).send()
  })

  const algPath = '/v2/gmiserver/tenant/:tenant/svrgrp/main/alg/:alg'
  type AlgParams = { tenant: string; alg: string }

  app.put<{ Params: AlgParams }>(algPath, async (request) => {
    const tenant = tenantOf(request.params.tenant)
    const alg = parse(code, request.params.alg, 'algorithm code')
    const body = parse(licenseBody, request.body ?? {}, 'licenseData')
    const fields = 'licenseData' in body ? body.licenseData : body
    const license: LicenseData = { info: fields.info ?? null, maxIdentities: fields.maxIdentities ?? null, expireDate: fields.expireDate ?? null }
    tenants.associateAlgorithm(tenant.code, alg, license)
    return tenants.algorithms(tenant.code).find((a) => a.code === alg)
  })

  app.delete<{ Params: AlgParams }>(algPath, async (request, reply) => {
    const tenant = tenantOf(request.params.tenant)
    const alg = parse(code, request.params.alg, 'algorithm code')
    if (!tenants.disassociateAlgorithm(tenant.code, alg)) throw new HttpError(404, `Algorithm ${alg} is not associated with tenant ${tenant.code}.`)
    return reply.code(204).send()
  })

  type LivenessParams = AlgParams & { liveness: string }
  const algorithmOf = (params: AlgParams) => {
    const tenant = tenantOf(params.tenant)
    const alg = parse(code, params.alg, 'algorithm code')
    if (!tenant.algorithms.some((a) => a.code === alg)) throw new HttpError(404, `Algorithm ${alg} is not associated with tenant ${tenant.code}.`)
    return { tenant, alg }
  }

  app.put<{ Params: LivenessParams }>(`${algPath}/liveness/:liveness`, async (request) => {
    const { tenant, alg } = algorithmOf(request.params)
    tenants.associateLiveness(tenant.code, alg, parse(code, request.params.liveness, 'liveness code'))
    return tenants.algorithms(tenant.code).find((a) => a.code === alg)
  })

  app.delete<{ Params: LivenessParams }>(`${algPath}/liveness/:liveness`, async (request, reply) => {
    const { tenant, alg } = algorithmOf(request.params)
    const liveness = parse(code, request.params.liveness, 'liveness code')
    if (!tenants.disassociateLiveness(tenant.code, alg, liveness)) throw new HttpError(404, `Liveness ${liveness} is not associated with ${alg}.`)
    return reply.code(204).send()
  })
}

import { z } from 'zod'
import { algorithmRecord, appAssociationRecord, tenantRecord } from '../../shared/api-records'
import { code, licenseRequest, tenantCode, tenantUpdateRequest } from '../../shared/api-requests'
import { isLivenessCode, livenessCodes } from '../../shared/liveness'
import type { EngineContext } from '../context'
import { HttpError } from '../http/errors'
import type { EngineApp } from '../http/zod-provider'
import { tenantOf } from '../rules/persons'
import type { LicenseData } from '../store/tenant-associations'

const tenantParams = z.object({ tenant: tenantCode })
const appParams = tenantParams.extend({ app: code })
const algParams = tenantParams.extend({ alg: code })
const livenessParams = algParams.extend({ liveness: code })
const admin = { auth: 'tenant-admin' } as const

/** Tenant calls of the person server (reference §4.3), apart from the tenant-person ones. */
export function tenantRoutes(app: EngineApp, ctx: EngineContext): void {
  const { store } = ctx
  const { tenants, associations } = store

  app.get('/v2/gmiserver/tenant/:tenant', { config: admin, schema: { params: tenantParams, response: { 200: tenantRecord } } }, async (request) =>
    tenantOf(store, request.params.tenant),
  )

  // Updates the tenant, or creates it when it does not exist yet (201).
  app.put(
    '/v1/tenant/:tenant',
    { config: admin, schema: { params: tenantParams, body: tenantUpdateRequest, response: { 200: tenantRecord, 201: tenantRecord } } },
    async (request, reply) => {
      const { params, body } = request
      if (body.code !== params.tenant) throw new HttpError(400, `The body's code ${body.code} does not match the path's ${params.tenant}.`)
      const { created, dropped } = await store.transaction(async (tx) => ({
        created: await tx.tenants.upsert(params.tenant, body),
        // Opting out deletes what was kept: off means no face crop is held for this tenant's persons.
        dropped: body.keepFaceCrops === false ? await tx.crops.dropUnkept() : 0,
      }))
      if (dropped > 0) request.log.info(`tenant ${params.tenant} stopped keeping face crops: ${dropped} deleted`)
      return reply.code(created ? 201 : 200).send((await tenants.get(params.tenant))!)
    },
  )

  app.get('/v2/gmiserver/tenant/:tenant/app', { config: admin, schema: { params: tenantParams, response: { 200: z.array(appAssociationRecord) } } }, async (request) =>
    (await tenantOf(store, request.params.tenant)).apps,
  )

  app.get('/v2/gmiserver/tenant/:tenant/app/:app', { config: admin, schema: { params: appParams, response: { 200: appAssociationRecord } } }, async (request) => {
    const tenant = await tenantOf(store, request.params.tenant)
    const found = tenant.apps.find((a) => a.code === request.params.app)
    if (!found) throw new HttpError(404, `App ${request.params.app} is not associated with tenant ${tenant.code}.`)
    return found
  })

  app.put('/v2/gmiserver/tenant/:tenant/app/:app', { config: admin, schema: { params: appParams, response: { 200: appAssociationRecord } } }, async (request) => {
    const tenant = await tenantOf(store, request.params.tenant)
    await associations.associateApp(tenant.code, request.params.app)
    return (await associations.apps(tenant.code)).find((a) => a.code === request.params.app)!
  })

  app.delete('/v2/gmiserver/tenant/:tenant/app/:app', { config: admin, schema: { params: appParams } }, async (request, reply) => {
    const tenant = await tenantOf(store, request.params.tenant)
    if (!(await associations.disassociateApp(tenant.code, request.params.app))) throw new HttpError(404, `App ${request.params.app} is not associated with tenant ${tenant.code}.`)
    return reply.code(204).send()
  })

  const algPath = '/v2/gmiserver/tenant/:tenant/svrgrp/main/alg/:alg'

  app.put(algPath, { config: admin, schema: { params: algParams, body: licenseRequest, response: { 200: algorithmRecord } } }, async (request) => {
    const tenant = await tenantOf(store, request.params.tenant)
    const fields = request.body
    const license: LicenseData = { info: fields.info ?? null, maxIdentities: fields.maxIdentities ?? null, expireDate: fields.expireDate ?? null }
    await associations.associateAlgorithm(tenant.code, request.params.alg, license)
    return (await associations.algorithms(tenant.code)).find((a) => a.code === request.params.alg)!
  })

  app.delete(algPath, { config: admin, schema: { params: algParams } }, async (request, reply) => {
    const tenant = await tenantOf(store, request.params.tenant)
    if (!(await associations.disassociateAlgorithm(tenant.code, request.params.alg))) throw new HttpError(404, `Algorithm ${request.params.alg} is not associated with tenant ${tenant.code}.`)
    return reply.code(204).send()
  })

  const algorithmOf = async (params: { tenant: string; alg: string }) => {
    const tenant = await tenantOf(store, params.tenant)
    if (!tenant.algorithms.some((a) => a.code === params.alg)) throw new HttpError(404, `Algorithm ${params.alg} is not associated with tenant ${tenant.code}.`)
    return { tenant, alg: params.alg }
  }

  app.put(`${algPath}/liveness/:liveness`, { config: admin, schema: { params: livenessParams, response: { 200: algorithmRecord } } }, async (request) => {
    const { tenant, alg } = await algorithmOf(request.params)
    // Only checks this engine can run: a free-text code would look like protection and be none.
    if (!isLivenessCode(request.params.liveness)) {
      throw new HttpError(400, `Unknown liveness check ${request.params.liveness}. Known: ${livenessCodes.join(', ')}.`)
    }
    await associations.associateLiveness(tenant.code, alg, request.params.liveness)
    return (await associations.algorithms(tenant.code)).find((a) => a.code === alg)!
  })

  app.delete(`${algPath}/liveness/:liveness`, { config: admin, schema: { params: livenessParams } }, async (request, reply) => {
    const { tenant, alg } = await algorithmOf(request.params)
    if (!(await associations.disassociateLiveness(tenant.code, alg, request.params.liveness))) {
      throw new HttpError(404, `Liveness ${request.params.liveness} is not associated with ${alg}.`)
    }
    return reply.code(204).send()
  })
}

import { z } from 'zod'
import type { Engine } from '../../electron/engine/server'

/** Who may call a route: as the schema-first engine declares it in its route table. */
export type RouteAuth = 'none' | 'basic' | 'bearer' | 'tenant-admin'

/** One route, in the shape of the engine's `engine.routes` (issue 13's schema-first HTTP layer). */
export interface FuzzRoute {
  method: string
  /** Fastify form: '/bioengine/persons/:personid/verify'. */
  url: string
  auth: RouteAuth
  bodyLimit: number
  schema: { params?: z.ZodType; querystring?: z.ZodType; body?: z.ZodType; headers?: z.ZodType; response?: Record<number, z.ZodType> }
}

/** The route table the suite fuzzes. */
export function routesOf(_engine: Engine): readonly FuzzRoute[] {
  return TODAYS_ROUTES
}

/*
 * Until the engine publishes its route table, a copy of today's routes and the shapes their handlers
 * check (electron/engine/routes/*, http/params.ts), written out here so this file does not depend
 * on modules the schema-first rewrite removes.
 */
const MB = 1024 * 1024
const BODY_LIMIT = 32 * MB

const segment = z.string().regex(/^(?!\.+$)[A-Za-z0-9_.-]{1,64}$/)
const personUuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i)
const bioPersonId = z.string().regex(/^(?!\.+$)[A-Za-z0-9@._+-]{1,128}$/)
const templateType = z.string().regex(/^[A-Za-z]{1,32}:[A-Za-z0-9]{1,64}$/)
const templateContext = z.string().regex(/^(?!\.+$)[A-Za-z0-9@._:+-]{1,128}$/)

const lookupQuery = z.object({
  userId: z.string().min(1).max(254).optional(),
  deviceId: z.string().min(1).max(128).optional(),
  find: z.string().optional(),
  sort: z.string().optional(),
  pageSize: z.string().optional(),
  pageNo: z.string().optional(),
  notEmpty: z.string().optional(),
})
const licenseFields = z.object({
  info: z.string().max(2000).nullable().optional(),
  maxIdentities: z.number().int().min(0).max(100_000_000).nullable().optional(),
  expireDate: z.number().int().min(0).nullable().optional(),
})
const input = z.object({ templateType, sample: z.string().optional(), template: z.string().optional(), thresholdValue: z.number().optional() })

const tenant = { tenant: segment }
const params = (shape: Record<string, z.ZodType>) => z.object(shape)

type Declared = Omit<FuzzRoute, 'bodyLimit'> & { bodyLimit?: number }
const person: Array<Omit<Declared, 'auth'>> = [
  { method: 'GET', url: '/v2/gmiserver/person', schema: { querystring: lookupQuery } },
  { method: 'GET', url: '/v2/gmiserver/person/:uuid', schema: { params: params({ uuid: personUuid }) } },
  { method: 'GET', url: '/v2/gmiserver/person/:uuid/tenant', schema: { params: params({ uuid: personUuid }) } },
  { method: 'DELETE', url: '/v2/gmiserver/person/:uuid', schema: { params: params({ uuid: personUuid }) } },
  { method: 'GET', url: '/v2/gmiserver/app/:app/person', schema: { params: params({ app: segment }), querystring: lookupQuery } },
  { method: 'POST', url: '/v2/gmiserver/tenant/:tenant/person', schema: { params: params(tenant), body: z.object({ userId: z.email().max(254), deviceId: z.string().min(1).max(128).optional() }) } },
  { method: 'PUT', url: '/v2/gmiserver/tenant/:tenant/person/:uuid', schema: { params: params({ ...tenant, uuid: personUuid }) } },
  { method: 'GET', url: '/v2/gmiserver/tenant/:tenant/person/:uuid', schema: { params: params({ ...tenant, uuid: personUuid }) } },
  { method: 'GET', url: '/v2/gmiserver/tenant/:tenant/person', schema: { params: params(tenant), querystring: lookupQuery.omit({ userId: true, deviceId: true }).strict() } },
  { method: 'DELETE', url: '/v2/gmiserver/tenant/:tenant/person/:uuid', schema: { params: params({ ...tenant, uuid: personUuid }) } },
  { method: 'GET', url: '/v2/gmiserver/tenant/:tenant', schema: { params: params(tenant) } },
  {
    method: 'PUT',
    url: '/v1/tenant/:tenant',
    schema: { params: params(tenant), body: z.object({ name: z.string().min(1).max(200), code: segment, maxIdentities: z.number().int().min(0).max(100_000_000), defaultPostBack: z.string().max(2048).nullable().optional() }) },
  },
  { method: 'GET', url: '/v2/gmiserver/tenant/:tenant/app', schema: { params: params(tenant) } },
  ...(['GET', 'PUT', 'DELETE'] as const).map((method) => ({ method, url: '/v2/gmiserver/tenant/:tenant/app/:app', schema: { params: params({ ...tenant, app: segment }) } })),
  ...(['PUT', 'DELETE'] as const).map((method) => ({
    method,
    url: '/v2/gmiserver/tenant/:tenant/svrgrp/main/alg/:alg',
    schema: { params: params({ ...tenant, alg: segment }), ...(method === 'PUT' ? { body: z.union([z.object({ licenseData: licenseFields }).strict(), licenseFields.strict()]) } : {}) },
  })),
  ...(['PUT', 'DELETE'] as const).map((method) => ({
    method,
    url: '/v2/gmiserver/tenant/:tenant/svrgrp/main/alg/:alg/liveness/:liveness',
    schema: { params: params({ ...tenant, alg: segment, liveness: segment }) },
  })),
]

const personId = params({ personid: bioPersonId })
const bio: Declared[] = [
  { method: 'GET', url: '/bioengine/logs', auth: 'bearer', schema: {} },
  { method: 'GET', url: '/bioengine/template-types', auth: 'bearer', schema: {} },
  {
    method: 'POST',
    url: '/bioengine/persons/:personid/biometrics',
    auth: 'bearer',
    schema: { params: personId, body: z.object({ templateType, templateContext, samples: z.array(z.string()).max(10).optional(), template: z.string().optional() }) },
  },
  { method: 'POST', url: '/bioengine/biometrics', auth: 'bearer', schema: { body: z.object({ templateType, samples: z.array(z.string()).min(1).max(10) }) } },
  { method: 'GET', url: '/bioengine/persons/:personid/biometrics', auth: 'bearer', schema: { params: personId } },
  { method: 'GET', url: '/bioengine/persons/:personid/biometrics/:templatetype', auth: 'bearer', schema: { params: params({ personid: bioPersonId, templatetype: templateType }) } },
  { method: 'DELETE', url: '/bioengine/persons/:personid/biometrics', auth: 'bearer', schema: { params: personId } },
  { method: 'DELETE', url: '/bioengine/persons/:personid/biometrics/:templatetype', auth: 'bearer', schema: { params: params({ personid: bioPersonId, templatetype: templateType }) } },
  {
    method: 'DELETE',
    url: '/bioengine/persons/:personid/biometrics/:templatetype/:templatecontext',
    auth: 'bearer',
    schema: { params: params({ personid: bioPersonId, templatetype: templateType, templatecontext: templateContext }) },
  },
  { method: 'POST', url: '/bioengine/identify', auth: 'bearer', schema: { body: z.object({ identifyInputs: z.array(input.extend({ maxResults: z.number().optional() })).min(1).max(100) }) } },
  { method: 'POST', url: '/bioengine/persons/:personid/verify', auth: 'bearer', schema: { params: personId, body: z.object({ verifyInputs: z.array(input).min(1).max(100) }) } },
  // Multipart (Image1, Image2): no JSON body schema; the fuzzer sends forms to every POST anyway.
  { method: 'POST', url: '/bioengine/match', auth: 'none', schema: {} },
  { method: 'POST', url: '/bioengine/createcache', auth: 'bearer', schema: {} },
  { method: 'POST', url: '/bioengine/createplugincache/:pluginName', auth: 'bearer', schema: { params: params({ pluginName: z.string() }) } },
]

const TODAYS_ROUTES: readonly FuzzRoute[] = [
  {
    method: 'POST',
    url: '/v2/oauth2/oauth/token',
    auth: 'basic',
    bodyLimit: BODY_LIMIT,
    schema: { querystring: z.object({ grant_type: z.string().optional(), scope: z.string().optional() }), body: z.object({ grant_type: z.string().optional(), scope: z.string().optional() }) },
  },
  ...person.map((route) => ({ ...route, auth: 'tenant-admin' as const, bodyLimit: BODY_LIMIT })),
  ...bio.map((route) => ({ ...route, bodyLimit: route.bodyLimit ?? BODY_LIMIT })),
]

import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import { requireBearer } from '../auth/guard'
import type { TokenService } from '../auth/tokens'
import { SCOPE_TENANT_ADMIN } from '../../shared/api-requests'

/**
 * Who may call a route, declared beside it and checked in onRequest, before any body is read:
 * 'tenant-admin' needs a token with SCOPE_TENANT_ADMIN (person server), 'bearer' any valid token
 * (BioEngine), 'basic' authenticates in its handler (the token call), 'none' is open (/match).
 */
export type RouteAuth = 'none' | 'basic' | 'bearer' | 'tenant-admin'

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth
  }
  interface FastifyRequest {
    /** Whose work this is, for fair scheduling: `client:<id>` once authenticated, else `peer:<ip>`. */
    caller: string
  }
}

export interface RouteSchemas {
  params?: z.ZodType
  querystring?: z.ZodType
  body?: z.ZodType
  response?: Record<number, z.ZodType>
}

/** A route as declared: what the fuzz suite and the README's limits are generated from. */
export interface RouteInfo {
  method: string
  url: string
  auth: RouteAuth
  bodyLimit: number
  schema: RouteSchemas
}

/**
 * Collects every route as it is registered, and refuses one that does not say who may call it
 * (so a new route cannot be open by omission). Call before registering routes.
 */
export function collectRoutes(app: FastifyInstance, defaultBodyLimit: number): RouteInfo[] {
  const routes: RouteInfo[] = []
  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth
    if (auth === undefined) throw new Error(`route ${String(route.method)} ${route.url} does not declare config.auth`)
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue
      routes.push({ method, url: route.url, auth, bodyLimit: route.bodyLimit ?? defaultBodyLimit, schema: (route.schema ?? {}) as RouteSchemas })
    }
  })
  return routes
}

/** Authenticates each request by its route's declared auth, in onRequest: before its body is read. */
export function authenticateRequests(app: FastifyInstance, tokens: TokenService): void {
  app.decorateRequest('caller', '')
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const auth = request.routeOptions.config.auth
    request.caller = `peer:${request.ip}`
    if (auth === 'bearer' || auth === 'tenant-admin') {
      const claims = await requireBearer(request, tokens, auth === 'tenant-admin' ? SCOPE_TENANT_ADMIN : undefined)
      request.caller = `client:${claims.clientId}`
    }
  })
}

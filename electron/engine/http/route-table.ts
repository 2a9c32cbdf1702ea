import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import { pairedKioskId, requireActiveKiosk, requireStaff, type StaffCaller } from '../auth/front-desk-auth'
import { requireBearer } from '../auth/guard'
import type { TokenService } from '../auth/tokens'
import type { FrontDesk } from '../../records/frontdesk/front-desk'
import { SCOPE_TENANT_ADMIN } from '../../shared/api-requests'
import { SCOPE_FRONTDESK_KIOSK } from '../../shared/frontdesk-api'
import { HttpError } from './errors'

/**
 * Who may call a route, declared beside it and checked in onRequest, before any body is read:
 * 'tenant-admin' needs a token with SCOPE_TENANT_ADMIN (person server), 'bearer' any valid token
 * (BioEngine), 'basic' authenticates in its handler (the token call), 'none' is open (/match, and
 * pairing, which backs off wrong codes itself). The front desk's kinds: 'kiosk' needs a paired,
 * not removed kiosk's token with SCOPE_FRONTDESK_KIOSK; 'frontdesk-operator' / 'frontdesk-admin'
 * that and a staff session (STAFF_SESSION_HEADER) whose account holds the role.
 */
export type RouteAuth = 'none' | 'basic' | 'bearer' | 'tenant-admin' | 'kiosk' | 'frontdesk-operator' | 'frontdesk-admin'

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth
    /** A long-lived reply (the front desk's event stream): not counted by admission, which bounds it itself. */
    stream?: boolean
  }
  interface FastifyRequest {
    /** Whose work this is, for fair scheduling: `client:<id>` once authenticated, else `peer:<ip>`. */
    caller: string
    /** The bearer token's client id, once authenticated. */
    clientId: string | null
    /** A scope the route needs that the token lacks: refused by authorizeRequests. */
    missingScope: string | null
    /** The paired kiosk calling a front-desk route (its kiosk id), once authorized. */
    kioskId: string | null
    /** The staff session of a front-desk staff route, once authorized. */
    staff: StaffCaller | null
  }
}

export interface RouteSchemas {
  params?: z.ZodType
  querystring?: z.ZodType
  body?: z.ZodType
  response?: Record<number, z.ZodType>
}

/** A route as declared: what the fuzz suite generates its requests from. */
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

const frontDeskAuths: ReadonlySet<RouteAuth> = new Set(['kiosk', 'frontdesk-operator', 'frontdesk-admin'])
const scopes: Partial<Record<RouteAuth, string>> = { 'tenant-admin': SCOPE_TENANT_ADMIN, kiosk: SCOPE_FRONTDESK_KIOSK, 'frontdesk-operator': SCOPE_FRONTDESK_KIOSK, 'frontdesk-admin': SCOPE_FRONTDESK_KIOSK }

/**
 * Authenticates each request by its route's declared auth, in onRequest: before its body is read.
 * Only the token's signature here (no database), so admission, registered next, counts the caller
 * by its client id; authorizeRequests then asks the database.
 */
export function authenticateRequests(app: FastifyInstance, tokens: TokenService): void {
  app.decorateRequest('caller', '')
  app.decorateRequest('clientId', null)
  app.decorateRequest('missingScope', null)
  app.decorateRequest('kioskId', null)
  app.decorateRequest('staff', null)
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const auth = request.routeOptions.config.auth
    request.caller = `peer:${request.ip}`
    if (auth === undefined || auth === 'none' || auth === 'basic') return
    const claims = await requireBearer(request, tokens)
    request.clientId = claims.clientId
    request.caller = `client:${claims.clientId}`
    // The scope after the kiosk check (authorizeRequests): a removed kiosk hears 401, not 403.
    const scope = scopes[auth]
    if (scope && !claims.scopes.includes(scope)) request.missingScope = scope
  })
}

/**
 * What needs the database, after admission: a paired kiosk's token is refused once its kiosk is
 * removed, on every route (person server and BioEngine too); front-desk routes take only a paired
 * kiosk's token, and their staff routes a staff session with the role as well.
 */
export function authorizeRequests(app: FastifyInstance, frontDesk: Pick<FrontDesk, 'seenKiosk' | 'session'>): void {
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const auth = request.routeOptions.config.auth
    const clientId = request.clientId
    if (clientId === null || auth === undefined) return
    const kioskId = pairedKioskId(clientId)
    if (kioskId !== null) await requireActiveKiosk(frontDesk, kioskId)
    if (request.missingScope) throw new HttpError(403, `The token lacks the scope ${request.missingScope}.`)
    if (!frontDeskAuths.has(auth)) return
    if (kioskId === null) throw new HttpError(403, "Only a kiosk paired with this site may call the site's front desk.")
    request.kioskId = kioskId
    if (auth === 'frontdesk-operator') request.staff = await requireStaff(request, frontDesk, 'operator')
    if (auth === 'frontdesk-admin') request.staff = await requireStaff(request, frontDesk, 'admin')
  })
}

import type { z } from 'zod'
import type { Engine } from '../../electron/engine/server'

/** Who may call a route: as the engine declares it in its route table. */
export type RouteAuth = 'none' | 'basic' | 'bearer' | 'tenant-admin' | 'kiosk' | 'frontdesk-operator' | 'frontdesk-admin'

/** One route, as the suite reads the engine's `engine.routes` (its schema-first HTTP layer). */
export interface FuzzRoute {
  method: string
  /** Fastify form: '/bioengine/persons/:personid/verify'. */
  url: string
  auth: RouteAuth
  bodyLimit: number
  schema: { params?: z.ZodType; querystring?: z.ZodType; body?: z.ZodType; headers?: z.ZodType; response?: Record<number, z.ZodType> }
}

/** The route table the suite fuzzes: the engine's own, so a new route is fuzzed the day it is added. */
export function routesOf(engine: Engine): readonly FuzzRoute[] {
  return engine.routes
}

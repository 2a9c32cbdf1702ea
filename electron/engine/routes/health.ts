import { z } from 'zod'
import type { EngineContext } from '../context'
import type { EngineApp } from '../http/zod-provider'

const open = { auth: 'none' } as const
const healthRecord = z.object({ status: z.enum(['live', 'ready', 'stale', 'catching-up']), seq: z.number().int() })

/**
 * Health for a load balancer (the site's haproxy checks /health/ready): live while the process
 * answers; ready once its identify caches have caught up with the database's change log and it
 * is listening for more; stale (still 200: haproxy keeps sending it reads) for a moment while the
 * database is away, as in a failover. Open, and they say nothing but that and the last change applied.
 */
export function healthRoutes(app: EngineApp, ctx: EngineContext): void {
  app.get('/health/live', { config: open, schema: { response: { 200: healthRecord } } }, async () => ({ status: 'live' as const, seq: ctx.bio.caches.seq }))
  app.get('/health/ready', { config: open, schema: { response: { 200: healthRecord, 503: healthRecord } } }, async (_request, reply) => {
    const status = ctx.readiness()
    return reply.code(status === 'catching-up' ? 503 : 200).send({ status, seq: ctx.bio.caches.seq })
  })
}

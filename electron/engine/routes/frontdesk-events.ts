import type { ServerResponse } from 'node:http'
import type { FrontDesk } from '../../records/frontdesk/front-desk'
import { frontDeskRoutes, type SiteEvent } from '../../shared/frontdesk-api'
import { FRONTDESK_AUTH } from '../auth/front-desk-auth'
import { TOKEN_LIFETIME_SECONDS } from '../auth/tokens'
import { OverloadError } from '../http/errors'
import type { EngineApp } from '../http/zod-provider'
import type { SiteEvents } from '../store/site-events'

export interface EventStreamLimits {
  /** Streams one engine holds open at once; more are answered 503 (each kiosk holds one). */
  maxEventStreams: number
  /** A comment line this often, so that proxies (haproxy's 65 s) and sockets do not call it idle. */
  eventKeepAliveMs: number
}

/**
 * GET /events: the site's events as text/event-stream (`data: <SiteEvent JSON>`), for paired kiosks.
 * Each keep-alive also reads the kiosk's row again: a removed kiosk's stream ends within one, as
 * its other calls are refused at once. A stream ends after a token's lifetime, so a kiosk whose
 * token has run out must come back with a new one. Engine close ends every stream first, so
 * app.close() does not wait on them.
 */
export function eventStreamRoute(app: EngineApp, frontDesk: Pick<FrontDesk, 'seenKiosk'>, events: SiteEvents, limits: EventStreamLimits, log: (line: string) => void): void {
  const open = new Set<ServerResponse>()
  app.addHook('preClose', async () => {
    for (const response of open) response.end()
  })

  app.get(frontDeskRoutes.events.path, { config: { auth: FRONTDESK_AUTH[frontDeskRoutes.events.auth], stream: true } }, async (request, reply) => {
    if (open.size >= limits.maxEventStreams) throw new OverloadError(`This engine already streams events to ${open.size} kiosks; try again shortly.`, 5)
    const kioskId = request.kioskId!
    // The reply is ours from here: Fastify neither serializes nor ends it.
    reply.hijack()
    const response = reply.raw
    response.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Accel-Buffering': 'no',
    })
    // A first line at once: the kiosk knows it is connected, and any proxy sends the headers on.
    response.write(': connected\n\n')
    open.add(response)

    const send = (event: SiteEvent) => void response.write(`data: ${JSON.stringify(event)}\n\n`)
    const unsubscribe = events.subscribe(send)
    const keepAlive = setInterval(() => {
      response.write(': keep-alive\n\n')
      frontDesk.seenKiosk(kioskId).then(
        (kiosk) => {
          if (!kiosk) response.end()
        },
        (error: unknown) => log(`event stream: could not read kiosk ${kioskId}: ${(error as Error).message}`),
      )
    }, limits.eventKeepAliveMs)
    const lifetime = setTimeout(() => response.end(), TOKEN_LIFETIME_SECONDS * 1000)
    response.once('close', () => {
      clearInterval(keepAlive)
      clearTimeout(lifetime)
      unsubscribe()
      open.delete(response)
    })
  })
}

import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import { REQUEST_ID_HEADER } from '../../shared/request-id'

/** An id a caller may choose: letters, digits and - _ . : only, so that no value rides into a log line with it. */
const GIVEN_ID = /^[A-Za-z0-9._:-]{8,64}$/

/** The id of a request: the caller's (the kiosk's or haproxy's), when it is one, else a new one. */
export function requestIdOf(raw: IncomingMessage): string {
  const given = raw.headers[REQUEST_ID_HEADER]
  return typeof given === 'string' && GIVEN_ID.test(given) ? given : randomUUID()
}

/** A request's route as registered (`/bioengine/persons/:personid/verify`), never its path, whose values may be a person's e-mail. */
export function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? '(no route)'
}

/**
 * Fastify's own request logging, as the engine writes it: one JSON line per request answered (the
 * logger's child for the request carries `reqId`), with the kiosk or client that called, the
 * method, route pattern, status and milliseconds. Fastify's lines that name the path or the
 * request (a route not found, a request's headers) are not written.
 */
export class RequestLog extends LogController {
  constructor() {
    super({ requestIdLogLabel: 'reqId' })
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const route = routeOf(request)
    // haproxy's and the supervisor's health probes, every second or two: written at level debug.
    const level = route.startsWith('/health/') && reply.statusCode < 400 ? 'debug' : 'info'
    const fields = { kiosk: request.kioskId ?? undefined, client: request.clientId ?? undefined, method: request.method, route, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }
    request.log[level](error ? { ...fields, err: error.message } : fields, 'request')
  }

  // The error handler (server.ts) logs a fault with its route; a route not found is its request's line.
  override defaultErrorLog(): void {}
  override routeNotFound(): void {}

  override writeHeadError(error: Error, request: FastifyRequest): void {
    request.log.warn({ route: routeOf(request) }, error.message)
  }
}

/** The request's id goes back in the reply, so a kiosk's own log can name it. */
export function sendRequestIds(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    void reply.header(REQUEST_ID_HEADER, request.id)
  })
}

import { join } from 'node:path'
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import { requireBearer } from './auth/guard'
import { createTokenService } from './auth/tokens'
import { Biometrics } from './bio/biometrics'
import { BioInputError } from './bio/error-codes'
import type { EngineContext } from './context'
import type { FacePlugin } from './face/types'
import { HttpError } from './http/errors'
import { createEngineLog, type EngineLog } from './logs/engine-log'
import { BIOENGINE_PREFIX, bioEngineRoutes } from './routes/bioengine'
import { personRoutes } from './routes/persons'
import { tenantRoutes } from './routes/tenants'
import { tokenRoutes } from './routes/token'
import { ClientStore, SCOPE_TENANT_ADMIN } from './store/clients'
import { openDatabase } from './store/database'
import { PersonStore } from './store/persons'
import { createSealer, loadTemplateKey } from './store/sealer'
import { signingKey } from './store/signing-keys'
import { TemplateStore } from './store/templates'
import { TenantStore } from './store/tenants'

/** Request bodies up to 32 MB: ten 2 MB samples, base64-encoded, with room to spare. */
export const BODY_LIMIT = 32 * 1024 * 1024

export interface EngineOptions {
  dataDir: string
  plugins: FacePlugin[]
  log?: EngineLog
}

export interface Engine {
  app: FastifyInstance
  ctx: EngineContext
  close(): Promise<void>
}

/** The embedded person server + BioEngine on one Fastify instance, over one SQLite database. */
export async function createEngine(options: EngineOptions): Promise<Engine> {
  const db = openDatabase(join(options.dataDir, 'engine.db'))
  const log = options.log ?? createEngineLog(options.dataDir)
  const persons = new PersonStore(db)
  const tenants = new TenantStore(db)
  const templates = new TemplateStore(db, createSealer(loadTemplateKey(options.dataDir)))
  const bio = new Biometrics(options.plugins, templates, persons, tenants)
  const unreadable = bio.rebuildCaches()
  if (unreadable > 0) log.engine(`${unreadable} template(s) could not be decrypted with this template key and were left out of identify`)
  const ctx: EngineContext = { db, persons, tenants, clients: new ClientStore(db), tokens: createTokenService(signingKey(db)), bio, log }

  const app = Fastify({ logger: false, bodyLimit: BODY_LIMIT, return503OnClosing: true })
  installParsers(app)
  app.setErrorHandler((error, request, reply) => sendError(error, request, reply, log.engine))
  app.setNotFoundHandler((request, reply) => sendError(new HttpError(404, `No such endpoint: ${request.method} ${pathOf(request)}`), request, reply, log.engine))
  app.addHook('onResponse', async (request, reply) => {
    // Paths only: query strings may carry user ids, bodies carry biometrics.
    log.engine(`${request.method} ${pathOf(request)} ${reply.statusCode} ${Math.round(reply.elapsedTime)}ms`)
  })

  tokenRoutes(app, ctx)
  await app.register(async (scope) => {
    scope.addHook('preHandler', async (request) => {
      await requireBearer(request, ctx.tokens, SCOPE_TENANT_ADMIN)
    })
    personRoutes(scope, ctx)
    tenantRoutes(scope, ctx)
  })
  await app.register((scope) => bioEngineRoutes(scope, ctx), { prefix: BIOENGINE_PREFIX })

  return {
    app,
    ctx,
    async close() {
      await app.close()
      await Promise.all(options.plugins.map((p) => p.close()))
      db.close()
    },
  }
}

function installParsers(app: FastifyInstance): void {
  const json = app.getDefaultJsonParser('error', 'error')
  // Calls with "no body" (associate, caches) often still say application/json: treat empty as none.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined)
    json(request, body as string, done)
  })
  // The token call: a form body (usually empty; grant_type and scope may also arrive here).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))))
  })
}

function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0] ?? request.url
}

/**
 * One error path for the whole engine. BioEngine calls answer BioEngineError {code, message};
 * person-server calls answer a Spring-style body {timestamp, status, error, message, path}.
 * Caller mistakes are 4xx with a clear message; only genuine faults are 500, and those are logged.
 */
function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply, log: (line: string) => void): FastifyReply {
  let status: number
  let code: number
  let message: string
  if (error instanceof HttpError) {
    ;({ status, code, message } = error)
  } else if (error instanceof BioInputError) {
    status = 400
    code = error.code
    message = error.message
  } else if (isClientFault(error)) {
    status = error.statusCode!
    code = status
    message = error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? `The request body is larger than ${BODY_LIMIT / 1024 / 1024} MB.` : error.message
  } else {
    status = 500
    code = 500
    message = 'The engine failed to handle this request.'
    log(`error ${request.method} ${pathOf(request)}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
  }
  if (status === 401) void reply.header('WWW-Authenticate', 'Bearer')
  if (pathOf(request).startsWith(`${BIOENGINE_PREFIX}/`)) return reply.code(status).send({ code, message })
  return reply.code(status).send({ timestamp: new Date().toISOString(), status, error: reasonPhrase(status), message, path: pathOf(request) })
}

function isClientFault(error: unknown): error is FastifyError {
  const status = (error as FastifyError | undefined)?.statusCode
  return typeof status === 'number' && status >= 400 && status < 500
}

const reasons: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  500: 'Internal Server Error',
}

function reasonPhrase(status: number): string {
  return reasons[status] ?? 'Error'
}

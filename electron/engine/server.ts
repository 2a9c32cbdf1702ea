import { join } from 'node:path'
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify'
import { createTokenService } from './auth/tokens'
import { Biometrics } from './bio/biometrics'
import { BioInputError } from './bio/error-codes'
import type { EngineContext } from './context'
import type { FacePlugin } from './face/types'
import { admitRequests } from './http/admission'
import { HttpError, OverloadError } from './http/errors'
import { installBodyParsers } from './http/json-body'
import { BODY_LIMITS, HTTP_LIMITS, type HttpLimits } from './http/limits'
import { authenticateRequests, collectRoutes, type RouteInfo } from './http/route-table'
import { zodSerializerCompiler, zodValidatorCompiler, type EngineApp, type ZodTypeProvider } from './http/zod-provider'
import { createEngineLog, type EngineLog } from './logs/engine-log'
import { BIOENGINE_PREFIX, bioEngineRoutes } from './routes/bioengine'
import { personRoutes } from './routes/persons'
import { tenantRoutes } from './routes/tenants'
import { TOKEN_PATH, tokenRoutes } from './routes/token'
import { ClientStore } from './store/clients'
import { securePrivateFolder } from './store/private-folder'
import { openDatabase } from './store/database'
import { FaceCropStore } from './store/face-crops'
import { PersonStore } from './store/persons'
import { createSealer, loadTemplateKey } from './store/sealer'
import { signingKey } from './store/signing-keys'
import { TemplateStore } from './store/templates'
import { TenantStore } from './store/tenants'

export interface EngineOptions {
  dataDir: string
  plugins: FacePlugin[]
  log?: EngineLog
  /** Timeouts and caps; the defaults are HTTP_LIMITS (tests shorten them). */
  limits?: Partial<HttpLimits>
}

export interface Engine {
  app: EngineApp
  ctx: EngineContext
  /** Every route with its schemas, auth and body limit. */
  routes: readonly RouteInfo[]
  close(): Promise<void>
}

/** The embedded person server + BioEngine on one Fastify instance, over one SQLite database. */
export async function createEngine(options: EngineOptions): Promise<Engine> {
  // engine.db is made 0600 before SQLite opens it: its -wal and -shm take the database file's mode.
  securePrivateFolder(options.dataDir, ['engine.db'])
  const db = openDatabase(join(options.dataDir, 'engine.db'))
  const log = options.log ?? createEngineLog(options.dataDir)
  const persons = new PersonStore(db)
  const tenants = new TenantStore(db)
  const sealer = createSealer(loadTemplateKey(options.dataDir))
  const templates = new TemplateStore(db, sealer)
  const crops = new FaceCropStore(db, sealer)
  const bio = new Biometrics(options.plugins, templates, persons, tenants, crops)
  const unreadable = bio.rebuildCaches()
  if (unreadable > 0) log.engine(`${unreadable} template(s) could not be decrypted with this template key and were left out of identify`)
  const ctx: EngineContext = { db, persons, tenants, crops, clients: new ClientStore(db), tokens: createTokenService(signingKey(db)), bio, log }

  const limits = { ...HTTP_LIMITS, ...options.limits }
  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMITS.small,
    return503OnClosing: true,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionTimeout: limits.idleSocketTimeoutMs,
    // Node checks request and header timeouts on this tick (30 s by default): often enough to matter.
    http: { headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: 1000 },
  }).withTypeProvider<ZodTypeProvider>()
  app.server.maxConnections = limits.maxConnections
  app.setValidatorCompiler(zodValidatorCompiler)
  app.setSerializerCompiler(zodSerializerCompiler)
  installBodyParsers(app)
  app.setErrorHandler((error, request, reply) => sendError(error, request, reply, log.engine))
  app.setNotFoundHandler((request, reply) => sendError(new HttpError(404, `No such endpoint: ${request.method} ${pathOf(request)}`), request, reply, log.engine))
  app.addHook('onResponse', async (request, reply) => {
    // Paths only: query strings may carry user ids, bodies carry biometrics.
    log.engine(`${request.method} ${pathOf(request)} ${reply.statusCode} ${Math.round(reply.elapsedTime)}ms`)
  })
  const routes = collectRoutes(app, BODY_LIMITS.small)
  authenticateRequests(app, ctx.tokens)
  admitRequests(app, limits)

  tokenRoutes(app, ctx, limits)
  personRoutes(app, ctx)
  tenantRoutes(app, ctx)
  await app.register((scope) => bioEngineRoutes(scope, ctx), { prefix: BIOENGINE_PREFIX })

  return {
    app,
    ctx,
    routes,
    async close() {
      await app.close()
      await Promise.all(options.plugins.map((p) => p.close()))
      db.close()
    },
  }
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
  } else if (error instanceof OverloadError) {
    status = 503
    code = 503
    message = error.message
    void reply.header('Retry-After', String(error.retryAfterSeconds))
  } else if (isClientFault(error)) {
    status = error.statusCode!
    code = status
    message = error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? `The request body is larger than this call accepts (${kb(request.routeOptions.bodyLimit)}).` : error.message
  } else {
    status = 500
    code = 500
    message = 'The engine failed to handle this request.'
    log(`error ${request.method} ${pathOf(request)}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
  }
  if (status === 401) void reply.header('WWW-Authenticate', 'Bearer')
  // Refused before its body was read (auth, admission, a bad multipart part): close rather than
  // read and discard the rest, which may be 32 MB, or leave it to be taken for the next request.
  if (!request.raw.complete) void reply.header('Connection', 'close')
  if (pathOf(request).startsWith(`${BIOENGINE_PREFIX}/`)) return reply.code(status).send({ code, message })
  // The token endpoint answers in RFC 6749 §5.2's words, whatever went wrong.
  if (pathOf(request) === TOKEN_PATH) return reply.code(status).send({ error: status === 401 ? 'invalid_client' : 'invalid_request', error_description: message })
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
  408: 'Request Timeout',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
}

function reasonPhrase(status: number): string {
  return reasons[status] ?? 'Error'
}

function kb(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / 1024 / 1024} MB` : `${bytes / 1024} KB`
}

import { siteAuditTrail } from '../records/frontdesk/audit-trail'
import { frontDeskAudit } from './routes/frontdesk-audit'
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify'
import { createTokenService } from './auth/tokens'
import { Biometrics } from './bio/biometrics'
import { BioInputError } from './bio/error-codes'
import { listedFaces } from './bio/listed-faces'
import type { EngineContext, Readiness } from './context'
import type { FacePlugin } from './face/types'
import { admitRequests } from './http/admission'
import { HttpError, OverloadError } from './http/errors'
import { collectMetrics, metricsRoute } from './http/metrics'
import { installBodyParsers } from './http/json-body'
import { RequestLog, requestIdOf, routeOf, sendRequestIds } from './http/request-log'
import { BODY_LIMITS, HTTP_LIMITS, type HttpLimits } from './http/limits'
import { statusOfKioskError, kioskCodeOfStatus } from './http/kiosk-errors'
import { authenticateRequests, authorizeRequests, collectRoutes, type RouteInfo } from './http/route-table'
import { zodSerializerCompiler, zodValidatorCompiler, type EngineApp, type ZodTypeProvider } from './http/zod-provider'
import { createEngineLog, type EngineLog } from './logs/engine-log'
import { BIOENGINE_PREFIX, bioEngineRoutes } from './routes/bioengine'
import { FRONTDESK_PREFIX, frontDeskRoutes } from './routes/frontdesk'
import { siteRetention } from './routes/frontdesk-retention'
import { recordsChangedAnnouncer } from './routes/frontdesk-records-changed'
import { personRoutes } from './routes/persons'
import { tenantRoutes } from './routes/tenants'
import { TOKEN_PATH, tokenRoutes } from './routes/token'
import { healthRoutes } from './routes/health'
import { CHANGES_CHANNEL } from './store/change-log'
import type { DeriveKey } from './store/clients'
import { securePrivateFolder } from './store/private-folder'
import { createSealer, loadTemplateKey } from './store/sealer'
import { signingKey } from './store/signing-keys'
import { listen, type Listener } from '../records/sql/listener'
import { StoreUnavailableError } from '../records/sql/types'
import { openStore } from './store/store'
import { createSiteEvents } from './store/site-events'
import { createFrontDesk } from '../records/frontdesk/create-front-desk'
import { hostNoticesService, type NoticeTiming } from '../records/frontdesk/notices/service'
import { sealedNoticeSecrets } from '../records/frontdesk/notices/settings'
import { frontDeskMigrations } from '../records/frontdesk/migrations'
import { migrate } from '../records/sql/migrate'
import type { FrontDeskOptions } from '../records/frontdesk/front-desk'
import { KioskError } from '../shared/errors'

export interface EngineOptions {
  dataDir: string
  plugins: FacePlugin[]
  log?: EngineLog
  /** Timeouts and caps; the defaults are HTTP_LIMITS (tests shorten them). */
  limits?: Partial<HttpLimits>
  /** postgres://… (no password: PGPASSWORD or PGPASSFILE): the site's shared database instead of SQLite in dataDir. */
  databaseUrl?: string | undefined
  /** Where reads go while databaseUrl cannot be reached: the site's synchronous standby (postgres.ts, readUrl). */
  readDatabaseUrl?: string | undefined
  /** How client secrets are hashed (tests count or hold it). */
  derive?: DeriveKey
  /** A bearer token that lets any caller read GET /metrics; none: callers on this machine only (http/metrics.ts). */
  metricsToken?: string | undefined
  /** false: no metrics collected and no GET /metrics (ENGINE_METRICS=off; the bench's baseline for their cost). */
  metrics?: boolean
  /** How often a site engine reads the change log even without a notification (a safety net; default 5 s). */
  pollMs?: number
  /**
   * How long a site engine with a read database that lost its primary (a failover) still takes
   * requests, as `stale`, counted from its last catch-up (default 60 s); then it is not ready.
   * Without a read database it has nothing to answer from: not ready at once.
   */
  staleServeMs?: number
  /**
   * The address of a load balancer in front: requests from it are taken to come from the first
   * address in their X-Forwarded-For, so back-off, fairness and limits apply per kiosk, not to the
   * whole site as one caller. Anyone else's X-Forwarded-For is ignored.
   */
  trustedProxy?: string | undefined
  /** The tenant the site's kiosks enroll into (--tenant): given to each kiosk when it pairs. */
  tenant?: string | undefined
  /** The front desk's clock, sign-in back-off and session idle time (tests shorten them). */
  frontDesk?: Omit<FrontDeskOptions, 'announce'> & { pairingFreeFailures?: number }
  /** When the site's retention first runs after the start, and how often after (tests shorten them; frontdesk-retention.ts). */
  retention?: { firstMs?: number; everyMs?: number }
  /** The host notices' runner: claim, poll and backoff times (tests shorten them; records/frontdesk/notices/service.ts). */
  notices?: Partial<NoticeTiming>
}

export interface Engine {
  app: EngineApp
  ctx: EngineContext
  /** Every route with its schemas, auth and body limit. */
  routes: readonly RouteInfo[]
  close(): Promise<void>
}

/**
 * The embedded person server + BioEngine on one Fastify instance, over SQLite in its data folder,
 * or, as one of a site's processes, over the site's PostgreSQL database.
 */
export async function createEngine(options: EngineOptions): Promise<Engine> {
  // engine.db is made 0600 before SQLite opens it: its -wal and -shm take the database file's mode.
  securePrivateFolder(options.dataDir, options.databaseUrl ? [] : ['engine.db'])
  const log = options.log ?? createEngineLog(options.dataDir)
  const sealer = createSealer(loadTemplateKey(options.dataDir))
  const store = await openStore({ dataDir: options.dataDir, databaseUrl: options.databaseUrl, readDatabaseUrl: options.readDatabaseUrl, sealer, ...(options.derive ? { derive: options.derive } : {}) })
  const bio = new Biometrics(options.plugins, store)
  await bio.caches.load()
  if (bio.caches.unreadable > 0) log.engine(`${bio.caches.unreadable} template(s) could not be decrypted with this template key and were left out of identify`)
  const staleServeMs = options.readDatabaseUrl ? (options.staleServeMs ?? 60_000) : 0
  const sync = options.databaseUrl ? followChanges(options.databaseUrl, bio, log, options.pollMs ?? 5000, staleServeMs) : null
  await migrate(store.db, frontDeskMigrations)
  // The front desk's alerts reach every engine's event streams (NOTIFY on PostgreSQL).
  const events = createSiteEvents(store.db, options.databaseUrl, log.engine)
  // The site tells hosts of arrivals itself: the check-in queues the notices in its transaction
  // (notifyHosts) and every engine's runner sends them, each once. The secrets are sealed with the
  // template key the site's engines share.
  const noticesNow = options.frontDesk?.now ?? Date.now
  const noticeSecrets = sealedNoticeSecrets(store.db, sealer, noticesNow)
  const notices = hostNoticesService(store.db, { secrets: noticeSecrets, now: noticesNow, log: log.engine, ...(options.notices ? { timing: options.notices } : {}) })
  const desk = createFrontDesk(store.db, { notifyHosts: true, noticeSecrets, ...options.frontDesk, announce: events.announce })
  const frontDesk: typeof desk = {
    ...desk,
    async checkIn(request) {
      const outcome = await desk.checkIn(request)
      // This engine's runner looks at once; the others find the notices at their next poll.
      if (outcome.outcome === 'checked-in' && !outcome.alreadyOnSite && outcome.visit.hostId !== null) notices.wake()
      return outcome
    },
    async syncPush(kioskId, mutations) {
      const done = await desk.syncPush(kioskId, mutations)
      // A kiosk's check-ins made while the site was away queued their hosts' notices as they were applied.
      if (mutations.some((mutation) => mutation.kind === 'check-in')) notices.wake()
      return done
    },
  }
  // Kiosks are told to pull once a call or the retention changed what they copy.
  const recordsChanged = recordsChangedAnnouncer(frontDesk, events, log.engine)
  const ctx: EngineContext = { store, tokens: createTokenService(await signingKey(store.db)), bio, frontDesk, log, readiness: () => sync?.readiness() ?? 'ready' }

  const limits = { ...HTTP_LIMITS, ...options.limits }
  const app = Fastify({
    loggerInstance: log.logger as FastifyBaseLogger,
    logController: new RequestLog(),
    genReqId: requestIdOf,
    bodyLimit: BODY_LIMITS.small,
    return503OnClosing: true,
    trustProxy: options.trustedProxy ?? false,
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
  app.setErrorHandler((error, request, reply) => sendError(error, request, reply))
  app.setNotFoundHandler((request, reply) => sendError(new HttpError(404, `No such endpoint: ${request.method} ${pathOf(request)}`), request, reply))
  sendRequestIds(app)
  // Before the routes: fastify-metrics measures the routes registered after it.
  const metrics = options.metrics === false ? undefined : await collectMetrics(app, ctx)
  const routes = collectRoutes(app, BODY_LIMITS.small)
  authenticateRequests(app, ctx.tokens)
  admitRequests(app, limits)
  authorizeRequests(app, frontDesk)

  healthRoutes(app, ctx)
  if (metrics) metricsRoute(app, metrics, options.metricsToken)
  tokenRoutes(app, ctx, limits)
  personRoutes(app, ctx)
  tenantRoutes(app, ctx)
  await app.register((scope) => bioEngineRoutes(scope, ctx, metrics), { prefix: BIOENGINE_PREFIX })
  await app.register(
    (scope) => {
      // Every act the site answers is written to its own trail as the reply goes.
      frontDeskAudit(scope, { trail: siteAuditTrail(store.db, { now: options.frontDesk?.now }), log: log.engine, now: options.frontDesk?.now })
      return frontDeskRoutes(scope, {
        frontDesk,
        clients: store.clients,
        events,
        notices,
        recordsChanged,
        facesOf: listedFaces(store, bio.templateTypes().map((info) => bio.lookup(info.templateType))),
        log: log.engine,
        tenant: options.tenant,
        maxEventStreams: limits.maxEventStreams,
        eventKeepAliveMs: limits.eventKeepAliveMs,
        ...(options.frontDesk?.now ? { now: options.frontDesk.now } : {}),
        ...(options.frontDesk?.pairingFreeFailures ? { freeFailures: options.frontDesk.pairingFreeFailures } : {}),
      })
    },
    { prefix: FRONTDESK_PREFIX },
  )
  // The site forgets visits and ended invites on its own, whether or not a kiosk is running.
  const retention = siteRetention(frontDesk, { now: options.frontDesk?.now ?? Date.now, log: log.engine, changed: recordsChanged.check, ...options.retention })
  await notices.start()

  return {
    app,
    ctx,
    routes,
    async close() {
      // The event streams end in app.close()'s preClose, so it does not wait on them.
      await app.close()
      await retention.stop()
      // A notice being sent is queued again for another engine (or this one's next start).
      await notices.stop()
      await events.close()
      await sync?.close()
      await Promise.all(options.plugins.map((p) => p.close()))
      await store.close()
    },
  }
}

/**
 * A site engine's caches follow the change log: on each notification, after every reconnection of
 * the listener (notifications sent while it was away are never replayed), and every `pollMs` as
 * well. The engine is ready while the listener is connected and its last catch-up succeeded. While
 * the database is away (the listener lost, or a catch-up refused as unavailable: a failover) it is
 * stale for `staleServeMs` after its last catch-up (none without a read database): identify goes
 * on from its caches, its reads go to the read database, and writes are answered 503 by the
 * store. Any other failure to catch up makes it not ready at once.
 */
function followChanges(url: string, bio: Biometrics, log: EngineLog, pollMs: number, staleServeMs: number): { readiness(): Readiness; close(): Promise<void> } {
  let listening = false
  let connectedBefore = false
  let caughtUp = true
  let databaseAway = false
  // The caches were loaded before this starts.
  let caughtUpAt = Date.now()
  const catchUp = () =>
    bio.caches.catchUp().then(
      () => {
        caughtUp = true
        databaseAway = false
        caughtUpAt = Date.now()
      },
      (error: unknown) => {
        if (caughtUp) log.engine(`catching up with the change log failed: ${(error as Error).message}`)
        caughtUp = false
        databaseAway = error instanceof StoreUnavailableError
      },
    )
  const listener: Listener = listen(url, CHANGES_CHANNEL, {
    notified: () => void catchUp(),
    connected(up) {
      if (up === listening) return
      listening = up
      log.engine(up ? 'listening for changes' : 'lost the change listener; reconnecting')
      if (!up) return
      // Back after losing it (a failover among other things): the last changes are applied again.
      if (connectedBefore) bio.caches.rewind()
      connectedBefore = true
      void catchUp()
    },
  })
  const poll = setInterval(() => void catchUp(), pollMs)
  poll.unref()
  return {
    readiness() {
      if (listening && caughtUp) return 'ready'
      const away = !listening || databaseAway
      return away && staleServeMs > 0 && Date.now() - caughtUpAt <= staleServeMs ? 'stale' : 'catching-up'
    },
    async close() {
      clearInterval(poll)
      await listener.close()
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
function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  let status: number
  let code: number
  let message: string
  // The front desk's refusals, in the kiosk's words (kiosk-errors.ts).
  let kioskCode: string | undefined
  if (error instanceof KioskError && statusOfKioskError(error.code) < 500) {
    status = code = statusOfKioskError(error.code)
    message = error.message
    kioskCode = error.code
    if (error.retryAfterSeconds !== undefined) void reply.header('Retry-After', String(error.retryAfterSeconds))
  } else if (error instanceof HttpError) {
    ;({ status, code, message } = error)
  } else if (error instanceof BioInputError) {
    status = 400
    code = error.code
    message = error.message
  } else if (error instanceof OverloadError || error instanceof StoreUnavailableError) {
    status = 503
    code = 503
    message = error instanceof OverloadError ? error.message : 'The database cannot be reached; try again shortly.'
    void reply.header('Retry-After', String(error.retryAfterSeconds))
    // Why, for the operator (a connection's fate, never a statement's values).
    if (error instanceof StoreUnavailableError) request.log.warn({ method: request.method, route: routeOf(request), status: 503 }, error.message)
  } else if (isClientFault(error)) {
    status = error.statusCode!
    code = status
    message = error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? `The request body is larger than this call accepts (${kb(request.routeOptions.bodyLimit)}).` : error.message
  } else {
    status = 500
    code = 500
    message = 'The engine failed to handle this request.'
    request.log.error({ method: request.method, route: routeOf(request), stack: error instanceof Error ? error.stack : undefined }, error instanceof Error ? error.message : String(error))
  }
  // Bearer: the token is at fault, and a new one may do. A staff refusal (a wrong PIN, an ended
  // session) is no token's fault: a client that fetched a new token and tried again would count a
  // failed sign-in twice.
  if (status === 401) void reply.header('WWW-Authenticate', kioskCode ? 'StaffSession realm="frontdesk"' : 'Bearer')
  // Refused before its body was read (auth, admission, a bad multipart part): close rather than
  // read and discard the rest, which may be 32 MB, or leave it to be taken for the next request.
  if (!request.raw.complete) void reply.header('Connection', 'close')
  if (pathOf(request).startsWith(`${BIOENGINE_PREFIX}/`)) return reply.code(status).send({ code, message })
  // The token endpoint answers in RFC 6749 §5.2's words, whatever went wrong.
  if (pathOf(request) === TOKEN_PATH) return reply.code(status).send({ error: status === 401 ? 'invalid_client' : 'invalid_request', error_description: message })
  const body = { timestamp: new Date().toISOString(), status, error: reasonPhrase(status), message, path: pathOf(request) }
  if (pathOf(request).startsWith(`${FRONTDESK_PREFIX}/`)) return reply.code(status).send({ ...body, code: kioskCode ?? kioskCodeOfStatus(status) })
  return reply.code(status).send(body)
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

import { timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fastifyMetrics from 'fastify-metrics'
import client from 'prom-client'
import { HOST_NOTICE_KIND, noticeJobs } from '../../records/frontdesk/notices/notice-jobs'
import type { KioskHealth, KioskWithCopy } from '../../shared/frontdesk-api'
import type { EngineContext } from '../context'
import { HttpError } from './errors'

/** Identify latency buckets (seconds): a cached search is milliseconds, a sample's face work up to seconds. */
const IDENTIFY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

export interface EngineMetrics {
  registry: client.Registry
  /** One identify input answered, of this template type, in this many milliseconds. */
  identified(templateType: string, ms: number): void
}

/**
 * The engine's metrics, in a registry of its own (several engines may share a process in tests):
 * request counts and latency per route, method and status (fastify-metrics, route patterns only,
 * never a path's values), the process's (prom-client's defaults), and the engine's own: templates
 * cached and identify latency per template type, the change log's position and how far this
 * process is behind it, the database pool, and the front desk's delivery queue.
 */
export async function collectMetrics(app: FastifyInstance, ctx: EngineContext): Promise<EngineMetrics> {
  const registry = new client.Registry()
  await app.register(fastifyMetrics, {
    endpoint: null,
    defaultMetrics: { enabled: true, register: registry },
    // The summary is made even when off: in this registry too, never the process-wide one.
    routeMetrics: { enabled: { histogram: true, summary: false }, overrides: { histogram: { registers: [registry] }, summary: { registers: [registry] } } },
  })
  const identify = new client.Histogram({
    name: 'kiosk_engine_identify_seconds',
    help: 'Identify latency per input, by template type',
    labelNames: ['template_type'],
    buckets: IDENTIFY_BUCKETS,
    registers: [registry],
  })
  // Every installed type has its series from the start, so that a dashboard finds them before the first identify.
  for (const { templateType } of ctx.bio.templateTypes()) identify.zero({ template_type: templateType })
  new client.Gauge({
    name: 'kiosk_engine_templates_cached',
    help: 'Templates in the identify cache, by template type',
    labelNames: ['template_type'],
    registers: [registry],
    collect() {
      for (const { templateType } of ctx.bio.templateTypes()) this.set({ template_type: templateType }, ctx.bio.cacheFor(templateType).size)
    },
  })
  new client.Gauge({
    name: 'kiosk_engine_changes_applied',
    help: 'The last change-log entry this process has applied to its caches',
    registers: [registry],
    collect() {
      this.set(ctx.bio.caches.seq)
    },
  })
  new client.Gauge({
    name: 'kiosk_engine_changes_behind',
    help: "Change-log entries logged but not yet applied by this process (unset while the database cannot be read)",
    registers: [registry],
    async collect() {
      try {
        this.set(Math.max(0, (await ctx.store.changes.head()) - ctx.bio.caches.seq))
      } catch {
        this.reset()
      }
    },
  })
  new client.Gauge({
    name: 'kiosk_site_jobs',
    help: "The front desk's delivery queue, by kind and state: waiting (queued or being sent) and failed (needs staff) (unset while the database cannot be read)",
    labelNames: ['kind', 'state'],
    registers: [registry],
    async collect() {
      try {
        const counts = await noticeJobs(ctx.store.db).counts()
        this.set({ kind: HOST_NOTICE_KIND, state: 'waiting' }, counts.queued + counts.inFlight)
        this.set({ kind: HOST_NOTICE_KIND, state: 'failed' }, counts.needsAttention)
      } catch {
        this.reset()
      }
    },
  })
  // Each kiosk of the site, as its last health report says (reports every KIOSK_HEALTH_INTERVAL_MS):
  // the kiosks read once per scrape, not once per gauge.
  let listed: { at: number; kiosks: Promise<KioskWithCopy[]> } | null = null
  const kiosksNow = () => {
    if (!listed || Date.now() - listed.at > 1000) listed = { at: Date.now(), kiosks: ctx.frontDesk.listKiosks() }
    return listed.kiosks
  }
  const kioskGauge = (name: string, help: string, labelNames: string[], set: (gauge: client.Gauge, kiosk: { id: string; name: string }, health: KioskHealth) => void) =>
    new client.Gauge({
      name,
      help,
      labelNames: ['kiosk', 'name', ...labelNames],
      registers: [registry],
      async collect() {
        this.reset()
        try {
          for (const kiosk of await kiosksNow()) if (kiosk.health) set(this, kiosk, kiosk.health)
        } catch {
          // Unset while the database cannot be read.
        }
      },
    })
  kioskGauge('kiosk_site_kiosk_report_age_seconds', "Seconds since each kiosk's last health report (over 60: two missed)", [], (gauge, k, h) =>
    gauge.set({ kiosk: k.id, name: k.name }, Math.max(0, (Date.now() - h.reportedAt) / 1000)),
  )
  kioskGauge('kiosk_site_kiosk_outbox', "Each kiosk's enrollments waiting to be sent and failed (needing staff), as it last reported", ['state'], (gauge, k, h) => {
    gauge.set({ kiosk: k.id, name: k.name, state: 'waiting' }, h.outbox.waiting)
    gauge.set({ kiosk: k.id, name: k.name, state: 'failed' }, h.outbox.failed)
  })
  kioskGauge('kiosk_site_kiosk_host_notices_waiting', "Each kiosk's own host notices waiting, as it last reported", [], (gauge, k, h) => gauge.set({ kiosk: k.id, name: k.name }, h.hostNoticesWaiting))
  kioskGauge('kiosk_site_kiosk_camera_found', "Whether each kiosk's screen last found a camera (1) or none (0); unset until it has looked", [], (gauge, k, h) => {
    if (h.camera !== 'unknown') gauge.set({ kiosk: k.id, name: k.name }, h.camera === 'found' ? 1 : 0)
  })
  kioskGauge('kiosk_site_kiosk_copy_age_seconds', "Age of each kiosk's copy of the site, as it last reported", [], (gauge, k, h) => {
    if (h.replicaAgeSeconds !== null) gauge.set({ kiosk: k.id, name: k.name }, h.replicaAgeSeconds)
  })
  const pool = ctx.store.db.poolStats
  if (pool) {
    new client.Gauge({
      name: 'kiosk_engine_db_connections',
      help: 'Database connections of this process, by state: in use, idle, and requests waiting for one',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const { total, idle, waiting } = pool()
        this.set({ state: 'in_use' }, total - idle)
        this.set({ state: 'idle' }, idle)
        this.set({ state: 'waiting' }, waiting)
      },
    })
  }
  return { registry, identified: (templateType, ms) => identify.observe({ template_type: templateType }, ms / 1000) }
}

/**
 * GET /metrics in Prometheus' text format. With a token configured (--metrics-token), any caller
 * that presents it as a bearer token; without one, callers on this machine only, and never through
 * a proxy (a request that carries X-Forwarded-For came through the site's front, which also
 * refuses the path itself).
 */
export function metricsRoute(app: FastifyInstance, metrics: EngineMetrics, token: string | undefined): void {
  app.get('/metrics', { config: { auth: 'none' } }, async (request, reply) => {
    allowScrape(request, token)
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics())
  })
}

function allowScrape(request: FastifyRequest, token: string | undefined): void {
  if (token !== undefined) {
    const given = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1] ?? ''
    const [a, b] = [Buffer.from(given), Buffer.from(token)]
    if (a.length !== b.length || !timingSafeEqual(a, b)) throw new HttpError(401, 'The metrics need their bearer token.')
    return
  }
  const from = request.socket.remoteAddress ?? ''
  const loopback = from === '::1' || from.startsWith('127.') || from.startsWith('::ffff:127.')
  if (!loopback || request.headers['x-forwarded-for'] !== undefined) throw new HttpError(403, 'The metrics are served to this machine only (or with --metrics-token).')
}

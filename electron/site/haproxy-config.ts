import { isIPv6 } from 'node:net'
import { FRONTDESK_PREFIX, frontDeskRoutes } from '../shared/frontdesk-api'

export interface HaproxyConfig {
  host: string
  port: number
  /** One PEM with the certificate chain and its key; none: plain HTTP. */
  tlsCert: string | undefined
  engines: { name: string; port: number }[]
  /** Loopback port of haproxy's own metrics (its Prometheus exporter, GET /metrics). */
  statsPort: number
  /**
   * The site's PostgreSQL nodes under Patroni (`--ha`): a second listen section on loopback that
   * sends the engines' database connections to whichever node answers GET /primary, and a third
   * for their reads while there is none (the node answering GET /sync: the synchronous standby).
   */
  database?: { port: number; readPort: number; nodes: { name: string; postgresPort: number; restPort: number }[] }
}

/** The engines' readiness: 200 once caught up with the database, 503 before. */
export const READY_PATH = '/health/ready'

/** The front desk's event streams: a backend of their own. */
export const EVENTS_PATH = `${FRONTDESK_PREFIX}${frontDeskRoutes.events.path}`

/**
 * Request bodies up to this size are held whole by haproxy, so that a request whose engine died
 * before answering can be sent again to another (haproxy retries only what fits in one buffer). A
 * camera photo (1024 px JPEG) is a few hundred KB, so an enrollment of three, base64 in JSON, fits;
 * larger bodies (the engine takes up to 32 MB) still pass, but unretried. Buffers are taken per
 * request in flight (request, response, retry copy), not per idle connection. Not larger: each
 * request costs haproxy CPU in proportion (measured on 2 cores, small POSTs through haproxy alone:
 * 4 MB buffers 433 req/s, 1 MB 2,293-2,559, 512 KB 2,819, 64 KB 9,879).
 */
export const BUFFER_BYTES = 1024 * 1024

/**
 * haproxy's configuration for a site: one front on host:port, round the engines by fewest
 * connections, health-checked. Foreground, no daemon, no user/chroot, no stats: the site
 * supervises it as a child process.
 */
export function renderHaproxyConfig(config: HaproxyConfig): string {
  const bind = `${isIPv6(config.host) ? `ipv6@${config.host}` : config.host}:${config.port}`
  const tls = config.tlsCert ? ` ssl crt ${quote(config.tlsCert)} alpn http/1.1` : ''
  return `# Written by npm run site (electron/site/haproxy-config.ts) on every start: edits are lost.
global
  maxconn 512
  tune.bufsize ${BUFFER_BYTES}
  # In the foreground haproxy writes its warnings (a server down or up) to stderr, which the
  # site shows; no request log.
  ssl-default-bind-options ssl-min-ver TLSv1.2

defaults
  mode http
  timeout connect 2s
  # Face work on a busy engine can take seconds (more when a worker first loads its model).
  timeout server 65s
  timeout client 65s
  timeout http-request 30s
  timeout http-keep-alive 5s
  timeout queue 30s
  timeout check 2s
  # An engine that died (connection refused, or closed with no answer) or hung: send the request
  # to another engine, up to 3 times. haproxy retries POSTs too (only "http-request
  # disable-l7-retry" would stop it), but only a request held whole in its buffer: hence
  # http-buffer-request, without which a body arriving after the headers is never retried.
  # So a write replayed after its engine died mid-request must be safe to repeat (the engine's part).
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response response-timeout
  option http-buffer-request

frontend site
  bind ${bind}${tls}
  maxconn 500
  option forwardfor
  # A request's id, from the kiosk through here to the engine (which logs it and sends it back):
  # the kiosk's own when it sent one, else one made here.
  unique-id-format %[uuid()]
  http-request set-header X-Request-ID %[unique-id] unless { req.hdr(x-request-id) -m found }
  # haproxy's own 503 (no engine ready: the database is down, or every engine is restarting) says
  # when to try again, as an engine's own 503 does.
  http-after-response set-header Retry-After 2 if { status 503 } !{ res.hdr(retry-after) -m found }
  # The engines' metrics are for this machine's (or a token-holding) scraper, never for the front.
  http-request deny deny_status 404 if { path_beg /metrics }
  # The front desk's event streams (one per kiosk, open for hours) must not hold the request slots below.
  use_backend events if { path_beg ${EVENTS_PATH} }
  default_backend engines

# haproxy's own metrics (requests, errors, queue, each engine's state), on loopback only.
frontend stats
  bind 127.0.0.1:${config.statsPort}
  http-request use-service prometheus-exporter if { path /metrics }
  http-request deny deny_status 404

backend engines
  # Fewest connections: a slow identify does not hold the next request up behind it.
  balance leastconn
  option httpchk
  http-check send meth GET uri ${READY_PATH} ver HTTP/1.1 hdr Host localhost
  http-check expect status 200
  # A dead engine is out within a second; a restarted one back at its first good answer. Each
  # engine is sent at most 32 requests at once (its per-caller limit); more wait here.
  default-server inter 500ms fall 2 rise 1 maxconn 32
${servers(config, () => 'check')}

backend events
  balance leastconn
  # An event is a few bytes: send it on at once (haproxy otherwise holds small writes ~200 ms).
  option http-no-delay
  # As many as an engine streams (HTTP_LIMITS.maxEventStreams); the same engines, up and down as
  # the checks above say. A stream quiet for 65 s is gone (the engine writes a keep-alive every 15 s).
  default-server maxconn 64
${servers(config, (engine) => `track engines/${engine.name}`)}
${config.database ? databaseSection(config.database) : ''}`
}

/**
 * The engines' database connections, to the node whose Patroni answers GET /primary with 200 (the
 * standby answers 503). A node marked down has its connections cut at once (shutdown-sessions), so
 * no engine keeps talking to a demoted primary; with no primary, a connection is closed at once
 * and the engine answers 503. A LISTEN connection is idle for long: the timeouts are 30 minutes (as
 * resources/systemd/haproxy-postgres.cfg), and the engines' listeners reconnect (and catch up) when one is cut.
 */
function databaseSection(database: NonNullable<HaproxyConfig['database']>): string {
  const servers = database.nodes.map((node) => `  server ${node.name} 127.0.0.1:${node.postgresPort} check port ${node.restPort}`).join('\n')
  const section = (name: string, port: number, rest: string) => `
listen ${name}
  bind 127.0.0.1:${port}
  mode tcp
  no option http-buffer-request
  timeout client 30m
  timeout server 30m
  option tcpka
${rest}
${servers}
`
  return (
    section('postgres', database.port, '  no option redispatch\n  option httpchk GET /primary\n  http-check expect status 200\n  default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions') +
    // Reads while there is no primary (a failover): the synchronous standby, which has applied
    // every acknowledged commit (remote_apply), so identify and verify go on and find them all. A
    // node that stops being it (promoted, or lagging) has its sessions cut, so no pooled read
    // connection outlives it; with no synchronous standby, reads wait for a primary as writes do.
    section('postgres-read', database.readPort, '  option httpchk GET /sync\n  http-check expect status 200\n  default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions')
  )
}

type Engine = HaproxyConfig['engines'][number]
const servers = (config: HaproxyConfig, how: (engine: Engine) => string) => config.engines.map((engine) => `  server ${engine.name} 127.0.0.1:${engine.port} ${how(engine)}`).join('\n')

/** haproxy's word quoting, for paths with spaces. */
function quote(value: string): string {
  return `"${value.replace(/(["\\$])/g, '\\$1')}"`
}

import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

/**
 * What the proxy does instead of relaying a reply:
 * - `status500` / `status429` / `status400`: that status with a JSON error body;
 * - `garbage`: 200 application/json whose body is not JSON;
 * - `hang`: never answers (until the client gives up, or `hangMs` passes, or the proxy closes);
 * - `reset`: destroys the connection;
 * - `html404` / `login200` / `redirect302`: what a gateway with no route, a captive portal's
 *   sign-in page and a redirect to one answer while the servers behind them are away.
 */
export type Fault = 'status500' | 'status429' | 'status400' | 'garbage' | 'hang' | 'reset' | 'html404' | 'login200' | 'redirect302'

export interface FaultRule {
  method?: string
  /** Matched against the request's path and query. */
  path: RegExp
  fault: Fault
  /**
   * 'before': the upstream never sees the request. 'after': the request is forwarded and handled
   * upstream, then its reply is replaced by the fault (the interesting case for idempotency: the
   * server did the work, the client cannot know).
   */
  when?: 'before' | 'after'
  /** How many matching requests get the fault (default 1; Infinity: until `clear`). */
  times?: number
}

export interface ProxyHit {
  method: string
  path: string
  fault: Fault | null
  status: number | null
}

export interface FaultProxy {
  url: string
  /** Where requests go; null makes every request fail as if the server had gone (connection reset). */
  setUpstream(url: string | null): void
  inject(rule: FaultRule): void
  /** Drops every rule not yet used up. */
  clear(): void
  /** Every request seen, in order, with the fault applied (if any) and the status sent. */
  hits: ProxyHit[]
  close(): Promise<void>
}

/**
 * A small fault-injecting HTTP proxy on loopback, in front of a real engine. Only what the tests
 * need: whole bodies are buffered (requests and replies are small), headers are passed through.
 */
export async function startFaultProxy(upstream: string | null, options: { hangMs?: number } = {}): Promise<FaultProxy> {
  const hangMs = options.hangMs ?? 30_000
  let target = upstream ? new URL(upstream) : null
  const rules: Array<Required<FaultRule>> = []
  const hits: ProxyHit[] = []
  const sockets = new Set<Socket>()
  const timers = new Set<NodeJS.Timeout>()

  const server = createServer((req, res) => {
    void handle(req, res)
  })
  server.on('connection', (socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readAll(req)
    const path = req.url ?? '/'
    const method = req.method ?? 'GET'
    const rule = rules.find((r) => r.times > 0 && (!r.method || r.method === method) && r.path.test(path))
    if (rule) rule.times--
    const hit: ProxyHit = { method, path, fault: rule?.fault ?? null, status: null }
    hits.push(hit)

    if (rule && rule.when === 'before') return applyFault(rule.fault, res, hit)
    if (!target) {
      req.socket.destroy()
      return
    }
    let reply: { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }
    try {
      reply = await forward(target, method, path, req.headers, body)
    } catch {
      // The upstream is down: the client sees what it would see without a proxy, a dead connection.
      req.socket.destroy()
      return
    }
    if (rule) return applyFault(rule.fault, res, hit)
    hit.status = reply.status
    const headers = { ...reply.headers }
    delete headers['transfer-encoding']
    delete headers.connection
    headers['content-length'] = String(reply.body.length)
    res.writeHead(reply.status, headers)
    res.end(reply.body)
  }

  function applyFault(fault: Fault, res: ServerResponse, hit: ProxyHit): void {
    const send = (status: number, text: string) => {
      hit.status = status
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) })
      res.end(text)
    }
    const page = (status: number, html: string, extra: Record<string, string> = {}) => {
      hit.status = status
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(Buffer.byteLength(html)), ...extra })
      res.end(html)
    }
    switch (fault) {
      case 'html404':
        return page(404, '<!DOCTYPE html><html><head><title>404 Not Found</title></head><body><h1>404 Not Found</h1><hr><center>nginx</center></body></html>')
      case 'login200':
        return page(200, '<!DOCTYPE html><html><body><form action="/login"><p>Sign in to use this network</p><input name="user"></form></body></html>')
      case 'redirect302':
        return page(302, '<html><body>Moved</body></html>', { location: 'http://portal.invalid/login' })
      case 'status500':
        return send(500, JSON.stringify({ code: 500, message: 'injected fault' }))
      case 'status429':
        return send(429, JSON.stringify({ code: 429, message: 'slow down (injected)' }))
      case 'status400':
        return send(400, JSON.stringify({ code: 400, message: 'refused (injected)' }))
      case 'garbage':
        return send(200, '{"content": [ {"uuid": <<<not json')
      case 'reset':
        res.socket?.destroy()
        return
      case 'hang': {
        // Bounded: never hold a connection longer than hangMs, even if the client forgets it.
        const timer = setTimeout(() => {
          timers.delete(timer)
          res.socket?.destroy()
        }, hangMs)
        timers.add(timer)
        res.once('close', () => {
          clearTimeout(timer)
          timers.delete(timer)
        })
        return
      }
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  return {
    url,
    hits,
    setUpstream(next) {
      target = next ? new URL(next) : null
    },
    inject(rule) {
      rules.push({ method: rule.method ?? '', path: rule.path, fault: rule.fault, when: rule.when ?? 'before', times: rule.times ?? 1 })
    },
    clear() {
      rules.length = 0
    },
    async close() {
      for (const timer of timers) clearTimeout(timer)
      for (const socket of sockets) socket.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    stream.on('data', (chunk: Buffer) => chunks.push(chunk))
    stream.on('end', () => resolve(Buffer.concat(chunks)))
    stream.on('error', reject)
  })
}

function forward(target: URL, method: string, path: string, headers: IncomingMessage['headers'], body: Buffer) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const outgoing = httpRequest(
      { host: target.hostname, port: target.port, method, path, headers: { ...headers, host: target.host, connection: 'close' }, timeout: 60_000 },
      (reply) => {
        readAll(reply).then((data) => resolve({ status: reply.statusCode ?? 502, headers: reply.headers, body: data }), reject)
      },
    )
    outgoing.on('timeout', () => outgoing.destroy(new Error('upstream timeout')))
    outgoing.on('error', reject)
    outgoing.end(body)
  })
}

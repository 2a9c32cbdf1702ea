import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import fastifyStatic from '@fastify/static'
import Fastify, { type FastifyInstance } from 'fastify'
import type { Dispatch } from '../services/dispatch'
import { BRIDGE_PATH, BRIDGE_SESSION_HEADER, BRIDGE_TOKEN_HEADER, CONTENT_SECURITY_POLICY, SESSION_GONE_STATUS } from '../shared/web-security'
import { checkBridgeRequest } from './bridge-guard'
import { TabSessions } from './tab-sessions'

export interface WebHostOptions {
  dispatch: Dispatch
  /** Pushed events for one tab's session key, streamed as server-sent events on GET /bridge/events. */
  subscribe?: (key: string | null, listener: (event: unknown) => void) => () => void
  /** A tab's page went away (its last event stream closed): its staff session ends. */
  endSession?: (key: string, reason: string) => void
  /** The built renderer (out/renderer); the bridge works without it. */
  rendererDir?: string
  token?: string
}

export interface WebHost {
  app: FastifyInstance
  token: string
  /** Listens on 127.0.0.1 only and returns the launch URL, token in the fragment so it never reaches logs. */
  listen(port?: number): Promise<{ origin: string; launchUrl: string }>
  close(): Promise<void>
}

/** The web host: the built renderer plus a loopback bridge to the same handler table Electron binds. */
export function createWebHost(options: WebHostOptions): WebHost {
  const token = options.token ?? randomBytes(32).toString('base64url')
  const app = Fastify({ logger: false, bodyLimit: 32 * 1024 * 1024 })
  let port = 0
  const tabs = new TabSessions()
  const guard = (request: { headers: Record<string, string | string[] | undefined> }) =>
    checkBridgeRequest({ host: headerValue(request.headers.host), origin: headerValue(request.headers.origin), token: headerValue(request.headers[BRIDGE_TOKEN_HEADER]) }, port, token)
  /** The tab's session key, null without a session header; undefined for an id this host never issued. */
  const tabKey = (request: { headers: Record<string, string | string[] | undefined> }): string | null | undefined => {
    const id = headerValue(request.headers[BRIDGE_SESSION_HEADER])
    if (id === undefined) return null
    return tabs.has(id) ? `web:${id}` : undefined
  }

  app.addHook('onSend', async (_request, reply) => {
    void reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY)
    void reply.header('X-Content-Type-Options', 'nosniff')
    void reply.header('Referrer-Policy', 'no-referrer')
    void reply.header('Cross-Origin-Opener-Policy', 'same-origin')
  })

  // Each tab asks for its own session id when it loads; a reload asks again, so staff sign in again.
  app.post(`${BRIDGE_PATH}/session`, async (request, reply) => {
    const verdict = guard(request)
    if (!verdict.ok) return reply.code(verdict.status).send({ error: verdict.message })
    return { session: tabs.issue() }
  })

  app.post<{ Params: { method: string } }>(`${BRIDGE_PATH}/:method`, async (request, reply) => {
    const verdict = guard(request)
    if (!verdict.ok) return reply.code(verdict.status).send({ error: verdict.message })
    const key = tabKey(request)
    if (key === undefined) return reply.code(SESSION_GONE_STATUS).send({ error: 'This tab’s session is not known here: the page asks for a new one.' })
    return options.dispatch(request.params.method, request.body ?? {}, key)
  })

  app.get(`${BRIDGE_PATH}/events`, (request, reply) => {
    const verdict = guard(request)
    if (!verdict.ok) return reply.code(verdict.status).send({ error: verdict.message })
    const key = tabKey(request)
    if (key === undefined) return reply.code(SESSION_GONE_STATUS).send({ error: 'This tab’s session is not known here.' })
    reply.hijack()
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive', 'x-content-type-options': 'nosniff' })
    reply.raw.write(': connected\n\n')
    const listener = (event: unknown) => reply.raw.write(`data: ${JSON.stringify(event)}\n\n`)
    const unsubscribe = options.subscribe?.(key, listener) ?? (() => {})
    const id = key?.slice('web:'.length)
    if (id) tabs.opened(id)
    // A comment line now and then keeps idle proxies and the browser from closing the stream.
    const keepAlive = setInterval(() => reply.raw.write(': keep-alive\n\n'), 15_000)
    request.raw.on('close', () => {
      clearInterval(keepAlive)
      unsubscribe()
      // The tab's last stream closed: the page was closed or reloaded, and its session ends with it.
      if (id && tabs.closed(id) && key) options.endSession?.(key, 'page closed or reloaded')
    })
  })

  app.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
    // Malformed JSON and oversize bodies are the caller's fault: say so, never 500.
    const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 500
    void reply.code(status).send({ error: status < 500 ? error.message : 'The kiosk host failed.' })
  })

  if (options.rendererDir && existsSync(options.rendererDir)) {
    void app.register(fastifyStatic, { root: options.rendererDir, index: 'index.html', wildcard: false })
  }

  return {
    app,
    token,
    async listen(requestedPort = 0) {
      await app.listen({ host: '127.0.0.1', port: requestedPort })
      const address = app.server.address()
      port = typeof address === 'object' && address ? address.port : requestedPort
      const origin = `http://127.0.0.1:${port}`
      return { origin, launchUrl: `${origin}/#token=${token}` }
    },
    close: () => app.close(),
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

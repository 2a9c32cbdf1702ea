import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { bioEngine, BIO_BASE } from './bioengine'
import { FaultBook, preempt } from './faults'
import { personServer } from './person-server'
import { Store } from './store'
import { bearer, type Ctx, type Reply } from './strict'
import type { Departure, RequestRecord, Standin, StandinOptions } from './types'
import { sprinkle, VARIANTS } from './variants'

export type { Departure, FaultKind, FaultRule, ReplyVariant, RequestRecord, Standin, StandinOptions, StandinState, VariantName } from './types'
export { VARIANTS } from './variants'
export { TEMPLATE_TYPE } from './fake-matcher'

/** Bodies above this get 413 (the reference gives no limit; this one only keeps the double safe). */
const MAX_BODY = 16 * 1024 * 1024

/**
 * A strict stand-in for the vendor's person server and BioEngine, written from
 * the vendor's API reference (summarised in docs/api.md). A test double: biometrics are faked
 * (fake-matcher.ts); every request shape and rule the reference states is checked, and each
 * breach is recorded in `departures` (README.md lists the rule names).
 */
export async function startStandin(options: StandinOptions): Promise<Standin> {
  const variant = typeof options.variant === 'object' ? options.variant : VARIANTS[options.variant ?? 'vendor']
  const store = new Store(options.tenants ?? ['KIOSK'], (options.tokenLifetimeSeconds ?? 3600) * 1000)
  const modules = { person: personServer(store, variant, options), bio: bioEngine(store, variant, options) }
  const departures: Departure[] = []
  const requests: RequestRecord[] = []
  const faults = new FaultBook()
  const sockets = new Set<Socket>()
  let online = true

  function send(res: ServerResponse, record: RequestRecord, reply: Reply): void {
    if (!res.socket || res.socket.destroyed) return
    const json = reply.body === undefined ? null : Buffer.from(JSON.stringify(variant.extraFields ? sprinkle(reply.body) : reply.body))
    const data = reply.raw?.data ?? json ?? Buffer.alloc(0)
    const type = reply.raw?.type ?? (json ? 'application/json' : undefined)
    res.writeHead(reply.status, { ...(type && { 'content-type': type }), 'content-length': String(data.length), ...reply.headers })
    res.end(data)
    record.status = reply.status
  }

  async function serve(server: 'person' | 'bio', req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET'
    const url = req.url ?? '/'
    const record: RequestRecord = { server, method, path: url, status: null, fault: null }
    requests.push(record)
    const body = await readBody(req).catch(() => undefined)
    if (body === undefined) return // the connection went away mid-request
    if (body === null) return send(res, record, { ...modules[server].error(413, `bodies are limited to ${MAX_BODY} bytes`), headers: { connection: 'close' } })

    const fault = faults.take(server, method, url)
    record.fault = fault
    if (fault && fault !== 'lost-reply') {
      const reply = preempt(fault, res, modules[server], () => {
        const token = bearer(req.headers)
        if (token) store.tokens.delete(token)
      })
      return reply ? send(res, record, reply) : undefined
    }

    const parsed = new URL(url, 'http://standin.invalid')
    const ctx: Ctx = {
      method,
      path: parsed.pathname,
      query: parsed.searchParams,
      headers: req.headers,
      body,
      depart: (rule, detail) => departures.push({ method, path: url, rule, detail }),
    }
    let reply: Reply
    try {
      reply = modules[server].handle(ctx)
    } catch (error) {
      reply = modules[server].error(500, `stand-in bug: ${String(error)}`)
    }
    if (fault === 'lost-reply') return void res.socket?.destroy() // applied in full, never answered
    send(res, record, reply)
  }

  function listen(server: 'person' | 'bio'): Promise<Server> {
    // A stand-in fault must show as a dropped connection, never as an unhandled rejection in the test run.
    const http = createServer((req, res) => void serve(server, req, res).catch(() => res.socket?.destroy()))
    http.on('connection', (socket: Socket) => {
      if (!online) return void socket.destroy() // a lost network: nothing gets through
      sockets.add(socket)
      socket.once('close', () => sockets.delete(socket))
    })
    return new Promise((resolve) => http.listen(0, '127.0.0.1', () => resolve(http)))
  }

  const servers = await Promise.all([listen('person'), listen('bio')])
  const url = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const tenantAt = (code: string) => {
    const tenant = store.tenants.get(code)
    if (!tenant) throw new Error(`the stand-in has no tenant ${code}`)
    return tenant
  }

  return {
    personServerUrl: url(servers[0]),
    bioEngineUrl: `${url(servers[1])}${BIO_BASE}`,
    departures,
    requests,
    get failedSignIns() {
      return store.failedSignIns
    },
    inject: (rule) => faults.add(rule),
    setOnline(next) {
      online = next
      if (!online) for (const socket of sockets) socket.destroy()
    },
    state: () => store.snapshot(),
    addPerson: (userId, tenants, deviceId) => store.addPerson(userId, tenants.map((code) => tenantAt(code).code), deviceId ?? null).uuid,
    removePerson(userId) {
      const person = store.find('userId', userId)
      if (!person) throw new Error(`the stand-in has no person ${userId}`)
      store.deletePerson(person)
    },
    addApp: (tenant, appCode, name) => void tenantAt(tenant).apps.set(appCode, name ?? appCode),
    async close() {
      for (const socket of sockets) socket.destroy() // ends hanging requests too
      await Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.close(() => resolve())
              server.closeAllConnections()
            }),
        ),
      )
    },
  }
}

/** The whole body, or null when it is over MAX_BODY (then drained, so the client can read the 413). */
function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] | null = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY) chunks = null
      else chunks?.push(chunk)
    })
    req.on('end', () => resolve(chunks && Buffer.concat(chunks)))
    req.on('error', reject)
    req.on('close', () => reject(new Error('connection closed'))) // ignored once 'end' has resolved
  })
}

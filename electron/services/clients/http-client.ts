import { randomUUID } from 'node:crypto'
import type { Readable } from 'node:stream'
import { errors, Pool, type FormData } from 'undici'
import type { z } from 'zod'
import { REQUEST_ID_HEADER } from '../../shared/request-id'
import { ApiError, codeForStatus } from './api-error'

export interface HttpClientOptions {
  /** Base URL, e.g. http://127.0.0.1:8080 or https://bio.example/bioengine. */
  baseUrl: string
  /** Who this is, for messages: "the person server", "the BioEngine". */
  name: string
  connectTimeoutMs?: number | undefined
  /** Waiting for the reply's headers, then between body chunks (Settings: requestTimeoutSeconds). */
  requestTimeoutMs?: number | undefined
  connections?: number
}

export interface RequestOptions {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  path: string
  query?: Record<string, string | number | undefined>
  headers?: Record<string, string>
  body?: string | Buffer | FormData
  signal?: AbortSignal
}

export interface RawReply {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
  /** The id this call was sent with (X-Request-ID): the server's log names the call by it. */
  requestId?: string
}

/** A reply read as it arrives (an event stream): its body, or the whole reply when it was not 2xx. */
export type StreamReply = { ok: true; status: number; headers: RawReply['headers']; body: Readable } | { ok: false; reply: RawReply }

const MAX_REPLY_BYTES = 64 * 1024 * 1024
/** An error reply to a stream request is read whole, up to this much. */
const MAX_ERROR_BYTES = 64 * 1024
const DEFAULT_CONNECT_TIMEOUT_MS = 5_000
const DEFAULT_REQUEST_TIMEOUT_MS = 20_000

/** True for a body the API sends with an error status: empty, or a JSON object with its message or code. */
export function isApiErrorBody(body: Buffer): boolean {
  const text = body.toString('utf8').trim()
  if (text === '') return true
  try {
    const value = JSON.parse(text) as unknown
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
    const fields = value as Record<string, unknown>
    return ['message', 'error', 'error_description'].some((name) => typeof fields[name] === 'string') || typeof fields.code === 'number'
  } catch {
    return false
  }
}

/**
 * Why a reply did not come from the API but from something in front of it (a gateway with no
 * route, a captive portal, a proxy's sign-in), or null when it may be the API's. Such a reply
 * means the servers were not reached: never "not found", "refused" or "done". 5xx and 429 keep
 * their own meaning (try again later), whoever sent them.
 * - a redirect (the API never redirects);
 * - an HTML page, whatever its status;
 * - a 404 whose body is neither empty nor the API's error shape.
 */
export function notTheApi(reply: RawReply): string | null {
  if (reply.status >= 500 || reply.status === 429) return null
  if (reply.status >= 300 && reply.status < 400) return `a redirect, HTTP ${reply.status}`
  const type = String(reply.headers['content-type'] ?? '').toLowerCase()
  if (type.includes('html') || /^\s*</.test(reply.body.subarray(0, 64).toString('utf8'))) return `a web page, HTTP ${reply.status}`
  if (reply.status === 404 && !isApiErrorBody(reply.body)) return 'a 404 that is not the API’s'
  return null
}

/**
 * One keep-alive connection pool per base URL, with connect and request timeouts. Transport
 * failures become ApiErrors (UNREACHABLE, TIMEOUT) naming the call, and so does a reply that is not
 * the API's (see notTheApi): every call reads "not found" or "answered" by one rule. Statuses are
 * left to callers.
 */
export class HttpClient {
  private readonly pool: Pool
  private readonly basePath: string
  readonly name: string
  /** The server's base URL, for messages and the connection test's reachability step. */
  readonly baseUrl: string

  constructor(private readonly options: HttpClientOptions) {
    const url = new URL(options.baseUrl)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${options.baseUrl} is not an http(s) URL`)
    this.name = options.name
    this.baseUrl = options.baseUrl
    this.basePath = url.pathname.replace(/\/+$/, '')
    const requestTimeout = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS
    this.pool = new Pool(url.origin, {
      connections: options.connections ?? 8,
      connect: { timeout: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS },
      headersTimeout: requestTimeout,
      bodyTimeout: requestTimeout,
      keepAliveTimeout: 10_000,
    })
  }

  private pathOf(options: RequestOptions): string {
    const query = new URLSearchParams()
    for (const [key, value] of Object.entries(options.query ?? {})) if (value !== undefined) query.set(key, String(value))
    return `${this.basePath}${options.path}${query.size ? `?${query}` : ''}`
  }

  async request(call: string, options: RequestOptions): Promise<RawReply> {
    const path = this.pathOf(options)
    // The whole call, however the server trickles its reply, ends within connect + request time.
    const budget = (this.options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS) + (this.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS)
    const signal = AbortSignal.any([AbortSignal.timeout(budget), ...(options.signal ? [options.signal] : [])])
    const requestId = randomUUID()
    try {
      const reply = await this.pool.request({ method: options.method, path, headers: { ...options.headers, [REQUEST_ID_HEADER]: requestId }, body: options.body, signal })
      const chunks: Buffer[] = []
      let size = 0
      for await (const chunk of reply.body) {
        size += (chunk as Buffer).length
        if (size > MAX_REPLY_BYTES) {
          reply.body.destroy()
          throw new ApiError('BAD_REPLY', `${this.name} sent an oversize reply to ${call}.`, reply.statusCode)
        }
        chunks.push(chunk as Buffer)
      }
      const raw = { status: reply.statusCode, headers: reply.headers, body: Buffer.concat(chunks), requestId }
      const stranger = notTheApi(raw)
      if (stranger) throw new ApiError('UNREACHABLE', `${this.name} could not be reached for ${call}: something else answered (${stranger}), as a gateway, a proxy or a sign-in page does.`, null)
      return raw
    } catch (error) {
      throw this.transportError(call, error, requestId)
    }
  }

  /**
   * A reply that stays open (a server's event stream): the headers must come within the request
   * timeout, then the body may run as long as it is never silent for more than `idleMs` (the
   * server's keep-alive comments keep it from being). Cancelled by `options.signal`. A reply that
   * is not 2xx is read whole, for the caller's error.
   */
  async stream(call: string, options: RequestOptions, idleMs: number): Promise<StreamReply> {
    const requestId = randomUUID()
    try {
      const reply = await this.pool.request({
        method: options.method,
        path: this.pathOf(options),
        headers: { ...options.headers, [REQUEST_ID_HEADER]: requestId },
        body: options.body,
        signal: options.signal,
        headersTimeout: this.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
        bodyTimeout: idleMs,
      })
      if (reply.statusCode >= 200 && reply.statusCode < 300) return { ok: true, status: reply.statusCode, headers: reply.headers, body: reply.body }
      const chunks: Buffer[] = []
      let size = 0
      for await (const chunk of reply.body) {
        size += (chunk as Buffer).length
        if (size > MAX_ERROR_BYTES) break
        chunks.push(chunk as Buffer)
      }
      reply.body.destroy()
      return { ok: false, reply: { status: reply.statusCode, headers: reply.headers, body: Buffer.concat(chunks), requestId } }
    } catch (error) {
      throw this.transportError(call, error, requestId)
    }
  }

  /**
   * A call whose 2xx reply must match `schema` (or be empty when `schema` is null). Other
   * statuses become ApiErrors with the server's message.
   */
  async json<T extends z.ZodType>(call: string, schema: T, options: RequestOptions): Promise<z.infer<T>> {
    const reply = await this.request(call, options)
    if (reply.status < 200 || reply.status >= 300) throw this.statusError(call, reply)
    return this.parse(call, schema, reply)
  }

  parse<T extends z.ZodType>(call: string, schema: T, reply: RawReply): z.infer<T> {
    let value: unknown
    try {
      value = reply.body.length ? JSON.parse(reply.body.toString('utf8')) : undefined
    } catch {
      throw new ApiError('BAD_REPLY', `${this.name} sent a reply to ${call} that is not JSON.`, reply.status)
    }
    const parsed = schema.safeParse(value)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw new ApiError(
        'BAD_REPLY',
        `${this.name} sent a reply to ${call} that does not match the API (${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}).`,
        reply.status,
      )
    }
    return parsed.data
  }

  /** An ApiError for a non-2xx reply, carrying the server's message and code when it sent them. */
  statusError(call: string, reply: RawReply): ApiError {
    let serverMessage: string | undefined
    let serverCode: number | null = null
    try {
      const body = JSON.parse(reply.body.toString('utf8')) as Record<string, unknown>
      const message = body.message ?? body.error_description ?? body.error
      if (typeof message === 'string') serverMessage = message.slice(0, 300)
      if (typeof body.code === 'number') serverCode = body.code
    } catch {
      // not JSON: the status says enough
    }
    const code = codeForStatus(reply.status, serverCode)
    const detail = serverMessage ? `: ${serverMessage}` : ''
    return new ApiError(code, `${this.name} refused ${call} (HTTP ${reply.status})${detail}`, reply.status, serverCode, { requestId: reply.requestId })
  }

  close(): Promise<void> {
    return this.pool.close()
  }

  private transportError(call: string, error: unknown, requestId: string): ApiError {
    if (error instanceof ApiError) {
      error.requestId ??= requestId
      return error
    }
    const code = (error as { code?: string }).code
    const name = (error as { name?: string }).name
    if (
      error instanceof errors.HeadersTimeoutError ||
      error instanceof errors.BodyTimeoutError ||
      error instanceof errors.ConnectTimeoutError ||
      name === 'TimeoutError'
    ) {
      return new ApiError('TIMEOUT', `${this.name} did not answer ${call} in time.`, null, null, { requestId })
    }
    if (name === 'AbortError') return new ApiError('TIMEOUT', `${call} was cancelled.`, null, null, { requestId })
    const reason = code ?? (error instanceof Error ? error.message : 'network error')
    return new ApiError('UNREACHABLE', `${this.name} could not be reached for ${call} (${reason}).`, null, null, { requestId })
  }
}

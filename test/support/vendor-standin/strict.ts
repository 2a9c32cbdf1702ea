import type { IncomingHttpHeaders } from 'node:http'

/** One request as a server module sees it: fully read, with a way to record a departure from the reference. */
export interface Ctx {
  method: string
  /** Pathname (BioEngine: after the base path), segments still encoded. */
  path: string
  query: URLSearchParams
  headers: IncomingHttpHeaders
  body: Buffer
  depart(rule: string, detail: string): void
}

/** A JSON `body`, or `raw` bytes, or neither (empty body). */
export interface Reply {
  status: number
  body?: unknown
  raw?: { type: string; data: Buffer }
  headers?: Record<string, string>
}

export type ErrorReply = (status: number, message: string) => Reply
export type Handler = (ctx: Ctx, params: Record<string, string>) => Reply
/** `hasBody`: the reference gives the call a body; every other call must come without one. */
export interface Route {
  method: string
  pattern: RegExp
  handle: Handler
  hasBody: boolean
}

export function route(method: string, template: string, handle: Handler, hasBody = false): Route {
  return { method, pattern: new RegExp(`^${template.replace(/:(\w+)/g, '(?<$1>[^/]+)')}$`), handle, hasBody }
}

/** A call whose body is a JSON object (parsed and checked by jsonBody before `handle` runs). */
export function jsonRoute(method: string, template: string, fail: ErrorReply, handle: (ctx: Ctx, body: Record<string, unknown>, params: Record<string, string>) => Reply): Route {
  return route(
    method,
    template,
    (ctx, params) => {
      const parsed = jsonBody(ctx, fail)
      return 'reply' in parsed ? parsed.reply : handle(ctx, parsed.value, params)
    },
    true,
  )
}

export function findRoute(routes: Route[], method: string, path: string): { route: Route; params: Record<string, string> } | null {
  for (const r of routes) {
    const match = r.method === method ? r.pattern.exec(path) : null
    if (!match) continue
    try {
      return { route: r, params: Object.fromEntries(Object.entries(match.groups ?? {}).map(([k, v]) => [k, decodeURIComponent(v)])) }
    } catch {
      return null // a malformed %-escape: no such resource
    }
  }
  return null
}

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
export const isInt = (value: unknown): value is number => Number.isSafeInteger(value)
const isJsonType = (value: string | undefined) => /^application\/json\s*(;|$)/i.test(value ?? '')

export function noBody(ctx: Ctx): void {
  if (ctx.body.length > 0) ctx.depart('body.none', `the reference gives ${ctx.method} ${ctx.path} no body; got ${ctx.body.length} bytes`)
}

export function acceptJson(ctx: Ctx): void {
  if (!/application\/json/i.test(ctx.headers.accept ?? '')) ctx.depart('headers.accept', `needs Accept: application/json, got ${ctx.headers.accept ?? 'none'}`)
}

export function contentTypeJson(ctx: Ctx): void {
  if (!isJsonType(ctx.headers['content-type'])) ctx.depart('headers.content-type', `needs Content-Type: application/json, got ${ctx.headers['content-type'] ?? 'none'}`)
}

/** A JSON object body. A wrong Content-Type is recorded but tolerated; a body that is not a JSON object is a 400. */
export function jsonBody(ctx: Ctx, fail: ErrorReply): { value: Record<string, unknown> } | { reply: Reply } {
  contentTypeJson(ctx)
  let value: unknown
  try {
    value = JSON.parse(ctx.body.toString('utf8'))
  } catch {
    value = undefined
  }
  if (isRecord(value)) return { value }
  ctx.depart('body.json', 'the body is not a JSON object')
  return { reply: fail(400, 'the request body must be a JSON object') }
}

/** Thrown by handlers for a plain error reply (404, 409, 400 …), worded by the server module. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

export function bearer(headers: IncomingHttpHeaders): string | null {
  return /^Bearer +(\S+)$/i.exec(headers.authorization ?? '')?.[1] ?? null
}

/** What index.ts needs of each server: its request handler and its wording of errors. */
export interface ServerModule {
  handle(ctx: Ctx): Reply
  error: ErrorReply
  /** A 401 for a bearer token that has expired (the expired-token fault). */
  expired(): Reply
}

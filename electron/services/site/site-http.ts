import type { z } from 'zod'
import { errorCodeSchema } from '../../shared/errors'
import { FRONTDESK_PREFIX, frontDeskErrorBody, frontDeskRoutes, STAFF_SESSION_HEADER, type FrontDeskRouteName } from '../../shared/frontdesk-api'
import { ApiError, codeForStatus } from '../clients/api-error'
import type { SiteConnection } from '../clients/connect'
import type { HttpClient, RawReply } from '../clients/http-client'

type Route<R extends FrontDeskRouteName> = (typeof frontDeskRoutes)[R]
/** What a route answers: its response schema's type, or nothing. */
export type SiteReply<R extends FrontDeskRouteName> = Route<R> extends { response: infer S extends z.ZodType } ? z.infer<S> : void

export interface SiteCallOptions {
  /** The values of the route's `:name` path segments. */
  params?: Record<string, string>
  /** The route's query string (its `querystring` schema); undefined values are left out. */
  query?: Record<string, string | undefined>
  body?: unknown
  /** The staff session the call is made for (STAFF_SESSION_HEADER). */
  session?: string
}

/** A refusal from the site, in its words; `tokenRefused` when the kiosk's token was at fault (a new one may do). */
export class SiteError extends ApiError {
  constructor(
    code: ConstructorParameters<typeof ApiError>[0],
    message: string,
    status: number,
    readonly tokenRefused: boolean,
    options: { retryAfterSeconds?: number | undefined } = {},
  ) {
    super(code, message, status, null, options)
  }
}

/** The route's path under FRONTDESK_PREFIX with its parameters filled in. */
export function routePath(name: FrontDeskRouteName, params: Record<string, string> = {}): string {
  const path = frontDeskRoutes[name].path.replace(/:(\w+)/g, (_match, key: string) => {
    const value = params[key]
    if (value === undefined) throw new Error(`${name} needs the path parameter ${key}`)
    return encodeURIComponent(value)
  })
  return `${FRONTDESK_PREFIX}${path}`
}

/**
 * One call of the site's front-desk API with the kiosk's token (and the staff session when given),
 * its reply parsed with the route's schema from electron/shared/frontdesk-api. A token the site
 * refuses (expired, the site restarted) is renewed and the call made once more; a staff refusal
 * (a wrong PIN, an ended session) is not the token's fault, and is never repeated: a second try
 * would count as a second failed sign-in.
 */
export async function siteCall<R extends FrontDeskRouteName>(site: SiteConnection, name: R, options: SiteCallOptions = {}): Promise<SiteReply<R>> {
  const send = (token: string) => sendRoute(site.http, name, options, { authorization: `Bearer ${token}` })
  const token = await site.tokens.get()
  try {
    return await send(token)
  } catch (error) {
    if (!(error instanceof SiteError && error.tokenRefused)) throw error
    site.tokens.invalidate(token)
    return send(await site.tokens.get())
  }
}

/** One request of a route with these headers (the pairing call has no token: the code is its credential). */
export async function sendRoute<R extends FrontDeskRouteName>(http: HttpClient, name: R, options: SiteCallOptions, auth: Record<string, string>): Promise<SiteReply<R>> {
  const route: { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; response?: z.ZodType } = frontDeskRoutes[name]
  const call = `the front desk's ${name}`
  const reply = await http.request(call, {
    method: route.method,
    path: routePath(name, options.params),
    ...(options.query === undefined ? {} : { query: options.query }),
    headers: {
      accept: 'application/json',
      ...auth,
      ...(options.session === undefined ? {} : { [STAFF_SESSION_HEADER]: options.session }),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  })
  if (reply.status < 200 || reply.status >= 300) throw siteError(http, call, reply)
  return (route.response ? http.parse(call, route.response, reply) : undefined) as SiteReply<R>
}

/**
 * A refusal from the site as a KioskError with the site's own code and words (its front desk's
 * rules said them: "That name and PIN … do not match", "the code was used"), or the status's code
 * and a plain message when the body does not say. An ApiError, so a 5xx stays "try again later".
 */
export function siteError(http: HttpClient, call: string, reply: RawReply): SiteError {
  let body: z.infer<typeof frontDeskErrorBody> | null = null
  try {
    const parsed = frontDeskErrorBody.safeParse(JSON.parse(reply.body.toString('utf8')))
    if (parsed.success) body = parsed.data
  } catch {
    // not JSON: the status says enough
  }
  const named = errorCodeSchema.safeParse(body?.code)
  const code = named.success ? named.data : codeForStatus(reply.status, null)
  const message = body?.message ? body.message.slice(0, 500) : `${http.name} refused ${call} (HTTP ${reply.status}).`
  const retryAfter = Number(reply.headers['retry-after'])
  // The site says whose fault a 401 is: `Bearer` for the token, a staff-session challenge for staff.
  const tokenRefused = reply.status === 401 && /^bearer\b/i.test(String(reply.headers['www-authenticate'] ?? ''))
  return new SiteError(code, message, reply.status, tokenRefused, Number.isInteger(retryAfter) && retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {})
}

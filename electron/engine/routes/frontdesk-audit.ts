import type { FastifyReply, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import { siteAuditFile } from '../../records/frontdesk/audit-export'
import type { SiteAuditInput, SiteAuditTrail } from '../../records/frontdesk/audit-trail'
import type { AuditVerdictView } from '../../shared/audit'
import { FRONTDESK_PREFIX, frontDeskRoutes as r, type FrontDeskRouteName } from '../../shared/frontdesk-api'
import { FRONTDESK_AUTH } from '../auth/front-desk-auth'
import type { EngineApp } from '../http/zod-provider'
import { frontDeskActs, type Act, type ActCall } from './frontdesk-audit-acts'

export interface FrontDeskAuditOptions {
  trail: SiteAuditTrail
  log: (line: string) => void
  now?: () => number
}

/** Each route of the table by its method and full path, as Fastify names the route a request matched. */
const routeNames = new Map<string, FrontDeskRouteName>(
  (Object.keys(r) as FrontDeskRouteName[]).map((name) => [`${r[name].method} ${FRONTDESK_PREFIX}${r[name].path}`, name]),
)

/** A route's schema for one part, if it has one. */
function schemaOf(name: FrontDeskRouteName, part: 'params' | 'body'): z.ZodType | undefined {
  return (r[name] as { params?: z.ZodType; body?: z.ZodType })[part]
}

/** The part as the handler saw it when the call succeeded; when it was refused, only if it is valid (it may never have been read). */
function partOf(name: FrontDeskRouteName, part: 'params' | 'body', value: unknown, succeeded: boolean): unknown {
  const schema = schemaOf(name, part)
  if (!schema) return undefined
  if (succeeded) return value
  const parsed = schema.safeParse(value)
  return parsed.success ? parsed.data : undefined
}

function outcomeOf(status: number): SiteAuditInput['outcome'] {
  return status < 400 ? 'ok' : status < 500 ? 'refused' : 'failed'
}

/** The entry of one answered call of a recorded route. */
export function entryOfCall(name: FrontDeskRouteName, request: FastifyRequest, status: number, payload: unknown): SiteAuditInput | null {
  const act = frontDeskActs[name] as Act<FrontDeskRouteName> | null
  if (!act) return null
  const succeeded = status < 400
  const call = {
    params: partOf(name, 'params', request.params, succeeded),
    body: partOf(name, 'body', request.body, succeeded),
    reply: succeeded ? payload : undefined,
  } as ActCall<FrontDeskRouteName>
  const kioskId = request.kioskId ?? act.kioskId?.(call) ?? null
  // A call without a paired kiosk's token was refused before anything happened: only a pairing is
  // recorded without one, and only when a code was checked (not a paused or malformed attempt), so
  // a stranger adds entries no faster than the pairing back-off lets them guess.
  if (kioskId === null && (name !== 'pair' || !(succeeded || status === 409))) return null
  const named = request.staff ? null : act.account?.(call)
  const errorCode = succeeded ? null : codeOf(payload)
  const detail = [name, act.detail?.(call) || null, errorCode].filter(Boolean).join(': ')
  return {
    kioskId,
    action: act.action,
    outcome: succeeded && act.refused?.(call) ? 'refused' : outcomeOf(status),
    role: request.staff?.role ?? named?.role ?? 'visitor',
    account: request.staff?.account ?? named?.account ?? null,
    personUuid: act.personUuid?.(call) ?? null,
    detail,
  }
}

/** The kiosk error code of a front-desk error body, or the status's (sendError always says one). */
function codeOf(payload: unknown): string | null {
  const code = (payload as { code?: unknown } | null)?.code
  return typeof code === 'string' && /^[A-Z_]{1,40}$/.test(code) ? code : null
}

/**
 * The site's audit trail, in the front-desk scope: every call of a recorded route (frontDeskActs)
 * it answers is appended as its reply is sent, with its kiosk (the token's), the staff session's
 * role and account, and the error code of a refusal. A trail that cannot be written is logged: the
 * act was done (or refused) already. Also the trail's routes: GET /audit, GET /audit/verify,
 * POST /audit/export.
 */
export function frontDeskAudit(app: EngineApp, options: FrontDeskAuditOptions): void {
  const { trail, log } = options
  const now = options.now ?? Date.now
  // What each reply said (its object, or the error body), kept until the reply is sent.
  const replies = new WeakMap<FastifyRequest, unknown>()
  app.addHook('preSerialization', async (request: FastifyRequest, _reply: FastifyReply, payload: unknown) => {
    replies.set(request, payload)
    return payload
  })
  // Before the reply leaves: a kiosk that has its answer knows the site has it on record.
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, sent: unknown) => {
    const name = request.routeOptions.url === undefined ? undefined : routeNames.get(`${request.method} ${request.routeOptions.url}`)
    const payload = replies.get(request)
    replies.delete(request)
    if (name === undefined) return sent
    try {
      const entry = entryOfCall(name, request, reply.statusCode, payload)
      if (entry) await trail.append(entry)
    } catch (error) {
      // The act is done (or refused) already: its reply goes out, and the gap is in the engine's log.
      log(`site audit: ${request.method} ${request.routeOptions.url} ${reply.statusCode} not recorded: ${error instanceof Error ? error.message : 'unknown error'}`)
    }
    return sent
  })

  // The chain as this engine last walked it; walked on the first read (a site's trail may be long).
  let verdict: AuditVerdictView | null = null
  const verify = async () => (verdict = await trail.verify())

  app.get(r.auditLog.path, { config: { auth: FRONTDESK_AUTH[r.auditLog.auth] }, schema: { querystring: r.auditLog.querystring, response: { 200: r.auditLog.response } } }, async (request) => ({
    entries: await trail.query(request.query),
    verdict: verdict ?? (await verify()),
  }))
  app.get(r.verifyAudit.path, { config: { auth: FRONTDESK_AUTH[r.verifyAudit.auth] }, schema: { response: { 200: r.verifyAudit.response } } }, async () => verify())
  app.post(r.exportAudit.path, { config: { auth: FRONTDESK_AUTH[r.exportAudit.auth] }, schema: { body: r.exportAudit.body, response: { 200: r.exportAudit.response } } }, async (request, reply) => {
    const { format, limit: _limit, ...query } = request.body
    const file = siteAuditFile(await trail.exportRows(query), format, new Date(now()))
    return reply.header('Cache-Control', 'no-store').send(file)
  })
}

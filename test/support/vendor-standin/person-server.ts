import { STATUS_CODES } from 'node:http'
import type { PersonRec, Store, TenantRec } from './store'
import { acceptJson, bearer, findRoute, HttpError, isInt, isRecord, jsonRoute, noBody, route, type Ctx, type Reply, type ServerModule } from './strict'
import type { ReplyVariant, StandinOptions } from './types'
import { listReply, personReply, tenantReply } from './variants'

const TOKEN_PATH = '/v2/oauth2/oauth/token'
const SCOPE = 'SCOPE_TENANT_ADMIN'
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const P = '/v2/gmiserver'
const ALG = `${P}/tenant/:t/svrgrp/main/alg/:alg`

/** The person server (reference §4.1–4.3, §5). Errors are worded as Spring Boot's and Spring Security OAuth2's defaults. */
export function personServer(store: Store, v: ReplyVariant, options: StandinOptions): ServerModule {
  const lifetime = options.tokenLifetimeSeconds ?? 3600
  const error = (status: number, message: string): Reply => ({ status, body: { timestamp: new Date().toISOString(), status, error: STATUS_CODES[status] ?? 'Error', message } })
  const oauth = (status: number, code: string, description: string, challenge: string): Reply => ({
    status,
    body: { error: code, error_description: description },
    headers: { 'www-authenticate': `${challenge} error="${code}", error_description="${description}"` },
  })
  const ok = (body?: unknown, status = 200): Reply => ({ status, body })
  const person = (p: PersonRec) => personReply(v, store, p)
  const tenant = (code: string | undefined): TenantRec => need(store.tenants.get(code ?? ''), `tenant ${code}`)
  const personAt = (uuid: string | undefined): PersonRec => need(store.persons.get(uuid ?? ''), `person ${uuid}`)
  const member = (t: TenantRec, uuid: string | undefined): PersonRec => {
    const p = personAt(uuid)
    if (!p.tenants.has(t.code)) throw new HttpError(404, `person ${uuid} is not a user of tenant ${t.code}`)
    return p
  }

  function token(ctx: Ctx): Reply {
    if (ctx.method !== 'POST') {
      ctx.depart('token.method', `the token call is POST, got ${ctx.method}`)
      return error(405, `Request method '${ctx.method}' is not supported`)
    }
    const scope = ctx.query.get('scope')
    const grant = ctx.query.get('grant_type')
    if (scope !== SCOPE || grant !== 'client_credentials') ctx.depart('token.query', `needs ?scope=${SCOPE}&grant_type=client_credentials, got ?${ctx.query}`)
    if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(ctx.headers['content-type'] ?? '')) ctx.depart('token.content-type', `needs Content-Type: application/x-www-form-urlencoded, got ${ctx.headers['content-type'] ?? 'none'}`)
    if (ctx.body.length > 0) ctx.depart('token.body', `the token call has an empty body; got ${ctx.body.length} bytes`)
    const basic = /^Basic +(\S+)$/i.exec(ctx.headers.authorization ?? '')?.[1]
    if (!basic) ctx.depart('token.basic', 'the token call needs Authorization: Basic <client credentials>')
    const credentials = basic ? decodeBasic(basic, options.basicEncoding ?? 'plain') : null
    if (credentials?.id !== options.clientId || credentials.secret !== options.clientSecret) {
      store.failedSignIns++
      return oauth(401, 'invalid_client', 'Bad client credentials', 'Basic realm="oauth2/client",')
    }
    if (grant !== 'client_credentials') return { status: 400, body: { error: 'unsupported_grant_type', error_description: `Unsupported grant type: ${grant}` } }
    if (scope !== SCOPE) return { status: 400, body: { error: 'invalid_scope', error_description: `Invalid scope: ${scope}` } }
    return ok({ access_token: store.issueToken(), token_type: 'bearer', expires_in: lifetime, scope: SCOPE })
  }

  /** find / sort / pageSize / pageNo / notEmpty over `people` (§4.2). */
  function list(ctx: Ctx, people: PersonRec[]): Reply {
    const int = (name: string, fallback: number, min: number) => {
      const raw = ctx.query.get(name)
      if (raw === null) return fallback
      if (/^\d+$/.test(raw) && Number(raw) >= min) return Number(raw)
      ctx.depart('query.paging', `${name} must be an integer ≥ ${min}, got '${raw}'`)
      throw new HttpError(400, `${name} must be an integer`)
    }
    const pageSize = int('pageSize', 20, 1)
    const pageNo = int('pageNo', 0, 0)
    const field = (p: PersonRec, name: string): string | number | null => {
      if (name === 'id' || name === 'uuid') return p.uuid
      if (name === 'deviceId' || name === 'created' || name === 'modified') return p[name]
      if (name === 'tenants') return p.tenants.size || null
      if (name === 'templates') return store.templatesOf(p).length || null
      return p.userId
    }
    const find = ctx.query.get('find')?.toLowerCase()
    const notEmpty = ctx.query.get('notEmpty')
    let rows = people.filter((p) => (!find || p.userId.toLowerCase().includes(find)) && (!notEmpty || field(p, notEmpty)))
    const sort = ctx.query.get('sort')
    if (sort !== null) {
      // A '+' left unescaped in a query string arrives as a space (form decoding): the client must send %2B.
      if (!/^[+-]/.test(sort)) ctx.depart('query.sort', `sort is a field name after + or -, got '${sort}'${sort.startsWith(' ') ? " (an unescaped '+' reads as a space: send %2B)" : ''}`)
      const name = sort.replace(/^[+ -]/, '')
      const direction = sort.startsWith('-') ? -1 : 1
      rows = rows.sort((a, b) => direction * String(field(a, name) ?? '').localeCompare(String(field(b, name) ?? ''), 'en', { numeric: true }))
    }
    return ok(listReply(v, rows.map(person), { pageNo, pageSize, sorted: sort !== null }))
  }

  const routes = [
    route('GET', `${P}/person`, (ctx) => {
      const userId = ctx.query.get('userId')
      const deviceId = ctx.query.get('deviceId')
      if (userId === null && deviceId === null) return list(ctx, [...store.persons.values()])
      const p = userId !== null ? store.find('userId', userId) : store.find('deviceId', deviceId ?? '')
      if (userId !== null) store.userIdLookups.set(userId, p !== undefined)
      if (!p) throw new HttpError(404, `no person with ${userId !== null ? `userId ${userId}` : `deviceId ${deviceId}`}`)
      if (userId !== null) store.lookedUp.add(p.uuid)
      return ok(person(p))
    }),
    route('GET', `${P}/person/:uuid`, (_, { uuid }) => ok(person(personAt(uuid)))),
    route('GET', `${P}/person/:uuid/tenant`, (ctx, { uuid }) => {
      acceptJson(ctx)
      if (!/^application\/json\s*(;|$)/i.test(ctx.headers['content-type'] ?? '')) ctx.depart('headers.content-type', `§4.2 sends this call with Content-Type: application/json, got ${ctx.headers['content-type'] ?? 'none'}`)
      const p = personAt(uuid)
      store.tenantsListed.add(p.uuid)
      return ok(listReply(v, [...p.tenants].map((code) => tenantReply(v, tenant(code)))))
    }),
    // Rule 2. The kiosk disassociates from its own tenant first and deletes only when no tenant is left,
    // so any association remaining at delete time is a departure.
    route('DELETE', `${P}/person/:uuid`, (ctx, { uuid }) => {
      const p = personAt(uuid)
      if (!store.lookedUp.has(p.uuid)) ctx.depart('person.delete-without-lookup', 'rule 2: look the person up by userId before deleting')
      if (!store.tenantsListed.has(p.uuid)) ctx.depart('person.delete-without-tenant-list', "rule 2: list the person's tenants before deleting")
      if (p.tenants.size) ctx.depart('person.delete-still-associated', `rule 2: the person still belongs to ${[...p.tenants].join(', ')}`)
      store.deletePerson(p)
      if (store.userIdLookups.has(p.userId)) store.userIdLookups.set(p.userId, false) // the client knows it is gone
      return ok()
    }),
    route('GET', `${P}/app/:app/person`, (ctx, { app }) => {
      const userId = ctx.query.get('userId')
      const deviceId = ctx.query.get('deviceId')
      if ((userId === null) === (deviceId === null)) {
        ctx.depart('query.app-user', 'app user data is asked by exactly one of userId and deviceId')
        throw new HttpError(400, 'give userId or deviceId')
      }
      const p = userId !== null ? store.find('userId', userId) : store.find('deviceId', deviceId ?? '')
      if (!p || ![...p.tenants].some((code) => store.tenants.get(code)?.apps.has(app ?? ''))) throw new HttpError(404, `no user of app ${app} found`)
      const ids = { ...(v.personShape !== 'uuid' && { id: p.uuid }), ...(v.personShape !== 'id' && { uuid: p.uuid }) }
      return ok({ ...ids, userId: p.userId, appCode: app, devices: p.deviceId ? [{ deviceId: p.deviceId }] : [] })
    }),
    route('GET', `${P}/tenant/:t`, (_, { t }) => ok(tenantReply(v, tenant(t)))),
    jsonRoute('PUT', '/v1/tenant/:t', error, (ctx, b, { t }) => {
      acceptJson(ctx)
      const problems = [
      typeof b.name !== 'string' && 'name must be a string',
      b.code !== t && `code must be the path's tenant code ${t}`,
      !isInt(b.maxIdentities) && 'maxIdentities must be an integer',
      !('defaultPostBack' in b) && 'defaultPostBack must be present (it may be null)',
      ].filter(Boolean)
      if (problems.length) {
      ctx.depart('tenant.update-body', problems.join('; '))
      throw new HttpError(400, problems.join('; '))
      }
      const rec = tenant(t)
      Object.assign(rec, { name: b.name, maxIdentities: b.maxIdentities, defaultPostBack: b.defaultPostBack })
      return ok(tenantReply(v, rec))
    }),
    route('GET', `${P}/tenant/:t/person`, (ctx, { t }) => {
      const code = tenant(t).code
      return list(ctx, [...store.persons.values()].filter((p) => p.tenants.has(code)))
    }),
    // Rule 1: a create must follow a look-up of the same userId that found nobody.
    jsonRoute('POST', `${P}/tenant/:t/person`, error, (ctx, { userId, ...rest }, { t }) => {
      if (typeof userId !== 'string' || !EMAIL.test(userId)) {
        ctx.depart('person.create-body', `userId must be an e-mail address, got ${JSON.stringify(userId)}`)
        throw new HttpError(400, 'userId must be an e-mail address')
      }
      if (Object.keys(rest).length) ctx.depart('person.create-body', `the body has one field, userId; also got ${Object.keys(rest).join(', ')}`)
      const lookedUp = store.userIdLookups.get(userId)
      if (lookedUp === undefined) ctx.depart('person.create-without-lookup', `rule 1: look up userId ${userId} before creating`)
      if (lookedUp === true) ctx.depart('person.create-existing', `rule 1: the look-up found ${userId}: associate that person instead`)
      const rec = tenant(t)
      if (store.find('userId', userId)) throw new HttpError(409, `a person with userId ${userId} already exists`)
      const p = store.addPerson(userId, [rec.code])
      return { status: 201, body: person(p), headers: { location: `${P}/person/${p.uuid}` } }
    }),
    route('GET', `${P}/tenant/:t/person/:uuid`, (_, { t, uuid }) => {
      const p = member(tenant(t), uuid)
      return ok({ ...person(p), enrollmentStatus: store.templatesOf(p).length ? 'ENROLLED' : 'NOT_ENROLLED' })
    }),
    route('PUT', `${P}/tenant/:t/person/:uuid`, (_, { t, uuid }) => {
      const rec = tenant(t)
      const p = personAt(uuid)
      p.tenants.add(rec.code)
      p.modified = Date.now()
      return ok(person(p))
    }),
    route('DELETE', `${P}/tenant/:t/person/:uuid`, (_, { t, uuid }) => {
      const rec = tenant(t)
      member(rec, uuid).tenants.delete(rec.code)
      return ok()
    }),
    route('GET', `${P}/tenant/:t/app`, (_, { t }) => ok(listReply(v, [...tenant(t).apps].map(([code, name]) => ({ code, name }))))),
    route('GET', `${P}/tenant/:t/app/:app`, (_, { t, app }) => ok({ code: app, name: need(tenant(t).apps.get(app ?? ''), `app ${app}`) })),
    route('PUT', `${P}/tenant/:t/app/:app`, (_, { t, app = '' }) => {
      const apps = tenant(t).apps
      apps.set(app, apps.get(app) ?? app)
      return ok({ code: app, name: apps.get(app) })
    }),
    route('DELETE', `${P}/tenant/:t/app/:app`, (_, { t, app = '' }) => {
      const apps = tenant(t).apps
      need(apps.get(app), `app ${app}`)
      apps.delete(app)
      return ok()
    }),
    // The body is {"licenseData": {info, maxIdentities, expireDate}}: the object named, not its fields bare.
    jsonRoute('PUT', ALG, error, (ctx, body, { t, alg = '' }) => {
      const licence = body.licenseData
      if (!isRecord(licence)) {
        const bare = ['info', 'maxIdentities', 'expireDate'].some((k) => k in body)
        ctx.depart('alg.licenseData', bare ? 'the licence fields came unwrapped: send {"licenseData": {...}}' : 'the body has no licenseData object')
        throw new HttpError(400, 'licenseData is required')
      }
      // The reference types the fields but says none is required: only a wrong type departs. null counts
      // as left out, as a Java server reading into boxed fields takes it.
      const typed = { info: (x: unknown) => typeof x === 'string', maxIdentities: isInt, expireDate: isInt }
      if (Object.entries(typed).some(([k, check]) => licence[k] != null && !check(licence[k]))) {
        ctx.depart('alg.licenseData', 'licenseData is {info: string, maxIdentities: integer, expireDate: integer timestamp}')
        throw new HttpError(400, 'licenseData is malformed')
      }
      const rec = tenant(t)
      rec.algorithms.set(alg, { licenseData: licence, liveness: rec.algorithms.get(alg)?.liveness ?? new Set() })
      return ok(tenantReply(v, rec))
    }),
    route('DELETE', ALG, (_, { t, alg = '' }) => {
      const rec = tenant(t)
      need(rec.algorithms.get(alg), `algorithm ${alg}`)
      rec.algorithms.delete(alg)
      return ok()
    }),
    route('PUT', `${ALG}/liveness/:live`, (_, { t, alg = '', live = '' }) => {
      const rec = tenant(t)
      need(rec.algorithms.get(alg), `algorithm ${alg}`).liveness.add(live)
      return ok(tenantReply(v, rec))
    }),
    route('DELETE', `${ALG}/liveness/:live`, (_, { t, alg = '', live = '' }) => {
      const liveness = need(tenant(t).algorithms.get(alg), `algorithm ${alg}`).liveness
      if (!liveness.delete(live)) throw new HttpError(404, `liveness ${live} is not associated`)
      return ok()
    }),
  ]

  return {
    error,
    expired: () => oauth(401, 'invalid_token', 'Access token expired', 'Bearer'),
    handle(ctx) {
      try {
        if (ctx.path === TOKEN_PATH) return token(ctx)
        const found = findRoute(routes, ctx.method, ctx.path)
        if (!found) {
          ctx.depart('route.unknown', `the reference has no ${ctx.method} ${ctx.path}`)
          return error(404, 'No handler found')
        }
        const presented = bearer(ctx.headers)
        if (presented === null) {
          ctx.depart('auth.bearer', 'every person-server call but the token call carries Authorization: Bearer <token>')
          return oauth(401, 'unauthorized', 'Full authentication is required to access this resource', 'Bearer realm="gmiserver",')
        }
        // An expired or forgotten token is the server's business, not the client's mistake: no departure.
        if (!store.tokenValid(presented)) return oauth(401, 'invalid_token', 'Invalid access token', 'Bearer')
        if (!found.route.hasBody) noBody(ctx)
        return found.route.handle(ctx, found.params)
      } catch (e) {
        if (e instanceof HttpError) return error(e.status, e.message)
        throw e
      }
    },
  }
}

function need<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new HttpError(404, `${what} not found`)
  return value
}

/** 'plain': base64(id:secret) as is; 'form-urlencoded': each part form-decoded (RFC 6749 §2.3.1). */
function decodeBasic(encoded: string, encoding: 'plain' | 'form-urlencoded'): { id: string; secret: string } | null {
  const text = Buffer.from(encoded, 'base64').toString('utf8')
  const colon = text.indexOf(':')
  if (colon < 0) return null
  const parts = [text.slice(0, colon), text.slice(colon + 1)]
  try {
    const [id = '', secret = ''] = encoding === 'plain' ? parts : parts.map((s) => decodeURIComponent(s.replace(/\+/g, ' ')))
    return { id, secret }
  } catch {
    return null
  }
}

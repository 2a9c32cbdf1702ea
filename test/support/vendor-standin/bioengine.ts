import { imageInfo, PLUGIN, probeHashes, score, TEMPLATE_TYPE, encodeTemplate } from './fake-matcher'
import { parseMultipart } from './multipart'
import type { Store, TemplateRec } from './store'
import { bearer, findRoute, HttpError, isInt, isRecord, jsonRoute, noBody, route, type Ctx, type Handler, type Reply, type ServerModule } from './strict'
import type { ReplyVariant, StandinOptions } from './types'

export const BIO_BASE = '/bioengine'
const MATCH_MAX_BYTES = 2 * 1024 * 1024
const MATCH_PASS = 48
const QUALITY = 0.92
/** errorCode for a sample or template the fake matcher cannot use (vendor codes are not shown). */
const BAD_INPUT = 1001

/** The BioEngine (reference §4.4, §7, §8) under its base path, with the fake matcher of fake-matcher.ts. */
export function bioEngine(store: Store, v: ReplyVariant, options: StandinOptions): ServerModule {
  const top = v.scoreScale === 'unit' ? 1 : 100
  const threshold = v.scoreScale === 'unit' ? 0.8 : 48
  const error = (status: number, message: string, code = status): Reply => ({ status, body: { code, message } })
  const unauthorized = (message: string, challenge = 'Bearer'): Reply => ({ ...error(401, message), headers: { 'www-authenticate': challenge } })
  const ok = (body?: unknown, status = 200): Reply => ({ status, body })
  const info = (t: TemplateRec) => ({ templateType: t.templateType, templateContext: t.templateContext, size: t.size, timestamp: t.timestamp })
  const templatesOf = (personId: string, type?: string) => store.templates.filter((t) => t.personId === personId && (type === undefined || t.templateType === type))
  const badBody = (ctx: Ctx, detail: string) => {
    ctx.depart('bio.body', detail)
    return new HttpError(400, detail)
  }
  const requireType = (ctx: Ctx, type: unknown) => {
    if (type === TEMPLATE_TYPE) return
    ctx.depart('bio.template-type', `templateType ${JSON.stringify(type)} is not one /template-types lists`)
    throw new HttpError(400, `unknown templateType ${String(type)}`)
  }
  /** Identify and verify inputs: a bad shape fails the request; a bad sample fails only its own result (§4.4 rule 2). */
  const inputs = (ctx: Ctx, list: unknown, name: string, identify: boolean): Array<Record<string, unknown>> => {
    if (!Array.isArray(list) || !list.length || !list.every(isRecord)) throw badBody(ctx, `${name} must be a non-empty array of objects`)
    for (const input of list) {
      requireType(ctx, input.templateType)
      if (input.thresholdValue !== undefined && typeof input.thresholdValue !== 'number') throw badBody(ctx, 'thresholdValue is a float')
      if (identify && input.maxResults !== undefined && !(isInt(input.maxResults) && input.maxResults > 0)) throw badBody(ctx, 'maxResults is a positive integer')
    }
    return list
  }
  const uuidOf = (personId: string) => (store.persons.has(personId) ? personId : (store.find('userId', personId)?.uuid ?? personId))

  function identifyOne(input: Record<string, unknown>, targetId: number) {
    const base = { targetId, templateType: input.templateType, totalDurationMS: 1 }
    const probe = probeHashes({ sample: input.sample, template: input.template })
    if (!Array.isArray(probe)) return { ...base, identifyMatchResults: [], errorCode: BAD_INPUT, errorMessage: probe.error }
    const floor = typeof input.thresholdValue === 'number' ? input.thresholdValue : threshold
    const best = new Map<string, number>()
    for (const t of store.templates) if (t.templateType === input.templateType) best.set(t.personId, Math.max(best.get(t.personId) ?? 0, score(probe, t.hashes, top)))
    const hits = [...best].filter(([, s]) => s >= floor).sort((a, b) => b[1] - a[1])
    const limit = typeof input.maxResults === 'number' ? input.maxResults : hits.length
    return { ...base, identifyMatchResults: hits.slice(0, limit).map(([personId, s]) => ({ personId, personUUID: uuidOf(personId), score: s })) }
  }

  function verifyOne(personId: string, input: Record<string, unknown>) {
    const probe = probeHashes({ sample: input.sample, template: input.template })
    if (!Array.isArray(probe)) return { personId, errorCode: BAD_INPUT, errorMessage: probe.error }
    const mine = templatesOf(personId, String(input.templateType))
    return mine.length ? { personId, score: Math.max(...mine.map((t) => score(probe, t.hashes, top))) } : {} // the reference's "empty placeholder"
  }

  function match(ctx: Ctx): Reply {
    const parts = parseMultipart(ctx.headers['content-type'], ctx.body)
    if (!parts) {
      ctx.depart('match.multipart', `POST /match is multipart/form-data, got ${ctx.headers['content-type'] ?? 'no Content-Type'}`)
      throw new HttpError(400, 'the request must be multipart/form-data')
    }
    const names = parts.map((p) => p.name).sort()
    if (names.join() !== 'Image1,Image2') {
      ctx.depart('match.fields', `two files, Image1 and Image2; got ${names.join(', ') || 'none'}`)
      throw new HttpError(400, 'send two images, Image1 and Image2')
    }
    // §8: the kiosk must check these before sending, so each breach is a departure.
    const problems: string[] = []
    const breach = (rule: string, detail: string) => {
      ctx.depart(rule, detail)
      problems.push(detail)
    }
    for (const { name, data } of parts) {
      const { kind, width, height } = imageInfo(data)
      if (!kind || width === null || height === null) breach('match.image-format', `${name} is not a readable JPEG or PNG image`)
      else if (Math.min(width, height) < 150 || Math.max(width, height) > 1024) breach('match.image-dimensions', `${name} is ${width}x${height}, outside 150x150–1024x1024`)
      if (data.length > MATCH_MAX_BYTES) breach('match.image-size', `${name} is ${data.length} bytes, over 2 MB`)
    }
    if (problems.length) throw new HttpError(400, problems.join('; '))
    const [image1, image2] = ['Image1', 'Image2'].map((n) => parts.find((p) => p.name === n)?.data ?? Buffer.alloc(0))
    const s = image1?.equals(image2 ?? Buffer.alloc(0)) ? 97 : 10
    const reply = { status: 'OK', score: s, pass: s >= MATCH_PASS, durationMS: 2 }
    return ok(v.faceMatchCase === 'lower' ? reply : { Status: reply.status, Score: reply.score, Pass: reply.pass, DurationMS: reply.durationMS })
  }

  const deleteTemplates: Handler = (_, { pid, type, context }) => {
    store.templates = store.templates.filter((t) => !(t.personId === pid && (type === undefined || t.templateType === type) && (context === undefined || t.templateContext === context)))
    return ok() // 200 even when nothing matched (§7.3)
  }
  const listTemplates: Handler = (_, { pid = '', type }) => ok({ biometricInfos: templatesOf(pid, type).map(info) })

  const routes = [
    route('GET', '/logs', () => ({ status: 200, raw: { type: 'application/zip', data: LOGS_ZIP } })),
    route('GET', '/template-types', () => ok({ templateTypes: [{ templateType: TEMPLATE_TYPE, scoreThreshold: threshold, numSamplesForEnroll: 1, isInstantiated: true }] })),
    jsonRoute('POST', '/persons/:pid/biometrics', error, (ctx, b, { pid = '' }) => {
      const { templateType, templateContext } = b
      if (typeof templateType !== 'string' || typeof templateContext !== 'string') throw badBody(ctx, 'BiometricEnrollRequest needs templateType and templateContext')
      requireType(ctx, templateType)
      if (b.samples === undefined && b.template === undefined) throw badBody(ctx, 'either samples or template must be provided')
      const hashes = probeHashes(b)
      if (!Array.isArray(hashes)) return error(400, hashes.error, BAD_INPUT)
      const rec = { personId: pid, templateType, templateContext, hashes, size: encodeTemplate(hashes).length, timestamp: Date.now() }
      // Same (person, type, context) replaces: a replayed enroll leaves one template.
      store.templates = store.templates.filter((t) => !(t.personId === pid && t.templateType === templateType && t.templateContext === templateContext)).concat(rec)
      return ok(v.enrollReply === 'quality' ? { quality: QUALITY } : { biometricInfos: templatesOf(pid).map(info) }, 201)
    }),
    jsonRoute('POST', '/biometrics', error, (ctx, b) => {
      if (typeof b.templateType !== 'string' || !Array.isArray(b.samples)) throw badBody(ctx, 'BiometricCreateRequest needs templateType and samples')
      requireType(ctx, b.templateType)
      const hashes = probeHashes({ samples: b.samples })
      return Array.isArray(hashes) ? ok({ quality: QUALITY, templatedata: encodeTemplate(hashes) }, 201) : error(400, hashes.error, BAD_INPUT)
    }),
    route('GET', '/persons/:pid/biometrics', listTemplates),
    route('GET', '/persons/:pid/biometrics/:type', listTemplates),
    route('DELETE', '/persons/:pid/biometrics', deleteTemplates),
    route('DELETE', '/persons/:pid/biometrics/:type', deleteTemplates),
    route('DELETE', '/persons/:pid/biometrics/:type/:context', deleteTemplates),
    jsonRoute('POST', '/identify', error, (ctx, b) => ok({ allIdentifyResults: inputs(ctx, b.identifyInputs, 'identifyInputs', true).map((input, i) => ({ identifyResults: [identifyOne(input, i)] })) })),
    jsonRoute('POST', '/persons/:pid/verify', error, (ctx, b, { pid = '' }) => ok({ allMatchResults: inputs(ctx, b.verifyInputs, 'verifyInputs', false).map((input) => ({ matchResults: [verifyOne(pid, input)] })) })),
    route('POST', '/match', match, true),
    route('POST', '/createcache', () => ok(undefined, 201)),
    route('POST', '/createplugincache/:plugin', (_, { plugin }) => (plugin === PLUGIN ? ok(undefined, 201) : error(400, `no plugin named ${plugin}`))),
  ]

  return {
    error,
    expired: () => unauthorized('The token has expired', 'Bearer error="invalid_token", error_description="The token has expired"'),
    handle(outer) {
      if (outer.path !== BIO_BASE && !outer.path.startsWith(`${BIO_BASE}/`)) {
        outer.depart('route.base-path', `BioEngine paths live under the base path ${BIO_BASE}; got ${outer.path}`)
        return error(404, 'Not Found')
      }
      const ctx = { ...outer, path: outer.path.slice(BIO_BASE.length) }
      try {
        const found = findRoute(routes, ctx.method, ctx.path)
        if (!found) {
          ctx.depart('route.unknown', `the reference has no ${ctx.method} ${ctx.path}`)
          return error(404, 'Not Found')
        }
        // Whether /match needs a token is not shown: it is served with or without one.
        if (ctx.path !== '/match') {
          const presented = bearer(ctx.headers)
          if (presented === null) {
            ctx.depart('auth.bearer', 'every BioEngine call but /match carries Authorization: Bearer <JWT>')
            return unauthorized('Missing bearer token')
          }
          const valid = options.bioEngineJwt !== undefined ? presented === options.bioEngineJwt : store.tokenValid(presented)
          if (!valid) return unauthorized('Invalid or expired token', 'Bearer error="invalid_token"')
        }
        if (!found.route.hasBody) noBody(ctx)
        return found.route.handle(ctx, found.params)
      } catch (e) {
        if (e instanceof HttpError) return error(e.status, e.message)
        throw e
      }
    },
  }
}

/** A valid zip holding one empty stored file (an empty file needs no CRC): enough for "a zip file of logs". */
const LOGS_ZIP = (() => {
  const name = Buffer.from('standin.log')
  const local = Buffer.alloc(30)
  local.writeUInt32LE(0x04034b50, 0)
  local.writeUInt16LE(20, 4)
  local.writeUInt16LE(0x21, 12) // 1980-01-01
  local.writeUInt16LE(name.length, 26)
  const central = Buffer.alloc(46)
  central.writeUInt32LE(0x02014b50, 0)
  central.writeUInt16LE(20, 4)
  central.writeUInt16LE(20, 6)
  central.writeUInt16LE(0x21, 14)
  central.writeUInt16LE(name.length, 28)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(1, 8)
  end.writeUInt16LE(1, 10)
  end.writeUInt32LE(central.length + name.length, 12)
  end.writeUInt32LE(local.length + name.length, 16)
  return Buffer.concat([local, name, central, name, end])
})()

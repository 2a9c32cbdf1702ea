import fc from 'fast-check'
import { hostileSegment, mutated } from './hostile'
import type { FuzzImages } from './images'
import { nested, queryPairs, Raw, toJson } from './json'
import type { FuzzRoute } from './route-table'
import { jsonSchemaOf, valueOf, type Hints, type JsonSchema } from './schema-arb'
import type { AuthVariant } from './tokens'

/** A body as generated; 'padded' ones (at or over a route's limit) are only made when sent. */
export type BodySpec =
  | { kind: 'none' }
  | { kind: 'bytes'; bytes: Buffer }
  | { kind: 'padded'; size: number; chunked: boolean }
  | { kind: 'multipart'; parts: Array<{ field: string; file: number; name: string }> }

export interface FuzzRequest {
  route: string
  method: string
  path: string
  headers: Record<string, string>
  body: BodySpec
  /** The generator's choices, for the report: 'auth=expired body=truncated-json ...'. */
  label: string
  /** The body exceeds the route's limit: the engine may stop reading and close the connection. */
  oversize: boolean
}

export interface FuzzContext {
  hints: Hints
  auth: { valid: AuthVariant; bearer: AuthVariant[]; basic: AuthVariant[] }
  validBasic: AuthVariant
  images: FuzzImages
}

/** Percent-encodes a generated segment or query part (lone surrogates included, as UTF-8 of U+FFFD). */
function encode(value: unknown): string {
  const text = typeof value === 'string' ? value : value instanceof Raw ? value.text : toJson(value)
  return encodeURIComponent(text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'))
}

/** Which part of a request is hostile; the others are valid, so the hostile part reaches deep. */
type Focus = 'auth' | 'path' | 'query' | 'body' | 'everything'
/** valid: as an honest client sends it; hostile: mutated; either: a coin flip (focus 'everything'). */
type Mode = 'valid' | 'hostile' | 'either'
const modeFor = (focus: Focus, part: Focus): Mode => (focus === part ? 'hostile' : focus === 'everything' ? 'either' : 'valid')

function choose<T>(mode: Mode, valid: fc.Arbitrary<T>, hostile: fc.Arbitrary<T>): fc.Arbitrary<T> {
  return mode === 'valid' ? valid : mode === 'hostile' ? hostile : fc.oneof(valid, hostile)
}

function pathOf(route: FuzzRoute, ctx: FuzzContext, mode: Mode): fc.Arbitrary<{ path: string; hostile: boolean }> {
  const schema = route.schema.params ? jsonSchemaOf(route.schema.params) : {}
  const parts = route.url.split('/')
  const params = parts.flatMap((part, i) => (part.startsWith(':') ? [i] : []))
  const segment = (part: string) => valueOf(schema.properties?.[part.slice(1)] ?? { type: 'string' }, ctx.hints, part.slice(1)).map(encode)
  const valid = fc.tuple(...parts.map((part) => (part.startsWith(':') ? segment(part) : fc.constant(part)))).map((texts) => ({ path: texts.join('/'), hostile: false }))
  // One parameter hostile (a route without parameters gets a hostile segment appended).
  const hostile = fc.tuple(valid, hostileSegment, fc.nat()).map(([{ path }, bad, at]) => {
    const texts = path.split('/')
    if (params.length === 0) return { path: `${path}/${bad}`, hostile: true }
    texts[params[at % params.length]!] = bad
    return { path: texts.join('/'), hostile: true }
  })
  return choose(mode, valid, hostile)
}

const junkQueries = ['%', 'a=%zz', '&&&=&', '__proto__[polluted]=1', 'constructor=1&sort=constructor', 'sort=__proto__', 'toString=1', `q=${'x'.repeat(20_000)}`, 'pageSize=1e400&pageNo=-1', 'a[]=1&a[]=2', '=', '%00=%00']

function queryOf(route: FuzzRoute, ctx: FuzzContext, mode: Mode): fc.Arbitrary<{ query: string; label: string }> {
  const junk = fc.constantFrom(...junkQueries).map((query) => ({ query, label: 'junk' }))
  if (!route.schema.querystring) return choose(mode, fc.constant({ query: '', label: '' }), junk)
  const valid = valueOf(jsonSchemaOf(route.schema.querystring), ctx.hints)
  const serialize = (value: unknown) => queryPairs(value).map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&')
  // The same key twice (scope=a&scope=b): a framework hands the handler an array, not a string.
  const repeated = fc.tuple(valid, fc.string({ maxLength: 8 }), fc.nat()).map(([value, extra, at]) => {
    const pairs = queryPairs(value)
    const [key, v] = pairs[at % Math.max(1, pairs.length)] ?? ['scope', 'a']
    return { query: [...pairs, [key, `${v}${extra}`]].map(([k, x]) => `${encode(k)}=${encode(x)}`).join('&'), label: 'repeated-key' }
  })
  const hostile = fc.oneof(
    { arbitrary: mutated(valid, ctx.hints).map((value) => ({ query: serialize(value), label: 'mutated' })), weight: 4 },
    { arbitrary: repeated, weight: 2 },
    { arbitrary: junk, weight: 1 },
  )
  return choose(mode, valid.map((value) => ({ query: serialize(value), label: 'valid' })), hostile)
}

const JSON_TYPE = 'application/json'
const otherTypes = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', 'application/json; charset=utf-16', 'application/octet-stream', 'application/xml', 'application/json, text/plain', '*/*']

type GeneratedBody = { body: BodySpec; contentType: string | undefined; label: string; oversize: boolean }

function bodyOf(route: FuzzRoute, ctx: FuzzContext, mode: Mode): fc.Arbitrary<GeneratedBody> {
  const json = (value: unknown) => Buffer.from(value instanceof Raw ? value.text : toJson(value))
  const schema: JsonSchema = route.schema.body ? jsonSchemaOf(route.schema.body) : {}
  const valid = valueOf(schema, ctx.hints)
  const bytes = (label: string, arb: fc.Arbitrary<Buffer>, type: fc.Arbitrary<string | undefined> = fc.constant(JSON_TYPE)) =>
    fc.tuple(arb, type).map(([b, t]): GeneratedBody => ({ body: { kind: 'bytes', bytes: b }, contentType: t, label: `${label}${t === JSON_TYPE ? '' : ` as ${t ?? 'no type'}`}`, oversize: b.length > route.bodyLimit }))
  const none = fc.constantFrom<string | undefined>(undefined, JSON_TYPE).map((type): GeneratedBody => ({ body: { kind: 'none' }, contentType: type, label: `no body${type ? ' as json' : ''}`, oversize: false }))
  const multipart = (parts: fc.Arbitrary<Array<{ field: string; file: number; name: string }>>) =>
    parts.map((list): GeneratedBody => ({ body: { kind: 'multipart', parts: list }, contentType: undefined, label: `multipart ${list.map((p) => p.field).join('+') || '(empty)'}`, oversize: false }))
  const isMatch = route.url.endsWith('/match')
  // Two decodable images as Image1 and Image2 (files 0 and 1: the face, a blank 200 px JPEG).
  const validMatch = multipart(fc.tuple(fc.nat(1), fc.nat(1)).map(([a, b]) => [{ field: 'Image1', file: a, name: 'a.jpg' }, { field: 'Image2', file: b, name: 'b.jpg' }]))
  const validBody = route.method === 'GET' || route.method === 'DELETE' ? none : isMatch ? validMatch : bytes('json', valid.map(json))

  const raw = fc.constantFrom(
    '{"templateType": ',
    '{"a":1',
    '[1,2]',
    '"just a string"',
    'null',
    '12',
    'not json at all',
    '{"a":1}{"b":2}',
    '\ufeff{}',
    '{"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    nested(10_000, 'array').text,
    nested(10_000, 'object').text,
    `{"a":"${'\\u0000'.repeat(1000)}"}`,
  )
  const truncated = fc.tuple(valid, fc.double({ min: 0, max: 1, noNaN: true })).map(([value, at]) => {
    const text = json(value)
    return text.subarray(0, Math.floor(text.length * at))
  })
  const invalidUtf8 = fc.constant(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0xfe, 0x22, 0x7d]))
  // At the limit, one byte over, and double (the last sent chunked: no Content-Length to refuse early).
  const padded = fc
    .constantFrom(
      { size: route.bodyLimit, chunked: false, label: 'at the body limit' },
      { size: route.bodyLimit + 1, chunked: false, label: 'one byte over the body limit' },
      { size: route.bodyLimit * 2, chunked: true, label: 'twice the body limit, chunked' },
    )
    .map(({ size, chunked, label }): GeneratedBody => ({ body: { kind: 'padded', size, chunked }, contentType: JSON_TYPE, label, oversize: size > route.bodyLimit }))
  const anyParts = fc.array(
    fc.record({ field: fc.constantFrom('Image1', 'Image2', 'Image3', 'other', '__proto__'), file: fc.nat(ctx.images.files.length - 1), name: fc.constantFrom('a.jpg', '../../x.png', '') }),
    { minLength: 0, maxLength: 4 },
  )
  const hostile = fc.oneof(
    { arbitrary: bytes('mutated-json', mutated(valid, ctx.hints).map(json)), weight: 6 },
    { arbitrary: bytes('json', valid.map(json), fc.constantFrom<string | undefined>(undefined, ...otherTypes)), weight: 2 },
    { arbitrary: bytes('raw', raw.map((text) => Buffer.from(text))), weight: 2 },
    { arbitrary: bytes('truncated-json', truncated), weight: 1 },
    { arbitrary: bytes('invalid-utf8', invalidUtf8), weight: 1 },
    { arbitrary: padded, weight: 1 },
    { arbitrary: multipart(anyParts), weight: isMatch ? 8 : 1 },
    { arbitrary: none, weight: 1 },
  )
  return choose(mode, validBody, hostile)
}

function authOf(route: FuzzRoute, ctx: FuzzContext, mode: Mode): fc.Arbitrary<AuthVariant> {
  const valid = route.auth === 'basic' ? ctx.validBasic : ctx.auth.valid
  return choose(mode, fc.constant(valid), fc.constantFrom(...(route.auth === 'basic' ? ctx.auth.basic : ctx.auth.bearer)))
}

/**
 * Arbitrary requests to one route. Each has a focus: the part that is hostile while the rest is
 * valid (so a mutated body meets a valid token and reaches the handler), or 'everything', where
 * each part is hostile or not independently.
 */
export function requestsOf(route: FuzzRoute, ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const hasBody = route.method === 'POST' || route.method === 'PUT'
  const focus = fc.oneof(
    { arbitrary: fc.constant<Focus>('auth'), weight: 2 },
    { arbitrary: fc.constant<Focus>('path'), weight: route.url.includes(':') ? 2 : 1 },
    { arbitrary: fc.constant<Focus>('query'), weight: route.schema.querystring ? 4 : 1 },
    { arbitrary: fc.constant<Focus>('body'), weight: hasBody ? 5 : 1 },
    { arbitrary: fc.constant<Focus>('everything'), weight: 2 },
  )
  return focus.chain((f) =>
    fc.tuple(pathOf(route, ctx, modeFor(f, 'path')), queryOf(route, ctx, modeFor(f, 'query')), bodyOf(route, ctx, modeFor(f, 'body')), authOf(route, ctx, modeFor(f, 'auth'))).map(([path, query, body, auth]): FuzzRequest => {
      const headers: Record<string, string> = {}
      if (auth.header !== undefined) headers.authorization = auth.header
      if (body.contentType !== undefined) headers['content-type'] = body.contentType
      return {
        route: `${route.method} ${route.url}`,
        method: route.method,
        path: `${path.path}${query.query ? `?${query.query}` : ''}`,
        headers,
        body: body.body,
        label: [`focus=${f}`, `auth=${auth.name}`, path.hostile ? 'path=hostile' : '', query.label ? `query=${query.label}` : '', `body=${body.label}`].filter(Boolean).join(' '),
        oversize: body.oversize,
      }
    }),
  )
}

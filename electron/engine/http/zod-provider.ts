import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifySchemaCompiler,
  FastifySerializerCompiler,
  FastifyTypeProvider,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify'
import type { z } from 'zod'
import { HttpError } from './errors'

/**
 * Fastify type provider for zod: routes declare zod schemas (params, querystring, body, response)
 * and their handlers are typed from them; requests are validated and replies checked with them.
 */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown
}

const partNames: Record<string, string> = { params: 'path', querystring: 'query', body: 'body', headers: 'headers' }

/** A failed part is a 400 naming the field, in the words the engine used before routes had schemas. */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema, httpPart }) =>
  (data) => {
    const result = schema.safeParse(data)
    if (result.success) return { value: result.data }
    const what = partNames[httpPart ?? 'body'] ?? 'request'
    const issue = result.error.issues[0]
    const field = issue?.path.length ? ` field ${issue.path.join('.')}` : ''
    return { error: new HttpError(400, `Invalid ${what}${field}: ${issue?.message ?? 'malformed'}.`) }
  }

/** A reply that does not match its schema is the engine's own fault: it throws, and is answered 500 and logged. */
export const zodSerializerCompiler: FastifySerializerCompiler<z.ZodType> =
  ({ schema, url, method }) =>
  (data) => {
    const result = schema.safeParse(data)
    if (!result.success) throw new Error(`${method} ${url}: reply does not match its schema: ${result.error.issues[0]?.message ?? ''} at ${result.error.issues[0]?.path.join('.') ?? ''}`)
    return JSON.stringify(result.data)
  }

/** The engine's Fastify instance, typed by its zod schemas. */
export type EngineApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>

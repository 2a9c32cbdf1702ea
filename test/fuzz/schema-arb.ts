import fc from 'fast-check'
import { z } from 'zod'

/** The subset of JSON Schema (draft 2020-12, as z.toJSONSchema writes it) the generator reads. */
export interface JsonSchema {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  additionalProperties?: boolean | JsonSchema
  items?: JsonSchema
  prefixItems?: JsonSchema[]
  minItems?: number
  maxItems?: number
  minLength?: number
  maxLength?: number
  pattern?: string
  format?: string
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
  enum?: unknown[]
  const?: unknown
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  allOf?: JsonSchema[]
  $ref?: string
  $defs?: Record<string, JsonSchema>
}

export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  // io 'input': what a caller sends (before defaults and transforms); unrepresentable parts are 'any'.
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema
}

/**
 * Values known to mean something to the engine, by field or parameter name (lower case): good ones
 * (an enrolled person's id, an installed template type) and near misses (another tenant's code,
 * sort=constructor).
 */
export type Hints = (name: string) => { good: fc.Arbitrary<unknown>; tricky: fc.Arbitrary<unknown> } | undefined

/** Generated arrays are mostly short (each sample may cost an inference); one in eight is as long as allowed. */
const MAX_GENERATED_ITEMS = 4
const MAX_BOUNDARY_ITEMS = 1000
const MAX_DEPTH = 6

/**
 * Values that (mostly) satisfy a schema, taken from the good hints where a field's name has some,
 * so requests get past validation and into the handlers. "Mostly": a pattern with lookarounds is
 * generated without them.
 */
export function valueOf(schema: JsonSchema, hints: Hints, name = '', root: JsonSchema = schema, depth = 0): fc.Arbitrary<unknown> {
  // A hint knows more than the schema (which person exists, which sort keys mean something).
  return (name && hints(name.toLowerCase())?.good) || derive(schema, hints, name, root, depth)
}

function derive(schema: JsonSchema, hints: Hints, name: string, root: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  if (depth > MAX_DEPTH) return fc.constant(null)
  const next = (s: JsonSchema, n = name) => valueOf(s, hints, n, root, depth + 1)
  if (schema.$ref) {
    const target = schema.$ref.startsWith('#/$defs/') ? root.$defs?.[schema.$ref.slice('#/$defs/'.length)] : schema.$ref === '#' ? root : undefined
    return target ? next(target) : fc.jsonValue({ maxDepth: 2 })
  }
  if ('const' in schema) return fc.constant(schema.const)
  if (schema.enum) return fc.constantFrom(...schema.enum)
  const alternatives = schema.anyOf ?? schema.oneOf
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => next(s)))
  if (schema.allOf?.length) return next(schema.allOf[0]!)
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []
  if (types.length > 1) return fc.oneof(...types.map((type) => next({ ...schema, type })))
  switch (types[0]) {
    case 'string':
      return stringOf(schema)
    case 'integer':
      return fc.integer({ min: Math.max(schema.minimum ?? -(2 ** 31), -(2 ** 31)), max: Math.min(schema.maximum ?? 2 ** 31 - 1, 2 ** 31 - 1) })
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9, noNaN: true, noDefaultInfinity: true })
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array': {
      const items = schema.items ? next(schema.items) : fc.jsonValue({ maxDepth: 1 })
      const minLength = schema.minItems ?? 0
      const short = fc.array(items, { minLength, maxLength: Math.max(minLength, Math.min(schema.maxItems ?? MAX_GENERATED_ITEMS, MAX_GENERATED_ITEMS)) })
      if (schema.maxItems === undefined || schema.maxItems <= MAX_GENERATED_ITEMS || schema.maxItems > MAX_BOUNDARY_ITEMS) return short
      return fc.oneof({ arbitrary: short, weight: 7 }, { arbitrary: fc.array(items, { minLength: schema.maxItems, maxLength: schema.maxItems }), weight: 1 })
    }
    case 'object': {
      const properties = schema.properties ?? {}
      if (Object.keys(properties).length === 0) return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 })
      // Required fields plus a few optional ones: many optional fields at once often clash (userId with deviceId).
      const required = new Set((schema.required ?? []).filter((key) => key in properties))
      const optional = Object.keys(properties).filter((key) => !required.has(key))
      return fc.tuple(fc.subarray(optional, { maxLength: Math.min(3, optional.length) }), fc.record(Object.fromEntries(Object.entries(properties).map(([key, s]) => [key, next(s, key)])))).map(([chosen, all]) =>
        Object.fromEntries(Object.entries(all).filter(([key]) => required.has(key) || chosen.includes(key))),
      )
    }
    default:
      // {} (any value): whatever a hint offers, else small JSON.
      return (name && hints(name.toLowerCase())?.good) || fc.jsonValue({ maxDepth: 2 })
  }
}

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  const maxLength = Math.min(schema.maxLength ?? 40, 200)
  const minLength = Math.min(schema.minLength ?? 0, maxLength)
  if (schema.format === 'email') return fc.emailAddress().filter((s) => s.length <= maxLength)
  if (schema.pattern) {
    // fast-check cannot generate lookarounds: generate without them (the engine rejects the rare misses).
    const pattern = schema.pattern.replace(/\(\?<?[!=][^()]*(?:\([^()]*\)[^()]*)*\)/g, '')
    try {
      return fc.stringMatching(new RegExp(pattern)).filter((s) => s.length <= Math.max(maxLength, 1))
    } catch {
      // a construct fast-check does not know: fall through to plain strings
    }
  }
  return fc.string({ minLength, maxLength, unit: 'grapheme' })
}

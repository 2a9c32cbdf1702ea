import type { FastifyInstance } from 'fastify'
import { HttpError } from './errors'

/** No call of either API nests deeper than a handful of levels. */
export const MAX_JSON_DEPTH = 16
/** Arrays, objects and their members in one body: 100 inputs of a few fields each fit many times over. */
export const MAX_JSON_VALUES = 10_000

/**
 * Why a JSON text is refused before parsing, or null. JSON.parse builds whatever it is given: 11 M
 * empty objects take gigabytes, deep nesting minutes. This linear scan counts structure only,
 * jumping over strings (samples are long base64 strings) with indexOf.
 */
export function jsonShapeProblem(text: string, maxDepth = MAX_JSON_DEPTH, maxValues = MAX_JSON_VALUES): string | null {
  let depth = 0
  let values = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 0x22) {
      i = closingQuote(text, i)
      if (i < 0) return null // unterminated: JSON.parse says so
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return `The JSON body is nested deeper than ${maxDepth} levels.`
      if (++values > maxValues) return `The JSON body holds more than ${maxValues} values.`
    } else if (c === 0x7d || c === 0x5d) {
      depth--
    } else if (c === 0x2c) {
      if (++values > maxValues) return `The JSON body holds more than ${maxValues} values.`
    }
  }
  return null
}

/** Index of the quote closing the string that opens at `open`, or -1. */
function closingQuote(text: string, open: number): number {
  for (let at = text.indexOf('"', open + 1); at >= 0; at = text.indexOf('"', at + 1)) {
    let backslashes = 0
    while (text.charCodeAt(at - 1 - backslashes) === 0x5c) backslashes++
    if (backslashes % 2 === 0) return at
  }
  return -1
}

/**
 * The engine's body parsers: JSON bounded in depth and size of structure (prototype keys refused),
 * an empty JSON body read as none, and the token call's form body with repeated fields kept as
 * arrays so the route's schema refuses them.
 */
export function installBodyParsers(app: FastifyInstance): void {
  const json = app.getDefaultJsonParser('error', 'error')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string
    // Calls with "no body" (associate, caches) often still say application/json: treat empty as none.
    if (text.trim() === '') return done(null, undefined)
    const problem = jsonShapeProblem(text)
    if (problem) return done(new HttpError(400, problem), undefined)
    json(request, text, done)
  })
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    const form: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>
    for (const [key, value] of new URLSearchParams(body as string)) {
      const previous = form[key]
      form[key] = previous === undefined ? value : [previous, value].flat()
    }
    done(null, form)
  })
}

import { z } from 'zod'
import { HttpError } from './errors'

/**
 * Path and query parameter shapes. Anything else (slashes, dots-only segments, control
 * characters: path traversal attempts) is a 400 before any handler runs.
 */
export const tenantCode = z.string().regex(/^(?!\.+$)[A-Za-z0-9_.-]{1,64}$/, 'must be 1–64 letters, digits, dot, dash or underscore')
export const code = tenantCode
export const personUuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a person UUID')
/** A BioEngine person id: the kiosk uses person UUIDs, but any id of this shape is accepted. */
export const bioPersonId = z.string().regex(/^(?!\.+$)[A-Za-z0-9@._+-]{1,128}$/, 'must be 1–128 letters, digits or @._+-')
export const templateType = z.string().regex(/^[A-Za-z]{1,32}:[A-Za-z0-9]{1,64}$/, 'must look like BioType:Plugin')
export const templateContext = z.string().regex(/^(?!\.+$)[A-Za-z0-9@._:+-]{1,128}$/, 'must be 1–128 letters, digits or @._:+-')
export const email = z.email('must be an e-mail address').max(254)

/** Parses request parts with a schema; failures become a 400 naming the field. */
export function parse<T extends z.ZodType>(schema: T, value: unknown, what: string): z.infer<T> {
  const result = schema.safeParse(value)
  if (!result.success) {
    const issue = result.error.issues[0]
    const field = issue?.path.length ? issue.path.join('.') : what
    throw new HttpError(400, `Invalid ${field === what ? what : `${what} field ${field}`}: ${issue?.message ?? 'malformed'}.`)
  }
  return result.data
}

import { KioskError } from '@shared/errors'

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })
/** Licence expiry dates are whole days, stored as midnight UTC: shown in UTC so the day never shifts. */
const utcDate = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' })

/** Epoch milliseconds as a local date and time; '—' when unknown. */
export function formatDateTime(ms: number | null | undefined): string {
  return typeof ms === 'number' && Number.isFinite(ms) ? dateTime.format(new Date(ms)) : '—'
}

/** Epoch milliseconds (midnight UTC of a day) as that day. */
export function formatDay(ms: number | null | undefined): string {
  return typeof ms === 'number' && Number.isFinite(ms) ? utcDate.format(new Date(ms)) : '—'
}

/** 'YYYY-MM-DD' from an <input type="date"> to epoch milliseconds at midnight UTC; null if empty or invalid. */
export function dayToEpochMs(day: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  if (!match) return null
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))
  return Number.isFinite(ms) ? ms : null
}

/** A size in bytes in plain units; '—' when the server did not say. */
export function formatBytes(bytes: number | null | undefined): string {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes)) return '—'
  if (bytes < 1024) return `${bytes} bytes`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}

/** "in 12 s", "in 3 min", "now" — for when something will next happen. */
export function formatFromNow(ms: number | null | undefined, now = Date.now()): string {
  if (typeof ms !== 'number') return '—'
  const seconds = Math.round((ms - now) / 1000)
  if (seconds <= 0) return 'now'
  if (seconds < 60) return `in ${seconds} s`
  if (seconds < 3600) return `in ${Math.round(seconds / 60)} min`
  return formatDateTime(ms)
}

export const plural = (count: number, one: string, many = `${one}s`): string => `${count} ${count === 1 ? one : many}`

export interface FieldErrors<K extends string> {
  /** Messages for known fields, by field name. */
  fields: Partial<Record<K, string>>
  /** Messages that belong to no known field (or the whole input). */
  other: string[]
}

/**
 * Reads the field messages out of an INVALID_INPUT error. The services describe invalid input with
 * zod's pretty format: one "✖ message" line per problem, followed by "  → at path" when it
 * concerns a field. Anything else (another error code, a message in another shape) comes back empty.
 */
export function fieldErrorsOf<K extends string>(error: unknown, known: readonly K[]): FieldErrors<K> | null {
  if (!(error instanceof KioskError) || error.code !== 'INVALID_INPUT') return null
  const fields: Partial<Record<K, string>> = {}
  const other: string[] = []
  const lines = error.message.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const problem = /✖\s*(.+)$/.exec(lines[i]!)
    if (!problem) continue
    const at = /^\s*→ at (\S+)/.exec(lines[i + 1] ?? '')
    const field = at?.[1]?.split('.')[0] as K | undefined
    if (field && known.includes(field)) {
      fields[field] = fields[field] ? `${fields[field]}; ${problem[1]}` : problem[1]!
      i++
    } else {
      other.push(problem[1]!)
    }
  }
  if (Object.keys(fields).length === 0 && other.length === 0) other.push(error.message)
  return { fields, other }
}

/** The person server's enrollment status in plain words; a server that sends none gets "Not reported". */
export function enrollmentWords(status: string | null | undefined): string {
  if (status === 'ENROLLED') return 'Enrolled'
  if (status === 'NOT_ENROLLED') return 'Not enrolled'
  return status === null || status === undefined || status.trim() === '' ? 'Not reported' : status
}

import type { Visit } from '../../shared/visits'

/**
 * One CSV cell: always quoted, quotes doubled, and a value a spreadsheet would run as a formula
 * (starting with = + - @, a tab or a carriage return) prefixed with an apostrophe, so a visitor's
 * "purpose" cannot become code in staff's spreadsheet (CSV injection).
 */
export function csvCell(value: string | null): string {
  const text = value ?? ''
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text
  return `"${safe.replace(/"/g, '""')}"`
}

const two = (n: number) => String(n).padStart(2, '0')

/**
 * An ISO 8601 time as the kiosk's local time with its offset ("2026-07-01T14:30:05+02:00"): the
 * time the Visits screen shows, and still one exact instant for a spreadsheet in another zone.
 */
export function localIsoTime(iso: string): string {
  const at = new Date(iso)
  const offset = -at.getTimezoneOffset()
  const sign = offset < 0 ? '-' : '+'
  const zone = `${sign}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`
  return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}T${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}${zone}`
}

const columns: Array<[string, (visit: Visit) => string | null]> = [
  ['visit', (v) => v.id],
  ['email', (v) => v.email],
  ['first name', (v) => v.firstName],
  ['host', (v) => v.hostName],
  ['purpose', (v) => v.purpose],
  ['checked in', (v) => localIsoTime(v.checkedInAt)],
  ['checked out', (v) => (v.checkedOutAt === null ? null : localIsoTime(v.checkedOutAt))],
  ['checked out by', (v) => v.checkedOutBy],
  // The id stays, for a spreadsheet to join on; the name is empty where the visit has none (a kiosk on its own, or one the site no longer knows).
  ['kiosk', (v) => v.kioskId],
  ['kiosk name', (v) => v.kioskName],
  ['invite', (v) => v.inviteId],
]

/** The visit log as CSV (RFC 4180 line ends), a header row first. */
export function visitsCsv(visits: Visit[]): string {
  const lines = [columns.map(([name]) => csvCell(name)).join(',')]
  for (const visit of visits) lines.push(columns.map(([, cell]) => csvCell(cell(visit))).join(','))
  return `${lines.join('\r\n')}\r\n`
}

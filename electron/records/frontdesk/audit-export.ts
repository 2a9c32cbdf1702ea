import type { AuditEntryView } from '../../shared/audit'

const columns = ['seq', 'time', 'kioskId', 'kioskName', 'action', 'outcome', 'role', 'account', 'personUuid', 'detail', 'prevHash', 'hash'] as const

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
function field(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return ''
  const text = String(value)
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

function toCsv(entries: readonly AuditEntryView[]): string {
  const rows = entries.map((e) =>
    [e.seq, new Date(e.at).toISOString(), e.kioskId, e.kioskName, e.action, e.outcome, e.role, e.account, e.subject?.personUuid, e.detail, e.prevHash, e.hash].map(field).join(','),
  )
  return `${[columns.join(','), ...rows].join('\r\n')}\r\n`
}

/** The site's trail as a file staff download: CSV or JSON, named for the site and the time. */
export function siteAuditFile(entries: readonly AuditEntryView[], format: 'csv' | 'json', now: Date): { fileName: string; content: string; entries: number } {
  const stamp = now.toISOString().replace(/[:.]/g, '-').slice(0, 19)
  return {
    fileName: `site-audit-${stamp}.${format}`,
    content: format === 'csv' ? toCsv(entries) : JSON.stringify(entries, null, 2),
    entries: entries.length,
  }
}

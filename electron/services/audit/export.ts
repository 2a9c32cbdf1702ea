import type { AuditEntryView } from '../../shared/audit'

const columns = ['seq', 'time', 'kioskId', 'action', 'outcome', 'role', 'account', 'userId', 'personUuid', 'outboxId', 'score', 'detail', 'correlationId', 'hash'] as const

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
function field(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return ''
  const text = String(value)
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export function toCsv(entries: AuditEntryView[]): string {
  const rows = entries.map((e) =>
    [e.seq, new Date(e.at).toISOString(), e.kioskId, e.action, e.outcome, e.role, e.account, e.subject?.userId, e.subject?.personUuid, e.subject?.outboxId, e.score, e.detail, e.correlationId, e.hash]
      .map(field)
      .join(','),
  )
  return `${[columns.join(','), ...rows].join('\r\n')}\r\n`
}

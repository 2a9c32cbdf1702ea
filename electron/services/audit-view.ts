import type { z } from 'zod'
import type { auditExportInput, auditQueryInput } from '../shared/audit'
import type { AuditLog, AuditVerdict } from './audit'

/** The audit trail as staff read it: a page of entries with the chain's last verdict, and exports. */
export function auditView(log: AuditLog) {
  let lastVerdict: AuditVerdict = log.startVerdict
  return {
    log(query: z.infer<typeof auditQueryInput>) {
      return { entries: log.query(query), verdict: lastVerdict }
    },
    verify(): AuditVerdict {
      lastVerdict = log.verify()
      return lastVerdict
    },
    export({ format, ...query }: z.infer<typeof auditExportInput>, now = new Date()) {
      const entries = log.query({ ...query, limit: query.limit ?? 1000 }).length
      const stamp = now.toISOString().replace(/[:.]/g, '-').slice(0, 19)
      return { fileName: `kiosk-audit-${stamp}.${format}`, content: format === 'csv' ? log.exportCsv(query) : log.exportJson(query), entries }
    },
  }
}

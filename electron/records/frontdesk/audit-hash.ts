import { createHash } from 'node:crypto'

/** The hash before the first entry of a site's trail. */
export const SITE_AUDIT_GENESIS = '0'.repeat(64)

/** One entry of the site's trail as stored and as hashed: every column but the hash. */
export interface SiteAuditFields {
  seq: number
  at: number
  kioskId: string | null
  kioskName: string | null
  action: string
  outcome: string
  role: string
  account: string | null
  personUuid: string | null
  detail: string | null
  prevHash: string
}

/**
 * SHA-256 over the entry's fields in a fixed order, the previous entry's hash among them (as the
 * kiosk's own trail does, services/audit/chain.ts): changing, removing or reordering any entry
 * breaks every link after it.
 */
export function siteAuditHash(e: SiteAuditFields): string {
  const fields = [e.seq, e.at, e.kioskId, e.kioskName, e.action, e.outcome, e.role, e.account, e.personUuid, e.detail, e.prevHash]
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex')
}

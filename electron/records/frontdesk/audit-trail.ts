import { auditActions, auditOutcomes, auditRoles, type AuditAction, type AuditEntryView, type AuditVerdictView } from '../../shared/audit'
import type { Database, Sql } from '../sql/types'
import { siteAuditHash, SITE_AUDIT_GENESIS } from './audit-hash'
import { SiteAuditRepository, type SiteAuditQuery, type SiteAuditRow } from './audit-repository'

/** What the site records of one call it answered. Never an e-mail, a visitor's name, a token, a PIN or a secret. */
export interface SiteAuditInput {
  /** The paired kiosk that called; null only for a pairing that did not pair. */
  kioskId: string | null
  action: AuditAction
  outcome: 'ok' | 'refused' | 'failed'
  /** The staff session's role, else 'visitor'. */
  role: 'visitor' | 'operator' | 'admin'
  account: string | null
  personUuid?: string | null | undefined
  /** The route's name, and the refusal's code or what it did (ids only). */
  detail: string | null
}

export interface SiteAuditTrail {
  /** Appended at the end of the one chain, under a lock every engine of the site takes. */
  append(input: SiteAuditInput): Promise<AuditEntryView>
  /** Newest first, at most `limit` (1000 at most). */
  query(query: SiteAuditQuery & { limit?: number | undefined }): Promise<AuditEntryView[]>
  /** Walks the whole chain from its first entry; names the first entry that does not hold. */
  verify(): Promise<AuditVerdictView>
  /** Up to SITE_AUDIT_EXPORT_MAX matching entries, newest first. */
  exportRows(query: SiteAuditQuery): Promise<AuditEntryView[]>
}

/** Appends of the site's trail take this transaction lock on PostgreSQL: one chain across engines. */
const AUDIT_LOCK = 0x6b696f736b20
const MAX_TEXT = 256
const PAGE = 1000
export const SITE_AUDIT_EXPORT_MAX = 100_000

/** A stored row as the kiosk's screens show an entry (the site keeps no e-mails, scores or correlations). */
export function entryOf(row: SiteAuditRow): AuditEntryView {
  return {
    seq: row.seq,
    at: row.at,
    kioskId: row.kiosk_id ?? '',
    kioskName: row.kiosk_name,
    action: row.action as AuditAction,
    outcome: row.outcome as AuditEntryView['outcome'],
    role: row.role as AuditEntryView['role'],
    account: row.account,
    subject: row.person_uuid ? { personUuid: row.person_uuid } : null,
    score: null,
    detail: row.detail,
    correlationId: null,
    prevHash: row.prev_hash,
    hash: row.hash,
  }
}

function text(value: string | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return null
  // The site writes these itself (ids, codes, account names): cut, never refused, so an act is never left unrecorded for its length.
  return value.slice(0, MAX_TEXT)
}

/**
 * Appends an entry at the end of the one chain, in the caller's transaction (under a lock every
 * engine of the site takes): an act applied in a transaction is audited with it, or neither is.
 */
export async function appendSiteAudit(tx: Sql, input: SiteAuditInput, at: number): Promise<AuditEntryView> {
  if (tx.dialect === 'postgres') await tx.get('SELECT pg_advisory_xact_lock(?)', [AUDIT_LOCK])
  const rows = new SiteAuditRepository(tx)
  const end = await rows.end()
  const kioskId = input.kioskId?.toLowerCase() ?? null
  const fields = {
    seq: end.seq + 1,
    at,
    kioskId,
    kioskName: kioskId === null ? null : text(await rows.kioskName(kioskId)),
    action: input.action,
    outcome: input.outcome,
    role: input.role,
    account: text(input.account),
    personUuid: input.personUuid ? input.personUuid.toLowerCase() : null,
    detail: text(input.detail),
    prevHash: end.hash,
  }
  const hash = siteAuditHash(fields)
  await rows.insert(fields, hash)
  return entryOf({
    seq: fields.seq,
    at: fields.at,
    kiosk_id: fields.kioskId,
    kiosk_name: fields.kioskName,
    action: fields.action,
    outcome: fields.outcome,
    role: fields.role,
    account: fields.account,
    person_uuid: fields.personUuid,
    detail: fields.detail,
    prev_hash: fields.prevHash,
    hash,
  })
}


/** The site's audit trail over its database (the frontdesk set's step 4, audit-migration.ts). */
export function siteAuditTrail(db: Database, options: { now?: () => number } = {}): SiteAuditTrail {
  const now = options.now ?? Date.now
  const records = new SiteAuditRepository(db)

  return {
    async append(input) {
      if (!auditActions.includes(input.action) || !auditOutcomes.includes(input.outcome) || !auditRoles.includes(input.role)) {
        throw new Error('audit entry outside the known actions, outcomes or roles')
      }
      return db.transaction((tx) => appendSiteAudit(tx, input, now()))
    },
    async query({ limit, ...query }) {
      return (await records.query(query, Math.min(Math.max(limit ?? 200, 1), 1000))).map(entryOf)
    },
    async verify() {
      let previous = { seq: 0, hash: SITE_AUDIT_GENESIS }
      let entries = 0
      const previousFormat = { entries: 0, seqs: [] }
      for (;;) {
        const page = await records.after(previous.seq, PAGE)
        for (const row of page) {
          const bad = (reason: string): AuditVerdictView => ({ ok: false, entries, firstBadSeq: row.seq, reason, previousFormat })
          if (row.seq !== previous.seq + 1) return bad(`entry ${row.seq} does not follow entry ${previous.seq}`)
          if (row.prev_hash !== previous.hash) return bad(`entry ${row.seq} does not link to entry ${previous.seq}`)
          const hash = siteAuditHash({
            seq: row.seq,
            at: row.at,
            kioskId: row.kiosk_id,
            kioskName: row.kiosk_name,
            action: row.action,
            outcome: row.outcome,
            role: row.role,
            account: row.account,
            personUuid: row.person_uuid,
            detail: row.detail,
            prevHash: row.prev_hash,
          })
          if (hash !== row.hash) return bad(`entry ${row.seq} was changed after it was written`)
          previous = { seq: row.seq, hash: row.hash }
          entries++
        }
        if (page.length < PAGE) return { ok: true, entries, firstBadSeq: null, reason: null, previousFormat }
      }
    },
    async exportRows(query) {
      return (await records.query(query, SITE_AUDIT_EXPORT_MAX)).map(entryOf)
    },
  }
}

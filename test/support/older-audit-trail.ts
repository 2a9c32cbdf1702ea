import Database from 'better-sqlite3'
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import type { AuditEntryInput } from '../../electron/services/audit'

/**
 * Appends an entry to `<dir>/audit.db` as older kiosks did (electron/services/audit/
 * chain.ts and index.ts as they were), frozen here to write trails in the previous format: the
 * subject hashed as it was given, so an empty one ({} or '' fields) as its three columns, though it
 * is stored as NULLs and reads back as no subject. Texts as given (those kiosks could not keep a
 * lone surrogate half either). Never how the kiosk writes: only to make such trails in tests.
 */
export function appendAsOlderKiosk(dir: string, input: AuditEntryInput, at: number, kioskId = 'kiosk-1'): number {
  const db = new Database(join(dir, 'audit.db'))
  try {
    return db
      .transaction(() => {
        const end =
          db.prepare<[], { seq: number; hash: string }>('SELECT seq, hash FROM entries ORDER BY seq DESC LIMIT 1').get() ??
          db.prepare<[], { seq: number; hash: string }>('SELECT seq, hash FROM anchor WHERE id = 1').get() ?? { seq: 0, hash: '0'.repeat(64) }
        const subject = input.subject ?? null
        const e = {
          seq: end.seq + 1,
          at,
          kioskId,
          action: input.action,
          outcome: input.outcome,
          role: input.role,
          account: input.account ?? null,
          subject: subject && { userId: subject.userId ?? undefined, personUuid: subject.personUuid ?? undefined, outboxId: subject.outboxId ?? undefined },
          score: typeof input.score === 'number' && Number.isFinite(input.score) ? input.score : null,
          detail: input.detail ?? null,
          correlationId: input.correlationId ?? null,
          prevHash: end.hash,
        }
        const hashedSubject = e.subject ? [e.subject.userId ?? null, e.subject.personUuid ?? null, e.subject.outboxId ?? null] : null
        const hash = createHash('sha256')
          .update(JSON.stringify([e.seq, e.at, e.kioskId, e.action, e.outcome, e.role, e.account, hashedSubject, e.score, e.detail, e.correlationId, e.prevHash]))
          .digest('hex')
        db.prepare(
          `INSERT INTO entries (seq, at, kiosk_id, action, outcome, role, account, user_id, person_uuid, outbox_id, score, detail, correlation_id, prev_hash, hash)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        ).run(e.seq, e.at, e.kioskId, e.action, e.outcome, e.role, e.account, e.subject?.userId ?? null, e.subject?.personUuid ?? null, e.subject?.outboxId ?? null, e.score, e.detail, e.correlationId, e.prevHash, hash)
        return e.seq
      })
      .immediate()
  } finally {
    db.close()
  }
}

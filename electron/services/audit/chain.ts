import { createHash } from 'node:crypto'

export const GENESIS_HASH = '0'.repeat(64)

/** The fields an entry's hash covers, in a fixed order: changing any of them breaks the chain. */
export interface Hashed {
  seq: number
  at: number
  kioskId: string
  action: string
  outcome: string
  role: string
  account: string | null
  subject: { userId?: string | undefined; personUuid?: string | undefined; outboxId?: string | undefined } | null
  score: number | null
  detail: string | null
  correlationId: string | null
  prevHash: string
}

export function entryHash(e: Hashed): string {
  const subject = e.subject ? [e.subject.userId ?? null, e.subject.personUuid ?? null, e.subject.outboxId ?? null] : null
  const canonical = JSON.stringify([e.seq, e.at, e.kioskId, e.action, e.outcome, e.role, e.account, subject, e.score, e.detail, e.correlationId, e.prevHash])
  return createHash('sha256').update(canonical).digest('hex')
}

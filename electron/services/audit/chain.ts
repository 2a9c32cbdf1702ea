import { createHash } from 'node:crypto'

export const GENESIS_HASH = '0'.repeat(64)

/** Whom an entry concerns; a field absent, undefined, null or empty is not said. */
export interface SubjectFields {
  userId?: string | null | undefined
  personUuid?: string | null | undefined
  outboxId?: string | null | undefined
}

/** An entry's fields in any of the shapes they arrive in: a new entry's, or one read from a row. */
export interface EntryFields {
  seq: number
  at: number
  kioskId: string
  action: string
  outcome: string
  role: string
  account?: string | null | undefined
  subject?: SubjectFields | null | undefined
  score?: number | null | undefined
  detail?: string | null | undefined
  correlationId?: string | null | undefined
  prevHash: string
}

/** The one form of an entry: what is stored, what is read back, and what its hash covers. */
export interface CanonicalEntry {
  seq: number
  at: number
  kioskId: string
  action: string
  outcome: string
  role: string
  account: string | null
  /** Never empty: an entry about nobody has no subject (null). */
  subject: { userId?: string; personUuid?: string; outboxId?: string } | null
  /** A finite number (-0 as 0), or null. */
  score: number | null
  detail: string | null
  correlationId: string | null
  prevHash: string
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/** A text as SQLite can keep it (UTF-8): each lone surrogate half becomes U+FFFD, as String.prototype.toWellFormed does. */
function wellFormed(value: string): string {
  return value.replace(LONE_SURROGATE, '\ufffd')
}

function textOrNull(value: string | null | undefined): string | null {
  return value === null || value === undefined ? null : wellFormed(value)
}

/** A number as the hash writes it: -0 is 0 (SQLite and JSON keep no sign on zero). */
function number(value: number): number {
  return value === 0 ? 0 : value
}

function subjectOf(subject: SubjectFields | null | undefined): CanonicalEntry['subject'] {
  const said: NonNullable<CanonicalEntry['subject']> = {}
  for (const key of ['userId', 'personUuid', 'outboxId'] as const) {
    const value = subject?.[key]
    if (value) said[key] = wellFormed(value)
  }
  return Object.keys(said).length > 0 ? said : null
}

/**
 * The canonical form of an entry. Append stores exactly this, read-back builds it from the row,
 * and the hash covers it, so an entry reads back as it was hashed whatever shape it came in:
 * an empty subject is no subject, undefined is null, a text is as SQLite keeps it (well-formed
 * UTF-16), and a score is a finite number or null. Applying it twice changes nothing.
 */
export function canonicalEntry(e: EntryFields): CanonicalEntry {
  return {
    seq: e.seq,
    at: number(e.at),
    kioskId: wellFormed(e.kioskId),
    action: e.action,
    outcome: e.outcome,
    role: e.role,
    account: textOrNull(e.account),
    subject: subjectOf(e.subject),
    score: typeof e.score === 'number' && Number.isFinite(e.score) ? number(e.score) : null,
    detail: textOrNull(e.detail),
    correlationId: textOrNull(e.correlationId),
    prevHash: e.prevHash,
  }
}

function hashOf(c: CanonicalEntry, subject: Array<string | null> | null): string {
  const fields = [c.seq, c.at, c.kioskId, c.action, c.outcome, c.role, c.account, subject, c.score, c.detail, c.correlationId, c.prevHash]
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex')
}

/**
 * The hash of an entry's canonical form: its fields in a fixed order, the subject as its three
 * fields (null where not said) or null. Changing any of them breaks the chain. For every entry
 * whose subject says someone or is null, it is the hash older kiosks wrote too.
 */
export function entryHash(e: EntryFields): string {
  const c = canonicalEntry(e)
  return hashOf(c, c.subject && [c.subject.userId ?? null, c.subject.personUuid ?? null, c.subject.outboxId ?? null])
}

/** An entry's subject columns as stored: null is NULL. */
export interface StoredSubject {
  userId: string | null
  personUuid: string | null
  outboxId: string | null
}

/**
 * Reads trails written before the canonical form: kiosks then hashed a subject as it
 * was given, so an empty one ({} or empty fields) was hashed as its three stored columns although
 * it reads back as no subject. This is that hash, of a stored entry: only for verifying such
 * entries, never for writing one.
 */
export function previousFormatHash(e: EntryFields, stored: StoredSubject): string {
  const c = canonicalEntry({ ...e, subject: null })
  return hashOf(c, [stored.userId, stored.personUuid, stored.outboxId])
}

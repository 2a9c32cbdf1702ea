import { randomUUID } from 'node:crypto'
import type { JobKind } from '../../records/queue/job-runner'
import type { ClaimedJob, JobRecord, NewJob } from '../../records/queue/jobs-repository'
import type { OutboxEnqueueRequest, OutboxItem } from '../../shared/outbox'
import { templateContextFor } from '../../shared/template-context'
import { classify, redact } from './classify'
import type { Sealer } from './sealer'

// The context's shape is shared: Persons reads it back as words.
export { templateContextFor } from '../../shared/template-context'

/** The outbox's rows in the one queue's `jobs` table. */
export const ENROLLMENT_KIND = 'enrollment'

/** What the runner hands to `deliver`: everything the enroll workflow needs, decrypted. */
export interface DeliveryItem {
  userId: string
  templateType: string
  /** Fixed at enqueue time (derived from the item id), so every replay replaces its own template. */
  templateContext: string
  samples: string[]
}

/** Sends one queued enrollment; in production `(item) => enrollVisitor(backend, item)`. Must be idempotent. */
export type DeliverFn = (item: DeliveryItem, signal: AbortSignal) => Promise<unknown>

/**
 * A job's `summary` (JSON): what staff see, in clear but the userId, which is sealed (base64) as
 * the samples are. The samples, sealed, are the job's `payload`.
 */
interface EnrollmentSummary {
  templateType: string
  sampleCount: number
  userSealed: string
}

/** Associated data binding a ciphertext to its item and field (the same since the first outbox). */
function aad(id: string, field: 'user' | 'samples'): string {
  return `identity-kiosk/outbox/v1/${id}/${field}`
}

/** The summary as stored; `userSealed` is the userId sealed with aad(id, 'user'). */
export function summaryText(templateType: string, sampleCount: number, userSealed: Buffer): string {
  const summary: EnrollmentSummary = { templateType, sampleCount, userSealed: userSealed.toString('base64') }
  return JSON.stringify(summary)
}

function readSummary(text: string): EnrollmentSummary {
  const parsed = JSON.parse(text) as Partial<EnrollmentSummary>
  if (typeof parsed.templateType !== 'string' || typeof parsed.sampleCount !== 'number' || typeof parsed.userSealed !== 'string') throw new Error('not an enrollment summary')
  return parsed as EnrollmentSummary
}

/** The job for a validated request: the userId and samples sealed to its id. */
export function sealedEnrollment(sealer: Sealer, request: OutboxEnqueueRequest, id: string = randomUUID()): NewJob & { id: string } {
  const userSealed = sealer.seal(Buffer.from(request.userId, 'utf8'), aad(id, 'user'))
  const samplesSealed = sealer.seal(Buffer.from(JSON.stringify(request.samples), 'utf8'), aad(id, 'samples'))
  return { id, summary: summaryText(request.templateType, request.samples.length, userSealed), payload: samplesSealed }
}

/** A stored job as staff see it; a userId that does not open (another key) reads "(unreadable)", so the item can still be discarded. */
export function outboxItem(sealer: Sealer, job: JobRecord): OutboxItem {
  const { subject: _subject, summary: text, ...fields } = job
  let summary: EnrollmentSummary | null = null
  let userId = '(unreadable)'
  try {
    summary = readSummary(text)
    userId = sealer.open(Buffer.from(summary.userSealed, 'base64'), aad(job.id, 'user')).toString('utf8')
  } catch {
    // Wrong key (the keychain entry was recreated) or damaged data: listed, parked on its first attempt.
  }
  return { ...fields, userId, templateType: summary?.templateType ?? '', sampleCount: summary?.sampleCount ?? 0 }
}

/** Decrypts what `deliver` needs; throws when the key is wrong or the data was altered. */
function openEnrollment(sealer: Sealer, job: ClaimedJob): DeliveryItem {
  const summary = readSummary(job.summary)
  if (!job.payload) throw new Error('the samples are gone')
  const userId = sealer.open(Buffer.from(summary.userSealed, 'base64'), aad(job.id, 'user')).toString('utf8')
  const samples = JSON.parse(sealer.open(job.payload, aad(job.id, 'samples')).toString('utf8')) as unknown
  if (!Array.isArray(samples) || !samples.every((s) => typeof s === 'string')) throw new Error('the stored samples are not a list of strings')
  return { userId, templateType: summary.templateType, templateContext: templateContextFor(job.id), samples }
}

export interface EnrollmentKindOptions {
  sealer: Sealer
  deliver: DeliverFn
  /** Delivered records (no samples) kept this long and this many at most. */
  retention: { maxAgeMs: number; maxCount: number }
}

/** The outbox's kind of job for the one delivery loop (electron/records/queue/job-runner.ts). */
export function enrollmentKind({ sealer, deliver, retention }: EnrollmentKindOptions): JobKind<DeliveryItem> {
  return {
    kind: ENROLLMENT_KIND,
    label: 'outbox',
    open: (job) => openEnrollment(sealer, job),
    unreadable: { code: 'INTERNAL', message: 'The stored capture could not be decrypted (the outbox key changed or the data is damaged). Discard it and enroll again.' },
    send: (item, _job, signal) => deliver(item, signal),
    classify(error, item) {
      // Server messages sometimes echo the input; the outbox keeps the userId only sealed.
      const verdict = classify(error)
      return { ...verdict, error: { code: verdict.error.code, message: redact(verdict.error.message, item.userId) } }
    },
    timedOut: (ms) => ({ code: 'TIMEOUT', message: `The enrollment was not delivered within ${Math.round(ms / 1000)} s.` }),
    prune: (jobs, now) => jobs.prune(now, { deliveredMaxAgeMs: retention.maxAgeMs, deliveredMaxCount: retention.maxCount }),
  }
}

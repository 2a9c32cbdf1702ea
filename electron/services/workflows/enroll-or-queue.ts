import { randomUUID } from 'node:crypto'
import type { z } from 'zod'
import { CONSENT } from '../../shared/consent'
import { KioskError } from '../../shared/errors'
import type { Role } from '../../shared/staff'
import type { enrollVisitorInput, EnrollVisitorResult } from '../../shared/workflows'
import type { Backend } from '../backend'
import { isQueueable, templateContextFor, type Outbox } from '../outbox'
import { enrollVisitor, type EnrollmentRequest, type EnrollmentResult } from './enroll-visitor'
import { checkIdentity, identityVerdict, type EnrollPolicy } from './identity-checks'

export interface EnrollOrQueueDeps {
  backend: () => Promise<Backend>
  templateType: () => Promise<string>
  /** The outbox, opened on demand (its key comes from the keychain, which may be locked). */
  outbox: () => Promise<Pick<Outbox, 'enqueue'>>
}

/** Who may decide what: the consent must be the current text's, and only staff decide about existing records. */
export function enrollPolicy(input: z.infer<typeof enrollVisitorInput>, role: Role): EnrollPolicy {
  if (input.consentVersion !== CONSENT.version) throw new KioskError('INVALID_INPUT', 'The consent text has changed: show it to the visitor again.')
  const staff = role !== 'visitor'
  if (!staff && (input.onExisting || input.acceptDuplicates)) throw new KioskError('FORBIDDEN', 'Only staff can decide about an existing record.')
  return { staff, onExisting: input.onExisting, acceptDuplicates: input.acceptDuplicates }
}

/**
 * Enrolls at once when the servers answer, after the identity checks (look-up, 1:1 against the
 * e-mail's enrolled face, 1:N against everyone); when they cannot be reached, queues the capture
 * under the same template context, and the checks run at delivery (deliverQueued). A refusal (no
 * face, a licence) is the caller's to see, never queued.
 */
export async function enrollOrQueue(deps: EnrollOrQueueDeps, input: { userId: string; samples: string[] }, policy: EnrollPolicy): Promise<EnrollVisitorResult> {
  const id = randomUUID()
  const templateType = await deps.templateType()
  try {
    const backend = await deps.backend()
    const verdict = identityVerdict(await checkIdentity(backend, input.userId, input.samples), policy)
    if (!verdict.proceed) return verdict.result
    const result = await enrollVisitor(backend, { ...input, templateType, templateContext: templateContextFor(id), replace: verdict.replace })
    return { outcome: 'enrolled', ...result }
  } catch (error) {
    if (!isQueueable(error)) throw error
    const reason = error instanceof Error ? error.message : 'The servers could not be reached.'
    const outbox = await deps.outbox().catch((cause: unknown) => {
      throw new KioskError('INTERNAL', `${reason} The enrollment could not be queued either: ${cause instanceof Error ? cause.message : 'outbox unavailable'}`)
    })
    const item = outbox.enqueue({ userId: input.userId, templateType, samples: input.samples }, id)
    return { outcome: 'queued', outboxId: item.id, reason }
  }
}

/**
 * A queued enrollment, delivered: the identity checks run now, under the visitor's rule (nobody
 * decided anything while offline). One that needs staff is refused, so the outbox parks it for them.
 */
export async function deliverQueued(backend: Backend, request: EnrollmentRequest): Promise<EnrollmentResult> {
  const verdict = identityVerdict(await checkIdentity(backend, request.userId, request.samples), { staff: false })
  if (!verdict.proceed) {
    const why = verdict.result.outcome === 'needs-staff' && verdict.result.reason === 'duplicate-face' ? 'the face matches another enrolled person' : 'this e-mail is already enrolled with another face'
    throw new KioskError('REJECTED', `Needs staff: ${why}. Enroll the visitor in person, or discard this item.`)
  }
  return enrollVisitor(backend, request)
}

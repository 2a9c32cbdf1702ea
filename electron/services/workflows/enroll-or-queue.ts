import { randomUUID } from 'node:crypto'
import { KioskError } from '../../shared/errors'
import type { EnrollVisitorResult } from '../../shared/workflows'
import type { Backend } from '../backend'
import { isQueueable, templateContextFor, type Outbox } from '../outbox'
import { enrollVisitor } from './enroll-visitor'

export interface EnrollOrQueueDeps {
  backend: () => Promise<Backend>
  templateType: () => Promise<string>
  /** The outbox, opened on demand (its key comes from the keychain, which may be locked). */
  outbox: () => Promise<Pick<Outbox, 'enqueue'>>
}

/**
 * Enrolls at once when the servers answer; when they cannot be reached, queues the capture in
 * the outbox under the same template context, so a late success of the first attempt and the
 * replay end as one template. A refusal (no face, a licence) is the caller's to see, never queued.
 */
export async function enrollOrQueue(deps: EnrollOrQueueDeps, input: { userId: string; samples: string[] }): Promise<EnrollVisitorResult> {
  const id = randomUUID()
  const templateType = await deps.templateType()
  try {
    const result = await enrollVisitor(await deps.backend(), { ...input, templateType, templateContext: templateContextFor(id) })
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

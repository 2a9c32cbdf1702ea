import type { Person } from '../../shared/api-models'
import { ApiError } from '../clients/api-error'
import type { Backend } from '../backend'
import { isQueueable } from '../outbox/classify'
import { removeVisitor } from './remove-visitor'

export interface EnrollmentRequest {
  userId: string
  /** Base64 JPEG/PNG samples of the visitor's face. */
  samples: string[]
  templateType: string
  /**
   * Fixed per capture, so that replaying the same enrollment (after a crash, from the outbox)
   * replaces its own template instead of adding another.
   */
  templateContext: string
  /** Staff chose to replace the person's face: their other templates of this type go once the new one is in. */
  replace?: boolean
}

export interface EnrollmentResult {
  person: Person
  /** True when this enrollment created the person; false when an existing one was used. */
  created: boolean
  quality: number | null
  /** As the server words it; null when it did not say. */
  enrollmentStatus: string | null
}

/**
 * The seed's enrollment (reference §4.2 rule 1): look the visitor up by userId; create them in
 * the tenant only when nobody has that userId (a 409 means someone just did: look up again),
 * otherwise associate the existing person; then enroll the samples. Every step is idempotent.
 * When the servers refuse the samples after this call created the person (no face, an expired
 * licence), the creation is undone by the removal rule: no half-made visitor is left behind. A
 * failure worth retrying keeps the person, as the queued replay will complete them.
 */
export async function enrollVisitor(backend: Backend, request: EnrollmentRequest): Promise<EnrollmentResult> {
  const { persons, bio, tenantCode } = backend
  let created = false
  let person = await persons.findPersonByUserId(request.userId)
  if (!person) {
    try {
      person = await persons.createPerson(tenantCode, request.userId)
      created = true
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 409)) throw error
      person = await persons.findPersonByUserId(request.userId)
      if (!person) throw new ApiError('BAD_REPLY', 'The person server said this visitor exists but cannot find them.', 409)
    }
  }
  if (!created && !(await persons.tenantPerson(tenantCode, person.uuid))) await persons.associatePerson(tenantCode, person.uuid)

  let enrolled: Awaited<ReturnType<typeof bio.enroll>>
  try {
    enrolled = await bio.enroll(person.uuid, { templateType: request.templateType, templateContext: request.templateContext, samples: request.samples })
  } catch (error) {
    // The refusal is what the caller needs to hear; a failed undo leaves what the old code left.
    if (created && !isQueueable(error)) await removeVisitor(backend, request.userId).catch(() => undefined)
    throw error
  }
  if (request.replace) {
    // New first, old after: a failure in between leaves the person with both faces, never none.
    const old = (await bio.biometrics(person.uuid, request.templateType)).filter((t) => t.templateContext !== request.templateContext)
    for (const template of old) await bio.deleteBiometrics(person.uuid, request.templateType, template.templateContext)
  }
  const inTenant = await persons.tenantPerson(tenantCode, person.uuid)
  return { person, created, quality: enrolled.quality, enrollmentStatus: inTenant?.enrollmentStatus ?? null }
}

import type { Person } from '../../shared/api-models'
import type { EnrollVisitorResult, FaceCandidate } from '../../shared/workflows'
import { ApiError } from '../clients/api-error'
import type { Backend } from '../backend'
import { faceCandidates } from './identify-visitor'
import { itemError } from './probe-errors'
import { decisionThreshold } from './thresholds'

/** What the servers know that bears on enrolling these samples under this e-mail. */
export interface IdentityFindings {
  /** The person already holding the e-mail, how many templates of the kiosk's type they have, and whether every new sample is their face. */
  existing: { person: Person; templates: number; sameFace: boolean } | null
  /** Other persons whose enrolled face matches any new sample at or above the identify threshold. */
  duplicates: FaceCandidate[]
}

/** Who asks, and what staff already decided after seeing the findings. */
export interface EnrollPolicy {
  staff: boolean
  onExisting?: 'add' | 'replace' | undefined
  acceptDuplicates?: true | undefined
}

export type IdentityVerdict = { proceed: true; replace: boolean } | { proceed: false; result: Extract<EnrollVisitorResult, { outcome: 'needs-staff' | 'needs-decision' }> }

/** The person's templates of the kiosk's type; none when the BioEngine has no record of them. */
export async function templatesOf(backend: Backend, personUuid: string) {
  return backend.bio.biometrics(personUuid, backend.templateType).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) return []
    throw error
  })
}

/** True when every sample verifies against the person's enrolled face (one stranger's photo among them is enough to say no). */
async function sameFace(backend: Backend, personUuid: string, samples: string[]): Promise<boolean> {
  const threshold = await decisionThreshold(backend, 'verify')
  const reply = await backend.bio.verify(personUuid, samples.map((sample) => ({ templateType: backend.templateType, sample, thresholdValue: threshold.value })))
  return samples.every((_, i) => {
    const result = reply.allMatchResults[i]?.matchResults.find((r) => r.score !== undefined || r.errorCode !== undefined)
    if (result?.errorCode !== undefined) throw itemError('verify', result)
    return result?.score !== undefined && result.score >= threshold.value
  })
}

/** Looks the e-mail up, checks a new face against its enrolled one (1:1), and the samples against everyone (1:N). */
export async function checkIdentity(backend: Backend, userId: string, samples: string[]): Promise<IdentityFindings> {
  const person = await backend.persons.findPersonByUserId(userId)
  let existing: IdentityFindings['existing'] = null
  if (person) {
    const templates = (await templatesOf(backend, person.uuid)).length
    existing = { person, templates, sameFace: templates > 0 && (await sameFace(backend, person.uuid, samples)) }
  }
  const { candidates } = await faceCandidates(backend, samples)
  const own = person?.uuid.toLowerCase()
  return { existing, duplicates: candidates.filter((c) => c.personUuid.toLowerCase() !== own) }
}

/**
 * The identity rules: nobody may become someone else. A visitor alone goes on only when the
 * e-mail has no face yet or the new face is theirs, and the face is nobody else's; otherwise they
 * are asked to fetch staff. Staff see the existing record and the matching persons, and decide.
 */
export function identityVerdict(findings: IdentityFindings, policy: EnrollPolicy): IdentityVerdict {
  const enrolled = (findings.existing?.templates ?? 0) > 0
  if (!policy.staff) {
    if (enrolled && !findings.existing!.sameFace) return { proceed: false, result: { outcome: 'needs-staff', reason: 'already-enrolled' } }
    if (findings.duplicates.length > 0) return { proceed: false, result: { outcome: 'needs-staff', reason: 'duplicate-face' } }
    return { proceed: true, replace: false }
  }
  if ((enrolled && !policy.onExisting) || (findings.duplicates.length > 0 && !policy.acceptDuplicates)) {
    return { proceed: false, result: { outcome: 'needs-decision', existing: findings.existing, duplicates: findings.duplicates } }
  }
  return { proceed: true, replace: enrolled && policy.onExisting === 'replace' }
}

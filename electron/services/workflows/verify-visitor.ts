import type { z } from 'zod'
import { KioskError } from '../../shared/errors'
import type { verifyVisitorInput, VerifyVisitorResult } from '../../shared/workflows'
import { ApiError } from '../clients/api-error'
import type { Backend } from '../backend'
import { itemError } from './probe-errors'
import { decisionThreshold } from './thresholds'

/** 1:1: the visitor (by e-mail or person id) against their enrolled face, decided against the threshold. */
export async function verifyVisitor(backend: Backend, input: z.infer<typeof verifyVisitorInput>): Promise<VerifyVisitorResult> {
  if ((input.userId === undefined) === (input.personUuid === undefined)) {
    throw new KioskError('INVALID_INPUT', 'Give the visitor’s e-mail or their person id.')
  }
  const person = input.userId ? await backend.persons.findPersonByUserId(input.userId) : await backend.persons.getPerson(input.personUuid!)
  const threshold = await decisionThreshold(backend, 'verify')
  const applied = { threshold: threshold.value, scaleMax: threshold.scaleMax, thresholdSource: threshold.source }
  if (!person) return { decision: 'not-found', score: null, ...applied, person: null }
  const reply = await backend.bio.verify(person.uuid, [{ templateType: backend.templateType, sample: input.sample, thresholdValue: threshold.value }])
  const results = reply.allMatchResults[0]?.matchResults
  if (!results) throw new ApiError('BAD_REPLY', 'The BioEngine sent no result for the verification.', 200)
  // No result, or an empty placeholder: nothing of this type is enrolled for the person.
  const result = results.find((r) => r.score !== undefined || r.errorCode !== undefined)
  if (!result) return { decision: 'not-enrolled', score: null, ...applied, person }
  if (result.errorCode !== undefined) throw itemError('verify', result)
  return { decision: result.score! >= threshold.value ? 'match' : 'no-match', score: result.score!, ...applied, person }
}

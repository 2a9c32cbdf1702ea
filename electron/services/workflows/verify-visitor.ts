import type { z } from 'zod'
import { KioskError } from '../../shared/errors'
import type { verifyVisitorInput, VerifyVisitorResult } from '../../shared/workflows'
import { ApiError } from '../clients/api-error'
import type { Backend } from '../backend'
import { itemError } from './probe-errors'

/** 1:1: the visitor (by e-mail or person id) against their enrolled face, decided against the threshold. */
export async function verifyVisitor(backend: Backend, input: z.infer<typeof verifyVisitorInput>): Promise<VerifyVisitorResult> {
  if ((input.userId === undefined) === (input.personUuid === undefined)) {
    throw new KioskError('INVALID_INPUT', 'Give the visitor’s e-mail or their person id.')
  }
  const person = input.userId ? await backend.persons.findPersonByUserId(input.userId) : await backend.persons.getPerson(input.personUuid!)
  if (!person) throw new KioskError('NOT_FOUND', 'No visitor is registered under that e-mail.')
  const threshold = backend.verifyThreshold
  const reply = await backend.bio.verify(person.uuid, [{ templateType: backend.templateType, sample: input.sample, thresholdValue: threshold }])
  const results = reply.allMatchResults[0]?.matchResults
  if (!results) throw new ApiError('BAD_REPLY', 'The BioEngine sent no result for the verification.', 200)
  const [result] = results
  if (!result) return { decision: 'not-enrolled', score: null, threshold, person }
  if (result.errorCode !== undefined) throw itemError('verify', result)
  if (result.score === undefined) throw new ApiError('BAD_REPLY', 'The BioEngine sent a verification without a score.', 200)
  return { decision: result.score >= threshold ? 'match' : 'no-match', score: result.score, threshold, person }
}

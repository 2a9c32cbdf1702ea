import { randomUUID } from 'node:crypto'
import type { z } from 'zod'
import { KioskError } from '../../shared/errors'
import type { verifyVisitorInput, VerifyVisitorResult } from '../../shared/workflows'
import { ApiError } from '../clients/api-error'
import type { Backend } from '../backend'
import { itemError } from './probe-errors'
import { decisionThreshold } from './thresholds'

/**
 * The BioEngine id a verification of nobody goes to: a fresh random one, which no person holds.
 * An unknown e-mail is verified against it, so the answer makes the same calls (the face read
 * and compared) as a known one's and takes as long: its timing does not tell who is enrolled.
 */
export const decoyPersonId = (): string => randomUUID()

/** A server that refuses to verify an id it does not know (404, 400 without a face code): the decoy's answer is not needed. */
const refusedDecoy = (error: unknown) => error instanceof ApiError && (error.code === 'NOT_FOUND' || error.code === 'REJECTED')

/** 1:1: the visitor (by e-mail or person id) against their enrolled face, decided against the threshold. */
export async function verifyVisitor(backend: Backend, input: z.infer<typeof verifyVisitorInput>): Promise<VerifyVisitorResult> {
  if ((input.userId === undefined) === (input.personUuid === undefined)) {
    throw new KioskError('INVALID_INPUT', 'Give the visitor’s e-mail or their person id.')
  }
  const person = input.userId ? await backend.persons.findPersonByUserId(input.userId) : await backend.persons.getPerson(input.personUuid!)
  const threshold = await decisionThreshold(backend, 'verify')
  const applied = { threshold: threshold.value, scaleMax: threshold.scaleMax, thresholdSource: threshold.source }
  const reply = await backend.bio.verify(person?.uuid ?? decoyPersonId(), [{ templateType: backend.templateType, sample: input.sample, thresholdValue: threshold.value }]).catch((error: unknown) => {
    if (!person && refusedDecoy(error)) return null
    throw error
  })
  const results = reply === null ? [] : reply.allMatchResults[0]?.matchResults
  if (!results) throw new ApiError('BAD_REPLY', 'The BioEngine sent no result for the verification.', 200)
  // No result, or an empty placeholder: nothing of this type is enrolled for the person (or nobody's).
  const result = results.find((r) => r.score !== undefined || r.errorCode !== undefined)
  // A sample without a readable face fails alike for a known e-mail and an unknown one.
  if (result?.errorCode !== undefined) throw itemError('verify', result)
  if (!person) return { decision: 'not-found', score: null, ...applied, person: null }
  if (!result) return { decision: 'not-enrolled', score: null, ...applied, person }
  return { decision: result.score! >= threshold.value ? 'match' : 'no-match', score: result.score!, ...applied, person }
}

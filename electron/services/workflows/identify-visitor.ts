import type { z } from 'zod'
import type { identifyVisitorInput, IdentifyVisitorResult } from '../../shared/workflows'
import { ApiError } from '../clients/api-error'
import type { Backend } from '../backend'
import { itemError } from './probe-errors'
import { decisionThreshold } from './thresholds'

/**
 * 1:N: ranked candidates at or above the threshold, with their e-mails resolved. No candidate is an
 * explicit no-match: the closest face is never a match by default.
 */
export async function identifyVisitor(backend: Backend, input: z.infer<typeof identifyVisitorInput>): Promise<IdentifyVisitorResult> {
  const threshold = await decisionThreshold(backend, 'identify')
  const reply = await backend.bio.identify([
    { templateType: backend.templateType, sample: input.sample, thresholdValue: threshold.value, maxResults: input.maxResults ?? backend.identifyMaxResults },
  ])
  const result = reply.allIdentifyResults[0]?.identifyResults[0]
  if (!result) throw new ApiError('BAD_REPLY', 'The BioEngine sent no result for the identification.', 200)
  if (result.errorCode !== undefined) throw itemError('identify', result)

  // Never trust a remote server's filtering for the decision: keep only scores at the threshold.
  const hits = (result.identifyMatchResults ?? []).filter((m) => m.score !== undefined && m.score >= threshold.value && (m.personUUID ?? m.personId))
  const candidates = await Promise.all(
    hits.map(async (hit) => {
      const personUuid = (hit.personUUID ?? hit.personId)!
      const person = await backend.persons.getPerson(personUuid).catch(() => null)
      return { personUuid, userId: person?.userId ?? null, score: hit.score! }
    }),
  )
  candidates.sort((a, b) => b.score - a.score)
  return { decision: candidates.length > 0 ? 'match' : 'no-match', threshold: threshold.value, scaleMax: threshold.scaleMax, thresholdSource: threshold.source, candidates }
}

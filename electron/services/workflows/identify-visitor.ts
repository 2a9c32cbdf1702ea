import type { z } from 'zod'
import { TIE_MARGIN, type FaceCandidate, type identifyVisitorInput, type IdentifyVisitorResult } from '../../shared/workflows'
import { ApiError } from '../clients/api-error'
import type { Backend } from '../backend'
import { itemError } from './probe-errors'
import { decisionThreshold, type DecisionThreshold } from './thresholds'

/**
 * 1:N for one or more samples: the persons scoring at or above the identify threshold on any of
 * them (each person once, at their best score), best first, with their e-mails resolved.
 */
export async function faceCandidates(backend: Backend, samples: string[], maxResults = backend.identifyMaxResults): Promise<{ threshold: DecisionThreshold; candidates: FaceCandidate[] }> {
  const threshold = await decisionThreshold(backend, 'identify')
  const reply = await backend.bio.identify(samples.map((sample) => ({ templateType: backend.templateType, sample, thresholdValue: threshold.value, maxResults })))
  const best = new Map<string, number>()
  for (let i = 0; i < samples.length; i++) {
    const result = reply.allIdentifyResults[i]?.identifyResults[0]
    if (!result) throw new ApiError('BAD_REPLY', 'The BioEngine sent no result for the identification.', 200)
    if (result.errorCode !== undefined) throw itemError('identify', result)
    // Never trust a remote server's filtering for the decision: keep only scores at the threshold.
    for (const hit of result.identifyMatchResults ?? []) {
      const personUuid = hit.personUUID ?? hit.personId
      if (hit.score === undefined || hit.score < threshold.value || !personUuid) continue
      best.set(personUuid, Math.max(hit.score, best.get(personUuid) ?? -Infinity))
    }
  }
  const candidates = await Promise.all(
    [...best].map(async ([personUuid, score]) => {
      const person = await backend.persons.getPerson(personUuid).catch(() => null)
      return { personUuid, userId: person?.userId ?? null, score }
    }),
  )
  candidates.sort((a, b) => b.score - a.score)
  return { threshold, candidates: candidates.slice(0, maxResults) }
}

/**
 * 1:N: ranked candidates at or above the threshold. No candidate is an explicit no-match (the
 * closest face is never a match by default), and two persons within TIE_MARGIN of the scale at
 * the top are a tie: the kiosk does not pick one of them.
 */
export async function identifyVisitor(backend: Backend, input: z.infer<typeof identifyVisitorInput>): Promise<IdentifyVisitorResult> {
  const { threshold, candidates } = await faceCandidates(backend, [input.sample], input.maxResults)
  const [first, second] = candidates
  const decision = !first ? 'no-match' : second && first.score - second.score < TIE_MARGIN * threshold.scaleMax ? 'tie' : 'match'
  return { decision, threshold: threshold.value, scaleMax: threshold.scaleMax, thresholdSource: threshold.source, candidates }
}

import type { z } from 'zod'
import { identifyInput, verifyInput } from '../../shared/api-requests'
import type { FacePlugin } from '../face/types'
import { canonicalPersonId } from '../store/person-id'
import { dot } from './template-codec'
import type { Biometrics } from './biometrics'
import { round } from './template-maths'
import { BioErrorCode, BioInputError, OverloadError } from './error-codes'
import { RequestBudget } from './request-budget'
import { singleFace } from './samples'

export const DEFAULT_MAX_RESULTS = 10
export const MAX_RESULTS_LIMIT = 100
export const MATCH_PASS_SCORE = 48

/** Inputs are checked one by one, so a malformed one fails alone, as an item error. */
function parseInput<T extends z.ZodType>(schema: T, raw: unknown): z.infer<T> {
  const parsed = schema.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new BioInputError(BioErrorCode.BAD_INPUT, `Invalid input${issue?.path.length ? ` field ${issue.path.join('.')}` : ''}: ${issue?.message ?? 'malformed'}.`)
  }
  return parsed.data
}

const templateTypeOf = (raw: unknown): string =>
  typeof raw === 'object' && raw !== null && typeof (raw as { templateType?: unknown }).templateType === 'string' ? (raw as { templateType: string }).templateType : ''

interface IdentifyMatchResult {
  personId: string
  personUUID?: string
  score: number
}

interface IdentifyResult {
  targetId: number
  templateType: string
  totalDurationMS: number
  identifyMatchResults: IdentifyMatchResult[]
  errorCode?: number
  errorMessage?: string
}

interface MatchResult {
  personId: string
  score?: number
  errorCode?: number
  errorMessage?: string
}

/** The similarity at which a plugin's monotonic score reaches `score` (bisection). */
export function similarityForScore(plugin: FacePlugin, score: number): number {
  let low = -1
  let high = 1
  if (plugin.score(low) >= score) return low
  for (let i = 0; i < 40; i++) {
    const mid = (low + high) / 2
    if (plugin.score(mid) >= score) high = mid
    else low = mid
  }
  return high
}

function checkThreshold(value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback
  if (!Number.isFinite(value) || value < 0 || value > 100) throw new BioInputError(BioErrorCode.BAD_INPUT, 'thresholdValue must be between 0 and 100.')
  return value
}

function itemError(error: unknown): { errorCode: number; errorMessage: string } {
  if (error instanceof BioInputError) return { errorCode: error.code, errorMessage: error.message }
  if (error instanceof OverloadError) return { errorCode: BioErrorCode.OVERLOADED, errorMessage: `${error.message} Retry after ${error.retryAfterSeconds} s.` }
  throw error
}

/**
 * 1:N identify: each input on its own, so one bad input never fails the others (§4.4 rule 2), and
 * an input refused for overload fails alone too. `caller` is the face workers' scheduling key.
 */
export async function identify(bio: Biometrics, inputs: unknown[], caller: string): Promise<{ allIdentifyResults: Array<{ identifyResults: IdentifyResult[] }> }> {
  const budget = new RequestBudget(caller)
  // Started as the request arrives, so the search sees every enrollment acknowledged before it.
  const upToDate = bio.caches.upToDate()
  const results = await Promise.all(
    inputs.map(async (raw, targetId): Promise<IdentifyResult> => {
      const started = performance.now()
      const base = { targetId, templateType: templateTypeOf(raw) }
      try {
        const input = parseInput(identifyInput, raw)
        const installed = bio.lookup(input.templateType)
        const threshold = checkThreshold(input.thresholdValue, installed.plugin.scoreThreshold)
        const maxResults = input.maxResults ?? DEFAULT_MAX_RESULTS
        if (!Number.isInteger(maxResults) || maxResults < 1 || maxResults > MAX_RESULTS_LIMIT) {
          throw new BioInputError(BioErrorCode.BAD_INPUT, `maxResults must be a whole number from 1 to ${MAX_RESULTS_LIMIT}.`)
        }
        const probe = await bio.probe(installed, input, budget)
        await upToDate
        const hits = await installed.cache.search(probe, similarityForScore(installed.plugin, threshold), maxResults)
        const identifyMatchResults = await Promise.all(
          hits.map(async (hit) => {
            const personUUID = await bio.personUuid(hit.personId)
            return { personId: hit.personId, ...(personUUID ? { personUUID } : {}), score: round(installed.plugin.score(hit.similarity)) }
          }),
        )
        return { ...base, totalDurationMS: elapsed(started), identifyMatchResults }
      } catch (error) {
        return { ...base, totalDurationMS: elapsed(started), identifyMatchResults: [], ...itemError(error) }
      }
    }),
  )
  return { allIdentifyResults: results.map((r) => ({ identifyResults: [r] })) }
}

/**
 * 1:1 verify against the person's enrolled templates of each input's type: the best score. A
 * person with no template of that type gets an empty placeholder (§4.4 rule 2) once the sample's
 * face is read, as for anyone else. The person's
 * templates of a type are read, decrypted and decoded once per request, not once per input.
 */
export async function verify(bio: Biometrics, personId: string, inputs: unknown[], caller: string): Promise<{ allMatchResults: Array<{ matchResults: MatchResult[] }> }> {
  const budget = new RequestBudget(caller)
  personId = canonicalPersonId(personId)
  const loaded = new Map<string, Promise<Float32Array[]>>()
  const vectorsOf = (templateType: string) => {
    let vectors = loaded.get(templateType)
    if (!vectors) loaded.set(templateType, (vectors = bio.vectorsOf(personId, templateType)))
    return vectors
  }
  const all = await Promise.all(
    inputs.map(async (raw): Promise<{ matchResults: MatchResult[] }> => {
      try {
        const input = parseInput(verifyInput, raw)
        const installed = bio.lookup(input.templateType)
        checkThreshold(input.thresholdValue, installed.plugin.scoreThreshold)
        // The probe's face first, enrolled or not: a person with nothing enrolled (or an id nobody
        // has) costs the same time and fails on a faceless sample the same way, so neither tells.
        const [probe, enrolled] = await Promise.all([bio.probe(installed, input, budget), vectorsOf(installed.templateType)])
        if (enrolled.length === 0) return { matchResults: [] }
        let best = -1
        for (const vector of enrolled) best = Math.max(best, dot(probe, vector))
        return { matchResults: [{ personId, score: round(installed.plugin.score(best)) }] }
      } catch (error) {
        return { matchResults: [{ personId, ...itemError(error) }] }
      }
    }),
  )
  return { allMatchResults: all }
}

/**
 * Simple Face Match: two images, one face each, in parallel; pass at score >= 48. Rejects with
 * OverloadError when the face workers have too much waiting work.
 */
export async function faceMatch(plugin: FacePlugin, image1: Uint8Array, image2: Uint8Array, caller: string) {
  const started = performance.now()
  const budget = new RequestBudget(caller)
  const [a, b] = await budget.all([singleFace(plugin, image1, 'Image1', budget), singleFace(plugin, image2, 'Image2', budget)])
  const score = round(plugin.score(dot(a!.embedding, b!.embedding)))
  return { status: 'OK', score, pass: score >= MATCH_PASS_SCORE, durationMS: elapsed(started) }
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started)
}

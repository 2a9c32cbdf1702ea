import { KioskError } from '../../shared/errors'
import type { LivenessChallenge, LivenessEvaluateRecord, LivenessEvaluateRequest, LivenessEvidence, LivenessOutcome, LivenessOverride, LivenessPurpose } from '../../shared/liveness'
import type { Role } from '../../shared/staff'
import type { Backend } from '../backend'
import type { ChallengeStore } from './challenge-store'
import { checkEvidenceOrder } from './evidence-order'
import { allowedOverride } from './override'
import type { LivenessPolicy } from './policy'

export interface LivenessGateDeps {
  /** The servers, for the tenant record (may throw while offline: the policy then falls back). */
  backend(): Promise<Backend>
  /** The tenant the kiosk works in, from its settings (the key of the last policy read). */
  tenantCode(): Promise<string>
  policy: LivenessPolicy
  challenges: ChallengeStore
  /** The kiosk's own embedded engine judges every burst (started on demand in remote mode). */
  evaluate(request: LivenessEvaluateRequest): Promise<LivenessEvaluateRecord>
  stepSeconds(): Promise<number>
  now?: () => number
}

/** What a capture brings for liveness, as the workflows' inputs carry it. */
export interface LivenessParts {
  liveness?: LivenessEvidence | undefined
  livenessOverride?: LivenessOverride | undefined
}

export interface Judged {
  /** Null when the tenant requires no liveness. */
  outcome: LivenessOutcome | null
  /** Gives the challenge one more attempt (staff decide after a 'needs-decision' enrollment and send the same capture again). */
  release(): void
}

/** Enroll and verify refuse a capture without evidence; identify and face match accept a photo file and say it was not checked. */
const evidenceRequired: Record<LivenessPurpose, boolean> = { enroll: true, verify: true, identify: false, 'face-match': false }
export const PHOTO_FILE_NOTE = 'Photo file: liveness not checked'

const failed = (words: string) => new KioskError('LIVENESS_FAILED', `Liveness was not shown: ${words}.`)

/** Plain words for what the engine did not see, from its per-check results (codes and words only). */
function failureWords(record: LivenessEvaluateRecord): string {
  const words = record.checks.filter((c) => !c.passed).map((c) => `${c.code}: ${c.detail}`)
  if (!record.sameFace) words.push('the liveness frames do not show the same single face as the photos')
  return words.length > 0 ? words.join('; ') : record.detail
}

/**
 * The services' liveness decision for one capture: the tenant's policy, the challenge the page
 * was given, the burst's order, then the embedded engine's verdict on the frames themselves.
 */
export function livenessGate(deps: LivenessGateDeps) {
  const policyOf = async () => {
    const tenantCode = await deps.tenantCode()
    return deps.policy.required(tenantCode, async () => (await deps.backend()).persons.getTenant(tenantCode))
  }
  const none = () => {}

  return {
    async challenge(purpose: LivenessPurpose): Promise<LivenessChallenge> {
      const [checks, stepSeconds] = await Promise.all([policyOf(), deps.stepSeconds()])
      if (checks.length === 0) return { required: false, challengeId: null, checks: [], steps: [], light: [], stepSeconds, expiresAt: (deps.now ?? Date.now)() }
      return deps.challenges.issue(purpose, checks, stepSeconds)
    },

    /** Judges one capture; throws LIVENESS_REQUIRED / LIVENESS_FAILED (or FORBIDDEN for a visitor's override). */
    async judge(purpose: LivenessPurpose, parts: LivenessParts, references: string[], role: Role): Promise<Judged> {
      const override = allowedOverride(parts.livenessOverride, role)
      const checks = await policyOf()
      if (checks.length === 0) return { outcome: null, release: none }
      if (override) return { outcome: { status: 'overridden', checks: [], note: override.reason }, release: none }
      const evidence = parts.liveness
      if (!evidence) {
        if (evidenceRequired[purpose]) throw new KioskError('LIVENESS_REQUIRED', 'This kiosk requires a liveness check with the capture. Start the capture again and follow the prompts.')
        return { outcome: { status: 'not-checked', checks: [], note: PHOTO_FILE_NOTE }, release: none }
      }
      const challenge = deps.challenges.take(evidence.challengeId, purpose)
      const release = () => deps.challenges.restore(challenge)
      if (checks.some((code) => !challenge.checks.includes(code))) {
        throw new KioskError('LIVENESS_REQUIRED', 'The liveness setting changed during the capture. Start the capture again and follow the prompts.')
      }
      const order = checkEvidenceOrder(challenge.steps, evidence.frames, challenge.light.length > 0)
      if (!order.ok) throw failed(order.words)
      const shown = evidence.lightShownAt === undefined ? {} : { lightShownAt: evidence.lightShownAt }
      const record = await deps.evaluate({ checks: challenge.checks, steps: challenge.steps, light: challenge.light, ...shown, frames: evidence.frames, references })
      if (!record.passed || !record.sameFace) throw failed(failureWords(record))
      return { outcome: { status: 'passed', checks: record.checks, note: null }, release }
    },
  }
}

export type LivenessGate = ReturnType<typeof livenessGate>

import type { KioskSettings } from '../../shared/settings'
import type { Backend } from '../backend'
import { createChallengeStore } from '../liveness/challenge-store'
import { livenessGate, type LivenessGate } from '../liveness/gate'
import { localLivenessEngine } from '../liveness/local-engine'
import { livenessPolicy } from '../liveness/policy'
import type { CredentialStore } from '../secrets/credentials'
import type { Feature } from './feature'

export interface LivenessDeps {
  /** The kiosk's own engine, which judges every burst (started on demand in remote mode). */
  engineUrl: () => Promise<string>
  credentials: CredentialStore
  settings: () => Promise<KioskSettings>
  backend: () => Promise<Backend>
  log: (line: string) => void
}

/** Liveness: the challenge a capture must show, and the gate the visitor workflows judge each capture by. */
export function livenessFeature(deps: LivenessDeps): Feature & { gate: LivenessGate } {
  const judge = localLivenessEngine({
    ensureRunning: deps.engineUrl,
    credentials: () => deps.credentials.embeddedEngineCredentials(),
    connectTimeoutMs: async () => (await deps.settings()).connectTimeoutSeconds * 1000,
  })
  const gate = livenessGate({
    backend: deps.backend,
    tenantCode: async () => (await deps.settings()).tenantCode,
    policy: livenessPolicy(deps.log),
    challenges: createChallengeStore(),
    evaluate: (request) => judge.evaluate(request),
    stepSeconds: async () => (await deps.settings()).livenessStepSeconds,
  })
  return {
    gate,
    ...livenessChallenges(gate),
    stop: () => judge.close(),
  }
}

/** The challenge a capture must show: a fresh random step order, or that none is required. */
export function livenessChallenges(gate: Pick<LivenessGate, 'challenge'>): Feature {
  return { handlers: { startLivenessChallenge: (input) => gate.challenge(input.purpose) } }
}

import { randomInt, randomUUID } from 'node:crypto'
import { KioskError } from '../../shared/errors'
import { CHALLENGE_TTL_MS, challengeSteps, LIGHT_MAX_MS, LIGHT_MIN_MS, LIGHT_PERIODS, lightColourSchema, type ChallengeStep, type LightPeriod, type LivenessChallenge, type LivenessCode, type LivenessPurpose } from '../../shared/liveness'

/** A challenge as the services keep it: what was asked, for which workflow, until when. */
export interface IssuedChallenge {
  challengeId: string
  purpose: LivenessPurpose
  checks: LivenessCode[]
  steps: ChallengeStep[]
  light: LightPeriod[]
  expiresAt: number
}

export interface ChallengeStoreOptions {
  now?: () => number
  ttlMs?: number
  /** At most this many open challenges; the oldest goes first (a page that never sends cannot grow memory). */
  max?: number
}

const stale = (why: string) => new KioskError('LIVENESS_REQUIRED', `The liveness check ${why}. Start the capture again and follow the prompts.`)

/** A fresh permutation of the challenge steps from the OS's random source (Fisher–Yates). */
export function randomSteps(): ChallengeStep[] {
  const steps = [...challengeSteps]
  for (let i = steps.length - 1; i > 0; i--) {
    const j = randomInt(i + 1)
    ;[steps[i], steps[j]] = [steps[j]!, steps[i]!]
  }
  return steps
}

/** A fresh sequence of the screen's colours, each unlike the one before, for a random time each (the OS's random source). */
export function randomLight(): LightPeriod[] {
  const colours = lightColourSchema.options
  const light: LightPeriod[] = []
  for (let i = 0; i < LIGHT_PERIODS; i++) {
    const others = colours.filter((colour) => colour !== light.at(-1)?.colour)
    light.push({ colour: others[randomInt(others.length)]!, ms: LIGHT_MIN_MS + randomInt(LIGHT_MAX_MS - LIGHT_MIN_MS + 1) })
  }
  return light
}

/**
 * The challenges the services issued, in memory only: each is good for one attempt, for the
 * workflow it was issued for, until it expires.
 */
export function createChallengeStore(options: ChallengeStoreOptions = {}) {
  const now = options.now ?? Date.now
  const ttlMs = options.ttlMs ?? CHALLENGE_TTL_MS
  const max = options.max ?? 256
  const open = new Map<string, IssuedChallenge>()

  const sweep = () => {
    for (const [id, challenge] of open) if (challenge.expiresAt <= now()) open.delete(id)
  }

  return {
    /** A new challenge for `purpose` asking for `checks` (a random step order when the active challenge is one, random colours when the screen light is). */
    issue(purpose: LivenessPurpose, checks: LivenessCode[], stepSeconds: number): LivenessChallenge {
      sweep()
      while (open.size >= max) open.delete(open.keys().next().value!)
      const issued: IssuedChallenge = {
        challengeId: randomUUID(),
        purpose,
        checks: [...checks],
        steps: checks.includes('active-challenge') ? randomSteps() : [],
        light: checks.includes('screen-light') ? randomLight() : [],
        expiresAt: now() + ttlMs,
      }
      open.set(issued.challengeId, issued)
      return { required: true, challengeId: issued.challengeId, checks: issued.checks, steps: issued.steps, light: issued.light, stepSeconds, expiresAt: issued.expiresAt }
    },

    /** Takes a challenge for one attempt: it cannot be used again. Throws LIVENESS_REQUIRED when it does not fit. */
    take(challengeId: string, purpose: LivenessPurpose): IssuedChallenge {
      const challenge = open.get(challengeId)
      open.delete(challengeId)
      if (!challenge) throw stale('was already used or is unknown')
      if (challenge.expiresAt <= now()) throw stale('took too long and expired')
      if (challenge.purpose !== purpose) throw stale(`was started for another task (${challenge.purpose})`)
      return challenge
    },

    /** Puts a taken challenge back for one more attempt (staff decide after a 'needs-decision' enrollment). */
    restore(challenge: IssuedChallenge): void {
      if (challenge.expiresAt > now()) open.set(challenge.challengeId, challenge)
    },

    get size(): number {
      sweep()
      return open.size
    },
  }
}

export type ChallengeStore = ReturnType<typeof createChallengeStore>

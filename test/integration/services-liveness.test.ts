import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadFacePlugins } from '../../electron/engine/face'
import { CONSENT } from '../../electron/shared/consent'
import { CHALLENGE_TTL_MS, challengeSteps, type ChallengeStep } from '../../electron/shared/liveness'
import { startTestEngine, type TestEngine } from '../support/engine'
import { livenessServices } from '../support/liveness-services'
import { closedPortUrl } from '../support/outbox-helpers'
import { projectRoot } from '../support/process'
import { bonaFideBurst, NEUTRAL_FRAME, recordedHead } from '../support/recorded-head'

const sample = (name: string) => readFileSync(join(projectRoot, 'test/fixtures/generated', name)).toString('base64')
const enrollInput = (userId: string, extra: object = {}) => ({ userId, samples: [sample('person-a1.jpg')], consent: true, consentVersion: CONSENT.version, ...extra })
/** A burst with each step's frames (any images: these are refused before anything looks at them). */
const burst = (challengeId: string, steps: readonly ChallengeStep[]) => ({ challengeId, frames: steps.flatMap((step, i) => [0, 1].map((k) => ({ step, image: sample('person-a2.jpg'), at: i * 200 + k * 100 }))) })

// The services' liveness gate, composed as the kiosk composes it, over the real engine: policy from
// the tenant's associations, challenges, the burst's checks, overrides, and the audit trail.
describe('liveness in the services (real engine, audit, roles)', () => {
  let t: TestEngine
  let k: Awaited<ReturnType<typeof livenessServices>>
  /** The newest outcome entry of an action. */
  const latest = (action: string) => k.audit.query({ actions: [action] } as never).find((e) => e.outcome !== 'started')!
  beforeAll(async () => {
    t = await startTestEngine(await loadFacePlugins({ threads: 2, log: () => {} }))
    k = await livenessServices(t)
  })
  afterAll(async () => {
    await k?.close()
    await t?.close()
  })

  it('without an association asks for nothing and every result says liveness: null, as today', async () => {
    expect(await k.visitor.call('startLivenessChallenge', { purpose: 'enroll' })).toMatchObject({ required: false, challengeId: null, checks: [], steps: [], stepSeconds: 8 })
    const enrolled = await k.visitor.call('enrollVisitor', enrollInput('plain@liveness.example'))
    expect(enrolled).toMatchObject({ outcome: 'enrolled', liveness: null })
    expect(await k.visitor.call('verifyVisitor', { userId: 'plain@liveness.example', sample: sample('person-a2.jpg') })).toHaveProperty('liveness', null)
    expect(await k.operator.call('identifyVisitor', { sample: sample('person-a2.jpg') })).toMatchObject({ decision: 'match', liveness: null })
    expect(await k.operator.call('faceMatch', { image1: sample('person-a1.jpg'), image2: sample('person-a2.jpg') })).toMatchObject({ pass: true, liveness: null })
    const enroll = latest('enroll')
    expect(enroll).toMatchObject({ outcome: 'ok' })
    expect(enroll.detail).not.toMatch(/liveness/)
  })

  describe('with active-challenge associated with the tenant’s algorithm', () => {
    beforeAll(async () => {
      await k.admin.call('associateAlgorithm', { algCode: 'HumanFaceRes' })
      await k.admin.call('associateLiveness', { algCode: 'HumanFaceRes', livenessCode: 'active-challenge' })
    })

    it('issues a challenge: a random order of blink and both turns, the step time, an expiry', async () => {
      const challenge = await k.visitor.call('startLivenessChallenge', { purpose: 'enroll' })
      expect(challenge).toMatchObject({ required: true, checks: ['active-challenge'], stepSeconds: 8, challengeId: expect.any(String) })
      expect([...challenge.steps].sort()).toEqual([...challengeSteps].sort())
      expect(challenge.expiresAt).toBeGreaterThan(Date.now())
    })

    it('refuses enroll and verify without evidence (LIVENESS_REQUIRED), in plain words for the visitor, audited as refused', async () => {
      const refused = await k.visitor.failure('enrollVisitor', enrollInput('nolive@liveness.example'))
      expect(refused.code).toBe('LIVENESS_REQUIRED')
      expect(refused.message).toMatch(/in person.*follow the prompts.*ask staff/)
      expect(await k.operator.call('findPerson', { userId: 'nolive@liveness.example' })).toEqual({ person: null })
      const entry = latest('enroll')
      expect(entry).toMatchObject({ outcome: 'refused', subject: expect.objectContaining({ userId: 'nolive@liveness.example' }) })
      expect(entry.detail).toMatch(/^liveness failed: .*requires a liveness check.*\[LIVENESS_REQUIRED\]$/)

      expect((await k.visitor.failure('verifyVisitor', { userId: 'plain@liveness.example', sample: sample('person-a2.jpg') })).code).toBe('LIVENESS_REQUIRED')
      expect((await k.operator.failure('verifyVisitor', { userId: 'plain@liveness.example', sample: sample('person-a2.jpg') })).code).toBe('LIVENESS_REQUIRED')
      expect(latest('verify')).toMatchObject({ outcome: 'refused', detail: expect.stringMatching(/^liveness failed/) })
    })

    it('refuses a challenge for another task, an expired one, and steps out of order; a challenge is used once', async () => {
      const forVerify = await k.visitor.call('startLivenessChallenge', { purpose: 'verify' })
      const other = await k.visitor.failure('enrollVisitor', enrollInput('stale@liveness.example', { liveness: burst(forVerify.challengeId, forVerify.steps) }))
      expect(other.code).toBe('LIVENESS_REQUIRED')

      const expiring = await k.visitor.call('startLivenessChallenge', { purpose: 'enroll' })
      k.advanceClock(CHALLENGE_TTL_MS)
      expect((await k.visitor.failure('enrollVisitor', enrollInput('stale@liveness.example', { liveness: burst(expiring.challengeId, expiring.steps) }))).code).toBe('LIVENESS_REQUIRED')

      const fresh = await k.visitor.call('startLivenessChallenge', { purpose: 'enroll' })
      const reversed = [...fresh.steps].reverse()
      const outOfOrder = await k.operator.failure('enrollVisitor', enrollInput('stale@liveness.example', { liveness: burst(fresh.challengeId, reversed) }))
      expect(outOfOrder).toMatchObject({ code: 'LIVENESS_FAILED', message: expect.stringMatching(/do not follow the challenge’s steps/) })
      expect(latest('enroll')).toMatchObject({ outcome: 'refused', detail: expect.stringMatching(/^liveness failed: .*steps.*\[LIVENESS_FAILED\]$/) })
      // The same challenge again, now in order: already used.
      expect((await k.visitor.failure('enrollVisitor', enrollInput('stale@liveness.example', { liveness: burst(fresh.challengeId, fresh.steps) }))).code).toBe('LIVENESS_REQUIRED')
      expect(await k.operator.call('findPerson', { userId: 'stale@liveness.example' })).toEqual({ person: null })
    })

    it('refuses an override from a visitor (FORBIDDEN) and enrolls with an operator’s, audited with account and reason', async () => {
      const override = { reason: 'Visitor cannot turn their head (neck brace)' }
      expect((await k.visitor.failure('enrollVisitor', enrollInput('brace@liveness.example', { livenessOverride: override }))).code).toBe('FORBIDDEN')
      expect((await k.visitor.failure('verifyVisitor', { userId: 'plain@liveness.example', sample: sample('person-a2.jpg'), livenessOverride: override })).code).toBe('FORBIDDEN')

      const enrolled = await k.operator.call('enrollVisitor', enrollInput('brace@liveness.example', { samples: [sample('person-c.jpg')], livenessOverride: override }))
      expect(enrolled).toMatchObject({ outcome: 'enrolled', liveness: { status: 'overridden', checks: [], note: override.reason } })
      expect(latest('enroll')).toMatchObject({ outcome: 'ok', account: 'Otto Operator', detail: expect.stringContaining(`liveness overridden by Otto Operator: ${override.reason}`) })

      const verified = await k.operator.call('verifyVisitor', { userId: 'brace@liveness.example', sample: sample('person-c.jpg'), livenessOverride: override })
      expect(verified).toMatchObject({ decision: 'match', liveness: { status: 'overridden' } })
      expect(latest('verify').detail).toBe(`match; liveness overridden by Otto Operator: ${override.reason}`)
    })

    it('says "not checked" for identify and face match on a photo file, in the result and the audit', async () => {
      const identified = await k.operator.call('identifyVisitor', { sample: sample('person-a2.jpg') })
      expect(identified.liveness).toEqual({ status: 'not-checked', checks: [], note: 'Photo file: liveness not checked' })
      expect(latest('identify').detail).toMatch(/^liveness not checked \(Photo file: liveness not checked\); match: /)
      const matched = await k.operator.call('faceMatch', { image1: sample('person-a1.jpg'), image2: sample('person-a2.jpg') })
      expect(matched.liveness).toMatchObject({ status: 'not-checked' })
      expect(latest('face-match').detail).toMatch(/^pass; liveness not checked/)
      const missingTarget = await k.operator.failure('faceMatch', { image1: sample('person-a1.jpg'), image2: sample('person-a2.jpg'), liveness: burst((await k.operator.call('startLivenessChallenge', { purpose: 'face-match' })).challengeId, ['blink']) })
      expect(missingTarget.code).toBe('INVALID_INPUT')
    })

    it('judges before queueing: offline, the last policy read stands; nothing is queued without liveness, an override is queued with it', async () => {
      await k.visitor.call('startLivenessChallenge', { purpose: 'enroll' }) // the policy, read while online
      await k.goOffline(await closedPortUrl())
      try {
        expect((await k.visitor.failure('enrollVisitor', enrollInput('offline@liveness.example'))).code).toBe('LIVENESS_REQUIRED')
        expect((await k.outbox.state()).items).toEqual([])
        const queued = await k.operator.call('enrollVisitor', enrollInput('offline@liveness.example', { livenessOverride: { reason: 'cannot see the screen prompts' } }))
        expect(queued).toMatchObject({ outcome: 'queued', liveness: { status: 'overridden', note: 'cannot see the screen prompts' } })
        expect(latest('enroll')).toMatchObject({ outcome: 'queued', detail: expect.stringContaining('liveness overridden by Otto Operator: cannot see the screen prompts') })
        expect(k.lines.join('\n')).toMatch(/using the last policy read/)
      } finally {
        k.goOnline()
      }
    })

    it('passes a real head’s burst (enroll, then verify) and refuses a still photo’s, naming what was not seen', async () => {
      const images = recordedHead()
      const neutral = images.get(NEUTRAL_FRAME)!
      const realBurst = (challengeId: string, steps: ChallengeStep[]) => bonaFideBurst(challengeId, steps, images)

      const forEnroll = await k.visitor.call('startLivenessChallenge', { purpose: 'enroll' })
      const enrolled = await k.visitor.call('enrollVisitor', enrollInput('cap12@liveness.example', { samples: [neutral], liveness: realBurst(forEnroll.challengeId, forEnroll.steps) }))
      // The visitor reads only that they are enrolled; the audit keeps the liveness outcome.
      expect(enrolled).toMatchObject({ outcome: 'enrolled', liveness: null })
      expect(latest('enroll')).toMatchObject({ outcome: 'ok', detail: expect.stringMatching(/; liveness passed$/) })

      const forVerify = await k.visitor.call('startLivenessChallenge', { purpose: 'verify' })
      const verified = await k.visitor.call('verifyVisitor', { userId: 'cap12@liveness.example', sample: neutral, liveness: realBurst(forVerify.challengeId, forVerify.steps) })
      expect(verified).toMatchObject({ decision: 'match', score: null, liveness: null })
      expect(latest('verify').detail).toBe('match; liveness passed')

      // The same person's photo held still in front of the camera for every step.
      const still = await k.visitor.call('startLivenessChallenge', { purpose: 'verify' })
      const photo = { challengeId: still.challengeId, frames: (still.steps as ChallengeStep[]).flatMap((step, i) => [0, 1].map((j) => ({ step, image: neutral, at: i * 200 + j * 100 }))) }
      const refused = await k.operator.failure('verifyVisitor', { userId: 'cap12@liveness.example', sample: neutral, liveness: photo })
      expect(refused).toMatchObject({ code: 'LIVENESS_FAILED', message: expect.stringMatching(/^Liveness was not shown: active-challenge: .*(blink|turn)/) })
      expect(latest('verify')).toMatchObject({ outcome: 'refused', detail: expect.stringMatching(/^liveness failed: .*\[LIVENESS_FAILED\]$/) })
      const visitorWords = await k.visitor.failure('verifyVisitor', { userId: 'cap12@liveness.example', sample: neutral, liveness: { ...photo, challengeId: (await k.visitor.call('startLivenessChallenge', { purpose: 'verify' })).challengeId } })
      expect(visitorWords).toMatchObject({ code: 'LIVENESS_FAILED', message: expect.stringMatching(/could not confirm that you are here in person.*follow.*prompts.*ask staff/) })
    })

    it('gives staff one more attempt with the same capture after a needs-decision answer, and no more', async () => {
      const images = recordedHead()
      const neutral = images.get(NEUTRAL_FRAME)!
      const challenge = await k.operator.call('startLivenessChallenge', { purpose: 'enroll' })
      const evidence = bonaFideBurst(challenge.challengeId, challenge.steps as ChallengeStep[], images)
      // The face is cap12@liveness.example's (enrolled above): staff must decide.
      const first = await k.operator.call('enrollVisitor', enrollInput('cap12-twin@liveness.example', { samples: [neutral], liveness: evidence }))
      expect(first).toMatchObject({ outcome: 'needs-decision' })
      const decided = await k.operator.call('enrollVisitor', enrollInput('cap12-twin@liveness.example', { samples: [neutral], liveness: evidence, acceptDuplicates: true }))
      expect(decided).toMatchObject({ outcome: 'enrolled', liveness: { status: 'passed' } })
      expect((await k.operator.failure('enrollVisitor', enrollInput('cap12-twin@liveness.example', { samples: [neutral], liveness: evidence, onExisting: 'add' }))).code).toBe('LIVENESS_REQUIRED')
    })
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchEngineFromSource } from '../../electron/services/engine-launch'
import { CONSENT } from '../../electron/shared/consent'
import type { ChallengeStep } from '../../electron/shared/liveness'
import { projectRoot } from '../support/process'
import { bonaFideBurst, NEUTRAL_FRAME, recordedFrames, recordedHead } from '../support/recorded-head'
import { remoteKiosk, type RemoteKiosk } from '../support/remote-kiosk'

// Remote mode: the vendor's servers hold the tenant and the faces, but liveness is judged by the
// kiosk's own embedded engine, which is off in remote mode until a burst must be judged.
const enroll = (userId: string, sample: string, extra: object = {}) => ({ userId, samples: [sample], consent: true, consentVersion: CONSENT.version, ...extra })

describe('liveness in remote mode (vendor stand-in, the kiosk’s own engine on demand)', () => {
  let k: RemoteKiosk
  let neutral: string
  let images: Map<number, string>
  beforeAll(async () => {
    k = await remoteKiosk({}, {}, undefined, true, launchEngineFromSource(projectRoot))
    images = recordedHead()
    neutral = images.get(NEUTRAL_FRAME)!
    await k.call('associateAlgorithm', { algCode: 'StandinFace' })
  }, 60_000)
  afterAll(async () => {
    await k?.close()
  })

  it('does not enforce a vendor’s own liveness code alone, and keeps the engine off', async () => {
    await k.call('associateLiveness', { algCode: 'StandinFace', livenessCode: 'VENDOR-BLINK' })
    expect(await k.call('startLivenessChallenge', { purpose: 'enroll' })).toMatchObject({ required: false, checks: [] })
    expect(await k.call('enrollVisitor', enroll('vendor@remote.example', recordedFrames([300]).get(300)!))).toMatchObject({ outcome: 'enrolled', liveness: null })
    expect((await k.call('getEngineStatus')).state).toBe('stopped')
  })

  it('with active-challenge on the tenant: refuses a capture without evidence, starts the local engine to judge a burst, and keeps it running', async () => {
    await k.call('associateLiveness', { algCode: 'StandinFace', livenessCode: 'active-challenge' })
    expect((await k.failure('enrollVisitor', enroll('cap12@remote.example', neutral))).code).toBe('LIVENESS_REQUIRED')
    expect((await k.call('getEngineStatus')).state).toBe('stopped')

    const still = await k.call('startLivenessChallenge', { purpose: 'enroll' })
    expect(still).toMatchObject({ required: true, checks: ['active-challenge'] })
    const photo = { challengeId: still.challengeId, frames: (still.steps as ChallengeStep[]).flatMap((step, i) => [{ step, image: neutral, at: i * 200 }, { step, image: neutral, at: i * 200 + 100 }]) }
    expect(await k.failure('enrollVisitor', enroll('cap12@remote.example', neutral, { liveness: photo }))).toMatchObject({ code: 'LIVENESS_FAILED', message: expect.stringMatching(/^Liveness was not shown/) })
    const started = await k.call('getEngineStatus')
    expect(started).toMatchObject({ mode: 'remote', state: 'running' })

    const real = await k.call('startLivenessChallenge', { purpose: 'enroll' })
    const burst = bonaFideBurst(real.challengeId, real.steps as ChallengeStep[], images)
    expect(await k.call('enrollVisitor', enroll('cap12@remote.example', neutral, { liveness: burst }))).toMatchObject({ outcome: 'enrolled', liveness: { status: 'passed' } })
    // Enrolled at the vendor's servers, not in the kiosk's engine; the same engine process judged both bursts.
    expect(await k.call('findPerson', { userId: 'cap12@remote.example' })).toMatchObject({ person: { userId: 'cap12@remote.example' } })
    expect(await k.call('getEngineStatus')).toMatchObject({ state: 'running', pid: started.pid })
  }, 180_000)
})

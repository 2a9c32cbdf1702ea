import { launchEngineFromSource } from '../../../electron/services/engine-launch'
import { CONSENT } from '../../../electron/shared/consent'
import { projectRoot } from '../../support/process'
import { remoteKiosk } from '../../support/remote-kiosk'
import { fixture } from '../lib/faces'
import { row } from '../lib/report'
import type { BenchSection } from '../lib/section'
import { timePair } from '../lib/stats'

/**
 * Verify in remote mode with the offline replica on, against the vendor stand-in: online (the
 * stand-in decides, by its fake byte-hash matcher) against offline (the stand-in unreachable, the
 * kiosk's own engine decides against the replica with real face recognition), call by call through
 * the kiosk's dispatch, so each offline figure includes finding the servers gone.
 */
export const replica: BenchSection = {
  name: 'replica',
  async run({ quick, log }) {
    const times = quick ? 5 : 30
    const [enrolled, probe] = [fixture('person-a1.jpg'), fixture('person-a2.jpg')].map((b) => b.toString('base64')) as [string, string]
    const k = await remoteKiosk({}, { offlineReplica: true }, undefined, true, launchEngineFromSource(projectRoot))
    try {
      const userId = 'bench-replica@visitor.example'
      const enrolledNow = await k.call('enrollVisitor', { userId, samples: [enrolled], consent: true, consentVersion: CONSENT.version })
      if (enrolledNow.outcome !== 'enrolled') throw new Error(`enrollment: ${JSON.stringify(enrolledNow)}`)
      for (let polls = 0; (await k.call('getReplicaStatus')).persons < 1; polls++) {
        if (polls > 600) throw new Error('the enrollment never reached the replica')
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      const verify = async (online: boolean) => {
        k.standin.setOnline(online)
        // Online, the stand-in's matcher knows only the enrolled bytes; offline, real recognition takes another photo of her.
        const result = await k.call('verifyVisitor', { userId, sample: online ? enrolled : probe })
        if (result.decision !== 'match' || Boolean(result.offline) === online) throw new Error(`${online ? 'online' : 'offline'} verify: ${JSON.stringify(result)}`)
      }
      const [offline, online] = await timePair(
        times,
        () => verify(false),
        () => verify(true),
        2,
      )
      log(`offline verify p50 ${offline.p50.toFixed(0)} ms (p95 ${offline.p95.toFixed(0)}), online p50 ${online.p50.toFixed(0)} ms, ${times} each`)
      return [
        row('replica', 'verify offline, on this device (p50)', offline.p50, 'ms', { name: 'verify online, the stand-in decides (p50)', value: online.p50, unit: 'ms' }, {
          note: 'offline = servers unreachable + the local engine’s real face match; online = the stand-in’s hash matcher (no face model)',
        }),
      ]
    } finally {
      k.standin.setOnline(true)
      await k.close()
    }
  },
}

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { launchEngineFromSource } from '../../../electron/services/engine-launch'
import { CONSENT } from '../../../electron/shared/consent'
import { TEST_CLIENT, TEST_TENANT } from '../../support/engine'
import { projectRoot } from '../../support/process'
import { kioskAt, remoteKiosk, type KioskAt } from '../../support/remote-kiosk'
import { startEngineProcess } from '../lib/engine-process'
import { fixture } from '../lib/faces'
import { row, type BenchRow } from '../lib/report'
import type { BenchSection } from '../lib/section'
import { timePair } from '../lib/stats'

/** How far apart a known and an unknown e-mail's answers may be, or the time tells who is enrolled. */
const PARITY = 0.05

/**
 * A visitor's Verify (the visitor's session, as at the screen) of a known e-mail with a stranger's
 * face against an unknown e-mail with the same face, interleaved: the answers read alike, and must
 * take alike, or the time tells who is enrolled. The row's ratio is unknown / known.
 */
async function visitorParity(k: KioskAt, knownUserId: string, where: string, times: number, sample: string, log: (line: string) => void): Promise<BenchRow> {
  const visitor = async (userId: string) => {
    const reply = await k.services.dispatch('verifyVisitor', { userId, sample }, 'bench:visitor')
    if (!reply.ok || (reply.value as { decision: string }).decision !== 'no-match') throw new Error(`${where} visitor verify of ${userId}: ${JSON.stringify(reply)}`)
  }
  const [unknown, known] = await timePair(
    times,
    (i) => visitor(`nobody-${i}@visitor.example`),
    () => visitor(knownUserId),
  )
  const ratio = unknown.p50 / known.p50
  log(`${where}: visitor verify, unknown e-mail p50 ${unknown.p50.toFixed(1)} ms, known e-mail p50 ${known.p50.toFixed(1)} ms (${times} each)`)
  return row('replica', `visitor verify ${where}, unknown e-mail (p50)`, unknown.p50, 'ms', { name: 'known e-mail, another face (p50)', value: known.p50, unit: 'ms' }, {
    target: { text: `medians within ${PARITY * 100}%`, met: Math.abs(ratio - 1) <= PARITY },
    note: 'both answer no-match; interleaved call by call',
  })
}

/** A visitor's Verify online, the servers being our own engine (as at a site): the parity of answers there. */
async function onlineParity(times: number, enrolled: string, stranger: string, log: (line: string) => void): Promise<BenchRow> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-parity-'))
  const engine = await startEngineProcess(dataDir, 4)
  let k: KioskAt | undefined
  try {
    k = await kioskAt({
      personServerUrl: engine.url,
      bioEngineUrl: `${engine.url}/bioengine`,
      tenantCode: TEST_TENANT,
      templateType: 'Face:HumanFaceRes',
      clientId: TEST_CLIENT.id,
      clientSecret: TEST_CLIENT.secret,
    })
    const userId = 'bench-parity@visitor.example'
    const enrolledNow = await k.call('enrollVisitor', { userId, samples: [enrolled], consent: true, consentVersion: CONSENT.version })
    if (enrolledNow.outcome !== 'enrolled') throw new Error(`enrollment: ${JSON.stringify(enrolledNow)}`)
    return await visitorParity(k, userId, 'online (our engine decides)', times, stranger, log)
  } finally {
    await k?.close()
    await engine.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/**
 * Verify in remote mode with the offline replica on, against the vendor stand-in: online (the
 * stand-in decides, by its fake byte-hash matcher) against offline (the stand-in unreachable, the
 * kiosk's own engine decides against the replica with real face recognition), call by call through
 * the kiosk's dispatch, so each offline figure includes finding the servers gone.
 */
export const replica: BenchSection = {
  name: 'replica',
  async run({ quick, log }) {
    const times = quick ? 3 : 30
    const [enrolled, probe, stranger] = [fixture('person-a1.jpg'), fixture('person-a2.jpg'), fixture('person-d.jpg')].map((b) => b.toString('base64')) as [string, string, string]
    const parityTimes = quick ? 8 : 40
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
      k.standin.setOnline(false)
      const offlineParity = await visitorParity(k, userId, 'offline (on this device)', parityTimes, stranger, log)
      k.standin.setOnline(true)
      return [
        offlineParity,
        await onlineParity(parityTimes, enrolled, stranger, log),
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

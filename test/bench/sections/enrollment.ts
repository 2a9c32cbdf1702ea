import { enrollVisitor } from '../../../electron/services/workflows/enroll-visitor'
import { testBackend } from '../../support/backend'
import { startTestEngine, TEST_TENANT } from '../../support/engine'
import { enrollmentSampleSets, HUMAN_TEMPLATE_TYPE, startHumanPlugin } from '../lib/faces'
import { row } from '../lib/report'
import type { BenchSection } from '../lib/section'
import { timePair } from '../lib/stats'

/** Samples per enrollment: the plugin's numSamplesForEnroll, as the kiosk's guided capture sends them. */
const SAMPLES = 3

/**
 * Engine enrollment throughput (BioEngine enroll, one enrollment at a time) against analysing the
 * same samples straight through the plugin; then the kiosk's enroll-visitor workflow end to end
 * against the raw HTTP calls it makes. All against one in-process engine with 2 face workers.
 */
export const enrollment: BenchSection = {
  name: 'enrollment',
  async run({ quick, log }) {
    const plugin = await startHumanPlugin()
    const t = await startTestEngine([plugin])
    const backend = testBackend(t.url)
    try {
      const sets = await enrollmentSampleSets(SAMPLES)
      const set = (i: number) => sets[i % sets.length]!
      const bytes = sets.map((s) => s.map((b64) => Buffer.from(b64, 'base64')))

      // 1. Throughput. Engine: a person is created untimed, then POST .../biometrics with the
      // samples. Direct: the same samples analysed at once (Promise.all, as the engine does).
      const enrollments = quick ? 6 : 40
      const persons: string[] = []
      for (let i = 0; i < enrollments + 3; i++) {
        const created = await t.call('POST', `/v2/gmiserver/tenant/${TEST_TENANT}/person`, { userId: `bench-enroll-${i}@visitor.example` })
        if (created.status !== 201 && created.status !== 200) throw new Error(`create person answered ${created.status}`)
        persons.push(created.body.uuid as string)
      }
      const [engine, direct] = await timePair(
        enrollments,
        async (i) => {
          const reply = await t.call('POST', `/bioengine/persons/${persons[i]}/biometrics`, { templateType: HUMAN_TEMPLATE_TYPE, templateContext: 'bench', samples: set(i) })
          if (reply.status !== 201 || !(reply.body.quality > 0)) throw new Error(`enroll answered ${reply.status}: ${JSON.stringify(reply.body)}`)
        },
        async (i) => {
          const faces = await Promise.all(bytes[i % bytes.length]!.map((b) => plugin.analyze(b)))
          if (faces.some((f) => f.length !== 1)) throw new Error('expected one face per sample')
        },
        3,
      )
      const perSecond = (totalMs: number) => (enrollments * SAMPLES * 1000) / totalMs
      log(`enroll p50 ${engine.p50.toFixed(0)} ms, direct analysis of the same samples p50 ${direct.p50.toFixed(0)} ms`)
      const rows = [
        row('enrollment', `engine enroll throughput, samples/s (${SAMPLES} per enrollment)`, perSecond(engine.totalMs), 'items/s', { name: 'same samples analysed directly by the plugin, same 2 workers', value: perSecond(direct.totalMs), unit: 'items/s' }, {
          // The difference is HTTP + JSON + base64 + the SQLite write + the cache update.
          note: `${enrollments} enrollments one after another, interleaved with the baseline`,
        }),
      ]

      // 2. The workflow: look-up, create, enroll, tenant status, through the kiosk's real clients,
      // against the same four requests sent raw with a ready token.
      const times = quick ? 6 : 30
      // timePair gives every call its own index, so every visitor is new.
      const request = (tag: string, i: number) => ({ userId: `bench-${tag}-${i}@visitor.example`, samples: set(i), templateType: HUMAN_TEMPLATE_TYPE, templateContext: 'bench' })
      const [workflow, raw] = await timePair(
        times,
        async (i) => {
          const result = await enrollVisitor(backend, request('workflow', i))
          if (!result.created || result.enrollmentStatus !== 'ENROLLED') throw new Error(`enrollVisitor: ${JSON.stringify(result)}`)
        },
        async (i) => {
          const { userId, ...enroll } = request('raw', i)
          const found = await t.call('GET', `/v2/gmiserver/person?userId=${encodeURIComponent(userId)}`)
          if (found.status !== 404) throw new Error(`look-up answered ${found.status}`)
          const created = await t.call('POST', `/v2/gmiserver/tenant/${TEST_TENANT}/person`, { userId })
          const enrolled = await t.call('POST', `/bioengine/persons/${created.body.uuid}/biometrics`, enroll)
          const status = await t.call('GET', `/v2/gmiserver/tenant/${TEST_TENANT}/person/${created.body.uuid}`)
          if (enrolled.status !== 201 || status.body.enrollmentStatus !== 'ENROLLED') throw new Error(`raw enrollment: ${enrolled.status} ${JSON.stringify(status.body)}`)
        },
        2,
      )
      rows.push(
        row('enrollment', `enroll-visitor workflow p50 (${SAMPLES} samples)`, workflow.p50, 'ms', { name: 'the same 4 engine requests sent raw, interleaved, p50', value: raw.p50, unit: 'ms' }, {
          note: 'look-up, create, enroll, tenant status: kiosk clients vs undici with a ready token',
        }),
      )
      return rows
    } finally {
      await backend.close()
      await t.close()
    }
  },
}

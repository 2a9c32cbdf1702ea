import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { openOutbox } from '../../../electron/services/outbox'
import { backendProbe } from '../../../electron/services/outbox/probe'
import { enrollVisitor } from '../../../electron/services/workflows/enroll-visitor'
import { testBackend } from '../../support/backend'
import { startTestEngine } from '../../support/engine'
import { engineTally } from '../../support/outbox-helpers'
import { enrollmentSampleSets, HUMAN_TEMPLATE_TYPE, startHumanPlugin } from '../lib/faces'
import { row } from '../lib/report'
import type { BenchSection } from '../lib/section'

const SAMPLES = 3

/**
 * Draining queued enrollments from the offline outbox (real SQLite, sealed payloads, production
 * timings) against delivering the same enrollments directly, the same way (enrollVisitor, one
 * after another), half before and half after the drain so drift on a shared machine cancels out.
 */
export const outbox: BenchSection = {
  name: 'outbox',
  async run({ quick, log }) {
    const items = quick ? 20 : 200
    const plugin = await startHumanPlugin()
    const t = await startTestEngine([plugin])
    const backend = testBackend(t.url)
    const dir = mkdtempSync(join(tmpdir(), 'kiosk-bench-outbox-'))
    const box = await openOutbox({ dir, key: randomBytes(32), deliver: (item) => enrollVisitor(backend, item), probe: backendProbe(backend) })
    try {
      const sets = await enrollmentSampleSets(SAMPLES)
      const samples = (i: number) => sets[i % sets.length]!
      // Warm up the clients' token and connections and the engine's workers, untimed.
      for (let i = 0; i < 2; i++) await enrollVisitor(backend, { userId: `bench-warm-${i}@visitor.example`, samples: samples(i), templateType: HUMAN_TEMPLATE_TYPE, templateContext: 'bench' })

      const direct = async (from: number, to: number) => {
        const started = performance.now()
        for (let i = from; i < to; i++) {
          const result = await enrollVisitor(backend, { userId: `bench-direct-${i}@visitor.example`, samples: samples(i), templateType: HUMAN_TEMPLATE_TYPE, templateContext: `bench-${i}` })
          if (!result.created || result.enrollmentStatus !== 'ENROLLED') throw new Error(`direct enrollment ${i}: ${JSON.stringify(result)}`)
        }
        return performance.now() - started
      }

      const queued = []
      for (let i = 0; i < items; i++) queued.push(await box.enqueue({ userId: `bench-queued-${i}@visitor.example`, templateType: HUMAN_TEMPLATE_TYPE, samples: samples(i) }))
      const half = Math.floor(items / 2)
      const directMs = await direct(0, half)
      const started = performance.now()
      const state = await box.drainNow()
      const drainMs = performance.now() - started
      const directTotal = directMs + (await direct(half, items))

      // Every item delivered exactly once: one person per visitor, one template per item's context.
      if (state.counts.queued + state.counts.inFlight + state.counts.needsAttention !== 0) throw new Error(`outbox not drained: ${JSON.stringify(state.counts)}`)
      const wrong = (await engineTally(t, queued)).filter((x) => x.persons !== 1 || x.contexts !== 1)
      if (wrong.length > 0) throw new Error(`${wrong.length} outbox item(s) not delivered exactly once, e.g. ${JSON.stringify(wrong[0])}`)

      const perSecond = (ms: number) => (items * 1000) / ms
      log(`drain ${drainMs.toFixed(0)} ms, direct ${directTotal.toFixed(0)} ms for ${items} enrollments each`)
      return [
        row('outbox', `drain of ${items} queued enrollments (${SAMPLES} samples each)`, perSecond(drainMs), 'items/s', { name: 'the same enrollments delivered directly (enrollVisitor, sequential)', value: perSecond(directTotal), unit: 'items/s' }, {
          target: { text: '>= 0.8x direct', met: perSecond(drainMs) >= 0.8 * perSecond(directTotal) },
          // drainNow() from a probe to idle: claim, decrypt, deliver (its claim renewed), mark delivered, WAL checkpoint, per item. Direct: half before, half after.
          note: 'SQLite WAL, synchronous=FULL, AES-GCM per item',
        }),
      ]
    } finally {
      await box.close()
      await backend.close()
      await t.close()
      rmSync(dir, { recursive: true, force: true })
    }
  },
}

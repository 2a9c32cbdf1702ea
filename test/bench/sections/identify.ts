import { HUMAN_FACERES } from '../../../electron/engine/face/specs'
import { startEngineProcess, postJson } from '../lib/engine-process'
import { row, type BenchRow } from '../lib/report'
import { plainPass, probeNear, prng, seededPersonId, seededStore } from '../lib/seed'
import type { BenchSection } from '../lib/section'
import { timePair } from '../lib/stats'

interface IdentifyReply {
  allIdentifyResults: Array<{ identifyResults: Array<{ identifyMatchResults: Array<{ personId: string; score: number }>; errorCode?: number }> }>
}

const TARGET_N = 100_000

/**
 * Identify 1:N with template inputs (no face pipeline) against N enrolled templates, over HTTP to
 * the engine process, interleaved call by call with the floor: one plain pass over the same
 * vector bytes in this process.
 */
export const identify: BenchSection = {
  name: 'identify',
  async run({ quick, log }) {
    const spec = HUMAN_FACERES
    const templateType = `Face:${spec.name}`
    const rows: BenchRow[] = []
    let smallestStart: { n: number; ms: number } | undefined
    const sizes = quick ? [1_000, 5_000] : [1_000, 10_000, TARGET_N]
    for (const n of sizes) {
      let started = performance.now()
      const store = await seededStore(spec, n)
      log(`seeded ${n} templates in ${((performance.now() - started) / 1000).toFixed(1)} s`)
      const engine = await startEngineProcess(store.dataDir, 1)
      log(`engine ready with ${n} templates in ${(engine.startedMs / 1000).toFixed(1)} s`)
      smallestStart ??= { n, ms: engine.startedMs }
      try {
        const random = prng(n)
        const targets = Array.from({ length: 64 }, () => Math.floor(random() * n))
        const probes = targets.map((target) => probeNear(store.vectors, spec, target, random))
        const floorBytes = store.vectors.subarray(0, n * spec.dimensions)
        let sink = 0
        const call = async (i: number, thresholdValue?: number) => {
          const input = { templateType, template: probes[i % probes.length], ...(thresholdValue === undefined ? {} : { thresholdValue }) }
          const reply = await postJson<IdentifyReply>(engine, '/bioengine/identify', { identifyInputs: [input] })
          const result = reply.allIdentifyResults[0]?.identifyResults[0]
          const top = result?.identifyMatchResults[0]
          // A fast wrong answer is no answer: the probe was made from this person's template.
          if (top?.personId !== seededPersonId(targets[i % targets.length]!)) throw new Error(`identify at N=${n} returned ${JSON.stringify(result)}`)
        }
        started = performance.now()
        const [measured, floor] = await timePair(quick ? 30 : n >= TARGET_N ? 100 : 200, call, () => (sink += plainPass(floorBytes)))
        log(`${n}: identify p50 ${measured.p50.toFixed(2)} ms, floor ${floor.p50.toFixed(2)} ms (${((performance.now() - started) / 1000).toFixed(1)} s, sink ${sink.toFixed(0)})`)
        const label = n >= 1000 ? `${n / 1000}k` : String(n)
        const baseline = { name: `plain pass over ${label} × ${spec.dimensions} floats`, value: floor.p50, unit: 'ms' as const }
        const atTarget = n === TARGET_N
        rows.push(
          row('identify', `p50, N=${label} (${templateType})`, measured.p50, 'ms', baseline, {
            ...(atTarget ? { target: { text: 'p50 <= 2x floor and < 50 ms', met: measured.p50 <= 2 * floor.p50 && measured.p50 < 50 } } : {}),
          }),
          row('identify', `p95, N=${label}`, measured.p95, 'ms', { ...baseline, value: floor.p95 }),
        )
        if (n === sizes.at(-1)) {
          // Threshold 0: every row passes the cut-off, so the exact re-scoring must stay bounded.
          const [lowest, lowFloor] = await timePair(quick ? 10 : 50, (i) => call(i, 0), () => (sink += plainPass(floorBytes)))
          rows.push(row('identify', `p50, N=${label}, thresholdValue 0`, lowest.p50, 'ms', { ...baseline, value: lowFloor.p50 }))
        }
        if (n !== smallestStart.n) {
          // What a large cache costs at start-up (decrypt, decode, load), over the start with the fewest.
          rows.push(row('identify', `engine start to ready, N=${label}`, engine.startedMs, 'ms', { name: `the same with N=${smallestStart.n}`, value: smallestStart.ms, unit: 'ms' }))
        }
      } finally {
        await engine.stop()
      }
    }
    return rows
  },
}

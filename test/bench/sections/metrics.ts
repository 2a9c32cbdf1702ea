import { request } from 'undici'
import { HUMAN_FACERES } from '../../../electron/engine/face/specs'
import { postJson, startEngineProcess, type EngineProcess } from '../lib/engine-process'
import { runLoad } from '../lib/load'
import { row, type BenchRow } from '../lib/report'
import { probeNear, prng, seededPersonId, seededStore } from '../lib/seed'
import type { BenchSection } from '../lib/section'
import { latency } from '../lib/stats'

const CONNECTIONS = 16

/**
 * What the metrics cost: two engine processes on the same seeded store, one with ENGINE_METRICS=off,
 * loaded in turn with identify at 16 connections (N=1k, so the request's own handling, where the
 * metrics hooks run, weighs most), the one with metrics scraped once a second as Prometheus would.
 * The time per request with metrics against without, the median over alternating rounds.
 */
export const metrics: BenchSection = {
  name: 'metrics',
  async run({ quick, log }) {
    const spec = HUMAN_FACERES
    const store = await seededStore(spec, 1_000, 'metrics')
    const rounds = quick ? 1 : 5
    const seconds = quick ? 1 : 10
    const random = prng(49)
    const targets = Array.from({ length: 64 }, () => Math.floor(random() * store.count))
    const probes = targets.map((target) => probeNear(store.vectors, spec, target, random))
    const identifyAt = (engine: EngineProcess) => async (i: number) => {
      const reply = await postJson<{ allIdentifyResults: Array<{ identifyResults: Array<{ identifyMatchResults: Array<{ personId: string }> }> }> }>(engine, '/bioengine/identify', {
        identifyInputs: [{ templateType: `Face:${spec.name}`, template: probes[i % probes.length] }],
      })
      if (reply.allIdentifyResults[0]?.identifyResults[0]?.identifyMatchResults[0]?.personId !== seededPersonId(targets[i % targets.length]!)) throw new Error('identify missed its person')
    }

    const on = await startEngineProcess(store.dataDir, CONNECTIONS)
    const off = await startEngineProcess(store.dataDir, CONNECTIONS, { ENGINE_METRICS: 'off' })
    try {
      const scrape = async () => {
        const reply = await request(`${on.url}/metrics`)
        const text = await reply.body.text()
        if (reply.statusCode !== 200 || !text.includes('kiosk_engine_identify_seconds')) throw new Error(`GET /metrics: HTTP ${reply.statusCode}`)
      }
      const offReply = await request(`${off.url}/metrics`)
      await offReply.body.dump()
      if (offReply.statusCode !== 404) throw new Error(`ENGINE_METRICS=off still serves /metrics (HTTP ${offReply.statusCode})`)

      const perRequestMs = { on: [] as number[], off: [] as number[] }
      for (const engine of [on, off]) await runLoad(1000, CONNECTIONS, identifyAt(engine)) // warm-up
      for (let round = 0; round < rounds; round++) {
        for (const [name, engine] of [['off', off], ['on', on]] as const) {
          let scraping = name === 'on'
          const scraper = (async () => {
            while (scraping) {
              await scrape()
              await new Promise((done) => setTimeout(done, 1000))
            }
          })()
          const result = await runLoad(seconds * 1000, CONNECTIONS, identifyAt(engine))
          scraping = false
          await scraper
          if (result.errors > 0) throw new Error(`identify with metrics ${name}: ${result.firstError}`)
          perRequestMs[name].push(1000 / result.throughput)
          log(`round ${round + 1}, metrics ${name}: ${result.throughput.toFixed(0)} req/s, p50 ${result.latency.p50.toFixed(2)} ms`)
        }
      }
      const [withMetrics, without] = [latency(perRequestMs.on).p50, latency(perRequestMs.off).p50]
      return [
        row('metrics', `identify under ${CONNECTIONS} connections (N=1k): time per request with metrics, scraped every second`, withMetrics, 'ms', { name: 'ENGINE_METRICS=off, same store and run', value: without, unit: 'ms' }, {
          target: { text: '<= 1.05x', met: withMetrics <= 1.05 * without },
          note: `median of ${rounds} alternating rounds of ${seconds} s (1 / throughput)`,
        }),
      ] satisfies BenchRow[]
    } finally {
      await Promise.all([on.stop(), off.stop()])
    }
  },
}

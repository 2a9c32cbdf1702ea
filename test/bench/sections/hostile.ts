import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { HUMAN_FACERES } from '../../../electron/engine/face/specs'
import { TEST_CLIENT, TEST_TENANT } from '../../support/engine'
import { postJson, startEngineProcess, type EngineProcess } from '../lib/engine-process'
import { describeTally, runPhase, startFloodProcess, type FloodProcess, type PhaseResult } from '../lib/flood'
import { FLOOD_KINDS, type FloodKind } from '../lib/hostile-flooders'
import { idleEngineRss } from '../lib/idle-rss'
import { markdownTable, row, type BenchRow } from '../lib/report'
import { samplePeak } from '../lib/rss'
import { probeNear, prng, seededPersonId, seedTemplates } from '../lib/seed'
import type { BenchSection } from '../lib/section'

const spec = HUMAN_FACERES
const templateType = `Face:${spec.name}`
const LEGIT_USER = 'legit-caller@example.com'

interface IdentifyReply {
  allIdentifyResults: Array<{ identifyResults: Array<{ identifyMatchResults: Array<{ personId: string }> }> }>
}

/** The legitimate caller: a person lookup and a one-template identify, alternately, each checked. */
function legitCaller(engine: EngineProcess, vectors: Float32Array): (i: number) => Promise<void> {
  const random = prng(5)
  const probes = Array.from({ length: 16 }, () => probeNear(vectors, spec, 0, random))
  return async (i) => {
    if (i % 2 === 0) {
      const reply = await engine.pool.request({ method: 'GET', path: `/v2/gmiserver/person?userId=${encodeURIComponent(LEGIT_USER)}`, headers: { authorization: `Bearer ${engine.token}` } })
      const body = (await reply.body.json()) as { userId?: string }
      if (reply.statusCode !== 200 || body.userId !== LEGIT_USER) throw new Error(`person lookup: HTTP ${reply.statusCode}`)
    } else {
      const reply = await postJson<IdentifyReply>(engine, '/bioengine/identify', { identifyInputs: [{ templateType, template: probes[i % probes.length] }] })
      const top = reply.allIdentifyResults[0]?.identifyResults[0]?.identifyMatchResults[0]
      if (top?.personId !== seededPersonId(0)) throw new Error(`identify: top match ${JSON.stringify(top)}`)
    }
  }
}

function assertAlive(engine: EngineProcess, phase: string): void {
  try {
    process.kill(engine.pid, 0)
  } catch {
    throw new Error(`the engine process died during the ${phase} phase`)
  }
}

/**
 * Hostile load: a legitimate caller's p99 while another caller, a child process of its own (so the
 * timed caller's event loop does nothing else), floods the engine process (wrong
 * client secrets, 30 MB bodies, amplifying identify/verify), each kind alone and then all at once,
 * against the same caller's p99 on the quiet engine in the same run. Then the idle engine's memory.
 */
export const hostile: BenchSection = {
  name: 'hostile',
  async run({ quick, log }) {
    const rows = await idleEngineRss(quick, log)

    const seconds = quick ? 1 : 15
    const dataDir = mkdtempSync(join(tmpdir(), 'kiosk-bench-hostile-'))
    const vectors = new Float32Array(spec.dimensions)
    await seedTemplates(dataDir, spec, 0, 1, vectors) // the verify target and the legit identify's match
    const engine = await startEngineProcess(dataDir, 1)
    const serverErrors: string[] = []
    let flood: FloodProcess | undefined
    try {
      await postJson(engine, `/v2/gmiserver/tenant/${TEST_TENANT}/person`, { userId: LEGIT_USER })
      const legit = legitCaller(engine, vectors)
      // The flood clients run in a child process, so this one does nothing but the timed calls.
      flood = await startFloodProcess({ url: engine.url, token: engine.token, clientId: TEST_CLIENT.id, tenant: TEST_TENANT, templateType, personId: seededPersonId(0), kinds: [...FLOOD_KINDS] })
      const floodProcess = flood
      const phase = async (name: string, kinds: FloodKind[], durationS: number): Promise<PhaseResult & { peakRssMb: number }> => {
        const peak = samplePeak(engine.rssMb)
        let peakRssMb = 0
        let result: PhaseResult
        try {
          result = await runPhase(durationS * 1000, legit, kinds.length > 0 ? { process: floodProcess, kinds } : undefined)
        } finally {
          peakRssMb = peak.stop()
        }
        assertAlive(engine, name)
        for (const [kind, tally] of result.flood) {
          log(`${name}: ${kind} ${describeTally(tally)}`)
          serverErrors.push(...tally.serverErrors.map((e) => `${kind}: ${e}`))
        }
        log(`${name}: legit p50 ${result.legit.p50.toFixed(1)} ms, p99 ${result.legit.p99.toFixed(1)} ms over ${result.legit.count} calls; ${result.legitFailures.size ? `failures: ${[...result.legitFailures].map(([m, n]) => `${m} ×${n}`).join('; ')}` : 'no failures'}; engine RSS peak ${peakRssMb.toFixed(0)} MB`)
        return { ...result, peakRssMb }
      }

      const quiet = await phase('quiet', [], seconds)
      if (quiet.legitFailures.size > 0) throw new Error(`the legitimate caller fails on a quiet engine: ${[...quiet.legitFailures.keys()].join('; ')}`)
      const quietBaseline = { name: `quiet engine p99 (${quiet.legit.count} calls)`, value: quiet.legit.p99, unit: 'ms' as const }
      const floodRow = (metric: string, result: PhaseResult & { peakRssMb: number }) => {
        const failures = [...result.legitFailures.values()].reduce((sum, n) => sum + n, 0)
        return row('hostile', metric, result.legit.p99, 'ms', quietBaseline, {
          target: { text: '<= 2x quiet p99, no legit call failed', met: result.legit.p99 <= 2 * quiet.legit.p99 && failures === 0 },
          note: `${result.legit.count} legit calls, ${failures} failed; flood: ${[...result.flood].map(([kind, tally]) => `${kind} ${describeTally(tally)}`).join('; ')}; engine RSS peak ${result.peakRssMb.toFixed(0)} MB`,
        })
      }
      // Amplification goes last among the single kinds: today its queued work outlives its phase.
      const perKind: BenchRow[] = []
      for (const kind of FLOOD_KINDS) {
        perKind.push(floodRow(`legit p99 under one flood kind: ${kind}`, await phase(kind, [kind], seconds)))
      }
      const all = await phase('all kinds', [...FLOOD_KINDS], quick ? 1.5 : 20)
      rows.push(floodRow('legit p99 under a flood (all kinds at once)', all), ...perKind)
    } finally {
      await flood?.close()
      await engine.stop()
      rmSync(dataDir, { recursive: true, force: true })
    }
    if (serverErrors.length > 0) {
      log(markdownTable(rows))
      throw new Error(`the engine answered ${serverErrors.length} flood request(s) with a 5xx other than 503, e.g.:\n${serverErrors.slice(0, 5).join('\n')}`)
    }
    return rows
  },
}

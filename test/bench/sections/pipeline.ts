import { performance } from 'node:perf_hooks'
import { FormData, request } from 'undici'
import { startTestEngine } from '../../support/engine'
import { fixture, squareJpeg, startHumanPlugin } from '../lib/faces'
import { row, type BenchRow } from '../lib/report'
import type { BenchSection } from '../lib/section'
import { latency, timePair } from '../lib/stats'

interface MatchReply {
  status: string
  score: number
  pass: boolean
}

/**
 * The face pipeline of one image (FacePlugin.analyze: decode on the main thread, detect + embed in a
 * worker) against the model's own inference inside that worker for the very same calls; then the
 * engine's /match of two 1024×1024 photos against one such photo's pipeline, interleaved.
 */
export const pipeline: BenchSection = {
  name: 'pipeline',
  async run({ quick, log }) {
    const times = quick ? 12 : 60
    // The worker reports its inference time just before analyze() resolves; calls here are sequential.
    let inferMs = Number.NaN
    const plugin = await startHumanPlugin({ onInference: (ms) => (inferMs = ms) })
    const t = await startTestEngine([plugin])
    try {
      const camera = fixture('person-a1.jpg')
      const [a1, a2, b] = await Promise.all(['person-a1.jpg', 'person-a2.jpg', 'person-b.jpg'].map((name) => squareJpeg(fixture(name))))
      const rows: BenchRow[] = []

      for (const [label, bytes] of [
        ['540×720 JPEG', camera],
        ['1024×1024 JPEG', a1!],
      ] as const) {
        const analyze = async () => {
          inferMs = Number.NaN
          const started = performance.now()
          const faces = await plugin.analyze(bytes)
          const wall = performance.now() - started
          if (faces.length !== 1) throw new Error(`expected one face in the ${label}, found ${faces.length}`)
          if (!Number.isFinite(inferMs)) throw new Error('the plugin did not report its inference time')
          return { wall, infer: inferMs }
        }
        for (let i = 0; i < 5; i++) await analyze()
        const calls = []
        for (let i = 0; i < times; i++) calls.push(await analyze())
        const wall = latency(calls.map((c) => c.wall))
        const infer = latency(calls.map((c) => c.infer))
        const overhead = latency(calls.map((c) => c.wall - c.infer))
        log(`${label}: pipeline p50 ${wall.p50.toFixed(1)} ms, inference p50 ${infer.p50.toFixed(1)} ms, per-call overhead p50 ${overhead.p50.toFixed(1)} ms`)
        rows.push(
          row('pipeline', `decode+detect+embed p50, ${label}`, wall.p50, 'ms', { name: 'model inference in its worker, same calls, p50', value: infer.p50, unit: 'ms' }, {
            target: { text: 'overhead <= 10% (ratio <= 1.10)', met: wall.p50 <= 1.1 * infer.p50 },
            // Why this baseline: it is the model's time for the very same call, so the ratio is exactly
            // decode + transfer + post-processing. (The model run on the main thread is ~10% slower than
            // in a worker, which would flatter the pipeline.)
            note: `per-call overhead p50 ${overhead.p50.toFixed(1)} ms (decode, transfer, post-processing)`,
          }),
        )
      }

      const match = async (image1: Buffer, image2: Buffer): Promise<MatchReply> => {
        const form = new FormData()
        form.append('Image1', new Blob([image1]), 'image1.jpg')
        form.append('Image2', new Blob([image2]), 'image2.jpg')
        const reply = await request(`${t.bio}/match`, { method: 'POST', body: form })
        const body = (await reply.body.json()) as MatchReply
        if (reply.statusCode !== 200 || body.status !== 'OK') throw new Error(`/match answered ${reply.statusCode}: ${JSON.stringify(body)}`)
        return body
      }
      // The figures mean nothing if the answers are wrong: one person passes, two people do not.
      const genuine = await match(a1!, a2!)
      const impostor = await match(a1!, b!)
      if (!genuine.pass || impostor.pass) throw new Error(`/match gave genuine ${genuine.score} (pass ${genuine.pass}), impostor ${impostor.score} (pass ${impostor.pass})`)
      log(`/match scores: genuine ${genuine.score}, impostor ${impostor.score}`)

      const [matched, single] = await timePair(
        times,
        async () => {
          if (!(await match(a1!, a2!)).pass) throw new Error('/match stopped passing a genuine pair')
        },
        async () => {
          if ((await plugin.analyze(a1!)).length !== 1) throw new Error('expected one face')
        },
        5,
      )
      // The floor under /match's ratio: the same two photos analysed at once, with no HTTP. Two busy
      // cores run the model slower than one (shared caches, clocks); nothing above the plugin can win that back.
      const [both, alone] = await timePair(times, () => Promise.all([plugin.analyze(a1!), plugin.analyze(a2!)]), () => plugin.analyze(a1!), 5)
      rows.push(
        row('pipeline', 'two 1024×1024 JPEGs analysed at once, p50', both.p50, 'ms', { name: 'pipeline of one 1024×1024 JPEG, interleaved, p50', value: alone.p50, unit: 'ms' }, {
          note: 'no HTTP: the floor of /match on this machine',
        }),
        row('pipeline', '/match p50, two 1024×1024 JPEGs', matched.p50, 'ms', { name: 'pipeline of one 1024×1024 JPEG, interleaved, p50', value: single.p50, unit: 'ms' }, {
          target: { text: '<= 1.2x one image', met: matched.p50 <= 1.2 * single.p50 },
          // The two photos go up as multipart to the in-process engine and are analysed at once by its 2 workers.
          note: `p95 ${matched.p95.toFixed(0)} ms vs ${single.p95.toFixed(0)} ms`,
        }),
      )
      return rows
    } finally {
      await t.close()
    }
  },
}

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { FormData } from 'undici'
import { startEngineProcess, type EngineProcess } from './engine-process'
import { fixture } from './faces'
import { row, type BenchRow } from './report'
import { settledRss, type SettledRss } from './rss'

/** Shortened in the bench so "idle" comes within the run (the engine's default is 60 s). */
const RETIRE_VAR = 'ENGINE_FACE_IDLE_MS'

/** One Simple Face Match of the genuine fixture pair: the call that puts the face workers to work. */
async function faceMatch(engine: EngineProcess): Promise<void> {
  const form = new FormData()
  form.append('Image1', new Blob([fixture('person-a1.jpg')], { type: 'image/jpeg' }), 'a1.jpg')
  form.append('Image2', new Blob([fixture('person-a2.jpg')], { type: 'image/jpeg' }), 'a2.jpg')
  const reply = await engine.pool.request({ method: 'POST', path: '/bioengine/match', body: form })
  const body = (await reply.body.json()) as { pass?: boolean }
  if (reply.statusCode !== 200 || body.pass !== true) throw new Error(`match: HTTP ${reply.statusCode} ${JSON.stringify(body)}`)
}

const describe = (r: SettledRss) => `${r.mb.toFixed(0)} MB (${r.settled ? `settled after ${r.polls} reads` : `still moving after ${r.polls} reads`})`

/**
 * Resident memory of an engine process with no templates: idle after start (past its workers'
 * retire time, when it has one: it may load models at start to check them), against the same
 * process right after one face match (every face worker holding its model and buffers: the ~700 MB
 * with four workers before the engine's pool was bounded), and idle again after the retire time.
 */
export async function idleEngineRss(quick: boolean, log: (line: string) => void): Promise<BenchRow[]> {
  const poll = quick ? { intervalMs: 1500, maxPolls: 6 } : { intervalMs: 3000, maxPolls: 20 }
  const retireVar = RETIRE_VAR
  const retireMs = quick ? 3000 : 10_000
  const dataDir = mkdtempSync(join(tmpdir(), 'kiosk-bench-idle-'))
  const engine = await startEngineProcess(dataDir, 1, { [retireVar]: String(retireMs) })
  const idleAgain = async () => {
    await sleep(retireMs + poll.intervalMs)
    return settledRss(engine.rssMb, poll)
  }
  try {
    const idle = await idleAgain()
    await faceMatch(engine)
    // Read at once: an engine that retires idle workers may start doing so within seconds.
    const warmed = engine.rssMb()
    const retired = await idleAgain()
    log(`idle engine RSS ${describe(idle)}; right after one face match ${warmed.toFixed(0)} MB; idle again ${describe(retired)}`)
    const baseline = { name: 'same engine right after one face match', value: warmed, unit: 'MB' as const }
    const idleFor = `, then idle past its workers' retire time (${retireVar}=${retireMs})`
    return [
      row('hostile', `idle engine RSS (no templates, after start${idleFor})`, idle.mb, 'MB', baseline, {
        target: { text: '<= 400 MB', met: idle.mb <= 400 },
        note: `${idle.settled ? 'settled' : 'NOT settled'} within 2% after ${idle.polls} reads`,
      }),
      row('hostile', `idle engine RSS after a face match and the retire time (${retireVar}=${retireMs})`, retired.mb, 'MB', baseline, {
        target: { text: '<= 400 MB', met: retired.mb <= 400 },
        note: `${retired.settled ? 'settled' : 'NOT settled'} within 2% after ${retired.polls} reads`,
      }),
    ]
  } finally {
    await engine.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

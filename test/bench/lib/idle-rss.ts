import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { FormData } from 'undici'
import { projectRoot } from '../../support/process'
import { startEngineProcess, type EngineProcess } from './engine-process'
import { fixture } from './faces'
import { row, type BenchRow } from './report'
import { settledRss, type SettledRss } from './rss'

/** The variable through which the engine's face pools may be told when to retire idle workers. */
export const IDLE_RETIRE_ENV = 'ENGINE_IDLE_RETIRE_MS'

/** Whether the engine's source reads IDLE_RETIRE_ENV at all (the feature may not exist yet). */
export function engineReadsIdleRetire(): boolean {
  const dir = join(projectRoot, 'electron/engine')
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).some((file) => file.endsWith('.ts') && readFileSync(join(dir, file), 'utf8').includes(IDLE_RETIRE_ENV))
}

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
 * Resident memory of an engine process with no templates: idle after start, after one face match
 * (today's figure: every face worker busy with models and buffers), and, when the engine supports
 * it, idle again after its workers' retire time.
 */
export async function idleEngineRss(quick: boolean, log: (line: string) => void): Promise<BenchRow[]> {
  const poll = quick ? { intervalMs: 1500, maxPolls: 6 } : { intervalMs: 3000, maxPolls: 20 }
  const retireMs = engineReadsIdleRetire() ? (quick ? 2000 : 10_000) : null
  const dataDir = mkdtempSync(join(tmpdir(), 'kiosk-bench-idle-'))
  const engine = await startEngineProcess(dataDir, 1, retireMs === null ? undefined : { [IDLE_RETIRE_ENV]: String(retireMs) })
  try {
    const idle = await settledRss(engine.rssMb, poll)
    await faceMatch(engine)
    const warmed = await settledRss(engine.rssMb, poll)
    log(`idle engine RSS ${describe(idle)}; after one face match ${describe(warmed)}`)
    const baseline = { name: 'same engine after one face match', value: warmed.mb, unit: 'MB' as const }
    const rows = [
      row('hostile', 'idle engine RSS (no templates, after start)', idle.mb, 'MB', baseline, {
        target: { text: '<= 400 MB', met: idle.mb <= 400 },
        note: `baseline: the same process after one /match has run its face workers (today's ~700 MB with 4 workers); ${idle.settled ? 'settled' : 'NOT settled'} within 2% after ${idle.polls} reads`,
      }),
    ]
    if (retireMs === null) {
      log(`${IDLE_RETIRE_ENV} is not read by this engine: no read after an idle-retire period`)
      return rows
    }
    await sleep(retireMs + poll.intervalMs)
    const retired = await settledRss(engine.rssMb, poll)
    log(`after ${retireMs} ms idle (${IDLE_RETIRE_ENV}=${retireMs}): ${describe(retired)}`)
    rows.push(
      row('hostile', `idle engine RSS after the idle-retire time (${IDLE_RETIRE_ENV}=${retireMs})`, retired.mb, 'MB', baseline, {
        target: { text: '<= 400 MB', met: retired.mb <= 400 },
        note: 'the same engine, idle again after the face match',
      }),
    )
    return rows
  } finally {
    await engine.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import type { Browser } from 'playwright'
import { launchBrowser } from '../lib/browser'
import { buildRendererOnce } from '../lib/build'
import { staticPageServer, timeFirstScreen } from '../lib/first-screen'
import { row } from '../lib/report'
import type { BenchSection } from '../lib/section'
import { latency } from '../lib/stats'
import { startUntil, tsxArgs, type Started } from '../../support/process'
import { startWebHost, type TestWebHost } from '../../support/web-host'

const readyLine = /^engine ready (http:\/\/127\.0\.0\.1:\d+)$/

/**
 * The runtime floor of a server process: node + tsx + a loopback HTTP server that prints the same
 * ready line and stops on SIGTERM like the engine. What the engine adds on top is its own start-up
 * (database, face models).
 */
const FLOOR_SCRIPT = `import { createServer } from 'node:http'
const server = createServer((_, response) => response.end('ok'))
server.listen(0, '127.0.0.1', () => console.log(\`engine ready http://127.0.0.1:\${(server.address() as { port: number }).port}\`))
process.once('SIGTERM', () => server.close(() => process.exit(0)))
`

/** Spawns, waits for the ready line, checks the server answers, stops; returns the ms to ready. */
async function timeServerStart(entry: string, args: string[]): Promise<number> {
  const started = performance.now()
  const server: Started = await startUntil(...tsxArgs(entry, args), readyLine, 120_000)
  const ms = performance.now() - started
  const answered = fetch(server.match[1]!).then((reply) => reply.arrayBuffer())
  await answered.catch(() => {})
  const code = await server.stop()
  await answered // it was listening: rethrows if it was not
  if (code !== 0) throw new Error(`${entry} exited with ${code} on SIGTERM:\n${server.output.join('\n')}`)
  return ms
}

const p50 = (ms: number[]) => latency(ms).p50

/** Polls the kiosk's bridge until its embedded engine runs; throws if it fails or takes over 2 minutes. */
async function waitForEngine(host: TestWebHost): Promise<void> {
  const deadline = Date.now() + 120_000
  for (;;) {
    const status = await host.bridge<{ state: string; lastError: string | null }>('getEngineStatus')
    if (status.state === 'running') return
    if (Date.now() > deadline || status.state === 'failed') throw new Error(`the web host's engine is ${status.state}: ${status.lastError ?? 'no error given'}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/**
 * One cold start of the kiosk's web host: spawn to launch URL, the URL opened at once to Home painted
 * (then the baseline page, under the same load), and spawn to its engine running. Stops the host.
 */
async function timeWebHostStart(browser: Browser, staticUrl: string) {
  const now = () => performance.timeOrigin + performance.now() // epoch ms, comparable with the browser's
  const spawnedAt = now()
  const host = await startWebHost()
  const measured = (async () => {
    const hostStart = now() - spawnedAt
    const app = await timeFirstScreen(browser, host.launchUrl, '#screen-title')
    const baseline = await timeFirstScreen(browser, staticUrl, '#screen-title')
    if (app.text !== 'Welcome') throw new Error(`the kiosk's first screen is "${app.text}", not Home ("Welcome")`)
    // The kiosk is usable once its engine runs; the host CLI also handles SIGTERM only from then on.
    await waitForEngine(host)
    return { hostStart, app, baseline, total: app.at - spawnedAt, engineUp: now() - spawnedAt }
  })()
  await measured.catch(() => {})
  const code = await host.stop()
  const result = await measured // rethrows a failed measurement, now that the host is stopped
  if (code !== 0) throw new Error(`the web host exited with ${code} on SIGTERM:\n${host.process.output.join('\n')}`)
  return result
}

/**
 * Cold starts: the standalone engine to ready (face models loaded), and the kiosk's web host to its
 * first rendered screen in Chromium, each against a floor measured alternately in the same run.
 */
export const startup: BenchSection = {
  name: 'startup',
  async run({ quick, log }) {
    const reps = quick ? 1 : 5
    const scratch = mkdtempSync(join(tmpdir(), 'kiosk-bench-startup-'))
    const floorEntry = join(scratch, 'floor-server.ts')
    writeFileSync(floorEntry, FLOOR_SCRIPT)
    try {
      // (a) The engine, on a fresh data folder each time; one unmeasured floor start warms tsx's cache.
      await timeServerStart(floorEntry, [])
      const engine: number[] = []
      const floor: number[] = []
      for (let i = 0; i < reps; i++) {
        floor.push(await timeServerStart(floorEntry, []))
        engine.push(await timeServerStart('electron/engine/cli.ts', ['--port', '0', '--data', join(scratch, `engine-${i}`)]))
        log(`engine cold start ${engine.at(-1)!.toFixed(0)} ms (floor ${floor.at(-1)!.toFixed(0)} ms)`)
      }
      const floorBaseline = { name: 'tsx floor: trivial loopback server to ready', value: p50(floor), unit: 'ms' as const }
      const rows = [
        row('startup', `engine cold start to ready, models loaded (p50 of ${reps})`, p50(engine), 'ms', floorBaseline, { note: 'fresh data folder each start; OS file cache warm' }),
      ]

      // (b) The web host (the real host CLI, which also starts its engine) to the Home screen painted.
      await buildRendererOnce(log)
      const browser = await launchBrowser()
      const staticPage = await staticPageServer()
      try {
        const hostStart: number[] = []
        const appScreen: number[] = []
        const staticScreen: number[] = []
        const total: number[] = []
        const floorTotal: number[] = []
        const engineUp: number[] = []
        for (let i = 0; i < reps; i++) {
          const floorStart = await timeServerStart(floorEntry, [])
          const one = await timeWebHostStart(browser, staticPage.url)
          hostStart.push(one.hostStart)
          appScreen.push(one.app.ms)
          staticScreen.push(one.baseline.ms)
          total.push(one.total)
          floorTotal.push(floorStart + one.baseline.ms)
          engineUp.push(one.engineUp)
          log(`web host ${one.hostStart.toFixed(0)} ms to its URL, Home painted ${one.app.ms.toFixed(0)} ms after navigation (static page ${one.baseline.ms.toFixed(0)} ms), engine running at ${one.engineUp.toFixed(0)} ms`)
        }
        rows.push(
          row('startup', `web host start to launch URL (p50 of ${reps})`, p50(hostStart), 'ms', floorBaseline),
          row('startup', `launch URL to Home painted in Chromium (p50 of ${reps})`, p50(appScreen), 'ms', { name: 'static page with the same heading, same browser', value: p50(staticScreen), unit: 'ms' }, {
            note: 'navigation start to the first frame with the heading; fresh browser context (cold cache); the host is still loading its engine',
          }),
          row('startup', `web host spawn to Home painted (p50 of ${reps})`, p50(total), 'ms', { name: 'tsx floor server + static page', value: p50(floorTotal), unit: 'ms' }),
          row('startup', `web host spawn to its engine running (p50 of ${reps})`, p50(engineUp), 'ms', floorBaseline, { note: 'the kiosk can enroll and verify from here; Home is usable before' }),
        )
      } finally {
        await staticPage.close()
        await browser.close()
      }
      return rows
    } finally {
      rmSync(scratch, { recursive: true, force: true })
    }
  },
}

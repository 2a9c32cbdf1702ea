import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright'
import { createWebHost } from '../../../electron/host/server'
import { fakeCameraFile, tiltedCameraFile } from '../../../playwright.config'
import { projectRoot } from '../../support/process'
import { launchBrowser } from '../lib/browser'
import { buildRendererOnce, rendererDir } from '../lib/build'
import { measureCaptureLoop } from '../lib/capture-loop'
import { row } from '../lib/report'
import type { BenchSection } from '../lib/section'
import { latency } from '../lib/stats'
import { screenLightErrorRates } from './liveness-light'

const streamsDir = join(projectRoot, 'test/fixtures/generated/liveness')
/** Long enough that a cooperative person never runs out of time: the figure is how long they take. */
const STEP_SECONDS = 20
const ORDERS = ['blink,turn-left,turn-right', 'turn-right,blink,turn-left', 'turn-left,turn-right,blink']
const TARGET_FPS = 15

/** Reads the harness's loop stats in the page (a string: this runs under the Node tsconfig, no DOM types). */
const STATS = `(() => { const s = window.captureHarness.stats; return { loop: s.loop, frames: s.frames, busyMs: s.busyMs, since: s.since, now: performance.now() } })()`
interface Stats {
  loop: 'quality' | 'liveness'
  frames: number
  busyMs: number
  since: number
  now: number
}

/**
 * The liveness loop's rate: the upright still photo is taken as the photo at once, then the
 * challenge runs on it and never passes, so its first step gives a steady window.
 */
async function livenessLoopRate(browser: Browser, origin: string, windowMs: number) {
  const page = await browser.newPage()
  try {
    await page.goto(`${origin}/capture-harness.html?count=1&liveness=blink,turn-left,turn-right&stepSeconds=${STEP_SECONDS}`)
    await page.waitForFunction(() => {
      const stats = (globalThis as any).captureHarness?.stats
      return stats?.loop === 'liveness' && stats.frames > 5
    }, undefined, { timeout: 120_000 })
    const a = (await page.evaluate(STATS)) as Stats
    await page.waitForTimeout(windowMs) // a measuring window, not a wait for a state
    const b = (await page.evaluate(STATS)) as Stats
    if (b.loop !== 'liveness' || b.since !== a.since) throw new Error('the challenge ended inside the measuring window')
    const frames = b.frames - a.frames
    return { fps: frames / ((b.now - a.now) / 1000), msPerFrame: (b.busyMs - a.busyMs) / frames, frames }
  } finally {
    await page.close()
  }
}

interface PassRun {
  /** The quality loop's start → the photo taken (the challenge starts then). */
  photoMs: number | null
  /** The first prompt → the page's challenge done. */
  passMs: number
  /** Every step of the order has evidence: the page saw each done (the engine's verdict is the e2e test's). */
  passed: boolean
}

/** One capture with a challenge on a bona fide clip in its own browser (a clip is a launch flag). */
async function passOnce(clip: string, order: string, origin: string): Promise<PassRun> {
  const browser = await launchBrowser(clip)
  try {
    const page = await browser.newPage()
    await page.goto(`${origin}/capture-harness.html?count=1&liveness=${order}&stepSeconds=${STEP_SECONDS}`)
    const poll = { timeout: 180_000, polling: 50 }
    // The predicates return the loop's start time (performance.now in the page) once it has begun.
    const qualitySince = (await (
      await page.waitForFunction(() => {
        const stats = (globalThis as any).captureHarness?.stats
        return stats && stats.frames > 0 ? { loop: stats.loop, since: stats.since } : false
      }, undefined, poll)
    ).jsonValue()) as { loop: string; since: number }
    const livenessSince = (await (
      await page.waitForFunction(() => {
        const stats = (globalThis as any).captureHarness?.stats
        return stats?.loop === 'liveness' ? stats.since : false
      }, undefined, poll)
    ).jsonValue()) as number
    const end = (await (
      await page.waitForFunction(() => {
        const harness = (globalThis as any).captureHarness
        return harness.liveness.length > 0 ? { at: performance.now(), steps: (harness.liveness[0].liveness?.frames ?? []).map((f: { step: string }) => f.step) } : false
      }, undefined, poll)
    ).jsonValue()) as { at: number; steps: string[] }
    return {
      photoMs: qualitySince.loop === 'quality' ? livenessSince - qualitySince.since : null,
      passMs: end.at - livenessSince,
      passed: order.split(',').every((step) => end.steps.includes(step)),
    }
  } finally {
    await browser.close()
  }
}

/**
 * Liveness at capture: (a) the challenge loop's frame rate (grab at evidence size + face mesh +
 * run) against the photo's quality loop on the same harness page in this run; (b) how long a
 * cooperative person (the bona fide clips of recorded head motion) takes to pass the challenge,
 * p50, against the photo capture itself on the same clips.
 */
export const liveness: BenchSection = {
  name: 'liveness',
  async run({ quick, log }) {
    await buildRendererOnce(log)
    const streams = JSON.parse(readFileSync(join(streamsDir, 'streams.json'), 'utf8')) as Array<{ file: string; kind: string; person: string }>
    const bonaFide = streams.filter((s) => s.kind === 'bona-fide')
    if (bonaFide.length === 0) throw new Error('no bona fide streams: run npm run fixtures')
    const host = createWebHost({
      dispatch: async () => ({ ok: false, error: { code: 'INTERNAL', message: 'The capture harness has no kiosk services.' } }),
      rendererDir,
    })
    const { origin } = await host.listen(0)
    try {
      // (a) Both loops on the same 25 fps clips of sample1's photo: upright (taken, then the challenge) and tilted (never taken).
      const windowMs = quick ? 3000 : 8000
      const upright = await launchBrowser(fakeCameraFile)
      const rate = await livenessLoopRate(upright, origin, windowMs).finally(() => upright.close())
      const tilted = await launchBrowser(tiltedCameraFile)
      const quality = await measureCaptureLoop(tilted, origin, 1000, windowMs).finally(() => tilted.close())
      log(`liveness loop ${rate.fps.toFixed(1)} fps (${rate.msPerFrame.toFixed(1)} ms/frame, ${rate.frames} frames); quality loop ${quality.fps.toFixed(1)} fps; camera ${quality.cameraFps.toFixed(1)} fps`)

      // (b) Each bona fide clip, with the step orders in turn (quick: the first clip, one order).
      const clips = quick ? bonaFide.slice(0, 1) : bonaFide
      const runs: PassRun[] = []
      for (const [i, stream] of clips.entries()) {
        for (const order of quick ? [ORDERS[i % ORDERS.length]!] : ORDERS) {
          const run = await passOnce(join(streamsDir, stream.file), order, origin)
          log(`${stream.person} ${order}: ${run.passed ? 'passed' : 'NOT passed'} in ${(run.passMs / 1000).toFixed(1)} s (photo ${run.photoMs === null ? '?' : (run.photoMs / 1000).toFixed(1)} s)`)
          runs.push(run)
        }
      }
      const passed = runs.filter((r) => r.passed)
      const pass = latency(passed.map((r) => r.passMs))
      const photo = latency(runs.flatMap((r) => (r.photoMs === null ? [] : [r.photoMs])))
      const light = await screenLightErrorRates(quick, log, streamsDir)
      return [
        row('liveness', 'capture loop rate with the challenge running', rate.fps, 'fps', { name: 'photo quality loop, same page and run', value: quality.fps, unit: 'fps' }, {
          target: { text: `>= ${TARGET_FPS} fps`, met: rate.fps >= TARGET_FPS },
          note: `${rate.msPerFrame.toFixed(1)} ms/frame (grab at ≤ 640 px + face mesh + run); camera ${quality.cameraFps.toFixed(1)} fps; headless Chromium, fake webcam`,
        }),
        row('liveness', 'time to pass the challenge (3 steps), bona fide clips, p50', pass.p50, 'ms', { name: 'taking the photo on the same clips, p50', value: photo.p50, unit: 'ms' }, {
          note: `${passed.length} of ${runs.length} runs passed on the page (${clips.map((s) => s.person).join(', ')}; ${quick ? 'one step order' : `${ORDERS.length} step orders each`}); step time ${STEP_SECONDS} s; the clips loop every 7.5–8.8 s`,
        }),
        ...light,
      ]
    } finally {
      await host.close()
    }
  },
}

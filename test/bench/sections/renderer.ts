import { join } from 'node:path'
import { createWebHost } from '../../../electron/host/server'
import { tiltedCameraFile } from '../../../playwright.config'
import { projectRoot } from '../../support/process'
import { launchBrowser } from '../lib/browser'
import { buildRendererOnce, rendererDir } from '../lib/build'
import { appBundle, filesUnder, floorBundle, sizeOf } from '../lib/bundle'
import { measureCaptureLoop } from '../lib/capture-loop'
import { row } from '../lib/report'
import type { BenchSection } from '../lib/section'

const kb = (bytes: number) => bytes / 1000

/**
 * The renderer: (a) the capture quality loop's frame rate in headless Chromium with the fake webcam,
 * against the camera's own delivered frame rate on the same <video>; (b) the sizes of the built
 * renderer against floors built or shipped alongside it in this run.
 */
export const renderer: BenchSection = {
  name: 'renderer',
  async run({ quick, log }) {
    await buildRendererOnce(log)

    // (a) The capture harness served by the real web host (static files and CSP), no services behind it.
    const host = createWebHost({
      dispatch: async () => ({ ok: false, error: { code: 'INTERNAL', message: 'The capture harness has no kiosk services.' } }),
      rendererDir,
    })
    const { origin } = await host.listen(0)
    // The tilted clip: the loop judges frames for the whole window without auto-capture ending the set.
    const browser = await launchBrowser(tiltedCameraFile)
    let loop
    try {
      loop = await measureCaptureLoop(browser, origin, quick ? 1000 : 2000, quick ? 4000 : 12_000)
    } finally {
      await browser.close()
      await host.close()
    }
    log(`capture loop ${loop.fps.toFixed(1)} fps (${loop.distinctFps.toFixed(1)} new frames/s) on ${loop.backend} (${loop.msPerFrame.toFixed(1)} ms/frame, ${loop.frames} frames in ${loop.seconds.toFixed(1)} s); camera ${loop.cameraFps.toFixed(1)} fps`)
    const camera = { name: 'camera frames delivered to the same <video>', value: loop.cameraFps, unit: 'fps' as const }
    const rows = [
      row('renderer', 'capture quality loop rate', loop.fps, 'fps', camera, { target: { text: '>= 10 fps', met: loop.fps >= 10 }, note: `tfjs ${loop.backend} backend, headless Chromium, fake webcam` }),
      row('renderer', 'capture loop: new camera frames judged', loop.distinctFps, 'fps', camera, { note: 'a frame judged twice counts once; ratio = share of the camera frames judged' }),
      row('renderer', 'capture loop work per judged frame', loop.msPerFrame, 'ms', { name: 'camera frame interval', value: 1000 / loop.cameraFps, unit: 'ms' }, { note: 'grab + detect + checks; ratio = share of the frame budget' }),
    ]

    // (b) Sizes. 1 KB = 1000 bytes, as Vite prints them.
    const app = appBundle(rendererDir)
    const floor = await floorBundle()
    const human = sizeOf(join(projectRoot, 'node_modules/@vladmandic/human/dist'), ['human.js'])
    const faceShipped = sizeOf(rendererDir, [...filesUnder(rendererDir, 'models'), ...filesUnder(rendererDir, 'wasm')])
    const faceFetched = [...loop.faceFiles.values()].reduce((sum, bytes) => sum + bytes, 0)
    if (faceFetched === 0) throw new Error('the capture page fetched no face model or WASM file')
    if (app.lazyJs.raw === 0) throw new Error('no lazily loaded face guidance chunk was found from index.html')
    log(`first load: ${app.firstLoadJs.files.join(', ')}; lazy: ${app.lazyJs.files.join(', ')}; face files fetched: ${[...loop.faceFiles.keys()].join(', ')}`)
    const floorName = 'minimal React + react-dom + zustand app, same Vite, production build'
    rows.push(
      row('renderer', 'kiosk first-load JS, raw', kb(app.firstLoadJs.raw), 'KB', { name: floorName, value: kb(floor.raw), unit: 'KB' }, { note: `first-load CSS ${kb(app.firstLoadCss.raw).toFixed(1)} KB raw` }),
      row('renderer', 'kiosk first-load JS, gzip', kb(app.firstLoadJs.gzip), 'KB', { name: floorName, value: kb(floor.gzip), unit: 'KB' }, { note: `first-load CSS ${kb(app.firstLoadCss.gzip).toFixed(1)} KB gzip` }),
      row('renderer', 'face guidance JS (loaded with a capture screen), raw', kb(app.lazyJs.raw), 'KB', { name: "Human's own minified build (dist/human.js)", value: kb(human.raw), unit: 'KB' }),
      row('renderer', 'face guidance JS (loaded with a capture screen), gzip', kb(app.lazyJs.gzip), 'KB', { name: "Human's own minified build (dist/human.js)", value: kb(human.gzip), unit: 'KB' }),
      row('renderer', 'face models + WASM shipped, raw', kb(faceShipped.raw), 'KB', { name: 'fetched by the capture page in this run', value: kb(faceFetched), unit: 'KB' }, {
        note: `gzip ${kb(faceShipped.gzip).toFixed(0)} KB; the WASM variants not fetched serve browsers without SIMD or with threads`,
      }),
    )
    return rows
  },
}

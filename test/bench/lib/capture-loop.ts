import type { Browser } from 'playwright'

/**
 * The capture quality loop on the capture harness page (GuidedCapture with the fake webcam), and the
 * camera's own frame rate on the same <video> in the same window: getVideoPlaybackQuality()'s
 * totalVideoFrames counts every frame the stream delivered to the element (it matches
 * requestVideoFrameCallback's presentedFrames), whether or not the loop judged it. Browser-side code
 * is passed as strings: this runs under the Node tsconfig (no DOM types).
 */
export interface LoopRun {
  /** Frames judged by the loop per second. */
  fps: number
  /** Of those, frames not judged before (a frame judged twice counts once). */
  distinctFps: number
  /** Frames the camera delivered to the preview per second. */
  cameraFps: number
  /** Work per judged frame (grab, detect, checks), ms. */
  msPerFrame: number
  backend: string
  frames: number
  seconds: number
  /** URL paths (under models/ and wasm/) the page fetched, with their sizes. */
  faceFiles: Map<string, number>
}

/**
 * Counts the distinct camera frames the loop grabs: every drawImage of a <video> (the loop's grab) is
 * tagged with the element's frame count at that moment (getVideoPlaybackQuality, synchronous); a
 * grab of the same frame as the previous one is a frame judged twice. Observes only, changes nothing.
 */
const COUNT_GRABS = `(() => {
  const grabs = { calls: 0, distinct: 0, last: -1 }
  window.__grabs = grabs
  const draw = CanvasRenderingContext2D.prototype.drawImage
  CanvasRenderingContext2D.prototype.drawImage = function (source, ...rest) {
    if (source instanceof HTMLVideoElement) {
      const frame = source.getVideoPlaybackQuality().totalVideoFrames
      grabs.calls++
      if (frame !== grabs.last) grabs.distinct++
      grabs.last = frame
    }
    return draw.call(this, source, ...rest)
  }
})()`

const READ = `(() => {
  const video = document.querySelector('section.gc video')
  const { frames, busyMs, backend } = window.captureHarness.stats
  return { frames, busyMs, backend, delivered: video ? video.getVideoPlaybackQuality().totalVideoFrames : 0, distinct: window.__grabs.distinct, now: performance.now() }
})()`

interface Reading {
  frames: number
  busyMs: number
  backend: string | null
  delivered: number
  distinct: number
  now: number
}

export async function measureCaptureLoop(browser: Browser, origin: string, warmupMs: number, windowMs: number): Promise<LoopRun> {
  const page = await browser.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  const faceFiles = new Map<string, number>()
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname.replace(/^\//, '')
    if (/^(models|wasm)\//.test(path)) void response.body().then((body) => faceFiles.set(path, body.length), () => {})
  })
  try {
    // count=50: the set is never completed in the window (and the tilted clip it is given is never auto-captured).
    await page.addInitScript(COUNT_GRABS)
    await page.goto(`${origin}/capture-harness.html?count=50`)
    await page
      .waitForFunction(
        () => {
          // A function, not a string: the page's CSP forbids eval, which string predicates need.
          const stats = (globalThis as any).captureHarness?.stats
          return stats && stats.backend !== null && stats.frames > 0
        },
        undefined,
        { timeout: 60_000 },
      )
      .catch((error: unknown) => {
        throw new Error(`the capture loop never ran: ${error instanceof Error ? error.message : String(error)}${errors.length ? `\n${errors.join('\n')}` : ''}`)
      })
    await page.waitForTimeout(warmupMs) // past the first frames (compilation, first allocations)
    const a = (await page.evaluate(READ)) as Reading
    await page.waitForTimeout(windowMs)
    const b = (await page.evaluate(READ)) as Reading
    const seconds = (b.now - a.now) / 1000
    const frames = b.frames - a.frames
    const delivered = b.delivered - a.delivered
    if (frames <= 0 || delivered <= 0) throw new Error(`nothing happened in ${seconds.toFixed(1)} s: ${frames} frames judged, ${delivered} delivered`)
    if (errors.length > 0) throw new Error(`the capture page failed: ${errors.join('\n')}`)
    return {
      fps: frames / seconds,
      distinctFps: (b.distinct - a.distinct) / seconds,
      cameraFps: delivered / seconds,
      msPerFrame: (b.busyMs - a.busyMs) / frames,
      backend: b.backend ?? 'none',
      frames,
      seconds,
      faceFiles,
    }
  } finally {
    await page.close()
  }
}

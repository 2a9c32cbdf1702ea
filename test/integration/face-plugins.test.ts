import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { Worker } from 'node:worker_threads'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cosineSimilarity, FaceImageError, loadFacePlugins, type FacePlugin } from '../../electron/engine/face/index'
import { FaceWorkerPool } from '../../electron/engine/face/pool'
import { projectRoot } from '../support/process'

/**
 * The face plugins with their real models, in real worker threads, on photos from npm packages
 * (made by `npm run fixtures`). Models load once for the whole file.
 */
const fixture = (name: string) => new Uint8Array(readFileSync(join(projectRoot, 'test/fixtures/generated', name)))
const norm = (v: Float32Array) => Math.sqrt(v.reduce((sum, x) => sum + x * x, 0))

let plugins: FacePlugin[] = []
const logs: string[] = []

beforeAll(async () => {
  plugins = await loadFacePlugins({ threads: 2, log: (line) => logs.push(line) })
}, 180_000)

afterAll(async () => {
  await Promise.all(plugins.map((plugin) => plugin.close()))
})

it('loads both plugins, named for template types Face:<name>', () => {
  expect(plugins.map((p) => [p.name, p.dimensions, p.scoreThreshold])).toEqual([
    ['HumanFaceRes', 1024, 48],
    ['FaceApiResNet', 128, 48],
  ])
  for (const plugin of plugins) expect(plugin.name).toMatch(/^[A-Za-z0-9]+$/)
  expect(logs.join('\n')).toMatch(/backend wasm/)
})

describe.each(['HumanFaceRes', 'FaceApiResNet'])('%s', (name) => {
  const plugin = () => {
    const found = plugins.find((p) => p.name === name)
    if (!found) throw new Error(`${name} did not load: ${logs.join('\n')}`)
    return found
  }
  const embeddingOf = async (file: string) => {
    const faces = await plugin().analyze(fixture(file))
    expect(faces, file).toHaveLength(1)
    return faces[0]!.embedding
  }

  it('finds one face in a portrait, with an L2-normalised embedding of the plugin length', async () => {
    const faces = await plugin().analyze(fixture('person-e.jpg')) // 500x614
    expect(faces).toHaveLength(1)
    const [face] = faces
    expect(face!.embedding).toBeInstanceOf(Float32Array)
    expect(face!.embedding).toHaveLength(plugin().dimensions)
    expect(norm(face!.embedding)).toBeCloseTo(1, 4)
    expect(face!.detectorScore).toBeGreaterThan(0.5)
    expect(face!.quality).toBeGreaterThan(0.5)
    expect(face!.quality).toBeLessThanOrEqual(1)
    // The face is in the upper middle of the photo.
    expect(face!.box.x).toBeGreaterThan(20)
    expect(face!.box.x + face!.box.width).toBeLessThan(480)
    expect(face!.box.width).toBeGreaterThan(200)
  })

  it('finds no face in a photo of a wall', async () => {
    expect(await plugin().analyze(fixture('no-face.jpg'))).toEqual([])
  })

  it('finds both faces in a two-person picture, largest first, in source pixels', async () => {
    const faces = await plugin().analyze(fixture('two-faces.jpg')) // large face left, small face right
    expect(faces).toHaveLength(2)
    const [large, small] = faces
    expect(large!.box.width * large!.box.height).toBeGreaterThan(small!.box.width * small!.box.height)
    expect(large!.box.x).toBeLessThan(450)
    expect(small!.box.x).toBeGreaterThan(600)
  })

  it('reads EXIF orientation: a photo stored sideways gives the upright face', async () => {
    const upright = await embeddingOf('person-e.jpg')
    const sideways = await embeddingOf('person-e-exif-rotated.jpg')
    expect(plugin().score(cosineSimilarity(upright, sideways))).toBeGreaterThan(90)
  })

  it('scores a genuine pair >= 48 and pairs of different people < 48', async () => {
    const people = ['person-a1.jpg', 'person-a2.jpg', 'person-b.jpg', 'person-c.jpg', 'person-d.jpg', 'person-e.jpg']
    const e = Object.fromEntries(await Promise.all(people.map(async (p) => [p, await embeddingOf(p)] as const)))
    const score = (a: string, b: string) => plugin().score(cosineSimilarity(e[a]!, e[b]!))
    expect(score('person-a1.jpg', 'person-a2.jpg')).toBeGreaterThanOrEqual(48)
    const impostors = people.flatMap((a, i) => people.slice(i + 1).filter((b) => !(a.startsWith('person-a') && b.startsWith('person-a'))).map((b) => [a, b] as const))
    expect(impostors).toHaveLength(14)
    for (const [a, b] of impostors) expect(score(a, b), `${a} vs ${b}`).toBeLessThan(48)
    // The mapping's anchors: identical embeddings score 100, and the score never leaves 0..100.
    expect(plugin().score(1)).toBe(100)
    expect(plugin().score(-1)).toBe(0)
  })

  it('rejects truncated and garbage bytes with FaceImageError, and keeps working', async () => {
    const jpeg = fixture('person-e.jpg')
    const bad = [jpeg.subarray(0, Math.floor(jpeg.length / 2)), new Uint8Array(4096).fill(7), new Uint8Array(0), new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>')]
    for (const bytes of bad) await expect(plugin().analyze(bytes)).rejects.toBeInstanceOf(FaceImageError)
    expect(await plugin().analyze(jpeg)).toHaveLength(1)
  })

  it('answers concurrent calls, queued over its workers, without blocking the event loop', async () => {
    const files = ['person-a1.jpg', 'two-faces.jpg', 'no-face.jpg', 'person-b.jpg', 'person-c.jpg', 'person-d.jpg', 'two-faces.jpg', 'person-e.jpg']
    const before = performance.eventLoopUtilization()
    const results = await Promise.all(files.map((file) => plugin().analyze(fixture(file))))
    const busy = performance.eventLoopUtilization(before).utilization
    expect(results.map((faces) => faces.length)).toEqual([1, 2, 0, 1, 1, 1, 2, 1])
    // Inference (100–300 ms per image) runs in the workers: this thread mostly waits. Run here, it
    // would keep the loop busy nearly all the time. A share, not a time: it holds on a busy machine.
    expect(busy).toBeLessThan(0.5)
  })
})

describe('worker pool', () => {
  // A stand-in model in a real worker thread: answers width 1, crashes on width 2, hangs on width 3.
  const fakeWorker = `
    const { parentPort } = require('node:worker_threads')
    parentPort.on('message', (m) => {
      if (m.width === 2) process.exit(3)
      if (m.width === 3) return
      parentPort.postMessage({ type: 'result', id: m.id, faces: [], ms: 0 })
    })
    parentPort.postMessage({ type: 'ready', info: 'fake' })
  `
  const request = (width: number) => ({ caller: 'test', pixels: 1, prepare: async () => ({ rgb: new Uint8Array(3), width, height: 1 }) })

  it('rejects the request of a crashed or stuck worker, starts another when work waits, and goes on', async () => {
    const lines: string[] = []
    const pool = new FaceWorkerPool({ name: 'Fake', size: 1, spawn: () => new Worker(fakeWorker, { eval: true }), log: (l) => lines.push(l), jobTimeoutMs: 500 })
    try {
      await pool.start()
      await expect(pool.run(request(1))).resolves.toEqual({ faces: [], ms: 0 })
      // Queued behind the crash: served by the replacement worker.
      const [crashed, after] = await Promise.allSettled([pool.run(request(2)), pool.run(request(1))])
      expect(crashed.status === 'rejected' && String(crashed.reason)).toMatch(/exit code 3/)
      expect(after.status).toBe('fulfilled')
      await expect(pool.run(request(3))).rejects.toThrow(/longer than 500 ms/)
      await expect(pool.run(request(1))).resolves.toEqual({ faces: [], ms: 0 })
      expect(pool.size).toBe(1)
      // One replacement for the job queued behind the crash, one for the request after the hang.
      expect(lines.filter((l) => l.includes('worker ready'))).toHaveLength(2)
    } finally {
      await pool.close()
    }
    await expect(pool.run(request(1))).rejects.toThrow(/closed/)
  })

  it('fails to start, rather than hang, when a worker cannot load its model', async () => {
    const broken = `require('node:worker_threads').parentPort.postMessage({ type: 'fatal', message: 'no model here' }); process.exit(1)`
    const pool = new FaceWorkerPool({ name: 'Broken', size: 2, spawn: () => new Worker(broken, { eval: true }), log: () => {} })
    await expect(pool.start()).rejects.toThrow(/no model here/)
    await pool.close()
  })
})

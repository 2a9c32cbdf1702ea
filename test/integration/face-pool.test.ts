import { Worker } from 'node:worker_threads'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { OverloadError } from '../../electron/engine/face/overload'
import { FaceWorkerPool, type PoolOptions } from '../../electron/engine/face/pool'

/**
 * The face worker pool's scheduling and lifecycle, with a stand-in model in real worker threads:
 * it answers at once, or holds its answer until the main thread sends 'go' (so a test decides when
 * work finishes and asserts on states, never on timing).
 */
const fakeWorker = `
  const { parentPort } = require('node:worker_threads')
  const held = []
  parentPort.on('message', (m) => {
    if (m === 'go') return held.splice(0).forEach((id) => parentPort.postMessage({ type: 'result', id, faces: [], ms: 0 }))
    if (m.width === 2) return held.push(m.id)
    parentPort.postMessage({ type: 'result', id: m.id, faces: [], ms: 0 })
  })
  parentPort.postMessage({ type: 'ready', info: 'fake' })
`

const pools: FaceWorkerPool[] = []
const workers: Worker[] = []
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()))
  workers.length = 0
})

function pool(options: Partial<PoolOptions> = {}): FaceWorkerPool {
  const created = new FaceWorkerPool({
    name: 'Fake',
    size: 1,
    spawn: () => {
      const worker = new Worker(fakeWorker, { eval: true })
      workers.push(worker)
      return worker
    },
    log: () => {},
    ...options,
  })
  pools.push(created)
  return created
}

/** Releases every held answer. */
const go = () => workers.forEach((worker) => worker.postMessage('go'))

/** Jobs whose decoding (prepare) is counted. */
function counter() {
  const state = { prepared: 0 }
  const job = (caller: string, width = 1, pixels = 1) => ({
    caller,
    pixels,
    prepare: async () => {
      state.prepared++
      return { rgb: new Uint8Array(3), width, height: 1 }
    },
  })
  return { state, job }
}

describe('face worker pool', () => {
  it('starts no worker until there is work, and retires an idle one', async () => {
    const p = pool({ idleMs: 50 })
    expect(p.size).toBe(0)
    const { job } = counter()
    await p.run(job('a'))
    expect(p.stats().workers).toBe(1)
    await vi.waitFor(() => expect(p.size).toBe(0), { timeout: 5000, interval: 20 })
    await expect(p.run(job('a'))).resolves.toEqual({ faces: [], ms: 0 }) // a new worker starts for it
  })

  it('starts more workers, up to its size, while jobs wait', async () => {
    const p = pool({ size: 3 })
    const { job } = counter()
    const held = Array.from({ length: 5 }, () => p.run(job('a', 2)))
    await vi.waitFor(() => expect(p.stats()).toMatchObject({ workers: 3, running: 3, queued: 2 }), { timeout: 10_000, interval: 20 })
    await vi.waitFor(() => {
      go()
      expect(p.stats().running + p.stats().queued).toBe(0)
    }, { timeout: 10_000, interval: 20 })
    await Promise.all(held)
  })

  it('decodes an image only when a worker takes it: waiting jobs hold no pixels', async () => {
    const p = pool({ size: 1 })
    const { state, job } = counter()
    const all = Array.from({ length: 20 }, () => p.run(job('a', 2)))
    await vi.waitFor(() => expect(p.stats()).toMatchObject({ running: 1, queued: 19 }), { timeout: 10_000, interval: 20 })
    expect(state.prepared).toBe(1)
    go() // the first answer: the worker takes, and only then decodes, the second
    await vi.waitFor(() => expect(p.stats()).toMatchObject({ running: 1, queued: 18 }), { timeout: 10_000, interval: 20 })
    expect(state.prepared).toBe(2)
    await vi.waitFor(() => {
      go()
      expect(p.stats().queued + p.stats().running).toBe(0)
    }, { timeout: 10_000, interval: 20 })
    await Promise.all(all)
    expect(state.prepared).toBe(20)
  })

  it('serves callers round-robin: one caller\'s many jobs do not starve another\'s single one', async () => {
    const p = pool({ size: 1 })
    await p.start()
    const { job } = counter()
    const order: string[] = []
    const track = (name: string, promise: Promise<unknown>) => promise.then(() => order.push(name))
    const big = Array.from({ length: 10 }, (_, i) => track(`big${i}`, p.run(job('big', 2))))
    const single = track('single', p.run(job('single', 2)))
    while (order.length < 11) {
      go()
      await Promise.race([Promise.all([...big, single]), new Promise((resolve) => setTimeout(resolve, 10))])
    }
    // big0 was running when the single job came; then one turn each.
    expect(order.indexOf('single')).toBeLessThanOrEqual(2)
  })

  it('refuses work beyond its queue, pixel and per-caller budgets with OverloadError and a Retry-After', async () => {
    const p = pool({ size: 1, maxQueue: 4, maxPixels: 1000, callerShare: 0.5 })
    await p.start()
    const { job } = counter()
    const held = [p.run(job('a', 2, 300))] // running
    held.push(p.run(job('a', 2, 200))) // caller a now holds 500 pixels: its share
    const refused = await p.run(job('a', 2, 1)).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(OverloadError)
    expect((refused as OverloadError).retryAfterSeconds).toBeGreaterThanOrEqual(1)
    held.push(p.run(job('b', 2, 400))) // another caller still gets in: 900 of 1000
    await expect(p.run(job('c', 2, 200))).rejects.toBeInstanceOf(OverloadError) // over the pool's pixels
    held.push(p.run(job('c', 2, 50)), p.run(job('d', 2, 10)))
    await expect(p.run(job('e', 2, 1))).rejects.toThrow(/waiting/) // four jobs wait: the queue is full
    await vi.waitFor(() => {
      go()
      expect(p.stats().pendingPixels).toBe(0)
    }, { timeout: 10_000, interval: 20 })
    await Promise.all(held)
    await expect(p.run(job('a', 1, 5000))).resolves.toEqual({ faces: [], ms: 0 }) // alone, even a large job is admitted
  })

  it('rejects a job whose image cannot be decoded, and goes on with the next', async () => {
    const p = pool()
    const bad = { caller: 'a', pixels: 1, prepare: () => Promise.reject(new Error('not an image')) }
    await expect(p.run(bad)).rejects.toThrow('not an image')
    await expect(p.run(counter().job('a'))).resolves.toEqual({ faces: [], ms: 0 })
    expect(p.stats()).toMatchObject({ running: 0, queued: 0, pendingPixels: 0 })
  })
})

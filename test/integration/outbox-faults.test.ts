import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadFacePlugins, type FacePlugin } from '../../electron/engine/face'
import { openOutbox, type Outbox } from '../../electron/services/outbox'
import { backendProbe } from '../../electron/services/outbox/probe'
import { enrollVisitor } from '../../electron/services/workflows/enroll-visitor'
import type { OutboxState } from '../../electron/shared/outbox'
import { testBackend } from '../support/backend'
import { startTestEngine, type TestEngine } from '../support/engine'
import { startFaultProxy } from '../support/fault-proxy'
import { engineTally, FAST_TIMING, sample, testKey, waitFor } from '../support/outbox-helpers'
import { projectRoot } from '../support/process'

const TYPE = 'Face:HumanFaceRes'
const PHOTOS = ['person-a1.jpg', 'person-b.jpg', 'person-c.jpg', 'person-d.jpg', 'person-e.jpg']

describe('offline outbox under faults (real engine, real HTTP, real processes)', () => {
  let plugins: FacePlugin[]
  let t: TestEngine
  const dirs: string[] = []
  const cleanups: Array<() => Promise<unknown>> = []
  const newDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'kiosk-outbox-faults-'))
    dirs.push(dir)
    return dir
  }

  beforeAll(async () => {
    plugins = await loadFacePlugins({ threads: 1, log: () => {} })
    t = await startTestEngine(plugins)
  })
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {})
    await t?.close()
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })

  /**
   * An outbox-child.ts process (`--import tsx`) with the outbox key `keyHex`: its stdout lines, a
   * wait for a line, SIGKILL, and its end (after its output). Killed after 60 s whatever happens.
   */
  function child(args: string[], keyHex: string) {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'test/support/outbox-child.ts', ...args], { cwd: projectRoot, env: { ...process.env, OUTBOX_TEST_KEY: keyHex }, stdio: ['ignore', 'pipe', 'pipe'] })
    const lines: string[] = []
    const waiters: Array<{ pattern: RegExp; resolve: (line: string) => void }> = []
    createInterface({ input: proc.stderr }).on('line', (line) => lines.push(`stderr: ${line}`))
    createInterface({ input: proc.stdout }).on('line', (line) => {
      lines.push(line)
      for (const waiter of waiters.filter((w) => w.pattern.test(line))) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve(line)
      }
    })
    const guard = setTimeout(() => proc.kill('SIGKILL'), 60_000)
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      proc.once('close', (code, signal) => {
        clearTimeout(guard)
        resolve({ code, signal })
      }),
    )
    cleanups.push(async () => proc.kill('SIGKILL'))
    const line = (pattern: RegExp) =>
      new Promise<string>((resolve, reject) => {
        const seen = lines.find((l) => pattern.test(l))
        if (seen) return resolve(seen)
        waiters.push({ pattern, resolve })
        void ended.then(() => reject(new Error(`the child ended before printing ${pattern}:\n${lines.join('\n')}`)))
      })
    return { lines, line, ended, kill: () => proc.kill('SIGKILL') }
  }

  /** Bounded: drainNow until nothing is queued or in flight, at most `passes` times. */
  async function settle(outbox: Outbox, passes = 40): Promise<OutboxState> {
    let state = await outbox.state()
    for (let pass = 0; pass < passes; pass++) {
      state = await outbox.drainNow()
      if (state.counts.queued === 0 && state.counts.inFlight === 0) return state
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    return state
  }

  it('retries 500, 429, garbage JSON and a hang past the timeout, parks what the server refuses, and delivers each enrollment exactly once', async () => {
    const proxy = await startFaultProxy(t.url, { hangMs: 5_000 })
    const backend = testBackend(proxy.url, { requestTimeoutMs: 1_000 })
    cleanups.push(() => proxy.close(), () => backend.close())
    // Each fault once, in this order of matching requests. "after": the engine did the work and the
    // kiosk never heard: the replay must find the person / replace the template, not duplicate them.
    proxy.inject({ method: 'POST', path: /^\/v2\/oauth2\/oauth\/token/, fault: 'status500' })
    proxy.inject({ method: 'GET', path: /^\/v2\/gmiserver\/person\?userId=/, fault: 'garbage' })
    proxy.inject({ method: 'POST', path: /^\/v2\/gmiserver\/tenant\/[^/]+\/person$/, fault: 'status500', when: 'after' })
    proxy.inject({ method: 'POST', path: /^\/bioengine\/persons\/[^/]+\/biometrics$/, fault: 'status429' })
    proxy.inject({ method: 'POST', path: /^\/bioengine\/persons\/[^/]+\/biometrics$/, fault: 'hang', when: 'after' })
    proxy.inject({ method: 'POST', path: /^\/bioengine\/persons\/[^/]+\/biometrics$/, fault: 'garbage', when: 'after' })
    proxy.inject({ method: 'POST', path: /^\/bioengine\/persons\/[^/]+\/biometrics$/, fault: 'status500', when: 'after' })

    const outbox = await openOutbox({ dir: newDir(), key: testKey(), deliver: (item) => enrollVisitor(backend, item), probe: backendProbe(backend), timing: FAST_TIMING })
    cleanups.push(() => outbox.close())
    const good = []
    for (const [i, photo] of PHOTOS.entries()) good.push(await outbox.enqueue({ userId: `fault-${i}@visitor.example`, templateType: TYPE, samples: [sample(photo)] }))
    const noFace = await outbox.enqueue({ userId: 'fault-noface@visitor.example', templateType: TYPE, samples: [sample('no-face.jpg')] })

    const started = performance.now()
    const state = await settle(outbox)
    const ms = performance.now() - started

    expect(state.counts).toMatchObject({ queued: 0, inFlight: 0, delivered: good.length, needsAttention: 1 })
    expect(await outbox.get(noFace.id)).toMatchObject({ state: 'needs-attention', lastError: { code: 'NO_FACE', message: expect.stringMatching(/face/i) } })
    // Every fault was actually served.
    const served = proxy.hits.filter((h) => h.fault).map((h) => `${h.fault}:${h.status ?? '-'}`)
    expect(served).toEqual(expect.arrayContaining(['status500:500', 'garbage:200', 'status429:429', 'hang:-']))
    expect(served).toHaveLength(7)
    // Exactly once: one person per userId, one template per queued context, nothing else for them.
    expect(await engineTally(t, good)).toEqual(good.map((item) => ({ id: item.id, userId: item.userId, persons: 1, contexts: 1, templatesOfPerson: 1 })))
    const retried = (await outbox.list()).filter((i) => i.state === 'delivered' && i.attempts > 1)
    expect(retried.length).toBeGreaterThanOrEqual(3)
    console.log(`outbox faults: ${good.length + 1} items through 7 injected faults in ${ms.toFixed(0)} ms; attempts ${(await outbox.list()).map((i) => i.attempts).join(',')}`)
  })

  it('stops sending while the engine is down mid-drain and finishes, exactly once, when it is back with the same data', async () => {
    const proxy = await startFaultProxy(t.url)
    const backend = testBackend(proxy.url, { requestTimeoutMs: 2_000 })
    cleanups.push(() => proxy.close(), () => backend.close())
    const outbox = await openOutbox({ dir: newDir(), key: testKey(), deliver: (item) => enrollVisitor(backend, item), probe: backendProbe(backend), timing: FAST_TIMING })
    cleanups.push(() => outbox.close())
    const states: OutboxState[] = []
    outbox.onChange((s) => states.push(s))
    const items = []
    for (let i = 0; i < 8; i++) items.push(await outbox.enqueue({ userId: `restart-${i}@visitor.example`, templateType: TYPE, samples: [sample(PHOTOS[i % PHOTOS.length]!)] }))

    outbox.start()
    await waitFor(async () => (await outbox.state()).counts.delivered >= 2, 15_000, 'two deliveries')
    // Stop the engine (its HTTP server and database; the face models stay loaded for the restart).
    const dataDir = t.dataDir
    await t.engine.app.close()
    await t.engine.ctx.store.close()
    await waitFor(() => states.some((s) => s.online === false), 5_000, 'the outbox to notice it is offline')
    const deliveredWhileDown = (await outbox.state()).counts.delivered
    expect(deliveredWhileDown).toBeLessThan(items.length)
    const hitsBefore = proxy.hits.length
    await new Promise((resolve) => setTimeout(resolve, 500))
    // Offline: only the health probe (two authenticated GETs per probe, every 100 ms here) touches the network.
    expect(proxy.hits.slice(hitsBefore).every((h) => h.method === 'GET' && /^\/(v2\/gmiserver\/tenant\/[^/]+|bioengine\/template-types)$/.test(h.path))).toBe(true)
    expect((await outbox.state()).counts.delivered).toBe(deliveredWhileDown)

    t = await startTestEngine(plugins, dataDir)
    proxy.setUpstream(t.url)
    await waitFor(async () => (await outbox.state()).counts.delivered === items.length, 20_000, 'the rest to be delivered')
    const onlineFlags = states.map((s) => s.online).filter((v, i, all) => v !== all[i - 1])
    expect(onlineFlags).toEqual(expect.arrayContaining([true, false]))
    expect(onlineFlags.at(-1)).toBe(true)
    expect((await engineTally(t, items)).every((x) => x.persons === 1 && x.contexts === 1 && x.templatesOfPerson === 1)).toBe(true)
    await outbox.close()
  })

  it('loses and duplicates nothing when the kiosk is SIGKILLed at random points during enqueue and drain', async () => {
    const dir = newDir()
    const env = { ...process.env, OUTBOX_TEST_KEY: randomBytes(32).toString('hex') }
    const promised = new Set<string>()
    const report: string[] = []
    let inFlightAtKill = 0

    /**
     * Runs the child; kills it with SIGKILL `delayMs` after the first line matching `killOn`, or 20 s
     * on if that line never comes. With `killOn` null it runs to its end: a busy machine drains slowly.
     */
    const run = (args: string[], killOn: RegExp | null, delayMs: number) =>
      new Promise<{ lines: string[]; killed: boolean }>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/outbox-child.ts', ...args], { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'pipe'] })
        const lines: string[] = []
        let killed = false
        const guard = killOn ? setTimeout(() => child.kill('SIGKILL'), 20_000) : undefined
        createInterface({ input: child.stderr }).on('line', (line) => lines.push(`stderr: ${line}`))
        createInterface({ input: child.stdout }).on('line', (line) => {
          lines.push(line)
          const queued = /^queued (\S+)$/.exec(line)
          if (queued) promised.add(queued[1]!)
          if (killOn && !killed && killOn.test(line)) {
            killed = true
            setTimeout(() => child.kill('SIGKILL'), delayMs)
          }
        })
        child.once('error', reject)
        child.once('exit', (code, signal) => {
          clearTimeout(guard)
          if (signal !== 'SIGKILL' && code !== 0) reject(new Error(`child ${args[0]} exited ${code}:\n${lines.join('\n')}`))
          else resolve({ lines, killed: signal === 'SIGKILL' })
        })
      })
    const inFlightRows = () => {
      const db = new Database(join(dir, 'outbox.db'), { readonly: true })
      try {
        return (db.prepare(`SELECT COUNT(*) AS n FROM jobs WHERE state = 'in-flight'`).get() as { n: number }).n
      } finally {
        db.close()
      }
    }
    const random = (max: number) => Math.floor(Math.random() * max)

    // Enqueue, killed at random points (30 items spread over ~200 ms).
    for (let round = 0; round < 3; round++) {
      const delay = random(200)
      const { lines, killed } = await run(['enqueue', dir, `k${round}`, '30'], /^ready$/, delay)
      report.push(`enqueue round ${round}: killed=${killed} after ${delay} ms, ${lines.filter((l) => l.startsWith('queued')).length} confirmed`)
    }
    await run(['enqueue', dir, 'full', '4'], null, 0)

    // Drain, killed at random points: twice just after a delivery started, then at random times.
    const drainKills: Array<{ on: RegExp; delay: number }> = [
      { on: /^in-flight /, delay: random(40) },
      { on: /^in-flight /, delay: random(40) },
      { on: /^ready$/, delay: 200 + random(800) },
      { on: /^ready$/, delay: 200 + random(800) },
    ]
    for (const [round, kill] of drainKills.entries()) {
      const { killed } = await run(['drain', dir, t.url], kill.on, kill.delay)
      const inFlight = inFlightRows()
      inFlightAtKill += inFlight
      report.push(`drain round ${round}: killed=${killed} ${kill.on.source}+${kill.delay} ms, in-flight rows left: ${inFlight}`)
    }
    // Both at once, both killed: an enqueueing process next to a draining one.
    const [both] = await Promise.all([run(['enqueue', dir, 'both', '30'], /^ready$/, 50 + random(150)), run(['drain', dir, t.url], /^ready$/, 300 + random(500))])
    report.push(`enqueue next to drain: killed=${both.killed}, ${both.lines.filter((l) => l.startsWith('queued')).length} confirmed; in-flight rows left: ${inFlightRows()}`)

    // A fresh process finishes the job.
    const final = await run(['drain', dir, t.url], null, 0)
    report.push(final.lines.at(-1) ?? '')
    expect(final.lines.at(-1)).toMatch(/^drained /)

    const outbox = await openOutbox({ dir, key: Buffer.from(env.OUTBOX_TEST_KEY, 'hex'), deliver: async () => {}, probe: async () => false })
    const items = await outbox.list()
    await outbox.close()
    // Durable: every enqueue a process confirmed is there.
    expect(items.map((i) => i.id)).toEqual(expect.arrayContaining([...promised]))
    // Everything ended delivered (no sample here is refusable), or visibly parked with a reason.
    for (const item of items) {
      if (item.state === 'needs-attention') expect(item.lastError?.message).toBeTruthy()
      else expect(item.state).toBe('delivered')
    }
    const delivered = items.filter((i) => i.state === 'delivered')
    expect(delivered.length).toBe(items.length)
    // Exactly once, and nothing in the engine that no item accounts for.
    expect((await engineTally(t, delivered)).filter((x) => x.persons !== 1 || x.contexts !== 1 || x.templatesOfPerson !== 1)).toEqual([])
    const killPersons = (await t.engine.ctx.store.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM persons WHERE user_id LIKE '%@kill.example'`))!.n
    expect(killPersons).toBe(delivered.length)
    const db = new Database(join(dir, 'outbox.db'), { readonly: true })
    expect((db.prepare('SELECT COUNT(*) AS n FROM jobs WHERE payload IS NOT NULL').get() as { n: number }).n).toBe(0)
    db.close()
    console.log(`outbox SIGKILL: ${items.length} items (${promised.size} confirmed before kills), in-flight rows left by kills: ${inFlightAtKill}\n  ${report.join('\n  ')}`)
    expect(inFlightAtKill).toBeGreaterThan(0)
  }, 300_000)

  it('sends each item exactly once from two processes on one outbox, each send slower than a claim', async () => {
    const dir = newDir()
    const keyHex = randomBytes(32).toString('hex')
    const n = 8
    // Every send outlasts its claim three times over: only its renewal keeps the other process off it.
    const deliverMs = 600
    const claimMs = 200
    const outbox = await openOutbox({ dir, key: Buffer.from(keyHex, 'hex'), deliver: async () => Promise.reject(new Error('this one only queues')), probe: async () => false })
    cleanups.push(() => outbox.close())
    const senders = [0, 1].map(() => child(['slow', dir, String(deliverMs), String(claimMs), String(n)], keyHex))
    await Promise.all(senders.map((sender) => sender.line(/^ready$/)))
    const items = []
    for (let i = 0; i < n; i++) items.push(await outbox.enqueue({ userId: `twice-${i}@visitor.example`, templateType: TYPE, samples: [sample(PHOTOS[i % PHOTOS.length]!)] }))
    const ends = await Promise.all(senders.map((sender) => sender.ended))
    expect(ends).toEqual([{ code: 0, signal: null }, { code: 0, signal: null }])

    const sends = senders.map((sender) => sender.lines.filter((line) => line.startsWith('sending ')).map((line) => line.slice('sending '.length)))
    // Both sent, and between them every item once: no claim was taken over, nothing sent twice.
    expect(sends.map((mine) => mine.length > 0)).toEqual([true, true])
    expect(sends.flat().sort()).toEqual(items.map((item) => `outbox-${item.id}`).sort())
    expect((await outbox.list()).map((item) => [item.state, item.attempts])).toEqual(items.map(() => ['delivered', 1]))
    console.log(`outbox, two processes: ${sends.map((mine) => mine.length).join(' + ')} of ${n} sends of ${deliverMs} ms on claims of ${claimMs} ms`)
  })

  it("sends a SIGKILLed process's in-flight item from the next process at once, without waiting out its claim", async () => {
    const dir = newDir()
    const keyHex = randomBytes(32).toString('hex')
    const key = Buffer.from(keyHex, 'hex')
    let outbox = await openOutbox({ dir, key, deliver: async () => Promise.reject(new Error('this one only queues')), probe: async () => false })
    const item = await outbox.enqueue({ userId: 'killed-mid-send@visitor.example', templateType: TYPE, samples: [sample('person-c.jpg')] })
    await outbox.close()

    // A send that never ends, under a claim of ten minutes; killed once it has started.
    const sender = child(['slow', dir, '600000', '600000', '1'], keyHex)
    await sender.line(/^sending /)
    sender.kill()
    expect((await sender.ended).signal).toBe('SIGKILL')
    const db = new Database(join(dir, 'outbox.db'), { readonly: true })
    const row = db.prepare('SELECT state, claimed_until FROM jobs WHERE id = ?').get(item.id) as { state: string; claimed_until: number }
    db.close()
    expect(row.state).toBe('in-flight')
    expect(row.claimed_until).toBeGreaterThan(Date.now() + 5 * 60_000)

    const sent: string[] = []
    outbox = await openOutbox({ dir, key, deliver: async (queued) => void sent.push(queued.templateContext), probe: async () => true, timing: FAST_TIMING })
    cleanups.push(() => outbox.close())
    const started = Date.now()
    await outbox.drainNow()
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(sent).toEqual([`outbox-${item.id}`])
    expect(await outbox.get(item.id)).toMatchObject({ state: 'delivered', attempts: 2 })
    await outbox.close()
  })
})

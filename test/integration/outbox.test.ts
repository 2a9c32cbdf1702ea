import { spawnSync } from 'node:child_process'
import { appendFileSync, copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadFacePlugins } from '../../electron/engine/face'
import type { Backend } from '../../electron/services/backend'
import { ApiError } from '../../electron/services/clients/api-error'
import { openOutbox, type Outbox, type OutboxOptions } from '../../electron/services/outbox'
import { backendProbe } from '../../electron/services/outbox/probe'
import { enrollVisitor } from '../../electron/services/workflows/enroll-visitor'
import { KioskError } from '../../electron/shared/errors'
import { outboxStateSchema, type OutboxState } from '../../electron/shared/outbox'
import { testBackend } from '../support/backend'
import { startTestEngine, TEST_CLIENT, type TestEngine } from '../support/engine'
import { closedPortUrl, engineTally, FAST_TIMING, sample, scanFiles, testKey, waitFor } from '../support/outbox-helpers'
import { projectRoot } from '../support/process'

const TYPE = 'Face:HumanFaceRes'

describe('offline outbox (real SQLite, real clients, real engine)', () => {
  let t: TestEngine
  let online: ReturnType<typeof testBackend>
  let offline: ReturnType<typeof testBackend>
  /** Where deliveries and probes go right now: the tests switch the network off and on with it. */
  let current: Backend
  const dirs: string[] = []
  const newDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'kiosk-outbox-'))
    dirs.push(dir)
    return dir
  }
  const open = (dir: string, key: Buffer, extra: Partial<OutboxOptions> = {}): Outbox =>
    openOutbox({
      dir,
      key,
      deliver: (item) => enrollVisitor(current, item),
      probe: (signal) => backendProbe(current)(signal),
      timing: FAST_TIMING,
      ...extra,
    })
  const raw = (dir: string) => new Database(join(dir, 'outbox.db'))
  const payloadRows = (dir: string) => {
    const db = raw(dir)
    try {
      return (db.prepare('SELECT COUNT(*) AS n FROM payloads').get() as { n: number }).n
    } finally {
      db.close()
    }
  }

  beforeAll(async () => {
    t = await startTestEngine(await loadFacePlugins({ threads: 1, log: () => {} }))
    online = testBackend(t.url)
    offline = testBackend(await closedPortUrl(), { requestTimeoutMs: 1_000 })
    current = online
  })
  afterAll(async () => {
    await online?.close()
    await offline?.close()
    await t?.close()
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })

  it('queues an enrollment while the servers are unreachable, encrypted at rest, and delivers it exactly once when they are back', async () => {
    const dir = newDir()
    current = offline
    const outbox = open(dir, testKey())
    const states: OutboxState[] = []
    outbox.onChange((state) => states.push(outboxStateSchema.parse(state)))
    const userId = 'offline-a@visitor.example'
    const item = outbox.enqueue({ userId, templateType: TYPE, samples: [sample('person-a1.jpg')] })
    expect(item).toMatchObject({ state: 'queued', userId, templateType: TYPE, sampleCount: 1, attempts: 0, lastError: null, deliveredAt: null })
    outbox.start()
    await waitFor(() => states.some((s) => s.online === false), 5_000, 'the probe to report offline')
    expect(outbox.get(item.id)).toMatchObject({ state: 'queued' })

    // At rest: neither the photo nor the userId in clear, in the database or its WAL.
    const files = scanFiles(dir, ['outbox.db'], [{ name: 'userId', value: userId }])
    expect(files.files).toEqual(expect.arrayContaining(['outbox.db', 'outbox.db-wal']))
    expect(statSync(join(dir, 'outbox.db-wal')).size).toBeGreaterThan(0)
    expect(files.findings).toEqual([])
    expect(payloadRows(dir)).toBe(1)

    current = online
    const after = await outbox.drainNow()
    expect(after.online).toBe(true)
    expect(outbox.get(item.id)).toMatchObject({ state: 'delivered', attempts: 1, lastError: null, nextAttemptAt: null })
    expect(payloadRows(dir)).toBe(0)
    expect(await engineTally(t, [item])).toEqual([{ id: item.id, userId, persons: 1, contexts: 1, templatesOfPerson: 1 }])

    // Draining again sends nothing more.
    await outbox.drainNow()
    expect((await engineTally(t, [item]))[0]).toMatchObject({ persons: 1, contexts: 1, templatesOfPerson: 1 })
    await waitFor(() => states.at(-1)?.counts.delivered === 1, 2_000, 'a delivered event')
    expect(states.at(-1)).toMatchObject({ online: true, running: true, counts: { queued: 0, inFlight: 0, needsAttention: 0, delivered: 1 } })
    await outbox.close()
  })

  it('parks an enrollment the BioEngine refuses (no face) with its reason; retry sends it again, discard deletes it and its samples', async () => {
    const dir = newDir()
    current = online
    const outbox = open(dir, testKey())
    const userId = 'noface@visitor.example'
    const item = outbox.enqueue({ userId, templateType: TYPE, samples: [sample('no-face.jpg')] })
    await outbox.drainNow()
    const parked = outbox.get(item.id)!
    expect(parked).toMatchObject({ state: 'needs-attention', attempts: 1, nextAttemptAt: null, lastError: { code: 'NO_FACE' } })
    expect(parked.lastError!.message).toMatch(/face/i)
    expect(parked.lastError!.message).not.toContain(userId)
    expect(outbox.state().counts.needsAttention).toBe(1)

    expect(outbox.retry(item.id)).toMatchObject({ state: 'queued', attempts: 0 })
    await outbox.drainNow()
    expect(outbox.get(item.id)).toMatchObject({ state: 'needs-attention', attempts: 1, lastError: { code: 'NO_FACE' } })

    outbox.discard(item.id)
    expect(outbox.list()).toEqual([])
    expect(payloadRows(dir)).toBe(0)
    expect(() => outbox.retry(item.id)).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }))
    expect(() => outbox.discard(item.id)).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }))
    // Nothing was enrolled for this visitor.
    expect((await engineTally(t, [item]))[0]).toMatchObject({ contexts: 0 })
    await outbox.close()
  })

  it('retries what an operator can fix (a locked keychain) and backs off with full jitter; parks a refusal', async () => {
    const dir = newDir()
    current = online
    let locked = 2
    let refusals = 0
    const outbox = open(dir, testKey(), {
      // The real workflow behind a keychain that is locked for the first two attempts, and a server
      // refusal (4xx) for one visitor.
      deliver: async (item) => {
        if (item.userId.startsWith('refused')) {
          refusals++
          throw new ApiError('REJECTED', 'The person server refused create person (HTTP 400): tenant closed', 400)
        }
        if (locked-- > 0) throw new KioskError('KEYCHAIN_LOCKED', 'The keychain is locked.')
        return enrollVisitor(current, item)
      },
      timing: { ...FAST_TIMING, backoff: { baseMs: 1_000, capMs: 3_000 } },
      random: () => 0.999,
    })
    const item = outbox.enqueue({ userId: 'locked@visitor.example', templateType: TYPE, samples: [sample('person-c.jpg')] })
    const ceilings: number[] = []
    for (let attempt = 1; attempt <= 2; attempt++) {
      await outbox.drainNow()
      const queued = outbox.get(item.id)!
      expect(queued).toMatchObject({ state: 'queued', attempts: attempt, lastError: { code: 'KEYCHAIN_LOCKED' } })
      ceilings.push(queued.nextAttemptAt! - queued.updatedAt)
    }
    // random() = 0.999 of min(cap, base * 2^(attempt-1)): 1 s, then 2 s.
    expect(ceilings).toEqual([999, 1998])
    await outbox.drainNow()
    expect(outbox.get(item.id)).toMatchObject({ state: 'delivered', attempts: 3, lastError: null })

    const refused = outbox.enqueue({ userId: 'refused@visitor.example', templateType: TYPE, samples: [sample('person-d.jpg')] })
    await outbox.drainNow()
    await outbox.drainNow()
    expect(refusals).toBe(1)
    expect(outbox.get(refused.id)).toMatchObject({ state: 'needs-attention', lastError: { code: 'REJECTED', message: expect.stringContaining('tenant closed') } })
    await outbox.close()
  })

  it('refuses a malformed enrollment and a key that is not 32 bytes', async () => {
    const dir = newDir()
    expect(() => open(dir, Buffer.alloc(16))).toThrow(/32 bytes/)
    const outbox = open(dir, testKey())
    expect(() => outbox.enqueue({ userId: '', templateType: TYPE, samples: [sample('person-b.jpg')] })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }))
    expect(() => outbox.enqueue({ userId: 'x@y.example', templateType: TYPE, samples: [] })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }))
    expect(outbox.list()).toEqual([])
    await outbox.close()
  })

  it('resets stale in-flight rows when it is opened, but not rows a live dispatcher holds', async () => {
    const dir = newDir()
    const key = testKey()
    let outbox = open(dir, key)
    const { id } = outbox.enqueue({ userId: 'stale@visitor.example', templateType: TYPE, samples: [sample('person-c.jpg')] })
    await outbox.close()

    // A process that has exited (and been reaped) for the previous dispatcher.
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid!
    const crash = (pid: number, expiresAt: number) => {
      const db = raw(dir)
      db.prepare(`UPDATE items SET state = 'in-flight', claimed_by = 'ghost', attempts = 1 WHERE id = ?`).run(id)
      db.prepare('INSERT OR REPLACE INTO lease (id, owner, pid, expires_at) VALUES (1, ?, ?, ?)').run('ghost', pid, expiresAt)
      db.close()
    }

    crash(deadPid, Date.now() + 60_000)
    outbox = open(dir, key)
    expect(outbox.get(id)).toMatchObject({ state: 'queued', attempts: 1 })
    await outbox.close()

    // A live holder (this very process stands in for another kiosk) keeps its in-flight row...
    crash(process.pid, Date.now() + 60_000)
    outbox = open(dir, key)
    expect(outbox.get(id)).toMatchObject({ state: 'in-flight' })
    await outbox.close()

    // ...until its lease expires.
    crash(process.pid, Date.now() - 1)
    outbox = open(dir, key)
    expect(outbox.get(id)).toMatchObject({ state: 'queued' })
    current = online
    await outbox.drainNow()
    expect(outbox.get(id)).toMatchObject({ state: 'delivered', attempts: 2 })
    await outbox.close()
  })

  it('parks, without sending, an item it cannot decrypt (another key)', async () => {
    const dir = newDir()
    let outbox = open(dir, testKey())
    const { id } = outbox.enqueue({ userId: 'rekeyed@visitor.example', templateType: TYPE, samples: [sample('person-d.jpg')] })
    await outbox.close()
    let delivered = 0
    outbox = open(dir, testKey(), { deliver: async () => void delivered++ })
    expect(outbox.get(id)).toMatchObject({ userId: '(unreadable)', state: 'queued' })
    current = online
    await outbox.drainNow()
    expect(delivered).toBe(0)
    expect(outbox.get(id)).toMatchObject({ state: 'needs-attention', lastError: { code: 'INTERNAL', message: expect.stringMatching(/decrypt/) } })
    outbox.discard(id)
    await outbox.close()
  })

  it('says "offline" only for a second failed probe from the start, at once after being online, and "online again" only after saying it', async () => {
    const answers = [false, true, false, false, true]
    const lines: string[] = []
    let probes = 0
    const outbox = open(newDir(), testKey(), { probe: async () => answers[Math.min(probes++, answers.length - 1)]!, log: (line) => lines.push(line) })
    const states: Array<boolean | null> = []
    outbox.onChange((state) => states.push(state.online))
    outbox.start()
    // Probes come offlineProbeMs apart while offline; onlineProbeMs (5 s) after a success.
    await waitFor(() => probes >= answers.length, 20_000, 'five probes')
    await outbox.stop()
    await outbox.close()
    // A first probe racing the servers' start says nothing (the state still reads offline).
    expect(states[0]).toBe(false)
    expect(lines.filter((line) => /outbox: (offline|online again)/.test(line))).toEqual(['outbox: offline (health probe failed)', 'outbox: online again; 0 item(s) due now'])
  })

  it('pushes its state to listeners as it changes, and stops when unsubscribed', async () => {
    const dir = newDir()
    current = online
    const outbox = open(dir, testKey())
    const states: OutboxState[] = []
    const unsubscribe = outbox.onChange((state) => states.push(state))
    const item = outbox.enqueue({ userId: 'events@visitor.example', templateType: TYPE, samples: [sample('person-e.jpg')] })
    await waitFor(() => states.some((s) => s.counts.queued === 1), 2_000, 'a queued event')
    outbox.start()
    await waitFor(() => states.some((s) => s.counts.delivered === 1), 10_000, 'a delivered event')
    const seen = new Set(states.flatMap((s) => s.items.filter((i) => i.id === item.id).map((i) => i.state)))
    expect([...seen]).toEqual(expect.arrayContaining(['queued', 'in-flight', 'delivered']))
    expect(states.at(-1)).toMatchObject({ online: true, running: true, truncated: false })
    unsubscribe()
    const before = states.length
    await outbox.stop()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(states.length).toBe(before)
    await outbox.close()
  })

  it('leaves no client secret, token, userId or photo in its files and logs', async () => {
    const dir = newDir()
    const logFile = join(dir, 'outbox.log')
    const outbox = open(dir, testKey(), { log: (line) => appendFileSync(logFile, `${line}\n`) })
    const users = ['scan-a@visitor.example', 'scan-b@visitor.example', 'scan-noface@visitor.example', 'scan-queued@visitor.example']
    current = online
    outbox.enqueue({ userId: users[0]!, templateType: TYPE, samples: [sample('person-a2.jpg'), sample('person-a1.jpg')] })
    outbox.enqueue({ userId: users[1]!, templateType: TYPE, samples: [sample('face.png')] })
    outbox.enqueue({ userId: users[2]!, templateType: TYPE, samples: [sample('no-face.jpg')] })
    await outbox.drainNow()
    expect(outbox.state().counts).toMatchObject({ delivered: 2, needsAttention: 1 })
    current = offline
    outbox.enqueue({ userId: users[3]!, templateType: TYPE, samples: [sample('person-b.jpg'), sample('face.png')] })
    await outbox.drainNow()
    expect(outbox.state()).toMatchObject({ online: false, counts: { queued: 1 } })

    // The scanner itself finds what it looks for (a photo and a userId written in clear).
    const control = newDir()
    copyFileSync(join(projectRoot, 'test/fixtures/generated/person-b.jpg'), join(control, 'outbox-control.jpg'))
    copyFileSync(join(projectRoot, 'test/fixtures/generated/face.png'), join(control, 'outbox-control.png'))
    appendFileSync(join(control, 'outbox-control.log'), `queued ${users[0]} ${sample('person-b.jpg').slice(0, 20)}\n`)
    expect(scanFiles(control, ['outbox'], [{ name: 'userId', value: users[0]! }]).findings.map((f) => `${f.file}: ${f.what}`).sort()).toEqual([
      'outbox-control.jpg: JPEG FFD8FFDB',
      'outbox-control.log: JPEG in base64',
      'outbox-control.log: userId',
      'outbox-control.png: PNG signature',
    ])

    const secrets = [
      { name: 'client secret', value: TEST_CLIENT.secret },
      { name: 'access token', value: await online.persons.tokens.get() },
      ...users.map((value) => ({ name: `userId ${value}`, value })),
    ]
    const whileOpen = scanFiles(dir, ['outbox'], secrets)
    expect(whileOpen.files).toEqual(expect.arrayContaining(['outbox.db', 'outbox.db-wal', 'outbox.db-shm', 'outbox.log']))
    expect(whileOpen.findings).toEqual([])
    await outbox.close()
    const afterClose = scanFiles(dir, ['outbox'], secrets)
    expect(afterClose.files).toEqual(expect.arrayContaining(['outbox.db', 'outbox.log']))
    expect(afterClose.findings).toEqual([])
  })

  it('drains a backlog in order, one delivery at a time (throughput measured)', async () => {
    const dir = newDir()
    current = online
    const outbox = open(dir, testKey())
    const n = 20
    const photos = ['person-a1.jpg', 'person-b.jpg', 'person-c.jpg', 'person-d.jpg', 'person-e.jpg'].map(sample)
    const enqueueStart = performance.now()
    const items = Array.from({ length: n }, (_, i) => outbox.enqueue({ userId: `backlog-${i}@visitor.example`, templateType: TYPE, samples: [photos[i % photos.length]!] }))
    const enqueueMs = performance.now() - enqueueStart
    const drainStart = performance.now()
    const state = await outbox.drainNow()
    const drainMs = performance.now() - drainStart
    expect(state.counts).toMatchObject({ delivered: n, queued: 0, inFlight: 0, needsAttention: 0 })
    const delivered = outbox.list()
    expect(delivered.map((i) => i.id)).toEqual(items.map((i) => i.id))
    // Delivery order follows enqueue order.
    const times = delivered.map((i) => i.deliveredAt!)
    expect([...times].sort((a, b) => a - b)).toEqual(times)
    expect((await engineTally(t, items)).every((x) => x.persons === 1 && x.contexts === 1 && x.templatesOfPerson === 1)).toBe(true)
    console.log(`outbox: enqueued ${n} in ${enqueueMs.toFixed(0)} ms (${(enqueueMs / n).toFixed(1)} ms each, fsync'd); drained ${n} in ${drainMs.toFixed(0)} ms (${((n * 1000) / drainMs).toFixed(1)} items/s)`)
    await outbox.close()
  })
})

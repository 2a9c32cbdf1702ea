import { spawnSync } from 'node:child_process'
import { createCipheriv, randomBytes, randomUUID } from 'node:crypto'
import { appendFileSync, copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
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
  const open = (dir: string, key: Buffer, extra: Partial<OutboxOptions> = {}): Promise<Outbox> =>
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
      return (db.prepare('SELECT COUNT(*) AS n FROM jobs WHERE payload IS NOT NULL').get() as { n: number }).n
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
    const outbox = await open(dir, testKey())
    const states: OutboxState[] = []
    outbox.onChange((state) => states.push(outboxStateSchema.parse(state)))
    const userId = 'offline-a@visitor.example'
    const item = await outbox.enqueue({ userId, templateType: TYPE, samples: [sample('person-a1.jpg')] })
    expect(item).toMatchObject({ state: 'queued', userId, templateType: TYPE, sampleCount: 1, attempts: 0, lastError: null, deliveredAt: null })
    outbox.start()
    await waitFor(() => states.some((s) => s.online === false), 5_000, 'the probe to report offline')
    expect(await outbox.get(item.id)).toMatchObject({ state: 'queued' })

    // At rest: neither the photo nor the userId in clear, in the database or its WAL.
    const files = scanFiles(dir, ['outbox.db'], [{ name: 'userId', value: userId }])
    expect(files.files).toEqual(expect.arrayContaining(['outbox.db', 'outbox.db-wal']))
    expect(statSync(join(dir, 'outbox.db-wal')).size).toBeGreaterThan(0)
    expect(files.findings).toEqual([])
    expect(payloadRows(dir)).toBe(1)

    current = online
    const after = await outbox.drainNow()
    expect(after.online).toBe(true)
    expect(await outbox.get(item.id)).toMatchObject({ state: 'delivered', attempts: 1, lastError: null, nextAttemptAt: null })
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
    const outbox = await open(dir, testKey())
    const userId = 'noface@visitor.example'
    const item = await outbox.enqueue({ userId, templateType: TYPE, samples: [sample('no-face.jpg')] })
    await outbox.drainNow()
    const parked = (await outbox.get(item.id))!
    expect(parked).toMatchObject({ state: 'needs-attention', attempts: 1, nextAttemptAt: null, lastError: { code: 'NO_FACE' } })
    expect(parked.lastError!.message).toMatch(/face/i)
    expect(parked.lastError!.message).not.toContain(userId)
    expect((await outbox.state()).counts.needsAttention).toBe(1)

    expect(await outbox.retry(item.id)).toMatchObject({ state: 'queued', attempts: 0 })
    await outbox.drainNow()
    expect(await outbox.get(item.id)).toMatchObject({ state: 'needs-attention', attempts: 1, lastError: { code: 'NO_FACE' } })

    await outbox.discard(item.id)
    expect(await outbox.list()).toEqual([])
    expect(payloadRows(dir)).toBe(0)
    await expect(outbox.retry(item.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(outbox.discard(item.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    // Nothing was enrolled for this visitor.
    expect((await engineTally(t, [item]))[0]).toMatchObject({ contexts: 0 })
    await outbox.close()
  })

  it('retries what an operator can fix (a locked keychain) and backs off with full jitter; parks a refusal', async () => {
    const dir = newDir()
    current = online
    let locked = 2
    let refusals = 0
    const outbox = await open(dir, testKey(), {
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
    const item = await outbox.enqueue({ userId: 'locked@visitor.example', templateType: TYPE, samples: [sample('person-c.jpg')] })
    const ceilings: number[] = []
    for (let attempt = 1; attempt <= 2; attempt++) {
      await outbox.drainNow()
      const queued = (await outbox.get(item.id))!
      expect(queued).toMatchObject({ state: 'queued', attempts: attempt, lastError: { code: 'KEYCHAIN_LOCKED' } })
      ceilings.push(queued.nextAttemptAt! - queued.updatedAt)
    }
    // random() = 0.999 of min(cap, base * 2^(attempt-1)): 1 s, then 2 s.
    expect(ceilings).toEqual([999, 1998])
    await outbox.drainNow()
    expect(await outbox.get(item.id)).toMatchObject({ state: 'delivered', attempts: 3, lastError: null })

    const refused = await outbox.enqueue({ userId: 'refused@visitor.example', templateType: TYPE, samples: [sample('person-d.jpg')] })
    await outbox.drainNow()
    await outbox.drainNow()
    expect(refusals).toBe(1)
    expect(await outbox.get(refused.id)).toMatchObject({ state: 'needs-attention', lastError: { code: 'REJECTED', message: expect.stringContaining('tenant closed') } })
    await outbox.close()
  })

  it('refuses a malformed enrollment and a key that is not 32 bytes', async () => {
    const dir = newDir()
    await expect(open(dir, Buffer.alloc(16))).rejects.toThrow(/32 bytes/)
    const outbox = await open(dir, testKey())
    await expect(outbox.enqueue({ userId: '', templateType: TYPE, samples: [sample('person-b.jpg')] })).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    await expect(outbox.enqueue({ userId: 'x@y.example', templateType: TYPE, samples: [] })).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    expect(await outbox.list()).toEqual([])
    await outbox.close()
  })

  it('queues again at open what a dead process left in flight, but not what a live one holds until its claim runs out', async () => {
    const dir = newDir()
    const key = testKey()
    let outbox = await open(dir, key)
    const { id } = await outbox.enqueue({ userId: 'stale@visitor.example', templateType: TYPE, samples: [sample('person-c.jpg')] })
    await outbox.close()

    // A process that has exited (and been reaped) for the previous sender.
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid!
    /** The row as a runner of process `pid` on this machine leaves it mid-delivery, its claim holding until `claimedUntil`. */
    const crash = (pid: number, claimedUntil: number) => {
      const db = raw(dir)
      db.prepare(`UPDATE jobs SET state = 'in-flight', claimed_by = ?, claimed_until = ?, next_attempt_at = NULL, attempts = 1 WHERE id = ?`).run(`${hostname()}/${pid}/ghost`, claimedUntil, id)
      db.close()
    }

    // Its claim would hold for another minute, but its process is gone: queued again at once.
    crash(deadPid, Date.now() + 60_000)
    outbox = await open(dir, key)
    expect(await outbox.get(id)).toMatchObject({ state: 'queued', attempts: 1 })
    await outbox.close()

    // A live claimant (this very process stands in for another kiosk) keeps its in-flight row, and nothing else sends it...
    crash(process.pid, Date.now() + 60_000)
    let sent = 0
    current = online
    outbox = await open(dir, key, { deliver: async () => void sent++ })
    expect(await outbox.get(id)).toMatchObject({ state: 'in-flight' })
    await outbox.drainNow()
    expect(sent).toBe(0)
    expect(await outbox.get(id)).toMatchObject({ state: 'in-flight' })
    await outbox.close()

    // ...until its claim runs out.
    crash(process.pid, Date.now() - 1)
    outbox = await open(dir, key)
    expect(await outbox.get(id)).toMatchObject({ state: 'queued' })
    await outbox.drainNow()
    expect(await outbox.get(id)).toMatchObject({ state: 'delivered', attempts: 2 })
    await outbox.close()
  })

  it('brings over, losing nothing, an outbox.db written before the one queue (items, payloads, lease), and delivers what waited', async () => {
    const dir = newDir()
    const key = testKey()
    const at = Date.now() - 60_000
    // The old outbox, frozen here: its schema (PRAGMA user_version 1) and its sealing.
    const oldSeal = (plain: string, aad: string) => {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: 16 })
      cipher.setAAD(Buffer.from(aad, 'utf8'))
      const body = Buffer.concat([cipher.update(Buffer.from(plain, 'utf8')), cipher.final()])
      return Buffer.concat([Buffer.of(1), iv, cipher.getAuthTag(), body])
    }
    const old = raw(dir)
    old.pragma('journal_mode = WAL')
    old.exec(`
      CREATE TABLE items (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        state TEXT NOT NULL CHECK (state IN ('queued', 'in-flight', 'delivered', 'needs-attention')),
        template_type TEXT NOT NULL,
        sample_count INTEGER NOT NULL,
        user_sealed BLOB NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        next_attempt_at INTEGER,
        delivered_at INTEGER,
        error_code TEXT,
        error_message TEXT,
        claimed_by TEXT
      );
      CREATE INDEX items_by_state ON items(state, next_attempt_at, seq);
      CREATE TABLE payloads (
        item_id TEXT PRIMARY KEY REFERENCES items(id) ON DELETE CASCADE,
        samples_sealed BLOB NOT NULL
      );
      CREATE TABLE lease (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        owner TEXT NOT NULL,
        pid INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
    `)
    old.pragma('user_version = 1')
    const rows = [
      { state: 'queued', userId: 'legacy-queued@visitor.example', photo: 'person-a1.jpg', attempts: 2, next: at + 3_600_000, error: ['UNREACHABLE', 'The person server could not be reached.'] },
      { state: 'in-flight', userId: 'legacy-inflight@visitor.example', photo: 'person-b.jpg', attempts: 1, next: null, error: null },
      { state: 'needs-attention', userId: 'legacy-parked@visitor.example', photo: 'no-face.jpg', attempts: 1, next: null, error: ['NO_FACE', 'No face was found.'] },
      { state: 'delivered', userId: 'legacy-delivered@visitor.example', photo: null, attempts: 1, next: null, error: null },
    ].map((row) => ({ ...row, id: randomUUID() }))
    const insertItem = old.prepare(
      `INSERT INTO items (id, state, template_type, sample_count, user_sealed, attempts, created_at, updated_at, next_attempt_at, delivered_at, error_code, error_message, claimed_by)
       VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    for (const row of rows) {
      insertItem.run(row.id, row.state, TYPE, oldSeal(row.userId, `identity-kiosk/outbox/v1/${row.id}/user`), row.attempts, at, at + 1, row.next, row.state === 'delivered' ? at + 2 : null, row.error?.[0] ?? null, row.error?.[1] ?? null, row.state === 'in-flight' ? 'dead-dispatcher' : null)
      if (row.photo) old.prepare('INSERT INTO payloads (item_id, samples_sealed) VALUES (?, ?)').run(row.id, oldSeal(JSON.stringify([sample(row.photo)]), `identity-kiosk/outbox/v1/${row.id}/samples`))
    }
    old.prepare('INSERT INTO lease (id, owner, pid, expires_at) VALUES (1, ?, ?, ?)').run('dead-dispatcher', 999_999, Date.now() + 60_000)
    old.close()

    current = online
    const lines: string[] = []
    const outbox = await open(dir, key, { log: (line) => lines.push(line) })
    expect(lines).toContain('outbox: 4 item(s) brought over from the previous outbox format')
    const [queued, inFlight, parked, delivered] = rows
    expect(await outbox.list()).toEqual([
      expect.objectContaining({ id: queued!.id, state: 'queued', userId: queued!.userId, templateType: TYPE, sampleCount: 1, attempts: 2, createdAt: at, updatedAt: at + 1, nextAttemptAt: at + 3_600_000, lastError: { code: 'UNREACHABLE', message: 'The person server could not be reached.' } }),
      expect.objectContaining({ id: inFlight!.id, state: 'queued', userId: inFlight!.userId, attempts: 1, createdAt: at }),
      expect.objectContaining({ id: parked!.id, state: 'needs-attention', userId: parked!.userId, attempts: 1, lastError: { code: 'NO_FACE', message: 'No face was found.' } }),
      expect.objectContaining({ id: delivered!.id, state: 'delivered', userId: delivered!.userId, deliveredAt: at + 2 }),
    ])
    // The in-flight row is due now (its dispatcher is gone); the old tables are gone; an older kiosk now refuses the file.
    expect((await outbox.get(inFlight!.id))!.nextAttemptAt).toBeLessThanOrEqual(Date.now())
    const check = raw(dir)
    expect(check.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('items', 'payloads', 'lease')`).all()).toEqual([])
    expect(check.pragma('user_version', { simple: true })).toBe(2)
    check.close()
    expect(payloadRows(dir)).toBe(3)

    // Sealed the old way, it opens and is delivered (drainNow makes the backed-off one due too), exactly once.
    const state = await outbox.drainNow()
    expect(state.counts).toMatchObject({ queued: 0, inFlight: 0, delivered: 3, needsAttention: 1 })
    expect(await outbox.get(queued!.id)).toMatchObject({ state: 'delivered', attempts: 3 })
    expect(await outbox.get(inFlight!.id)).toMatchObject({ state: 'delivered', attempts: 2 })
    expect(await engineTally(t, [queued!, inFlight!])).toEqual([queued!, inFlight!].map(({ id, userId }) => ({ id, userId, persons: 1, contexts: 1, templatesOfPerson: 1 })))
    await outbox.close()

    // Opened again: nothing brought over twice.
    const again = await open(dir, key)
    expect((await again.list()).map((i) => i.id)).toEqual(rows.map((r) => r.id))
    await again.close()
  })

  it('parks, without sending, an item it cannot decrypt (another key)', async () => {
    const dir = newDir()
    let outbox = await open(dir, testKey())
    const { id } = await outbox.enqueue({ userId: 'rekeyed@visitor.example', templateType: TYPE, samples: [sample('person-d.jpg')] })
    await outbox.close()
    let delivered = 0
    outbox = await open(dir, testKey(), { deliver: async () => void delivered++ })
    expect(await outbox.get(id)).toMatchObject({ userId: '(unreadable)', state: 'queued' })
    current = online
    await outbox.drainNow()
    expect(delivered).toBe(0)
    expect(await outbox.get(id)).toMatchObject({ state: 'needs-attention', lastError: { code: 'INTERNAL', message: expect.stringMatching(/decrypt/) } })
    await outbox.discard(id)
    await outbox.close()
  })

  it('says "offline" only for a second failed probe from the start, at once after being online, and "online again" only after saying it', async () => {
    const answers = [false, true, false, false, true]
    const lines: string[] = []
    let probes = 0
    const outbox = await open(newDir(), testKey(), { probe: async () => answers[Math.min(probes++, answers.length - 1)]!, log: (line) => lines.push(line) })
    const states: Array<boolean | null> = []
    outbox.onChange((state) => states.push(state.online))
    outbox.start()
    // Probes come offlineProbeMs apart while offline; onlineProbeMs (5 s) after a success.
    await waitFor(() => probes >= answers.length, 20_000, 'five probes')
    await outbox.stop()
    await outbox.close()
    // A first probe racing the servers' start says nothing (the state still reads offline).
    expect(states[0]).toBe(false)
    expect(lines.filter((line) => /outbox: (offline|online again)/.test(line))).toEqual(['outbox: offline (health probe failed)', 'outbox: online again; 0 job(s) due now'])
  })

  it('pushes its state to listeners as it changes, and stops when unsubscribed', async () => {
    const dir = newDir()
    current = online
    const outbox = await open(dir, testKey())
    const states: OutboxState[] = []
    const unsubscribe = outbox.onChange((state) => states.push(state))
    const item = await outbox.enqueue({ userId: 'events@visitor.example', templateType: TYPE, samples: [sample('person-e.jpg')] })
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
    const outbox = await open(dir, testKey(), { log: (line) => appendFileSync(logFile, `${line}\n`) })
    const users = ['scan-a@visitor.example', 'scan-b@visitor.example', 'scan-noface@visitor.example', 'scan-queued@visitor.example']
    current = online
    await outbox.enqueue({ userId: users[0]!, templateType: TYPE, samples: [sample('person-a2.jpg'), sample('person-a1.jpg')] })
    await outbox.enqueue({ userId: users[1]!, templateType: TYPE, samples: [sample('face.png')] })
    await outbox.enqueue({ userId: users[2]!, templateType: TYPE, samples: [sample('no-face.jpg')] })
    await outbox.drainNow()
    expect((await outbox.state()).counts).toMatchObject({ delivered: 2, needsAttention: 1 })
    current = offline
    await outbox.enqueue({ userId: users[3]!, templateType: TYPE, samples: [sample('person-b.jpg'), sample('face.png')] })
    await outbox.drainNow()
    expect(await outbox.state()).toMatchObject({ online: false, counts: { queued: 1 } })

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
    const outbox = await open(dir, testKey())
    const n = 20
    const photos = ['person-a1.jpg', 'person-b.jpg', 'person-c.jpg', 'person-d.jpg', 'person-e.jpg'].map(sample)
    const enqueueStart = performance.now()
    const items = []
    for (let i = 0; i < n; i++) items.push(await outbox.enqueue({ userId: `backlog-${i}@visitor.example`, templateType: TYPE, samples: [photos[i % photos.length]!] }))
    const enqueueMs = performance.now() - enqueueStart
    const drainStart = performance.now()
    const state = await outbox.drainNow()
    const drainMs = performance.now() - drainStart
    expect(state.counts).toMatchObject({ delivered: n, queued: 0, inFlight: 0, needsAttention: 0 })
    const delivered = await outbox.list()
    expect(delivered.map((i) => i.id)).toEqual(items.map((i) => i.id))
    // Delivery order follows enqueue order.
    const times = delivered.map((i) => i.deliveredAt!)
    expect([...times].sort((a, b) => a - b)).toEqual(times)
    expect((await engineTally(t, items)).every((x) => x.persons === 1 && x.contexts === 1 && x.templatesOfPerson === 1)).toBe(true)
    console.log(`outbox: enqueued ${n} in ${enqueueMs.toFixed(0)} ms (${(enqueueMs / n).toFixed(1)} ms each, fsync'd); drained ${n} in ${drainMs.toFixed(0)} ms (${((n * 1000) / drainMs).toFixed(1)} items/s)`)
    await outbox.close()
  })
})

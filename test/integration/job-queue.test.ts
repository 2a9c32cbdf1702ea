import { hostname } from 'node:os'
import { afterEach, describe, expect, it } from 'vitest'
import { JobRunner, DEFAULT_RUNNER_TIMING, type JobKind, type RunnerTiming } from '../../electron/records/queue/job-runner'
import { JobRepository } from '../../electron/records/queue/jobs-repository'
import { jobsTable } from '../../electron/records/queue/jobs-migration'
import { migrate } from '../../electron/records/sql/migrate'
import type { Database } from '../../electron/records/sql/types'
import { useSqlBackend } from '../support/sql-backend'
import { until } from '../support/until'

/**
 * The one delivery queue (electron/records/queue) on a kiosk's SQLite file and on a site's real
 * PostgreSQL 15: several runners share a table, a send slower than the claim is renewed rather than
 * sent twice, a claim that runs out (a runner gone) is sent by another, and a job added in a
 * transaction exists only if that transaction commits.
 */
const KIND = 'test-job'
/**
 * Far shorter than a send: only the renewal keeps a second runner from sending it too. Renewed every
 * third of it, so a busy machine may stall the process for up to 1 s without a claim running out.
 */
const CLAIM_MS = 1_500
const SEND_MS = 3 * CLAIM_MS

describe.each(['sqlite', 'postgres'] as const)('the job queue on %s', (backend) => {
  const sql = useSqlBackend(backend, 'job-queue-', { sqliteName: 'jobs.db' })
  const runners: Array<JobRunner<string>> = []

  // Registered after useSqlBackend's, so it runs before the connections close (after-hooks run as a stack).
  afterEach(async () => {
    for (const runner of runners.splice(0)) await runner.stop()
  })

  /** A new pool on PostgreSQL (another engine); on SQLite the process's one connection (a second in one process would wait on the first's lock). */
  async function connect(): Promise<Database> {
    if (!sql.cluster && sql.opened.length > 0) return sql.opened[0]!
    const db = await sql.connect()
    await migrate(db, { name: 'jobs-test', steps: [jobsTable] })
    return db
  }

  /** A kind whose send takes `sendMs` and records each send; `fail` decides a failure per payload. */
  function kind(sent: string[], options: { sendMs?: number; fail?: (payload: string) => Error | null } = {}): JobKind<string> {
    return {
      kind: KIND,
      label: 'test',
      open: (job) => job.payload!.toString('utf8'),
      unreadable: { code: 'INTERNAL', message: 'unreadable' },
      async send(payload, _job, signal) {
        await new Promise((resolve, reject) => {
          const timer = setTimeout(resolve, options.sendMs ?? 0)
          signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true })
        })
        sent.push(payload)
        const failure = options.fail?.(payload)
        if (failure) throw failure
      },
      classify: (error) => (error instanceof Error && error.message === 'refused' ? { action: 'park', error: { code: 'REJECTED', message: 'refused' } } : { action: 'retry', error: { code: 'UNREACHABLE', message: 'away' } }),
      timedOut: () => ({ code: 'TIMEOUT', message: 'timed out' }),
    }
  }

  function runner(db: Database, jobKind: JobKind<string>, timing: Partial<RunnerTiming> = {}): JobRunner<string> {
    const made = new JobRunner({
      db,
      kind: jobKind,
      timing: { ...DEFAULT_RUNNER_TIMING, claimMs: CLAIM_MS, pollMs: 50, backoff: { baseMs: 10, capMs: 50 }, stopGraceMs: 2_000, ...timing },
      now: Date.now,
      random: Math.random,
      log: () => {},
    })
    runners.push(made)
    return made
  }

  const add = (sql: Database, payload: string) => new JobRepository(sql, KIND).add({ summary: '{}', payload: Buffer.from(payload) }, Date.now())

  it('three runners on one table send each job once, though every send outlasts the claim and a runner is idle', async () => {
    const dbs = [await connect(), await connect(), await connect()]
    const sent: string[] = []
    for (const n of [1, 2]) await add(dbs[0]!, `job-${n}`)
    // More runners than jobs: the idle one looks for claims that ran out at every turn.
    for (const db of dbs) runner(db, kind(sent, { sendMs: SEND_MS })).start()
    const jobs = new JobRepository(dbs[0]!, KIND)
    await until(() => sent.length >= 2, 50)
    // All idle again: a second send of any job would have finished by now.
    await Promise.all(runners.map((r) => r.passNow()))
    expect((await jobs.counts()).delivered).toBe(2)
    expect([...sent].sort()).toEqual(['job-1', 'job-2'])
    // Delivered: the payload is gone, the record stays.
    expect((await jobs.list()).every((job) => job.state === 'delivered' && job.deliveredAt !== null)).toBe(true)
  })

  it('a claim that runs out (its runner gone without a word) is sent by another runner; a dead process of this machine is recovered at once', async () => {
    const db = await connect()
    const jobs = new JobRepository(db, KIND)
    await add(db, 'abandoned')
    await add(db, 'orphaned')
    const now = Date.now()
    // A runner that claimed and vanished, and one whose process (a pid no process has) was killed mid-send.
    expect(await db.transaction((tx) => new JobRepository(tx, KIND).claimNext('elsewhere/1/gone', now, now + CLAIM_MS))).not.toBeNull()
    expect(await db.transaction((tx) => new JobRepository(tx, KIND).claimNext(`${hostname()}/2147483646/killed`, now, now + 3_600_000))).not.toBeNull()
    expect((await jobs.counts()).inFlight).toBe(2)

    const sent: string[] = []
    const successor = runner(db, kind(sent))
    expect(await successor.recoverDead()).toBe(1)
    successor.start()
    await until(() => sent.length === 2, 50)
    expect(sent.sort()).toEqual(['abandoned', 'orphaned'])
  })

  it('a refusal needs attention and keeps its payload for a retry; a transient failure is tried again after a backoff', async () => {
    const db = await connect()
    const jobs = new JobRepository(db, KIND)
    let away = 2
    const sent: string[] = []
    await add(db, 'refused')
    await add(db, 'flaky')
    const r = runner(db, kind(sent, { fail: (payload) => (payload === 'refused' ? new Error('refused') : payload === 'flaky' && away-- > 0 ? new Error('away') : null) }))
    r.start()
    await until(() => sent.filter((p) => p === 'flaky').length === 3, 20)
    await r.passNow()
    const [refused, flaky] = await jobs.list()
    expect(refused).toMatchObject({ state: 'needs-attention', attempts: 1, lastError: { code: 'REJECTED' } })
    expect(flaky).toMatchObject({ state: 'delivered', attempts: 3, lastError: null })

    // Staff's retry: the same payload is sent again; a delivered job is never sent again.
    expect(await jobs.retry(refused!.id, Date.now(), true)).toMatchObject({ state: 'queued', attempts: 0 })
    expect(await jobs.retry(flaky!.id, Date.now(), true)).toBe('busy')
    r.wake()
    await until(() => sent.filter((p) => p === 'refused').length === 2, 20)
  })

  it('a job added in a transaction exists only when that transaction commits, and a dedupe key adds it once', async () => {
    const db = await connect()
    const jobs = new JobRepository(db, KIND)
    await expect(
      db.transaction(async (tx) => {
        await new JobRepository(tx, KIND).add({ summary: '{}', payload: Buffer.from('never'), dedupeKey: 'visit-1/email' }, Date.now())
        throw new Error('the visit was not stored')
      }),
    ).rejects.toThrow('the visit was not stored')
    expect(await jobs.list()).toEqual([])
    expect(await db.transaction((tx) => new JobRepository(tx, KIND).add({ summary: '{}', payload: Buffer.from('once'), dedupeKey: 'visit-1/email', subject: 'visit-1' }, Date.now()))).toBe(true)
    expect(await jobs.add({ summary: '{}', payload: Buffer.from('twice'), dedupeKey: 'visit-1/email', subject: 'visit-1' }, Date.now())).toBe(false)
    expect(await jobs.forgetSubjects(['visit-1'])).toBe(1)
    expect(await jobs.list()).toEqual([])
  })
})

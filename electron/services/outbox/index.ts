import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { DEFAULT_RUNNER_TIMING, JobRunner, type ProbeFn, type RunnerTiming } from '../../records/queue/job-runner'
import { JobRepository } from '../../records/queue/jobs-repository'
import { KioskError } from '../../shared/errors'
import { outboxEnqueueSchema, type OutboxEnqueueRequest, type OutboxItem, type OutboxRetryResult, type OutboxState } from '../../shared/outbox'
import { CONNECTIVITY_CODES } from './classify'
import { checkpoint, openOutboxDatabase, OUTBOX_FILE } from './database'
import { enrollmentKind, ENROLLMENT_KIND, outboxItem, sealedEnrollment, type DeliverFn } from './enrollment-job'
import { createSealer } from './sealer'

export { backendProbe, httpProbe } from './probe'
export { classify, isQueueable } from './classify'
export { fullJitter, DEFAULT_BACKOFF, type Backoff } from '../../records/queue/backoff'
export type { ProbeFn } from '../../records/queue/job-runner'
export { templateContextFor, type DeliverFn, type DeliveryItem } from './enrollment-job'
export { OUTBOX_FILE } from './database'

/** The one queue's runner timing (claimMs, pollMs, deliveryTimeoutMs, …) and the health probe's. */
export interface OutboxTiming extends RunnerTiming {
  /** How often to probe while offline (fixed: the probe is one cheap request). */
  offlineProbeMs: number
  /** How long without any answer from the servers before probing again while online. */
  onlineProbeMs: number
  /** A probe that takes longer than this counts as offline. */
  probeTimeoutMs: number
}

export const DEFAULT_TIMING: OutboxTiming = {
  ...DEFAULT_RUNNER_TIMING,
  // Ten samples to a slow server: the HTTP clients time out far earlier; this is the safety net.
  deliveryTimeoutMs: 3 * 60_000,
  offlineProbeMs: 5_000,
  onlineProbeMs: 30_000,
  probeTimeoutMs: 5_000,
}

export interface OutboxOptions {
  /** The folder for outbox.db (and its -wal/-shm): the kiosk's data folder. */
  dir: string
  /** 32 bytes for AES-256-GCM, held in the OS keychain by the caller. */
  key: Buffer
  deliver: DeliverFn
  probe: ProbeFn
  timing?: Partial<OutboxTiming>
  /** Delivered records (no samples) stay listed this long and this many at most: 24 h, 100. */
  retention?: { maxAgeMs?: number; maxCount?: number }
  /** Operational lines: item ids, states and error codes only, never a userId or sample. */
  log?: (line: string) => void
  now?: () => number
  random?: () => number
}

export interface Outbox {
  /** The database file, for diagnostics and tests. */
  readonly file: string
  /**
   * Stores the enrollment durably (one fsynced commit) and wakes the sender. Rejects with
   * INVALID_INPUT on a bad request. `id` lets a caller that already tried delivering with
   * templateContextFor(id) queue the same capture, so a replay replaces that attempt's template
   * instead of adding one; an id queued already is not queued twice (its item is returned).
   */
  enqueue(request: OutboxEnqueueRequest, id?: string): Promise<OutboxItem>
  get(id: string): Promise<OutboxItem | null>
  /** Every item, in enqueue order. */
  list(): Promise<OutboxItem[]>
  state(): Promise<OutboxState>
  /** An operator's retry of a parked (or waiting) item: due now, backoff reset. NOT_FOUND / INVALID_INPUT otherwise. */
  retry(id: string): Promise<OutboxItem>
  /**
   * retry(), then one pass of the sender at once (a probe first when the servers are not known to
   * answer): resolves with the item as that pass left it and the probe's verdict, so the operator
   * hears what really happened rather than a promise.
   */
  retryNow(id: string): Promise<OutboxRetryResult>
  /** Deletes an item and its samples; refused (INVALID_INPUT) while it is in-flight. */
  discard(id: string): Promise<void>
  /** Starts the sender (idempotent). */
  start(): void
  /** Stops the sender; a delivery in progress is abandoned and re-queued. */
  stop(): Promise<void>
  /** Tries everything queued now (starting the sender if needed); resolves with the state once it is idle again. */
  drainNow(): Promise<OutboxState>
  /** Called with the new state after changes (coalesced: at most once per event-loop turn). Returns an unsubscribe. */
  onChange(listener: (state: OutboxState) => void): () => void
  /** Stops the sender and closes the database. */
  close(): Promise<void>
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/**
 * Opens the offline outbox (README.md beside this file) in `dir`: enrollment jobs in the one
 * delivery queue (electron/records/queue/), sent by a JobRunner behind the health probe. Deliveries
 * left in flight by a process that died are queued again at once. The sender does not run until
 * `start()`.
 */
export async function openOutbox(options: OutboxOptions): Promise<Outbox> {
  const sealer = createSealer(options.key)
  const now = options.now ?? Date.now
  const log = options.log ?? (() => {})
  const retention = { maxAgeMs: options.retention?.maxAgeMs ?? 24 * 60 * 60_000, maxCount: options.retention?.maxCount ?? 100 }
  const { offlineProbeMs, onlineProbeMs, probeTimeoutMs, ...timing } = { ...DEFAULT_TIMING, ...options.timing }

  const { db, imported } = await openOutboxDatabase(options.dir, now())
  const jobs = new JobRepository(db, ENROLLMENT_KIND)
  const kind = enrollmentKind({ sealer, deliver: options.deliver, retention })
  let deliveredSinceCheckpoint = false
  const listeners = new Set<(state: OutboxState) => void>()
  let closed = false
  let emitPending = false
  let checkpointPending = false

  const state = async (): Promise<OutboxState> => {
    const { items, truncated } = await jobs.summary()
    const counts = await jobs.counts()
    return { online: runner.online, running: runner.isRunning, counts, items: items.map((job) => outboxItem(sealer, job)), truncated }
  }

  // Coalesced: a delivery changes several rows; the renderer needs the result, not every step.
  const emit = async () => {
    emitPending = false
    if (closed || listeners.size === 0) return
    let current: OutboxState
    try {
      current = await state()
    } catch (error) {
      if (!closed) log(`outbox: state not read for its listeners: ${error instanceof Error ? error.message : String(error)}`)
      return
    }
    if (closed) return
    for (const listener of listeners) {
      try {
        listener(current)
      } catch (error) {
        log(`outbox: a state listener failed: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
  }
  const changed = () => {
    if (closed) return
    // After deliveries: their samples' ciphertext out of the WAL (the rows dropped it already).
    if (deliveredSinceCheckpoint && !checkpointPending) {
      checkpointPending = true
      setImmediate(() => {
        checkpointPending = false
        deliveredSinceCheckpoint = false
        if (!closed) void checkpoint(db)
      })
    }
    if (emitPending || listeners.size === 0) return
    emitPending = true
    setImmediate(() => void emit())
  }

  const runner = new JobRunner({
    db,
    kind: {
      ...kind,
      send: async (item, job, signal) => {
        const result = await kind.send(item, job, signal)
        deliveredSinceCheckpoint = true
        return result
      },
    },
    timing,
    gate: { probe: options.probe, offlineProbeMs, onlineProbeMs, probeTimeoutMs, connectivityCodes: CONNECTIVITY_CODES },
    now,
    random: options.random ?? Math.random,
    changed,
    log,
  })

  try {
    if (imported > 0) log(`outbox: ${imported} item(s) brought over from the previous outbox format`)
    const recovered = (await runner.recoverDead()) + (await jobs.requeueExpired(now()))
    if (recovered > 0) log(`outbox: ${recovered} interrupted delivery(ies) queued again`)
    await kind.prune!(jobs, now())
  } catch (error) {
    await db.close()
    throw error
  }

  const ensureOpen = () => {
    if (closed) throw new KioskError('INTERNAL', 'The outbox is closed.')
  }
  const get = async (id: string) => {
    const job = await jobs.get(id)
    return job ? outboxItem(sealer, job) : null
  }
  const retry = async (id: string): Promise<OutboxItem> => {
    ensureOpen()
    const result = await jobs.retry(id, now(), false)
    if (result === null) throw new KioskError('NOT_FOUND', 'There is no such queued enrollment.')
    if (result === 'busy') throw new KioskError('INVALID_INPUT', 'This enrollment is being sent or was already delivered.')
    log(`outbox: item ${id} retried by the operator`)
    changed()
    runner.wake()
    return outboxItem(sealer, result)
  }
  let closing: Promise<void> | null = null

  return {
    file: join(options.dir, OUTBOX_FILE),
    async enqueue(request, id) {
      ensureOpen()
      const parsed = outboxEnqueueSchema.safeParse(request)
      if (!parsed.success) throw new KioskError('INVALID_INPUT', `This enrollment cannot be queued: ${parsed.error.issues[0]?.message ?? 'invalid'}.`)
      if (id !== undefined && !UUID.test(id)) throw new KioskError('INVALID_INPUT', 'An outbox id must be a UUID.')
      const job = sealedEnrollment(sealer, parsed.data, id ?? randomUUID())
      const added = await jobs.add(job, now())
      const item = await get(job.id)
      if (!item) throw new KioskError('INTERNAL', 'The enrollment could not be queued.')
      log(added ? `outbox: item ${job.id} queued` : `outbox: item ${job.id} was queued already`)
      changed()
      runner.wake()
      return item
    },
    async get(id) {
      ensureOpen()
      return get(id)
    },
    async list() {
      ensureOpen()
      return (await jobs.list()).map((job) => outboxItem(sealer, job))
    },
    async state() {
      ensureOpen()
      return state()
    },
    retry,
    async retryNow(id) {
      await retry(id)
      await runner.passNow()
      const item = await get(id)
      if (!item) throw new KioskError('NOT_FOUND', 'There is no such queued enrollment.')
      return { item, online: runner.online }
    },
    async discard(id) {
      ensureOpen()
      const result = await jobs.discard(id)
      if (result === null) throw new KioskError('NOT_FOUND', 'There is no such queued enrollment.')
      if (result === 'busy') throw new KioskError('INVALID_INPUT', 'This enrollment is being sent right now; try again in a moment.')
      log(`outbox: item ${id} discarded`)
      changed()
    },
    start() {
      ensureOpen()
      runner.start()
    },
    stop: () => runner.stop(),
    async drainNow() {
      ensureOpen()
      await jobs.makeDue(now())
      runner.start()
      await runner.passNow()
      return state()
    },
    onChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    close() {
      closing ??= (async () => {
        await runner.stop()
        closed = true
        listeners.clear()
        await checkpoint(db)
        await db.close()
      })()
      return closing
    },
  }
}

import { join } from 'node:path'
import { KioskError } from '../../shared/errors'
import { outboxEnqueueSchema, type OutboxEnqueueRequest, type OutboxItem, type OutboxRetryResult, type OutboxState } from '../../shared/outbox'
import { openOutboxDatabase, OUTBOX_FILE } from './database'
import { DEFAULT_TIMING, Dispatcher, type DeliverFn, type DispatcherTiming, type ProbeFn } from './delivery-loop'
import { OutboxLease, processAlive } from './lease'
import { createSealer } from './sealer'
import { OutboxStore } from './store'

export { backendProbe, httpProbe } from './probe'
export { classify, isQueueable } from './classify'
export { fullJitter, DEFAULT_BACKOFF, type Backoff } from './backoff'
export { DEFAULT_TIMING, type DeliverFn, type DispatcherTiming, type ProbeFn } from './delivery-loop'
export { templateContextFor, type DeliveryItem } from './store'
export { OUTBOX_FILE } from './database'

export interface OutboxOptions {
  /** The folder for outbox.db (and its -wal/-shm): the kiosk's data folder. */
  dir: string
  /** 32 bytes for AES-256-GCM, held in the OS keychain by the caller. */
  key: Buffer
  deliver: DeliverFn
  probe: ProbeFn
  timing?: Partial<DispatcherTiming>
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
   * Stores the enrollment durably (one transaction) and wakes the dispatcher. Throws INVALID_INPUT on
   * a bad request. `id` lets a caller that already tried delivering with templateContextFor(id)
   * queue the same capture, so a replay replaces that attempt's template instead of adding one.
   */
  enqueue(request: OutboxEnqueueRequest, id?: string): OutboxItem
  get(id: string): OutboxItem | null
  /** Every item, in enqueue order. */
  list(): OutboxItem[]
  state(): OutboxState
  /** An operator's retry of a parked (or waiting) item: due now, backoff reset. NOT_FOUND / INVALID_INPUT otherwise. */
  retry(id: string): OutboxItem
  /**
   * retry(), then one dispatcher pass at once (a probe first when the servers are not known to
   * answer): resolves with the item as that pass left it and the probe's verdict, so the operator
   * hears what really happened rather than a promise.
   */
  retryNow(id: string): Promise<OutboxRetryResult>
  /** Deletes an item and its samples; refused (INVALID_INPUT) while it is in-flight. */
  discard(id: string): void
  /** Starts the dispatcher (idempotent). */
  start(): void
  /** Stops the dispatcher; a delivery in progress is abandoned and re-queued. */
  stop(): Promise<void>
  /** Tries everything queued now (starting the dispatcher if needed); resolves with the state once it is idle again. */
  drainNow(): Promise<OutboxState>
  /** Called with the new state after changes (coalesced: at most once per event-loop turn). Returns an unsubscribe. */
  onChange(listener: (state: OutboxState) => void): () => void
  /** Stops the dispatcher and closes the database. */
  close(): Promise<void>
}

/**
 * Opens the offline outbox (README.md beside this file) in `dir`, resetting in-flight rows left by
 * a kiosk that died mid-delivery. The dispatcher does not run until `start()`.
 */
export function openOutbox(options: OutboxOptions): Outbox {
  const sealer = createSealer(options.key)
  const db = openOutboxDatabase(options.dir)
  const store = new OutboxStore(db, sealer)
  const lease = new OutboxLease(db)
  const now = options.now ?? Date.now
  const log = options.log ?? (() => {})
  const retention = { maxAgeMs: options.retention?.maxAgeMs ?? 24 * 60 * 60_000, maxCount: options.retention?.maxCount ?? 100 }

  const reset = lease.resetStale(now(), processAlive)
  if (reset > 0) log(`outbox: ${reset} interrupted delivery(ies) queued again`)
  store.pruneDelivered(now(), retention.maxAgeMs, retention.maxCount)

  const listeners = new Set<(state: OutboxState) => void>()
  let closed = false
  let emitPending = false
  // Coalesced: a drain changes several rows per item; the renderer needs the result, not every step.
  const changed = () => {
    if (closed || emitPending || listeners.size === 0) return
    emitPending = true
    setImmediate(() => {
      emitPending = false
      if (closed || listeners.size === 0) return
      const current = state()
      for (const listener of listeners) {
        try {
          listener(current)
        } catch (error) {
          log(`outbox: a state listener failed: ${error instanceof Error ? error.message : String(error)}`)
        }
      }
    })
  }

  const dispatcher = new Dispatcher({
    store,
    lease,
    deliver: options.deliver,
    probe: options.probe,
    timing: { ...DEFAULT_TIMING, ...options.timing },
    retention,
    now,
    random: options.random ?? Math.random,
    changed,
    log,
  })

  const state = (): OutboxState => {
    const { items, truncated } = store.summary()
    return { online: dispatcher.online, running: dispatcher.isRunning, counts: store.counts(), items, truncated }
  }
  const open = () => {
    if (closed) throw new KioskError('INTERNAL', 'The outbox is closed.')
  }

  return {
    file: join(options.dir, OUTBOX_FILE),
    enqueue(request, id) {
      open()
      const parsed = outboxEnqueueSchema.safeParse(request)
      if (!parsed.success) throw new KioskError('INVALID_INPUT', `This enrollment cannot be queued: ${parsed.error.issues[0]?.message ?? 'invalid'}.`)
      if (id !== undefined && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)) throw new KioskError('INVALID_INPUT', 'An outbox id must be a UUID.')
      const item = store.insert(parsed.data, now(), id)
      log(`outbox: item ${item.id} queued`)
      changed()
      dispatcher.wakeUp()
      return item
    },
    get(id) {
      open()
      return store.get(id)
    },
    list() {
      open()
      return store.list()
    },
    state() {
      open()
      return state()
    },
    retry(id) {
      open()
      const result = store.retry(id, now())
      if (result === null) throw new KioskError('NOT_FOUND', 'There is no such queued enrollment.')
      if (result === 'busy') throw new KioskError('INVALID_INPUT', 'This enrollment is being sent or was already delivered.')
      log(`outbox: item ${id} retried by the operator`)
      changed()
      dispatcher.wakeUp()
      return result
    },
    async retryNow(id) {
      this.retry(id)
      await dispatcher.passNow()
      const item = store.get(id)
      if (!item) throw new KioskError('NOT_FOUND', 'There is no such queued enrollment.')
      return { item, online: dispatcher.online }
    },
    discard(id) {
      open()
      const result = store.discard(id)
      if (result === null) throw new KioskError('NOT_FOUND', 'There is no such queued enrollment.')
      if (result === 'busy') throw new KioskError('INVALID_INPUT', 'This enrollment is being sent right now; try again in a moment.')
      log(`outbox: item ${id} discarded`)
      changed()
    },
    start() {
      open()
      dispatcher.start()
    },
    stop: () => dispatcher.stop(),
    async drainNow() {
      open()
      await dispatcher.drainNow()
      return state()
    },
    onChange(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    async close() {
      if (closed) return
      await dispatcher.stop()
      closed = true
      listeners.clear()
      store.checkpoint()
      db.close()
    },
  }
}

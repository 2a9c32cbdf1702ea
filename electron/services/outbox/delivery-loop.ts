import { raceAbort } from '../../shared/race-abort'
import { randomUUID } from 'node:crypto'
import { ApiError } from '../clients/api-error'
import { DEFAULT_BACKOFF, fullJitter, type Backoff } from './backoff'
import { classify, CONNECTIVITY_CODES, redact } from './classify'
import { processAlive, type OutboxLease } from './lease'
import { WakeTimer } from './wake-timer'
import type { ClaimedItem, DeliveryItem, OutboxStore } from './store'

/** Sends one queued enrollment; in production `(item) => enrollVisitor(backend, item)`. Must be idempotent. */
export type DeliverFn = (item: DeliveryItem, signal: AbortSignal) => Promise<unknown>
/** True when the servers answer at all. Must not throw for "offline"; a throw counts as offline. */
export type ProbeFn = (signal: AbortSignal) => Promise<boolean>

export interface DispatcherTiming {
  /** Per-item and dispatcher-wide full-jitter backoff. */
  backoff: Backoff
  /** How often to probe while offline (fixed: the probe is one cheap request). */
  offlineProbeMs: number
  /** How long without any answer from the servers before probing again while online. */
  onlineProbeMs: number
  /** A probe that takes longer than this counts as offline. */
  probeTimeoutMs: number
  /** Safety net for a `deliver` that never settles (the HTTP clients have their own, shorter timeouts). */
  deliveryTimeoutMs: number
  /** The dispatcher lease's lifetime; renewed at least every third of it while running. */
  leaseTtlMs: number
  /** How long `stop()` waits for the loop to wind down. */
  stopGraceMs: number
  /** Delay after an unexpected local error (e.g. the database busy for longer than busy_timeout). */
  localErrorRetryMs: number
}

export const DEFAULT_TIMING: DispatcherTiming = {
  backoff: DEFAULT_BACKOFF,
  offlineProbeMs: 5_000,
  onlineProbeMs: 30_000,
  probeTimeoutMs: 5_000,
  deliveryTimeoutMs: 3 * 60_000,
  leaseTtlMs: 30_000,
  stopGraceMs: 5_000,
  localErrorRetryMs: 1_000,
}

export interface DispatcherOptions {
  store: OutboxStore
  lease: OutboxLease
  deliver: DeliverFn
  probe: ProbeFn
  timing: DispatcherTiming
  /** How long delivered records stay listed, and how many at most. */
  retention: { maxAgeMs: number; maxCount: number }
  now: () => number
  random: () => number
  /** Something changed that the UI shows (an item's state, the online flag, running). */
  changed: () => void
  log: (line: string) => void
}

/**
 * The one loop that drains the outbox. Each turn of `step()`:
 *  1. takes or renews the lease (one dispatcher per outbox file, across processes);
 *  2. probes the servers when a probe is due (offline: every offlineProbeMs; online: after
 *     onlineProbeMs without any answer; at once after a connectivity failure);
 *  3. stops there while offline, or while the dispatcher-wide backoff holds;
 *  4. claims the oldest due item, delivers it, records the outcome.
 * then sleeps until something is due, or until woken (enqueue, retry, drainNow, stop).
 * Items are delivered one at a time: a kiosk queues tens of captures, not thousands, and one
 * request at a time is what a server that is just recovering can take.
 */
export class Dispatcher {
  /** The last probe's verdict; null before the first one. */
  online: boolean | null = null
  /** Probes failed in a row, and whether "offline" was said for them (see runProbe). */
  private failedProbes = 0
  private saidOffline = false
  private running = false
  /** Each start() runs its own loop; a loop that outlived stop()'s grace period sees a newer generation and ends. */
  private generation = 0
  private heartbeat: NodeJS.Timeout | null = null
  private loopDone: Promise<void> | null = null
  private readonly owner = randomUUID()
  private hasLease = false
  private stopController = new AbortController()
  private readonly alarm = new WakeTimer()
  private probeDue = true
  private lastProbeAt = 0
  private lastContactAt = 0
  /** Dispatcher-wide backoff: consecutive retryable failures, whatever the item. */
  private consecutiveFailures = 0
  private holdUntil = 0
  private deliveredSinceCheckpoint = 0
  private steps = 0
  private idleWaiters: Array<{ afterStep: number; resolve: () => void }> = []

  constructor(private readonly o: DispatcherOptions) {}

  get isRunning(): boolean {
    return this.running
  }

  start(): void {
    if (this.running) return
    this.running = true
    this.stopController = new AbortController()
    this.probeDue = true
    this.loopDone = this.loop(++this.generation)
    // The loop renews the lease at every turn, but one delivery can outlast the lease (slow
    // server, ten samples); this keeps a live dispatcher from looking dead to another process.
    this.heartbeat = setInterval(() => this.renewLease(), Math.floor(this.o.timing.leaseTtlMs / 3))
    this.heartbeat.unref()
    this.o.changed()
  }

  /** Ends the loop, abandoning (and re-queueing) a delivery in progress; releases the lease. */
  async stop(): Promise<void> {
    if (!this.running) return
    this.running = false
    if (this.heartbeat) clearInterval(this.heartbeat)
    this.heartbeat = null
    this.stopController.abort()
    this.wakeUp()
    let timer: NodeJS.Timeout | undefined
    await Promise.race([this.loopDone, new Promise((resolve) => (timer = setTimeout(resolve, this.o.timing.stopGraceMs)))])
    clearTimeout(timer)
    this.o.lease.release(this.owner)
    this.hasLease = false
    this.settleIdle(true)
    this.o.changed()
  }

  /** Wakes the loop now (something was enqueued or retried). */
  wakeUp(): void {
    this.alarm.wake()
  }

  /**
   * Everything queued becomes due now, the backoff hold is lifted and a probe runs first; resolves
   * once the loop is idle again (nothing due, offline, or another process holds the lease).
   */
  drainNow(): Promise<void> {
    this.o.store.makeDue(this.o.now())
    this.start()
    return this.passNow()
  }

  /**
   * One pass now, for what is already due (an operator's retry): the backoff hold is lifted, a
   * probe runs first unless the servers are known to answer, and due items are tried. Resolves
   * once the loop is idle again; at once when the dispatcher is not running.
   */
  passNow(): Promise<void> {
    if (!this.running) return Promise.resolve()
    this.holdUntil = 0
    this.probeDue = this.online !== true
    const idle = new Promise<void>((resolve) => this.idleWaiters.push({ afterStep: this.steps, resolve }))
    this.wakeUp()
    return idle
  }

  private async loop(generation: number): Promise<void> {
    while (this.running && generation === this.generation) {
      let waitMs: number
      try {
        waitMs = await this.step()
      } catch (error) {
        this.o.log(`outbox: dispatcher step failed: ${error instanceof Error ? error.message : String(error)}`)
        waitMs = this.o.timing.localErrorRetryMs
      }
      if (!this.running || generation !== this.generation) break
      if (waitMs > 0) {
        this.settleIdle(false)
        // Wake at least every third of the lease so it is renewed while idle.
        await this.alarm.sleep(Math.min(waitMs, Math.floor(this.o.timing.leaseTtlMs / 3)))
      }
    }
  }

  /** One turn; returns how long to sleep (0: go on at once). */
  private async step(): Promise<number> {
    this.steps++
    const { store, timing } = this.o
    let now = this.o.now()

    const lease = this.o.lease.acquire(this.owner, process.pid, now, timing.leaseTtlMs, processAlive)
    if (lease === 'busy') {
      if (this.hasLease) this.o.log('outbox: another kiosk process took over the outbox')
      this.hasLease = false
      return Math.floor(timing.leaseTtlMs / 3)
    }
    if (lease === 'acquired') {
      this.hasLease = true
      this.o.changed()
    }

    const nextProbeAt = () => (this.online ? this.lastContactAt + timing.onlineProbeMs : this.lastProbeAt + timing.offlineProbeMs)
    if (this.probeDue || now >= nextProbeAt()) await this.runProbe()
    if (!this.running) return 0
    now = this.o.now()
    if (!this.online) return Math.max(1, nextProbeAt() - now)
    if (now < this.holdUntil) return Math.max(1, Math.min(this.holdUntil, nextProbeAt()) - now)

    const claimed = store.claimNext(this.owner, now)
    if (!claimed) {
      if (this.deliveredSinceCheckpoint > 0) {
        store.checkpoint()
        this.deliveredSinceCheckpoint = 0
      }
      const due = store.nextDueAt()
      return Math.max(1, Math.min(due ?? Infinity, nextProbeAt()) - now)
    }
    this.o.changed()
    await this.attempt(claimed)
    return 0
  }

  private renewLease(): void {
    if (!this.hasLease) return
    try {
      if (this.o.lease.acquire(this.owner, process.pid, this.o.now(), this.o.timing.leaseTtlMs, processAlive) === 'busy') {
        this.hasLease = false
        this.o.log('outbox: lease lost to another kiosk process')
      }
    } catch {
      // Busy database: the next beat or turn tries again, well within the lease's lifetime.
    }
  }

  private async runProbe(): Promise<void> {
    const signal = AbortSignal.any([this.stopController.signal, AbortSignal.timeout(this.o.timing.probeTimeoutMs)])
    let ok: boolean
    try {
      ok = (await raceAbort(invoke(() => this.o.probe(signal)), signal)) === true
    } catch {
      ok = false
    }
    if (!this.running) return
    const now = this.o.now()
    this.probeDue = false
    this.lastProbeAt = now
    const was = this.online
    this.online = ok
    if (ok) {
      this.lastContactAt = now
      if (was !== true) {
        // Back online: what failed only for want of a connection goes first, and without waiting
        // out a backoff that was about the network, not about the servers.
        const due = this.o.store.makeDue(now, CONNECTIVITY_CODES)
        this.holdUntil = 0
        this.consecutiveFailures = 0
        if (this.saidOffline) this.o.log(`outbox: online again; ${due} item(s) due now`)
      }
      this.failedProbes = 0
      this.saidOffline = false
    } else {
      // The first probe can race the servers' own start (the kiosk's engine a moment past ready):
      // "offline" is said at once after being online, else from the second failure in a row.
      this.failedProbes++
      if (!this.saidOffline && (was === true || this.failedProbes >= 2)) {
        this.saidOffline = true
        this.o.log('outbox: offline (health probe failed)')
      }
    }
    if (was !== ok) this.o.changed()
  }

  private async attempt(claimed: ClaimedItem): Promise<void> {
    const { store, timing } = this.o
    let item: DeliveryItem
    try {
      item = store.open(claimed)
    } catch {
      // Wrong key or damaged data: retrying cannot help, and the operator must see it.
      store.park(claimed.id, this.owner, { code: 'INTERNAL', message: 'The stored capture could not be decrypted (the outbox key changed or the data is damaged). Discard it and enroll again.' }, this.o.now())
      this.o.log(`outbox: item ${claimed.id} unreadable, parked`)
      this.o.changed()
      return
    }

    const timeout = AbortSignal.timeout(timing.deliveryTimeoutMs)
    const signal = AbortSignal.any([this.stopController.signal, timeout])
    try {
      await raceAbort(invoke(() => this.o.deliver(item, signal)), signal)
      const now = this.o.now()
      store.markDelivered(claimed.id, now)
      store.pruneDelivered(now, this.o.retention.maxAgeMs, this.o.retention.maxCount)
      this.consecutiveFailures = 0
      this.lastContactAt = now
      this.deliveredSinceCheckpoint++
      this.o.log(`outbox: item ${claimed.id} delivered (attempt ${claimed.attempts})`)
    } catch (error) {
      const now = this.o.now()
      if (this.stopController.signal.aborted) {
        // Stopped mid-delivery: not the item's fault, and its outcome is unknown; replaying is idempotent.
        store.release(claimed.id, this.owner, now)
        this.o.log(`outbox: item ${claimed.id} released (dispatcher stopped)`)
      } else {
        // Our own deadline passed: as transient as an HTTP timeout.
        const verdict = timeout.aborted
          ? classify(new ApiError('TIMEOUT', `The enrollment was not delivered within ${Math.round(timing.deliveryTimeoutMs / 1000)} s.`, null))
          : classify(error)
        const failure = { code: verdict.error.code, message: redact(verdict.error.message, item.userId) }
        if (verdict.action === 'park') {
          store.park(claimed.id, this.owner, failure, now)
          this.o.log(`outbox: item ${claimed.id} needs attention (${failure.code})`)
        } else {
          this.consecutiveFailures++
          const itemDelay = fullJitter(claimed.attempts, timing.backoff, this.o.random)
          this.holdUntil = now + fullJitter(this.consecutiveFailures, timing.backoff, this.o.random)
          if (verdict.connectivity) this.probeDue = true
          store.markRetry(claimed.id, this.owner, failure, now + itemDelay, now)
          this.o.log(`outbox: item ${claimed.id} attempt ${claimed.attempts} failed (${failure.code}); retry in ${itemDelay} ms`)
        }
      }
    }
    this.o.changed()
  }


  /** Resolves drainNow() callers whose request came before the step that just went idle. */
  private settleIdle(all: boolean): void {
    const ready = this.idleWaiters.filter((w) => all || w.afterStep < this.steps)
    this.idleWaiters = this.idleWaiters.filter((w) => !ready.includes(w))
    for (const w of ready) w.resolve()
  }
}

/** Calls `fn`, turning a synchronous throw into a rejection. */
function invoke<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return Promise.resolve(fn())
  } catch (error) {
    return Promise.reject(error)
  }
}


import { randomUUID } from 'node:crypto'
import { DEFAULT_BACKOFF, fullJitter, type Backoff } from '../outbox/backoff'
import { raceAbort } from '../../shared/race-abort'
import { processAlive, type OutboxLease } from '../outbox/lease'
import { describeFailure } from '../../records/frontdesk/notices/failure'
import { WakeTimer } from '../outbox/wake-timer'
import type { ClaimedNotice, NoticeStore } from './store'
import type { ArrivalNotice } from '../../shared/visits'

/** Sends one notice on its channel; throws a DeliveryFailure (or anything: INTERNAL, not retried). */
export type SendFn = (claimed: ClaimedNotice & { notice: ArrivalNotice }, signal: AbortSignal) => Promise<void>

export interface NoticeTiming {
  /** Per-notice full-jitter backoff (the outbox's). */
  backoff: Backoff
  /** The sender lease's lifetime; renewed at least every third of it. */
  leaseTtlMs: number
  /** Each channel's connect / greeting / headers / idle-socket limit: a silent server is tried again later, never waited on. */
  channelTimeoutMs: number
  /** Safety net for a send that never settles (the channel's own limits come first). */
  deliveryTimeoutMs: number
  /** How long stop() waits for a send in progress. */
  stopGraceMs: number
  localErrorRetryMs: number
  /** A notice not delivered within this is failed: a host told of an arrival hours later is no use. */
  maxAgeMs: number
  /** How long delivered records stay listed (and an arrival enqueued again is recognised). */
  deliveredKeepMs: number
  /** How long failed notices (with the visitor's name, for a retry) stay for staff to see and retry. */
  failedKeepMs: number
}

const HOUR = 3_600_000
export const DEFAULT_NOTICE_TIMING: NoticeTiming = {
  backoff: DEFAULT_BACKOFF,
  leaseTtlMs: 30_000,
  channelTimeoutMs: 15_000,
  deliveryTimeoutMs: 60_000,
  stopGraceMs: 5_000,
  localErrorRetryMs: 1_000,
  maxAgeMs: 24 * HOUR,
  deliveredKeepMs: 7 * 24 * HOUR,
  failedKeepMs: 7 * 24 * HOUR,
}

export interface SenderOptions {
  store: NoticeStore
  lease: OutboxLease
  send: SendFn
  timing: NoticeTiming
  now: () => number
  random: () => number
  log: (line: string) => void
}

/**
 * The one loop that delivers the notices, one at a time, oldest due first. Each turn takes or
 * renews the lease (one sender per file, across the desktop app and the web host), claims a due
 * notice, sends it and records the outcome; then sleeps until the next is due or it is woken.
 * Log lines carry ids, channels and codes only.
 */
export class NoticeSender {
  private running = false
  private generation = 0
  private loopDone: Promise<void> | null = null
  private readonly owner = randomUUID()
  private stopController = new AbortController()
  private readonly alarm = new WakeTimer()
  private idleWaiters: Array<() => void> = []
  private deliveredSinceCheckpoint = 0

  constructor(private readonly o: SenderOptions) {}

  get isRunning(): boolean {
    return this.running
  }

  start(): void {
    if (this.running) return
    this.running = true
    this.stopController = new AbortController()
    this.loopDone = this.loop(++this.generation)
  }

  /** Ends the loop; a send in progress is abandoned and queued again (its outcome is unknown). */
  async stop(): Promise<void> {
    if (!this.running) return
    this.running = false
    this.stopController.abort()
    this.wakeUp()
    let timer: NodeJS.Timeout | undefined
    await Promise.race([this.loopDone, new Promise((resolve) => (timer = setTimeout(resolve, this.o.timing.stopGraceMs)))])
    clearTimeout(timer)
    this.o.lease.release(this.owner)
    this.settleIdle()
  }

  wakeUp(): void {
    this.alarm.wake()
  }

  /** Resolves when nothing is due (or the sender is stopped): for tests and a retry that wants its result. */
  idle(): Promise<void> {
    if (!this.running) return Promise.resolve()
    const settled = new Promise<void>((resolve) => this.idleWaiters.push(resolve))
    this.wakeUp()
    return settled
  }

  private async loop(generation: number): Promise<void> {
    while (this.running && generation === this.generation) {
      let waitMs: number
      try {
        waitMs = await this.step()
      } catch (error) {
        this.o.log(`host notices: sender step failed: ${error instanceof Error ? error.message : String(error)}`)
        waitMs = this.o.timing.localErrorRetryMs
      }
      if (!this.running || generation !== this.generation) break
      if (waitMs > 0) {
        this.settleIdle()
        await this.alarm.sleep(Math.min(waitMs, Math.floor(this.o.timing.leaseTtlMs / 3)))
      }
    }
  }

  private async step(): Promise<number> {
    const { store, timing } = this.o
    const now = this.o.now()
    if (this.o.lease.acquire(this.owner, process.pid, now, timing.leaseTtlMs, processAlive) === 'busy') return Math.floor(timing.leaseTtlMs / 3)
    const claimed = store.claimNext(this.owner, now)
    if (!claimed) {
      // Idle: fold the WAL back, so the names of delivered notices do not linger in old frames.
      if (store.prune(now, timing.deliveredKeepMs, timing.failedKeepMs) > 0 || this.deliveredSinceCheckpoint > 0) {
        store.checkpoint()
        this.deliveredSinceCheckpoint = 0
      }
      const due = store.nextDueAt()
      return Math.max(1, (due ?? Infinity) - now)
    }
    await this.attempt(claimed)
    return 0
  }

  private async attempt(claimed: ClaimedNotice): Promise<void> {
    const { store, timing } = this.o
    const label = `host notices: ${claimed.id} (${claimed.channel})`
    if (claimed.notice === null) {
      store.markFailed(claimed.id, this.owner, { code: 'INTERNAL', message: 'The stored notice is damaged and cannot be sent.' }, this.o.now())
      this.o.log(`${label} unreadable, failed`)
      return
    }
    if (this.o.now() - claimed.createdAt > timing.maxAgeMs) {
      store.markFailed(claimed.id, this.owner, { code: 'TIMEOUT', message: `Not delivered within ${Math.round(timing.maxAgeMs / HOUR)} h of the arrival; no longer sent.` }, this.o.now())
      this.o.log(`${label} too old, failed`)
      return
    }
    const signal = AbortSignal.any([this.stopController.signal, AbortSignal.timeout(timing.deliveryTimeoutMs)])
    try {
      await raceAbort(this.o.send({ ...claimed, notice: claimed.notice }, signal), signal)
      store.markDelivered(claimed.id, this.owner, this.o.now())
      this.deliveredSinceCheckpoint++
      this.o.log(`${label} delivered (attempt ${claimed.attempts})`)
    } catch (error) {
      const now = this.o.now()
      if (this.stopController.signal.aborted) {
        store.release(claimed.id, this.owner, now)
        this.o.log(`${label} released (sender stopped)`)
        return
      }
      const { error: failure, permanent } = signal.aborted
        ? { error: { code: 'TIMEOUT' as const, message: `Not sent within ${Math.round(timing.deliveryTimeoutMs / 1000)} s.` }, permanent: false }
        : describeFailure(error, [])
      if (permanent) {
        store.markFailed(claimed.id, this.owner, failure, now)
        this.o.log(`${label} failed (${failure.code})`)
      } else {
        const delay = fullJitter(claimed.attempts, timing.backoff, this.o.random)
        store.markRetry(claimed.id, this.owner, failure, now + delay, now)
        this.o.log(`${label} attempt ${claimed.attempts} failed (${failure.code}); retry in ${delay} ms`)
      }
    }
  }


  private settleIdle(): void {
    const waiters = this.idleWaiters
    this.idleWaiters = []
    for (const resolve of waiters) resolve()
  }
}

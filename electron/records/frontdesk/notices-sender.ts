import { raceAbort } from '../../shared/race-abort'
import { randomUUID } from 'node:crypto'
import type { ArrivalNotice } from '../../shared/visits'
import type { Database } from '../sql/types'
import { HostNoticeRepository, type ClaimedNotice } from './host-notices-repository'
import { describeFailure } from './notices/failure'

/** Sends one notice on its channel; throws a DeliveryFailure (or anything else: INTERNAL, not retried). */
export type SendNotice = (claimed: ClaimedNotice & { notice: ArrivalNotice }, signal: AbortSignal) => Promise<void>

export interface SiteNoticeTiming {
  /** Full-jitter backoff per notice: random(0, min(capMs, baseMs * 2^(attempts - 1))). */
  backoff: { baseMs: number; capMs: number }
  /** How long a claim holds; renewed every third of it while the send runs. An engine that stops renewing loses it. */
  claimMs: number
  /** How often an engine looks for due notices when nothing woke it (another engine's check-ins, retries coming due). */
  pollMs: number
  /** Each channel's connect / greeting / headers / idle-socket limit. */
  channelTimeoutMs: number
  /** Safety net for a send that never settles (the channel's own limits come first). */
  deliveryTimeoutMs: number
  /** How long stop() waits for a send in progress to be released. */
  stopGraceMs: number
  /** A notice not delivered within this of its arrival is failed: a host told hours later is no use. */
  maxAgeMs: number
  deliveredKeepMs: number
  failedKeepMs: number
  /** How often delivered and failed records past their keep, and notices of removed visits, are deleted. */
  pruneEveryMs: number
}

const HOUR = 3_600_000
export const DEFAULT_SITE_NOTICE_TIMING: SiteNoticeTiming = {
  backoff: { baseMs: 1_000, capMs: 5 * 60_000 },
  claimMs: 30_000,
  pollMs: 1_000,
  channelTimeoutMs: 15_000,
  deliveryTimeoutMs: 60_000,
  stopGraceMs: 5_000,
  maxAgeMs: 24 * HOUR,
  deliveredKeepMs: 7 * 24 * HOUR,
  failedKeepMs: 7 * 24 * HOUR,
  pruneEveryMs: 60_000,
}

export function fullJitter(attempts: number, { baseMs, capMs }: SiteNoticeTiming['backoff'], random: () => number): number {
  const n = Math.max(1, Math.floor(attempts))
  return Math.floor(random() * Math.min(capMs, baseMs * 2 ** Math.min(n - 1, 1_000)))
}

export interface NoticeSenderOptions {
  send: SendNotice
  timing: SiteNoticeTiming
  now: () => number
  random?: () => number
  /** Lines carry ids, channels and codes: never a name, an address or a secret. */
  log: (line: string) => void
}

export interface NoticeSender {
  readonly running: boolean
  /** Looks for due notices now (this engine queued some, or staff made one due). */
  wake(): void
  start(): void
  /** Ends the loop; a send in progress is abandoned and its notice queued again at once. */
  stop(): Promise<void>
}

/**
 * One engine's sender of the site's host notices. Each turn queues again the notices whose claim
 * ran out, then claims the oldest due one in a short transaction (SKIP LOCKED on PostgreSQL: every
 * engine of the site claims from one table, and a row is one engine's at a time), sends it while
 * renewing the claim, and records the outcome guarded by the claim. It sleeps `pollMs` when
 * nothing was due, or until woken.
 */
export function noticeSender(db: Database, options: NoticeSenderOptions): NoticeSender {
  const { timing, now, log } = options
  const random = options.random ?? Math.random
  const records = new HostNoticeRepository(db)
  const owner = `${randomUUID()}`
  let running = false
  let stopController = new AbortController()
  let loopDone: Promise<void> = Promise.resolve()
  let wakeSleeper: (() => void) | null = null
  let woken = false
  let lastPrune = 0

  const wake = () => {
    if (wakeSleeper) wakeSleeper()
    else woken = true
  }
  const sleep = (ms: number) => {
    if (woken) {
      woken = false
      return Promise.resolve()
    }
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms)
      function done() {
        clearTimeout(timer)
        wakeSleeper = null
        resolve()
      }
      wakeSleeper = done
    })
  }

  /** One turn: true when a notice was taken (so the next turn comes at once). */
  async function step(): Promise<boolean> {
    const at = now()
    if (at - lastPrune >= timing.pruneEveryMs) {
      lastPrune = at
      const pruned = await records.prune(at, timing.deliveredKeepMs, timing.failedKeepMs)
      if (pruned > 0) log(`host notices: ${pruned} old or orphaned notice(s) removed`)
    }
    const requeued = await records.requeueExpired(at)
    if (requeued > 0) log(`host notices: ${requeued} notice(s) whose claim ran out queued again`)
    const claimed = await db.transaction((tx) => new HostNoticeRepository(tx).claimNext(owner, at, at + timing.claimMs))
    if (!claimed) return false
    await attempt(claimed)
    return true
  }

  /** Keeps the claim while the send runs; `lost` is aborted if another engine has the notice now. */
  function holdClaim(id: string, lost: AbortController): () => void {
    let timer: NodeJS.Timeout | undefined
    let held = true
    const renew = async () => {
      const still = await records.renew(id, owner, now() + timing.claimMs).catch(() => true) // a failed renewal is tried again next time
      if (!still) lost.abort(new Error('claim lost'))
      else if (held) timer = setTimeout(() => void renew(), Math.max(1, Math.floor(timing.claimMs / 3)))
    }
    timer = setTimeout(() => void renew(), Math.max(1, Math.floor(timing.claimMs / 3)))
    return () => {
      held = false
      clearTimeout(timer)
    }
  }

  async function attempt(claimed: ClaimedNotice): Promise<void> {
    const label = `host notices: ${claimed.id} (${claimed.channel})`
    if (claimed.notice === null) {
      await records.markFailed(claimed.id, owner, { code: 'INTERNAL', message: 'The stored notice is damaged and cannot be sent.' }, now())
      log(`${label} unreadable, failed`)
      return
    }
    if (now() - claimed.createdAt > timing.maxAgeMs) {
      await records.markFailed(claimed.id, owner, { code: 'TIMEOUT', message: `Not delivered within ${Math.round(timing.maxAgeMs / HOUR)} h of the arrival; no longer sent.` }, now())
      log(`${label} too old, failed`)
      return
    }
    const lost = new AbortController()
    const release = holdClaim(claimed.id, lost)
    const signal = AbortSignal.any([stopController.signal, lost.signal, AbortSignal.timeout(timing.deliveryTimeoutMs)])
    try {
      await raceAbort(options.send({ ...claimed, notice: claimed.notice }, signal), signal)
      release()
      if (await records.markDelivered(claimed.id, owner, now())) log(`${label} delivered (attempt ${claimed.attempts})`)
      else log(`${label} sent, but its claim had been taken over`)
    } catch (error) {
      release()
      const at = now()
      if (stopController.signal.aborted) {
        await records.release(claimed.id, owner, at)
        log(`${label} released (sender stopped)`)
        return
      }
      if (lost.signal.aborted) {
        log(`${label} abandoned: its claim was taken over`)
        return
      }
      const { error: failure, permanent } = signal.aborted
        ? { error: { code: 'TIMEOUT' as const, message: `Not sent within ${Math.round(timing.deliveryTimeoutMs / 1000)} s.` }, permanent: false }
        : describeFailure(error, [])
      if (permanent) {
        await records.markFailed(claimed.id, owner, failure, at)
        log(`${label} failed (${failure.code})`)
      } else {
        const delay = fullJitter(claimed.attempts, timing.backoff, random)
        await records.markRetry(claimed.id, owner, failure, at + delay, at)
        log(`${label} attempt ${claimed.attempts} failed (${failure.code}); retry in ${delay} ms`)
      }
    }
  }

  async function loop(): Promise<void> {
    while (running) {
      let busy = false
      try {
        busy = await step()
      } catch (error) {
        log(`host notices: sender step failed: ${error instanceof Error ? error.message : String(error)}`)
      }
      if (running && !busy) await sleep(timing.pollMs)
    }
  }

  return {
    get running() {
      return running
    },
    wake,
    start() {
      if (running) return
      running = true
      stopController = new AbortController()
      loopDone = loop()
    },
    async stop() {
      if (!running) return
      running = false
      stopController.abort(new Error('stopped'))
      wake()
      let timer: NodeJS.Timeout | undefined
      await Promise.race([loopDone, new Promise((resolve) => (timer = setTimeout(resolve, timing.stopGraceMs)))])
      clearTimeout(timer)
    },
  }
}

import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import type { ErrorCode } from '../../shared/errors'
import type { JobError } from '../../shared/jobs'
import { raceAbort } from '../../shared/race-abort'
import type { Database } from '../sql/types'
import { DEFAULT_BACKOFF, fullJitter, type Backoff } from './backoff'
import { JobRepository, type ClaimedJob } from './jobs-repository'
import { WakeTimer } from './wake-timer'

/**
 * What a failed send means for its job: `retry` after a backoff (`connectivity`: nothing reached the
 * servers, so the gate probes before anything else is sent), or `park` it for staff (sending the
 * same thing again would get the same answer).
 */
export type Verdict = { action: 'retry'; connectivity?: boolean; error: JobError } | { action: 'park'; error: JobError }

/** One kind of job: how its stored job is read, sent, and what a failure means. Everything else is the runner's. */
export interface JobKind<T> {
  /** The `kind` column: this runner claims only these rows. */
  kind: string
  /** The word for the log lines ('outbox', 'host notices'). */
  label: string
  /** Reads what `send` needs from the claimed job; a throw parks it with `unreadable` (wrong key, damaged data). */
  open(job: ClaimedJob): T
  unreadable: JobError
  /** Sends it; must be idempotent (a send whose outcome was lost is sent again). */
  send(data: T, job: ClaimedJob, signal: AbortSignal): Promise<unknown>
  classify(error: unknown, data: T): Verdict
  /** The failure recorded when `deliveryTimeoutMs` passes (as transient as an HTTP timeout). */
  timedOut(ms: number): JobError
  /** A job not delivered within this of its creation is parked: a host told of an arrival hours later is no use. */
  maxAge?: { ms: number; error: JobError }
  /** Housekeeping every `pruneEveryMs` (delivered records past their keep, jobs of removed subjects). */
  prune?(jobs: JobRepository, now: number): Promise<number>
}

export interface RunnerTiming {
  /** Full-jitter backoff per job (attempts) and, with a gate, runner-wide (consecutive failures). */
  backoff: Backoff
  /** How long a claim holds; renewed every third of it while the send runs. A runner that stops renewing loses it. */
  claimMs: number
  /** How often to look for due jobs when nothing woke the runner (another process's or engine's jobs). */
  pollMs: number
  /** Safety net for a send that never settles (the clients' and channels' own limits come first). */
  deliveryTimeoutMs: number
  /** How long stop() waits for a send in progress to be released. */
  stopGraceMs: number
  /** Delay after an unexpected local error (the database busy, or unreachable). */
  localErrorRetryMs: number
  pruneEveryMs: number
}

export const DEFAULT_RUNNER_TIMING: RunnerTiming = {
  backoff: DEFAULT_BACKOFF,
  claimMs: 30_000,
  pollMs: 10_000,
  deliveryTimeoutMs: 60_000,
  stopGraceMs: 5_000,
  localErrorRetryMs: 1_000,
  pruneEveryMs: 60_000,
}

/** True when the servers answer at all. A throw counts as "no". */
export type ProbeFn = (signal: AbortSignal) => Promise<boolean>

/**
 * A kind whose jobs all go to one place (the outbox: the person server and the BioEngine) waits at a
 * gate: nothing is sent while a health probe says the servers are away, and a run of failures holds
 * every job back (runner-wide backoff), not only the one that failed.
 */
export interface Gate {
  probe: ProbeFn
  /** How often to probe while offline. */
  offlineProbeMs: number
  /** How long without any answer from the servers before probing again while online. */
  onlineProbeMs: number
  probeTimeoutMs: number
  /** Failures that never reached the servers: due again as soon as a probe answers. */
  connectivityCodes: readonly ErrorCode[]
}

export interface RunnerOptions<T> {
  db: Database
  kind: JobKind<T>
  timing: RunnerTiming
  gate?: Gate
  now: () => number
  random: () => number
  /** Something staff see changed (a job's state, the online flag, running). */
  changed?: () => void
  /** Lines carry ids, states and codes only: never a name, an address, a secret or a sample. */
  log: (line: string) => void
}

/** Whether a process of this machine exists (EPERM: it exists but belongs to someone else). */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * The one delivery loop, for any kind of job, over any database that keeps jobs; several runners
 * (two processes on one data folder, every engine of a site) share a table safely. Each turn:
 *  1. housekeeping when due, and jobs whose claim ran out queued again;
 *  2. with a gate: a probe when one is due; nothing more while offline or held back;
 *  3. claims the oldest due job in a short transaction, sends it while renewing the claim, and
 *     records the outcome under the claim (a runner whose claim was taken over changes nothing).
 * then sleeps until something is due, or until woken (a job added, a retry, stop). One job at a
 * time: a kiosk queues tens, not thousands, and one request at a time is what a server that is
 * just recovering can take.
 */
export class JobRunner<T> {
  /** The gate's last probe verdict; null before the first, and always null without a gate. */
  online: boolean | null = null
  private running = false
  private generation = 0
  private loopDone: Promise<void> | null = null
  /** host/pid/random: a runner of this machine whose process is gone is recognised at the next start. */
  private readonly owner = `${hostname()}/${process.pid}/${randomUUID()}`
  private stopController = new AbortController()
  private readonly alarm = new WakeTimer()
  private readonly jobs: JobRepository
  private lastPrune = -Infinity
  private failedProbes = 0
  private saidOffline = false
  private probeDue = true
  private lastProbeAt = 0
  private lastContactAt = 0
  private consecutiveFailures = 0
  private holdUntil = 0
  private steps = 0
  private idleWaiters: Array<{ afterStep: number; resolve: () => void }> = []

  constructor(private readonly o: RunnerOptions<T>) {
    this.jobs = new JobRepository(o.db, o.kind.kind)
  }

  get isRunning(): boolean {
    return this.running
  }

  /**
   * Jobs left in flight by a runner of this machine whose process is gone (killed mid-send) are
   * queued again at once, not after their claim runs out. Returns how many.
   */
  async recoverDead(): Promise<number> {
    const host = `${hostname()}/`
    let recovered = 0
    for (const owner of await this.jobs.claimants()) {
      const pid = Number(owner.slice(host.length).split('/')[0])
      if (owner.startsWith(host) && Number.isInteger(pid) && pid > 0 && !processAlive(pid)) recovered += await this.jobs.requeueClaimedBy(owner, this.o.now())
    }
    return recovered
  }

  start(): void {
    if (this.running) return
    this.running = true
    this.stopController = new AbortController()
    this.probeDue = true
    this.loopDone = this.loop(++this.generation)
    this.o.changed?.()
  }

  /** Ends the loop; a send in progress is abandoned and its job queued again at once (its outcome is unknown). */
  async stop(): Promise<void> {
    if (!this.running) return
    this.running = false
    this.stopController.abort(new Error('stopped'))
    this.wake()
    let timer: NodeJS.Timeout | undefined
    await Promise.race([this.loopDone, new Promise((resolve) => (timer = setTimeout(resolve, this.o.timing.stopGraceMs)))])
    clearTimeout(timer)
    this.settleIdle(true)
    this.o.changed?.()
  }

  /** Looks for due jobs now (one was added, or made due). */
  wake(): void {
    this.alarm.wake()
  }

  /**
   * One pass now, for what is already due (staff's retry): the backoff hold is lifted, a probe runs
   * first unless the servers are known to answer, and due jobs are tried. Resolves once the loop is
   * idle again (nothing due, or offline); at once when the runner is not running.
   */
  passNow(): Promise<void> {
    if (!this.running) return Promise.resolve()
    this.holdUntil = 0
    this.probeDue = this.online !== true
    const idle = new Promise<void>((resolve) => this.idleWaiters.push({ afterStep: this.steps, resolve }))
    this.wake()
    return idle
  }

  private async loop(generation: number): Promise<void> {
    while (this.running && generation === this.generation) {
      let waitMs: number
      try {
        waitMs = await this.step()
      } catch (error) {
        this.o.log(`${this.o.kind.label}: runner step failed: ${error instanceof Error ? error.message : String(error)}`)
        waitMs = this.o.timing.localErrorRetryMs
      }
      if (!this.running || generation !== this.generation) break
      if (waitMs > 0) {
        this.settleIdle(false)
        await this.alarm.sleep(Math.min(waitMs, this.o.timing.pollMs))
      }
    }
  }

  /** One turn; returns how long to sleep (0: go on at once). */
  private async step(): Promise<number> {
    this.steps++
    const { timing, gate, kind } = this.o
    let now = this.o.now()
    if (kind.prune && now - this.lastPrune >= timing.pruneEveryMs) {
      this.lastPrune = now
      const pruned = await kind.prune(this.jobs, now)
      if (pruned > 0) this.o.log(`${kind.label}: ${pruned} old record(s) removed`)
    }
    const requeued = await this.jobs.requeueExpired(now)
    if (requeued > 0) this.o.log(`${kind.label}: ${requeued} job(s) whose claim ran out queued again`)

    let nextProbeAt = Infinity
    if (gate) {
      const probeAt = () => (this.online ? this.lastContactAt + gate.onlineProbeMs : this.lastProbeAt + gate.offlineProbeMs)
      if (this.probeDue || now >= probeAt()) await this.runProbe(gate)
      if (!this.running) return 0
      now = this.o.now()
      nextProbeAt = probeAt()
      if (!this.online) return Math.max(1, nextProbeAt - now)
      if (now < this.holdUntil) return Math.max(1, Math.min(this.holdUntil, nextProbeAt) - now)
    }

    const claimed = await this.o.db.transaction((tx) => new JobRepository(tx, kind.kind).claimNext(this.owner, now, now + timing.claimMs))
    if (!claimed) return Math.max(1, Math.min((await this.jobs.nextDueAt()) ?? Infinity, nextProbeAt) - now)
    this.o.changed?.()
    await this.attempt(claimed)
    this.o.changed?.()
    return 0
  }

  private async runProbe(gate: Gate): Promise<void> {
    const signal = AbortSignal.any([this.stopController.signal, AbortSignal.timeout(gate.probeTimeoutMs)])
    let ok: boolean
    try {
      ok = (await raceAbort(invoke(() => gate.probe(signal)), signal)) === true
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
        // Back online: what failed only for want of a connection goes first, without waiting out a
        // backoff that was about the network, not about the servers.
        const due = await this.jobs.makeDue(now, gate.connectivityCodes)
        this.holdUntil = 0
        this.consecutiveFailures = 0
        if (this.saidOffline) this.o.log(`${this.o.kind.label}: online again; ${due} job(s) due now`)
      }
      this.failedProbes = 0
      this.saidOffline = false
    } else {
      // The first probe can race the servers' own start: "offline" is said at once after being
      // online, else from the second failure in a row.
      this.failedProbes++
      if (!this.saidOffline && (was === true || this.failedProbes >= 2)) {
        this.saidOffline = true
        this.o.log(`${this.o.kind.label}: offline (health probe failed)`)
      }
    }
    if (was !== ok) this.o.changed?.()
  }

  /** Keeps the claim while the send runs; `lost` is aborted when another runner has the job now. */
  private holdClaim(id: string, lost: AbortController): () => void {
    const every = Math.max(1, Math.floor(this.o.timing.claimMs / 3))
    let timer: NodeJS.Timeout | undefined
    let held = true
    const renew = async () => {
      // A renewal the database did not answer is tried again next time, well within the claim.
      const still = await this.jobs.renew(id, this.owner, this.o.now() + this.o.timing.claimMs).catch(() => true)
      if (!still) lost.abort(new Error('claim lost'))
      else if (held) timer = setTimeout(() => void renew(), every)
    }
    timer = setTimeout(() => void renew(), every)
    return () => {
      held = false
      clearTimeout(timer)
    }
  }

  private async attempt(claimed: ClaimedJob): Promise<void> {
    const { kind, timing } = this.o
    const label = `${kind.label}: ${claimed.id}`
    let data: T
    try {
      data = kind.open(claimed)
    } catch {
      await this.jobs.park(claimed.id, this.owner, kind.unreadable, this.o.now())
      this.o.log(`${label} unreadable, needs attention`)
      return
    }
    if (kind.maxAge && this.o.now() - claimed.createdAt > kind.maxAge.ms) {
      await this.jobs.park(claimed.id, this.owner, kind.maxAge.error, this.o.now())
      this.o.log(`${label} too old, needs attention`)
      return
    }
    const lost = new AbortController()
    const release = this.holdClaim(claimed.id, lost)
    const timeout = AbortSignal.timeout(timing.deliveryTimeoutMs)
    const signal = AbortSignal.any([this.stopController.signal, lost.signal, timeout])
    try {
      await raceAbort(invoke(() => kind.send(data, claimed, signal)), signal)
      release()
      const now = this.o.now()
      this.consecutiveFailures = 0
      this.lastContactAt = now
      if (await this.jobs.markDelivered(claimed.id, this.owner, now)) this.o.log(`${label} delivered (attempt ${claimed.attempts})`)
      else this.o.log(`${label} sent, but its claim had been taken over`)
    } catch (error) {
      release()
      const now = this.o.now()
      if (this.stopController.signal.aborted) {
        await this.jobs.release(claimed.id, this.owner, now)
        this.o.log(`${label} released (runner stopped)`)
        return
      }
      if (lost.signal.aborted) {
        this.o.log(`${label} abandoned: its claim was taken over`)
        return
      }
      const verdict: Verdict = timeout.aborted ? { action: 'retry', connectivity: true, error: kind.timedOut(timing.deliveryTimeoutMs) } : kind.classify(error, data)
      if (verdict.action === 'park') {
        await this.jobs.park(claimed.id, this.owner, verdict.error, now)
        this.o.log(`${label} needs attention (${verdict.error.code})`)
        return
      }
      const delay = fullJitter(claimed.attempts, timing.backoff, this.o.random)
      if (this.o.gate) {
        this.consecutiveFailures++
        this.holdUntil = now + fullJitter(this.consecutiveFailures, timing.backoff, this.o.random)
        if (verdict.connectivity) this.probeDue = true
      }
      await this.jobs.markRetry(claimed.id, this.owner, verdict.error, now + delay, now)
      this.o.log(`${label} attempt ${claimed.attempts} failed (${verdict.error.code}); retry in ${delay} ms`)
    }
  }

  /** Resolves passNow() callers whose request came before the step that just went idle. */
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

import { spawn, type ChildProcess } from 'node:child_process'
import { performance } from 'node:perf_hooks'
import { createInterface } from 'node:readline'
import { Pool } from 'undici'
import { projectRoot, tsxArgs } from '../../support/process'
import type { FloodKind, FloodTarget } from './hostile-flooders'
import { latency, type Latency } from './stats'

export interface FloodRequest {
  method: 'GET' | 'POST'
  path: string
  headers?: Record<string, string>
  body?: Buffer | string
}

/** One kind of hostile traffic: `concurrency` callers sending `request(i)` back to back. */
export interface Flooder {
  kind: string
  concurrency: number
  request(i: number): FloodRequest
}

/** How a kind of flood was answered: counts by outcome ('HTTP 401', 'UND_ERR_SOCKET', ...). */
export interface Tally {
  sent: number
  outcomes: Map<string, number>
  /** 5xx answers other than 503: the engine failed instead of refusing. */
  serverErrors: string[]
  /** 503 answers without a Retry-After header. */
  unhintedRefusals: number
}

export interface PhaseResult {
  legit: Latency
  /** Legitimate calls that failed, by reason: under a flood they must still be served. */
  legitFailures: Map<string, number>
  flood: Map<string, Tally>
}

/** Requests still in flight when a phase ends are cut (their connections closed), not waited for. */
export const CUT = 'cut at phase end'

const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1)

/**
 * Starts every flooder on its own connections, sending back to back until stop(), which cuts the
 * requests still in flight and resolves with how each kind was answered. Runs in the flood child
 * process (flood-child.ts), never beside the timed caller.
 */
export function startFlooders(url: string, flooders: Flooder[]): { stop(): Promise<Map<string, Tally>> } {
  let ended = false
  const tallies = new Map<string, Tally>()
  const running = flooders.map((flooder) => {
    const tally: Tally = { sent: 0, outcomes: new Map(), serverErrors: [], unhintedRefusals: 0 }
    tallies.set(flooder.kind, tally)
    const pool = new Pool(url, { connections: flooder.concurrency, pipelining: 1 })
    const callers = Array.from({ length: flooder.concurrency }, async (_, caller) => {
      for (let i = caller; !ended; i += flooder.concurrency) {
        const request = flooder.request(i)
        tally.sent++
        try {
          const reply = await pool.request({ method: request.method, path: request.path, headers: request.headers, body: request.body })
          const text = await reply.body.text()
          bump(tally.outcomes, `HTTP ${reply.statusCode}`)
          if (reply.statusCode >= 500 && reply.statusCode !== 503) tally.serverErrors.push(`${request.method} ${request.path.slice(0, 80)} -> ${reply.statusCode}: ${text.slice(0, 200)}`)
          if (reply.statusCode === 503 && reply.headers['retry-after'] === undefined) tally.unhintedRefusals++
        } catch (error) {
          bump(tally.outcomes, ended ? CUT : ((error as { code?: string }).code ?? (error as Error).name))
        }
      }
    })
    return { pool, callers }
  })
  return {
    async stop() {
      ended = true
      await Promise.all(running.map(({ pool }) => pool.destroy())) // rejects what is still in flight
      await Promise.all(running.flatMap(({ callers }) => callers))
      return tallies
    },
  }
}

/** Tallies as one JSON value (Maps as entry lists), for the flood child's stdout. */
export function talliesToJson(tallies: Map<string, Tally>): string {
  return JSON.stringify([...tallies].map(([kind, tally]) => [kind, { ...tally, outcomes: [...tally.outcomes] }]))
}

function talliesFromJson(text: string): Map<string, Tally> {
  const entries = JSON.parse(text) as Array<[string, Omit<Tally, 'outcomes'> & { outcomes: Array<[string, number]> }]>
  return new Map(entries.map(([kind, tally]) => [kind, { ...tally, outcomes: new Map(tally.outcomes) }]))
}

/** What the flood child is told: the engine, and every kind it will be asked for (their payloads are made up front). */
export interface FloodChildConfig extends FloodTarget {
  kinds: FloodKind[]
}

/**
 * The flood clients in a process of their own (flood-child.ts), so that making and sending 30 MB
 * bodies and reading the replies never delays the timed caller's event loop: the caller's p99 is
 * then the engine's, not the benchmark's. One child serves a section's phases (its payloads are
 * made once, before the first phase, and the phases follow each other as closely as before).
 *
 * Protocol, one line each: the child prints `ready` once its payloads are made; for each phase the
 * parent writes `{"kinds":[...]}`, the child prints `flooding` once its clients are sending, the
 * parent writes `stop` when its timed calls are done, the child prints `tally <json>`. If stdin
 * closes (the parent is gone), the child stops and exits; the parent kills it when it exits itself.
 */
export interface FloodProcess {
  pid: number
  /** Starts a flood of `kinds`; resolves once the child says it is flooding. */
  start(kinds: FloodKind[]): Promise<void>
  /** Ends the flood and resolves with the child's tallies. */
  finish(): Promise<Map<string, Tally>>
  /** Set once the child has exited (a crash mid-phase: the phase stops and fails). */
  exited(): boolean
  /** Ends the child (idempotent); waits for it to exit. */
  close(): Promise<void>
}

const CHILD = 'test/bench/lib/flood-child.ts'

export async function startFloodProcess(config: FloodChildConfig, readyTimeoutMs = 60_000): Promise<FloodProcess> {
  const [command, args] = tsxArgs(CHILD, [JSON.stringify(config)])
  const child: ChildProcess = spawn(command, args, { cwd: projectRoot, stdio: ['pipe', 'pipe', 'pipe'] })
  const killOnExit = () => child.kill('SIGKILL')
  process.once('exit', killOnExit) // run.ts ends with process.exit(): the child must not outlive it
  const output: string[] = [] // stdout and stderr, for a crash report
  const lines: string[] = [] // protocol lines not yet read
  let waiting: ((line: string | undefined) => void) | undefined
  let exitCode: string | undefined
  const exit = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exitCode = signal ?? String(code)
      process.off('exit', killOnExit)
      waiting?.(undefined)
      resolve()
    }),
  )
  child.stdin!.on('error', () => {}) // EPIPE after a crash: reported through the exit instead
  createInterface({ input: child.stderr! }).on('line', (line) => output.push(line))
  createInterface({ input: child.stdout! }).on('line', (line) => {
    output.push(line)
    if (!/^(ready|flooding|tally )/.test(line)) return
    if (waiting) waiting(line)
    else lines.push(line)
  })
  const failure = (what: string) => new Error(`flood child (pid ${child.pid}) ${what}:\n${output.slice(-40).join('\n')}`)
  const next = (expected: RegExp, timeoutMs: number) =>
    new Promise<string>((resolve, reject) => {
      const take = (line: string | undefined) => {
        waiting = undefined
        clearTimeout(timer)
        if (line === undefined) reject(failure(`exited (${exitCode}) while the bench waited for ${expected}`))
        else if (!expected.test(line)) reject(failure(`printed '${line.slice(0, 80)}' where ${expected} was expected`))
        else resolve(line)
      }
      const timer = setTimeout(() => {
        waiting = undefined
        reject(failure(`printed nothing matching ${expected} within ${timeoutMs} ms`))
      }, timeoutMs)
      if (lines.length > 0) take(lines.shift())
      else if (exitCode !== undefined) take(undefined)
      else waiting = take
    })
  const close = async () => {
    if (exitCode === undefined) {
      child.stdin!.end()
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000)
      await exit
      clearTimeout(killer)
    }
  }
  try {
    await next(/^ready$/, readyTimeoutMs)
  } catch (error) {
    await close()
    throw error
  }
  return {
    pid: child.pid!,
    async start(kinds) {
      child.stdin!.write(`${JSON.stringify({ kinds })}\n`)
      await next(/^flooding$/, 30_000)
    },
    async finish() {
      child.stdin!.write('stop\n')
      return talliesFromJson((await next(/^tally /, 60_000)).slice('tally '.length))
    },
    exited: () => exitCode !== undefined,
    close,
  }
}

/**
 * One phase: a legitimate caller issuing `legit(i)` sequentially (each timed; a throw is a failure)
 * for `durationMs`, while the flood child, if `flood` is given, runs every flooder of `flood.kinds`
 * on its own connections. This process does nothing else during the phase. Flood requests are
 * counted by how they were answered; those still running when the caller's last call returns are
 * cut, so the next phase starts without this one's clients (the engine may still be working off
 * what they sent: that is part of the damage a flood does, and the next phase sees it).
 */
export async function runPhase(durationMs: number, legit: (i: number) => Promise<void>, flood?: { process: FloodProcess; kinds: FloodKind[] }): Promise<PhaseResult> {
  if (flood) await flood.process.start(flood.kinds)
  const deadline = performance.now() + durationMs
  const ms: number[] = []
  const legitFailures = new Map<string, number>()
  for (let i = 0; performance.now() < deadline && !flood?.process.exited(); i++) {
    const started = performance.now()
    try {
      await legit(i)
    } catch (error) {
      bump(legitFailures, (error as Error).message.slice(0, 120))
    }
    ms.push(performance.now() - started)
  }
  const tallies = flood ? await flood.process.finish() : new Map<string, Tally>()
  return { legit: latency(ms), legitFailures, flood: tallies }
}

/** 'HTTP 401 ×1200, cut at phase end ×32' */
export function describeTally(tally: Tally): string {
  const outcomes = [...tally.outcomes].sort((a, b) => b[1] - a[1]).map(([outcome, n]) => `${outcome} ×${n}`)
  return `${tally.sent} sent: ${outcomes.join(', ') || 'none answered'}${tally.unhintedRefusals ? `; ${tally.unhintedRefusals} 503 without Retry-After` : ''}`
}

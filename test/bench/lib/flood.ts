import { performance } from 'node:perf_hooks'
import { Pool } from 'undici'
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
 * One phase: a legitimate caller issuing `legit(i)` sequentially (each timed; a throw is a failure)
 * while every flooder runs on its own connections, all for `durationMs`. Flood requests are counted
 * by how they were answered; those still running at the end are cut, so the next phase starts
 * without this one's clients (the engine may still be working off what they sent: that is part of
 * the damage a flood does, and the next phase sees it).
 */
export async function runPhase(url: string, durationMs: number, legit: (i: number) => Promise<void>, flooders: Flooder[]): Promise<PhaseResult> {
  const deadline = performance.now() + durationMs
  let ended = false
  const flood = new Map<string, Tally>()
  const floods = flooders.map(async (flooder) => {
    const tally: Tally = { sent: 0, outcomes: new Map(), serverErrors: [], unhintedRefusals: 0 }
    flood.set(flooder.kind, tally)
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
    await waitUntil(deadline)
    ended = true
    await pool.destroy() // rejects what is still in flight
    await Promise.all(callers)
  })

  const ms: number[] = []
  const legitFailures = new Map<string, number>()
  for (let i = 0; performance.now() < deadline; i++) {
    const started = performance.now()
    try {
      await legit(i)
    } catch (error) {
      bump(legitFailures, (error as Error).message.slice(0, 120))
    }
    ms.push(performance.now() - started)
  }
  ended = true
  await Promise.all(floods)
  return { legit: latency(ms), legitFailures, flood }
}

function waitUntil(at: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())))
}

/** 'HTTP 401 ×1200, cut at phase end ×32' */
export function describeTally(tally: Tally): string {
  const outcomes = [...tally.outcomes].sort((a, b) => b[1] - a[1]).map(([outcome, n]) => `${outcome} ×${n}`)
  return `${tally.sent} sent: ${outcomes.join(', ') || 'none answered'}${tally.unhintedRefusals ? `; ${tally.unhintedRefusals} 503 without Retry-After` : ''}`
}

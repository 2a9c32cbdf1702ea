import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { request } from 'undici'
import { createDispatch } from '../../electron/services/dispatch'
import { handlersWithoutServers } from '../support/handlers'
import { createWebHost } from '../../electron/host/server'
import { BRIDGE_TOKEN_HEADER } from '../../electron/shared/web-security'
import { projectRoot } from '../support/process'

/**
 * npm run bench [-- --quick]: prints a table and writes bench-results/latest.json. Each figure
 * stands beside a baseline measured in the same run, as a ratio, because the machines are noisy.
 */
const quick = process.argv.includes('--quick')

interface Row {
  name: string
  p50Ms: number
  p95Ms: number
  baseline: string
  baselineP50Ms: number
  ratio: number
}

async function sample(times: number, fn: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < Math.min(50, times); i++) await fn() // warm-up
  const ms: number[] = []
  for (let i = 0; i < times; i++) {
    const start = performance.now()
    await fn()
    ms.push(performance.now() - start)
  }
  ms.sort((a, b) => a - b)
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] ?? 0
  return { p50: at(0.5), p95: at(0.95) }
}

async function bridgeOverhead(iterations: number): Promise<Row> {
  const engineStatus = () => ({ mode: 'embedded' as const, state: 'running' as const, url: null, pid: null, restarts: 0, lastError: null })
  const dispatch = createDispatch(handlersWithoutServers(engineStatus))
  const host = createWebHost({ dispatch })
  const { origin } = await host.listen(0)
  try {
    // The floor for a loopback HTTP round trip: the same host answering with no handler behind it.
    const floor = await sample(iterations, async () => {
      const reply = await request(`${origin}/bridge/getAppInfo`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })
      await reply.body.dump()
    })
    const bridged = await sample(iterations, async () => {
      const reply = await request(`${origin}/bridge/getAppInfo`, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json', [BRIDGE_TOKEN_HEADER]: host.token },
      })
      await reply.body.json()
    })
    return { name: 'bridge call (getAppInfo)', p50Ms: bridged.p50, p95Ms: bridged.p95, baseline: 'refused call (401, same round trip)', baselineP50Ms: floor.p50, ratio: bridged.p50 / floor.p50 }
  } finally {
    await host.close()
  }
}

const rows = [await bridgeOverhead(quick ? 200 : 2000)]
console.table(rows.map((r) => ({ ...r, p50Ms: r.p50Ms.toFixed(3), p95Ms: r.p95Ms.toFixed(3), baselineP50Ms: r.baselineP50Ms.toFixed(3), ratio: r.ratio.toFixed(2) })))
const out = join(projectRoot, 'bench-results')
mkdirSync(out, { recursive: true })
writeFileSync(join(out, 'latest.json'), `${JSON.stringify({ date: new Date().toISOString(), quick, node: process.versions.node, rows }, null, 2)}\n`)
console.log(`wrote ${join(out, 'latest.json')}`)

import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { Pool, request } from 'undici'
import { encodeTemplate } from '../../../electron/engine/bio/template-codec'
import { HUMAN_FACERES } from '../../../electron/engine/face/specs'
import { basic, TEST_CLIENT, TEST_TENANT } from '../../support/engine'
import { row, type BenchRow } from '../lib/report'
import { prng, unitVector } from '../lib/seed'
import type { BenchSection } from '../lib/section'
import { startSite, type SiteProcess } from '../lib/site-process'
import { latency } from '../lib/stats'

const TYPE = `Face:${HUMAN_FACERES.name}`
const NODE_LINE = /^postgres node (\d+) \S+ patroni pid (\d+) postgres pid (\d+) (primary|standby)$/
/** Bounds on waits for states (a failover takes about 10 s, a rejoin about 20 s): beyond them the site is broken. */
const STATE_GIVE_UP_MS = 180_000

interface Node {
  n: number
  patroniPid: number
  postgresPid: number
  role: 'primary' | 'standby'
}

function nodesOf(output: string[]): Node[] {
  const nodes = new Map<number, Node>()
  for (const line of output) {
    const match = NODE_LINE.exec(line)
    if (match) nodes.set(Number(match[1]), { n: Number(match[1]), patroniPid: Number(match[2]), postgresPid: Number(match[3]), role: match[4] as Node['role'] })
  }
  return [...nodes.values()]
}

async function until(what: string, holds: () => Promise<boolean> | boolean, everyMs = 100): Promise<void> {
  const deadline = Date.now() + STATE_GIVE_UP_MS
  while (!(await Promise.resolve(holds()).catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`)
    await sleep(everyMs)
  }
}

/**
 * A database failover on `npm run site -- --ha` (etcd, two PostgreSQL nodes under Patroni, two engines, haproxy).
 * 1. The primary's Patroni and postmaster SIGKILLed (3 rounds, alternating nodes; 1 with --quick):
 *    the time from the kill to the first enrollment acknowledged through the front, its p50 and max;
 *    identify calls through the front that failed meanwhile (any answer but 200 with the right person).
 * 2. Enrollment latency with synchronous replication (synchronous_mode) against asynchronous
 *    (switched off through Patroni's REST API, PATCH /config), the same site, one client.
 */
export const failover: BenchSection = {
  name: 'failover',
  async run({ quick, log }) {
    const folder = mkdtempSync(join(tmpdir(), 'kiosk-bench-failover-'))
    // Root's PostgreSQL nodes (run as postgres) must get through to DATA/ha.
    chmodSync(folder, 0o755)
    const dataDir = join(folder, 'site')
    const random = prng(4747)
    const template = () => encodeTemplate({ plugin: HUMAN_FACERES.name, modelVersion: HUMAN_FACERES.modelVersion, quality: 0.9, vector: unitVector(HUMAN_FACERES.dimensions, random) }).toString('base64')
    let site: SiteProcess | undefined
    let pool: Pool | undefined
    try {
      site = await startSite({
        engines: 2,
        dataDir,
        args: ['--ha', '--client-id', TEST_CLIENT.id, '--client-secret', TEST_CLIENT.secret, '--tenant', TEST_TENANT],
        env: process.env,
      })
      const running = site
      log(`--ha site with 2 engines ready in ${(running.startedMs / 1000).toFixed(1)} s`)
      pool = new Pool(running.url, { connections: 16 })
      const front = pool
      const token = await (async () => {
        const reply = await front.request({ method: 'POST', path: '/v2/oauth2/oauth/token?scope=SCOPE_TENANT_ADMIN&grant_type=client_credentials', headers: { authorization: basic(TEST_CLIENT.id, TEST_CLIENT.secret) } })
        const body = (await reply.body.json()) as { access_token?: string }
        if (!body.access_token) throw new Error(`token: HTTP ${reply.statusCode}`)
        return body.access_token
      })()
      const call = async (path: string, body: unknown): Promise<{ status: number; body: any }> => {
        const reply = await front.request({ method: 'POST', path, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body), headersTimeout: 20_000, bodyTimeout: 20_000 })
        const text = await reply.body.text()
        let parsed: unknown
        try {
          parsed = JSON.parse(text)
        } catch {
          parsed = text
        }
        return { status: reply.statusCode, body: parsed }
      }
      let next = 0
      const enroll = async () => {
        const id = `bench-ha-${next++}`
        const data = template()
        const reply = await call(`/bioengine/persons/${id}/biometrics`, { templateType: TYPE, templateContext: 'desk', template: data })
        return { id, data, status: reply.status }
      }
      const ports = JSON.parse(readFileSync(join(dataDir, 'ha', 'ports.json'), 'utf8')) as { nodes: { rest: number }[] }
      const rest = (n: number) => `http://127.0.0.1:${ports.nodes[n - 1]!.rest}`
      const says = async (n: number, path: string) => {
        try {
          const reply = await request(`${rest(n)}${path}`, { headersTimeout: 2_000, bodyTimeout: 2_000 })
          await reply.body.dump()
          return reply.statusCode === 200
        } catch {
          return false
        }
      }
      const standbyIsSynchronous = async () => {
        const standby = nodesOf(running.output).find((node) => node.role === 'standby')
        return standby !== undefined && (await says(standby.n, '/sync'))
      }

      // Seeds for identify.
      const seeds: { id: string; data: string }[] = []
      while (seeds.length < 20) {
        const done = await enroll()
        if (done.status === 201) seeds.push(done)
      }

      // 2. Enrollment, synchronous against asynchronous replication.
      const enrollments = quick ? 20 : 100
      const timedEnrollments = async () => {
        const ms: number[] = []
        for (let i = 0; i < enrollments; i++) {
          const started = performance.now()
          const done = await enroll()
          if (done.status !== 201) throw new Error(`enrollment: HTTP ${done.status}`)
          ms.push(performance.now() - started)
        }
        return latency(ms)
      }
      const setSynchronous = async (on: boolean) => {
        const primary = nodesOf(running.output).find((node) => node.role === 'primary')!
        const reply = await request(`${rest(primary.n)}/config`, { method: 'PATCH', body: JSON.stringify({ synchronous_mode: on }), headers: { 'content-type': 'application/json' } })
        await reply.body.dump()
        if (reply.statusCode !== 200) throw new Error(`PATCH /config: HTTP ${reply.statusCode}`)
        await until(`the standby ${on ? 'is' : 'is no longer'} synchronous`, async () => (await standbyIsSynchronous()) === on)
      }
      await until('the standby is synchronous', standbyIsSynchronous)
      const synchronous = await timedEnrollments()
      await setSynchronous(false)
      const asynchronous = await timedEnrollments()
      await setSynchronous(true)
      log(`enrollment p50: synchronous ${synchronous.p50.toFixed(1)} ms, asynchronous ${asynchronous.p50.toFixed(1)} ms`)

      // 1. The primary lost, round after round.
      const rounds = quick ? 1 : 3
      const toFirstWrite: number[] = []
      let identifyFailures = 0
      let identifyCalls = 0
      for (let round = 0; round < rounds; round++) {
        await until('the standby is synchronous', standbyIsSynchronous)
        const nodes = nodesOf(running.output)
        const primary = nodes.find((node) => node.role === 'primary')!
        const standby = nodes.find((node) => node.role === 'standby')!
        let failing = true
        const identifiers = Array.from({ length: 2 }, async (_, loop) => {
          for (let i = loop; failing; i += 2) {
            const seed = seeds[i % seeds.length]!
            identifyCalls++
            const reply = await call('/bioengine/identify', { identifyInputs: [{ templateType: TYPE, template: seed.data }] }).catch(() => ({ status: 0, body: undefined }))
            const best = reply.body?.allIdentifyResults?.[0]?.identifyResults?.[0]?.identifyMatchResults?.[0]?.personId
            if (reply.status !== 200 || best !== seed.id) {
              identifyFailures++
              await sleep(100)
            }
          }
        })
        const from = running.output.length
        const killed = performance.now()
        process.kill(primary.patroniPid, 'SIGKILL')
        process.kill(primary.postgresPid, 'SIGKILL')
        try {
          // The first enrollment acknowledged after the kill; a client tries again 250 ms after each refusal.
          for (;;) {
            const done = await enroll().catch(() => ({ status: 0 }))
            if (done.status === 201) break
            if (performance.now() - killed > STATE_GIVE_UP_MS) throw new Error('no enrollment acknowledged after the primary was lost')
            await sleep(250)
          }
        } finally {
          failing = false
          await Promise.all(identifiers)
        }
        toFirstWrite.push(performance.now() - killed)
        log(`round ${round + 1}: node ${primary.n} lost, node ${standby.n} primary; first acknowledged write after ${(toFirstWrite.at(-1)! / 1000).toFixed(1)} s; identify failures so far ${identifyFailures} of ${identifyCalls}`)
        // The next round needs two nodes again; after the last, the site is stopped anyway.
        if (round + 1 < rounds) await until(`node ${primary.n} back as a standby`, () => running.output.slice(from).some((line) => new RegExp(`^postgres node ${primary.n} .* standby$`).test(line)))
      }
      const write = latency(toFirstWrite)
      const max = Math.max(...toFirstWrite)
      return [
        row('failover', 'primary killed → first acknowledged write, p50', write.p50, 'ms', null, { target: { text: 'p50 ≤ 30 s', met: write.p50 <= 30_000 }, note: `${rounds} round(s), alternating nodes` }),
        row('failover', 'primary killed → first acknowledged write, max', max, 'ms', null),
        row('failover', 'identify failures during failover', identifyFailures, 'searches', null, { target: { text: '0', met: identifyFailures === 0 }, note: `of ${identifyCalls} identify calls through the front, from each kill to the first acknowledged write` }),
        row('failover', 'enrollment p50, synchronous replication', synchronous.p50, 'ms', { name: 'asynchronous', value: asynchronous.p50, unit: 'ms' }, { target: { text: '≤ 1.3x', met: synchronous.p50 <= 1.3 * asynchronous.p50 }, note: `${enrollments} enrollments each, one client` }),
      ] satisfies BenchRow[]
    } finally {
      await pool?.close()
      await site?.stop()
      rmSync(folder, { recursive: true, force: true })
    }
  },
}

import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { Pool, request } from 'undici'
import { encodeTemplate } from '../../../electron/engine/bio/template-codec'
import type { FacePlugin } from '../../../electron/engine/face'
import { HUMAN_FACERES } from '../../../electron/engine/face/specs'
import { createEngine } from '../../../electron/engine/server'
import { enrollVisitor } from '../../../electron/services/workflows/enroll-visitor'
import { testBackend } from '../../support/backend'
import { basic, startTestEngine, TEST_CLIENT, TEST_TENANT, type TestEngine } from '../../support/engine'
import { emptyDatabase, startTestPostgres } from '../../support/postgres'
import { enrollmentSampleSets, HUMAN_TEMPLATE_TYPE, startHumanPlugin } from '../lib/faces'
import { runLoad, type LoadResult } from '../lib/load'
import { row, type BenchRow } from '../lib/report'
import { probeNear, prng, seededPersonId, seededStore, seedTemplates, unitVector } from '../lib/seed'
import type { BenchSection } from '../lib/section'
import { cpuMs, startSite, treeCpuMs, type SiteProcess } from '../lib/site-process'
import { latency, timePair } from '../lib/stats'

const CONNECTIONS = 16
const CORES = availableParallelism()
/** Samples per enrollment, as in the enrollment section. */
const SAMPLES = 3
/** An enrollment not identifiable at the other engine by then is a broken site, not a slow one. */
const PROPAGATION_GIVE_UP_MS = 10_000

interface IdentifyReply {
  allIdentifyResults: Array<{ identifyResults: Array<{ identifyMatchResults: Array<{ personId: string }> }> }>
}

const topHit = (reply: IdentifyReply) => reply.allIdentifyResults[0]?.identifyResults[0]?.identifyMatchResults[0]?.personId

/** A bearer token for the test client (one signing key in the database: good at every engine). */
async function tokenFrom(pool: Pool): Promise<string> {
  const reply = await pool.request({
    method: 'POST',
    path: '/v2/oauth2/oauth/token?scope=SCOPE_TENANT_ADMIN&grant_type=client_credentials',
    headers: { authorization: basic(TEST_CLIENT.id, TEST_CLIENT.secret) },
  })
  const body = (await reply.body.json()) as { access_token?: string }
  if (reply.statusCode !== 200 || !body.access_token) throw new Error(`token: HTTP ${reply.statusCode}`)
  return body.access_token
}

/** One JSON POST; throws on a non-2xx status so a failure is never timed as a success. */
async function post<T>(pool: Pool, token: string, path: string, body: string): Promise<{ status: number; body: T }> {
  const reply = await pool.request({ method: 'POST', path, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body })
  const text = await reply.body.text()
  if (reply.statusCode >= 300) throw new Error(`${path}: HTTP ${reply.statusCode}: ${text.slice(0, 300)}`)
  return { status: reply.statusCode, body: JSON.parse(text) as T }
}

/**
 * A site (npm run site: haproxy in front of engine processes on one PostgreSQL database):
 * 1. an enrollment answered by engine 1, identifiable at engine 2, against identifiable at engine 1;
 * 2. identify throughput through the front with 2 engines against 1 engine (the same store);
 * 3. an engine's start to ready on PostgreSQL against SQLite, the same number of templates;
 * 4. the kiosk's enroll-visitor workflow against an engine on PostgreSQL against one on SQLite.
 * Every process and the cluster are stopped by pid in finally blocks, even on error.
 */
export const site: BenchSection = {
  name: 'site',
  async run({ quick, log }) {
    const spec = HUMAN_FACERES
    const dims = spec.dimensions
    const siteN = quick ? 5_000 : 50_000
    // Quick: the site's store as it is, and the SQLite store the identify and load sections seed.
    const startN = quick ? 5_000 : 100_000
    const label = (n: number) => `${n / 1000}k`
    const seconds = quick ? 1 : 20
    const rows: BenchRow[] = []
    const cleanups: Array<() => Promise<void> | void> = []
    const previousPassfile = process.env.PGPASSFILE
    try {
      // The site's folder: seeding through seed.ts makes DIR/template.key (32 raw bytes, 0600),
      // which the site's template-key.ts then hands to its engines as ENGINE_TEMPLATE_KEY.
      const siteDir = mkdtempSync(join(tmpdir(), 'kiosk-bench-site-'))
      cleanups.push(() => rmSync(siteDir, { recursive: true, force: true }))
      let started = performance.now()
      const cluster = await startTestPostgres()
      cleanups.push(() => cluster.close())
      // pg (the seeding here, the in-process engines below) reads the password as a site's engines do.
      process.env.PGPASSFILE = cluster.passfile
      log(`PostgreSQL 15 cluster up in ${((performance.now() - started) / 1000).toFixed(1)} s (pid ${cluster.pid})`)

      // Room for the start-up part's rows too: the same database grows to startN later.
      const vectors = new Float32Array(startN * dims)
      started = performance.now()
      await seedTemplates(siteDir, spec, 0, siteN, vectors, cluster.url)
      log(`seeded ${siteN} templates into PostgreSQL in ${((performance.now() - started) / 1000).toFixed(1)} s`)

      const siteEnv: NodeJS.ProcessEnv = { ...process.env, PGPASSFILE: cluster.passfile, ENGINE_FACE_THREADS: '1' }
      delete siteEnv.PGPASSWORD
      delete siteEnv.ENGINE_TEMPLATE_KEY
      const siteArgs = ['--database', cluster.url, '--client-id', TEST_CLIENT.id, '--client-secret', TEST_CLIENT.secret, '--tenant', TEST_TENANT]

      // 2, and 1 on the 2-engine site. The same probes for both runs.
      const random = prng(41)
      const targets = Array.from({ length: 64 }, () => Math.floor(random() * siteN))
      const bodies = targets.map((target) => JSON.stringify({ identifyInputs: [{ templateType: HUMAN_TEMPLATE_TYPE, template: probeNear(vectors, spec, target, random) }] }))
      const front: Record<number, FrontLoad> = {}
      let propagation: Propagation | undefined
      for (const engines of [1, 2]) {
        const running = await startSite({ engines, dataDir: siteDir, args: siteArgs, env: siteEnv })
        try {
          log(`site with ${engines} engine(s) ready in ${(running.startedMs / 1000).toFixed(1)} s (${running.url}, engines ${running.engines.map((e) => `${e.url} pid ${e.pid}`).join(', ')}, haproxy pid ${running.haproxyPid})`)
          const measured = await loadThroughFront(running, cluster.pid, seconds, (i) => ({ body: bodies[i % bodies.length]!, expected: seededPersonId(targets[i % targets.length]!) }))
          front[engines] = measured
          log(`${engines} engine(s) through the front: ${describe(measured.result)}; CPU (of ${CORES} cores) ${measured.cpu}`)
          if (engines === 2) {
            propagation = await measurePropagation(running, quick ? 10 : 40, log)
          }
        } finally {
          await running.stop()
        }
      }
      const one = front[1]!
      const two = front[2]!
      const p = propagation!
      const enrolledAtSite = p.enrolled

      const propagated = latency(p.remote)
      const local = latency(p.local)
      log(`propagation: p50 ${propagated.p50.toFixed(1)} ms, p99 ${propagated.p99.toFixed(1)} ms; at engine 1 itself p50 ${local.p50.toFixed(1)} ms, p99 ${local.p99.toFixed(1)} ms`)
      rows.push(
        row('site', 'change propagation p50: enroll answered by engine 1 → identifiable at engine 2', propagated.p50, 'ms', { name: 'identifiable at engine 1 itself (one identify), interleaved, p50', value: local.p50, unit: 'ms' }, {
          note: `${propagated.count} enrollments (template input) over ${label(siteN)} templates; engine 2 polled with identify back to back, ${p.polls.toFixed(1)} identify calls per enrollment on average`,
        }),
        row('site', 'change propagation p99', propagated.p99, 'ms', { name: 'identifiable at engine 1 itself, p99', value: local.p99, unit: 'ms' }, {
          target: { text: 'p99 <= 1 s', met: propagated.p99 <= 1000 },
          note: `max ${Math.max(...p.remote).toFixed(1)} ms; change log + LISTEN/NOTIFY`,
        }),
        row('site', `identify through the front (haproxy), ${CONNECTIONS} connections × ${seconds} s, 2 engines (N=${label(siteN)})`, two.result.throughput, 'req/s', { name: '1 engine, same front, store and probes', value: one.result.throughput, unit: 'req/s' }, {
          // Small stores: the scan is short, and HTTP, haproxy and this client dominate (load.ts does the same for memory).
          ...(quick ? {} : { target: { text: '>= 1.5x one engine', met: two.result.throughput >= 1.5 * one.result.throughput } }),
          note: `template probes; p99 ${two.result.latency.p99.toFixed(1)} ms vs ${one.result.latency.p99.toFixed(1)} ms; errors ${two.result.errors} / ${one.result.errors}; CPU (of ${CORES} cores) 2 engines: ${two.cpu}; 1 engine: ${one.cpu}`,
        }),
      )

      // 3. Start to ready: one engine in this process, plugins loaded once, from each store.
      const plugin = await startHumanPlugin()
      cleanups.push(() => plugin.close())
      // Engines close their plugins; this one is shared by every engine below and closed last.
      const shared: FacePlugin = { ...plugin, close: async () => {} }
      if (startN > siteN) {
        started = performance.now()
        await seedTemplates(siteDir, spec, siteN, startN, vectors, cluster.url)
        log(`seeded PostgreSQL up to ${startN} templates in ${((performance.now() - started) / 1000).toFixed(1)} s`)
      }
      started = performance.now()
      const sqlite = await seededStore(spec, startN)
      log(`SQLite store with ${startN} templates ready in ${((performance.now() - started) / 1000).toFixed(1)} s`)
      const pgDir = mkdtempSync(join(tmpdir(), 'kiosk-bench-site-engine-'))
      cleanups.push(() => rmSync(pgDir, { recursive: true, force: true }))
      // The key the PostgreSQL templates were sealed with (the site's).
      copyFileSync(join(siteDir, 'template.key'), join(pgDir, 'template.key'))
      const fromPostgres = () => startToReady(shared, pgDir, cluster.url, startN + enrolledAtSite)
      // (The store the identify and load sections share: it may have grown past startN in this run.)
      const fromSqlite = () => startToReady(shared, sqlite.dataDir, undefined, sqlite.count)
      // One untimed start of each first (JIT, OS file cache, PostgreSQL's buffers), then interleaved.
      await fromSqlite()
      await fromPostgres()
      const starts = quick ? 2 : 3
      const pgMs: number[] = []
      const sqliteMs: number[] = []
      for (let i = 0; i < starts; i++) {
        sqliteMs.push(await fromSqlite())
        pgMs.push(await fromPostgres())
      }
      const pgStart = latency(pgMs).p50
      const sqliteStart = latency(sqliteMs).p50
      log(`start to ready with ${label(startN)}: PostgreSQL ${pgMs.map((ms) => ms.toFixed(0)).join(', ')} ms; SQLite ${sqliteMs.map((ms) => ms.toFixed(0)).join(', ')} ms`)
      rows.push(
        row('site', `engine start to ready, N=${label(startN)}, PostgreSQL (p50 of ${starts})`, pgStart, 'ms', { name: `the same engine from SQLite, N=${label(startN)}, interleaved, p50`, value: sqliteStart, unit: 'ms' }, {
          ...(quick ? {} : { target: { text: '<= 2x SQLite', met: pgStart <= 2 * sqliteStart } }),
          note: `createEngine in this process (face plugin loaded once) to /health/ready 200; PostgreSQL also holds the ${enrolledAtSite} enrollments of the propagation run`,
        }),
      )

      // 4. The enroll-visitor workflow, on an empty PostgreSQL database and an empty SQLite one.
      await emptyDatabase(cluster.url)
      const engines: TestEngine[] = []
      const backends: Array<ReturnType<typeof testBackend>> = []
      try {
        engines.push(await startTestEngine([shared]))
        engines.push(await startTestEngine([shared], mkdtempSync(join(tmpdir(), 'kiosk-bench-site-pg-')), { databaseUrl: cluster.url }))
        const [onSqlite, onPostgres] = engines.map((engine) => testBackend(engine.url)) as [ReturnType<typeof testBackend>, ReturnType<typeof testBackend>]
        backends.push(onSqlite, onPostgres)
        const sets = await enrollmentSampleSets(SAMPLES)
        const workflow = (backend: ReturnType<typeof testBackend>, tag: string) => async (i: number) => {
          const request = { userId: `bench-site-${tag}-${i}@visitor.example`, samples: sets[i % sets.length]!, templateType: HUMAN_TEMPLATE_TYPE, templateContext: 'bench' }
          const result = await enrollVisitor(backend, request)
          if (!result.created || result.enrollmentStatus !== 'ENROLLED') throw new Error(`enrollVisitor on ${tag}: ${JSON.stringify(result)}`)
        }
        const times = quick ? 3 : 10
        const [postgres, baseline] = await timePair(times, workflow(onPostgres, 'postgres'), workflow(onSqlite, 'sqlite'), quick ? 1 : 2)
        log(`enroll-visitor workflow p50: PostgreSQL ${postgres.p50.toFixed(0)} ms, SQLite ${baseline.p50.toFixed(0)} ms`)
        rows.push(
          row('site', `enroll-visitor workflow p50 (${SAMPLES} samples), engine on PostgreSQL`, postgres.p50, 'ms', { name: 'the same workflow, engine on SQLite, interleaved, p50', value: baseline.p50, unit: 'ms' }, {
            target: { text: '<= 1.3x SQLite', met: postgres.p50 <= 1.3 * baseline.p50 },
            note: `${times} visitors each; both engines in this process sharing one face plugin (2 workers); p95 ${postgres.p95.toFixed(0)} ms vs ${baseline.p95.toFixed(0)} ms`,
          }),
        )
      } finally {
        for (const backend of backends) await backend.close()
        for (const engine of engines) await engine.close()
      }
      return rows
    } finally {
      for (const cleanup of cleanups.reverse()) {
        try {
          await cleanup()
        } catch (error) {
          log(`cleanup failed: ${(error as Error).message}`)
        }
      }
      if (previousPassfile === undefined) delete process.env.PGPASSFILE
      else process.env.PGPASSFILE = previousPassfile
    }
  },
}

interface FrontLoad {
  result: LoadResult
  /** Where the CPU went during the run, as shares of the machine's cores. */
  cpu: string
}

/**
 * 16 keep-alive connections to the front, identify back to back for `seconds`, after a second's
 * warm-up. A wrong top hit stops the benchmark; HTTP errors are counted.
 */
async function loadThroughFront(running: SiteProcess, postgresPid: number, seconds: number, probe: (i: number) => { body: string; expected: string }): Promise<FrontLoad> {
  const pool = new Pool(running.url, { connections: CONNECTIONS, pipelining: 1 })
  try {
    const token = await tokenFrom(pool)
    let wrong: string | undefined
    const once = async (i: number) => {
      const { body, expected } = probe(i)
      const reply = await post<IdentifyReply>(pool, token, '/bioengine/identify', body)
      const top = topHit(reply.body)
      if (top !== expected) {
        wrong ??= `identify through the front returned ${top} for a probe of ${expected}`
        throw new Error(wrong)
      }
    }
    const warm = await runLoad(1000, CONNECTIONS, once)
    if (warm.errors > 0) throw new Error(`identify through the front failed: ${warm.firstError}`)
    const pids = { engines: running.engines.map((e) => e.pid), haproxy: [running.haproxyPid] }
    const cpuOf = (list: number[]) => list.reduce((sum, pid) => sum + cpuMs(pid), 0)
    const before = { engines: cpuOf(pids.engines), haproxy: cpuOf(pids.haproxy), postgres: treeCpuMs(postgresPid), bench: process.cpuUsage() }
    const at = performance.now()
    const result = await runLoad(seconds * 1000, CONNECTIONS, once)
    const wallMs = performance.now() - at
    if (wrong) throw new Error(wrong)
    const bench = process.cpuUsage(before.bench)
    const share = (ms: number) => `${((100 * ms) / (CORES * wallMs)).toFixed(0)}%`
    const cpu = [
      `engines ${share(cpuOf(pids.engines) - before.engines)}`,
      `PostgreSQL ${share(treeCpuMs(postgresPid) - before.postgres)}`,
      `haproxy ${share(cpuOf(pids.haproxy) - before.haproxy)}`,
      `bench client ${share((bench.user + bench.system) / 1000)}`,
    ].join(', ')
    return { result, cpu }
  } finally {
    await pool.close()
  }
}

interface Propagation {
  /** Enroll answered by engine 1 → engine 2's identify has the person on top, ms. */
  remote: number[]
  /** Enroll answered by engine 1 → engine 1's identify has the person on top (first call), ms. */
  local: number[]
  /** Identify calls per enrollment at engine 2, on average. */
  polls: number
  /** Persons enrolled at the site (warm-up included). */
  enrolled: number
}

/**
 * Enrollments by template at engine 1, each followed by identify of the same template, polled back
 * to back at engine 2 directly (its own port, past haproxy); interleaved with the baseline: the same
 * at engine 1, which must find the person at once. Both timed from the enroll's answer.
 */
async function measurePropagation(running: SiteProcess, times: number, log: (line: string) => void): Promise<Propagation> {
  const [first, second] = running.engines
  const one = new Pool(first!.url, { connections: 1, pipelining: 1 })
  const two = new Pool(second!.url, { connections: 1, pipelining: 1 })
  try {
    const token = await tokenFrom(one)
    const random = prng(43)
    let enrolled = 0
    let polls = 0
    const enrollThenFind = async (at: Pool, tag: string, i: number, attempts: number): Promise<number> => {
      const personId = `bench-site-${tag}-${i}`
      const template = encodeTemplate({ plugin: HUMAN_FACERES.name, modelVersion: HUMAN_FACERES.modelVersion, quality: 0.9, vector: unitVector(HUMAN_FACERES.dimensions, random) }).toString('base64')
      const enroll = JSON.stringify({ templateType: HUMAN_TEMPLATE_TYPE, templateContext: 'bench', template })
      const identify = JSON.stringify({ identifyInputs: [{ templateType: HUMAN_TEMPLATE_TYPE, template }] })
      const enrolledReply = await post(one, token, `/bioengine/persons/${personId}/biometrics`, enroll)
      if (enrolledReply.status !== 201) throw new Error(`enroll at engine 1 answered ${enrolledReply.status}`)
      enrolled++
      const answered = performance.now()
      for (let attempt = 1; ; attempt++) {
        const top = topHit((await post<IdentifyReply>(at, token, '/bioengine/identify', identify)).body)
        const now = performance.now()
        if (top === personId) {
          if (at === two) polls += attempt
          return now - answered
        }
        if (attempt >= attempts || now - answered > PROPAGATION_GIVE_UP_MS) {
          throw new Error(`${personId}, enrolled at engine 1, not identifiable at engine ${at === one ? 1 : 2} after ${attempt} identify call(s) over ${(now - answered).toFixed(0)} ms (top hit ${top})`)
        }
      }
    }
    const remote: number[] = []
    const local: number[] = []
    const warmup = 2
    for (let i = -warmup; i < times; i++) {
      const l = await enrollThenFind(one, 'local', i + warmup, 1)
      const r = await enrollThenFind(two, 'remote', i + warmup, Number.POSITIVE_INFINITY)
      if (i >= 0) {
        local.push(l)
        remote.push(r)
      } else polls = 0
    }
    log(`propagation: ${times} enrollments, ${(polls / times).toFixed(1)} identify calls each at engine 2`)
    return { remote, local, polls: polls / times, enrolled }
  } finally {
    await one.close()
    await two.close()
  }
}

/**
 * One engine in this process on `dataDir` (SQLite) or `databaseUrl`: from the call to createEngine
 * to its /health/ready answering 200 (on PostgreSQL: listening for changes and caught up). The
 * cache must then hold every template, all readable with the data folder's key.
 */
async function startToReady(plugin: FacePlugin, dataDir: string, databaseUrl: string | undefined, expected: number): Promise<number> {
  const started = performance.now()
  const engine = await createEngine({ dataDir, plugins: [plugin], databaseUrl })
  try {
    await engine.app.listen({ host: '127.0.0.1', port: 0 })
    const address = engine.app.server.address()
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/health/ready`
    for (;;) {
      const reply = await request(url)
      await reply.body.dump()
      if (reply.statusCode === 200) break
      if (performance.now() - started > 120_000) throw new Error(`${url} still answers ${reply.statusCode} after 120 s`)
      await sleep(5)
    }
    const ms = performance.now() - started
    const size = engine.ctx.bio.lookup(HUMAN_TEMPLATE_TYPE).cache.size
    const unreadable = engine.ctx.bio.caches.unreadable
    if (size !== expected || unreadable !== 0) throw new Error(`engine on ${databaseUrl ? 'PostgreSQL' : 'SQLite'} loaded ${size} templates (${unreadable} unreadable), expected ${expected}`)
    return ms
  } finally {
    await engine.close()
  }
}

function describe(result: LoadResult): string {
  return `${result.throughput.toFixed(1)} req/s, p50 ${result.latency.p50.toFixed(1)} ms, p99 ${result.latency.p99.toFixed(1)} ms, ${result.errors} errors${result.firstError ? ` (first: ${result.firstError})` : ''}`
}

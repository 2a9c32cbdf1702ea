import { connect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeTemplate } from '../../electron/engine/bio/template-codec'
import { HUMAN_FACERES } from '../../electron/engine/face/specs'
import { openPostgres } from '../../electron/records/sql/postgres'
import { StoreUnavailableError } from '../../electron/records/sql/types'
import { alive, freeLoopbackPort } from '../../electron/site/processes'
import { prng, unitVector } from '../bench/lib/seed'
import { startTestPostgres, type TestPostgres } from '../support/postgres'
import { siteApi, startSite, stopSiteCleanly, type RunningSite, type SiteReply } from '../support/site'
import { eventually, type Polling } from '../support/until'

/**
 * A site's faults, on the real processes: `npm run site` with two engines on a PostgreSQL this
 * suite starts itself (--database), so that it can restart it. Enrollments are template-only
 * (random unit vectors), so the load is the site's and not the face models'. Every wait is on a
 * state (a line, /health/ready, a reply); every loop is bounded. The first test is the store's own
 * (in this process) for what the restart under load first showed: an engine ended by it.
 */
const TYPE = `Face:${HUMAN_FACERES.name}`
const random = prng(2424)
const template = () => encodeTemplate({ plugin: HUMAN_FACERES.name, modelVersion: HUMAN_FACERES.modelVersion, quality: 0.9, vector: unitVector(HUMAN_FACERES.dimensions, random) }).toString('base64')
const ENGINE_1 = /^engine 1 (http:\/\/127\.0\.0\.1:\d+) pid (\d+)$/
/** The kiosk's own default request timeout (Settings: requestTimeoutSeconds): a reply later than this is a hang. */
const KIOSK_TIMEOUT_MS = 20_000

const enrollBody = (data: string) => ({ templateType: TYPE, templateContext: 'desk', template: data })
const identifyBody = (data: string) => ({ identifyInputs: [{ templateType: TYPE, template: data }] })
/** The best candidate of an identify reply, if any. */
const bestOf = (reply: SiteReply): string | undefined => reply.body?.allIdentifyResults?.[0]?.identifyResults?.[0]?.identifyMatchResults?.[0]?.personId

/** Polls through the faults: a probe that fails while a process or the database is down is retried. */
const throughFaults: Polling = { attempts: 300, everyMs: 100, retryErrors: true }

async function readyStatus(engineUrl: string): Promise<number> {
  const reply = await request(`${engineUrl}/health/ready`, { headersTimeout: 5_000, bodyTimeout: 5_000 })
  await reply.body.dump()
  return reply.statusCode
}

describe('a site under faults (two engines, PostgreSQL restarted by the test)', () => {
  let db: TestPostgres
  let site: RunningSite
  let front: ReturnType<typeof siteApi>
  const seeds: { id: string; template: string }[] = []

  beforeAll(async () => {
    db = await startTestPostgres()
    site = await startSite({ engines: 2, database: { url: db.url, passfile: db.passfile } })
    front = siteApi(site.url)
    await front.signIn()
    for (let i = 0; i < 8; i++) {
      const seed = { id: `seed-${i}`, template: template() }
      expect((await front.call('POST', `/bioengine/persons/${seed.id}/biometrics`, enrollBody(seed.template))).status).toBe(201)
      seeds.push(seed)
    }
  }, 300_000)

  afterAll(async () => {
    await front?.close().catch(() => undefined)
    try {
      await stopSiteCleanly(site)
    } finally {
      await db?.close()
    }
  }, 120_000)

  /** The test cluster's password as an engine gets it (PGPASSFILE, read at each new connection), while `work` runs in this process. */
  async function withPassfile(work: () => Promise<void>): Promise<void> {
    const previous = process.env.PGPASSFILE
    process.env.PGPASSFILE = db.passfile
    try {
      await work()
    } finally {
      if (previous === undefined) delete process.env.PGPASSFILE
      else process.env.PGPASSFILE = previous
    }
  }

  it("a connection the server drops while a transaction holds it (between statements) is a 503, not the end of the engine's process", () =>
    withPassfile(async () => {
      // The engine's store in this process: without an 'error' listener on a checked-out connection,
      // pg's error event would be thrown here, and vitest would report it as an unhandled error.
      const database = await openPostgres({ url: db.url })
      try {
        const outcome = database.transaction(async (sql) => {
          const { pid } = (await sql.get<{ pid: number }>('SELECT pg_backend_pid() AS pid'))!
          // Another connection ends this one between two statements, as a restart ends every backend.
          expect((await database.get<{ done: boolean }>('SELECT pg_terminate_backend(?) AS done', [pid]))?.done).toBe(true)
          await eventually('the backend is gone', async () => (await database.get<{ n: number }>('SELECT count(*) AS n FROM pg_stat_activity WHERE pid = ?', [pid]))?.n === 0, throughFaults)
          await sql.get('SELECT 1')
        })
        await expect(outcome).rejects.toBeInstanceOf(StoreUnavailableError)
        // The pool gave the dropped connection up: the next statement gets a good one.
        expect(await database.get<{ one: number }>('SELECT 1 AS one')).toEqual({ one: 1 })
      } finally {
        await database.close()
      }
    }))

  it('reads outside a transaction go to the read nodes while the primary cannot be reached; writes and transactions are 503', () =>
    withPassfile(async () => {
      const away = new URL(db.url)
      away.port = String(await freeLoopbackPort())
      const database = await openPostgres({ url: away.toString(), readUrl: db.url, timeoutMs: 2_000 })
      const alone = await openPostgres({ url: away.toString(), timeoutMs: 2_000 })
      try {
        expect(await database.get<{ one: number }>('SELECT 1 AS one')).toEqual({ one: 1 })
        expect(await database.all<{ n: number }>('SELECT generate_series(1, 2) AS n')).toEqual([{ n: 1 }, { n: 2 }])
        await expect(alone.get('SELECT 1 AS one')).rejects.toBeInstanceOf(StoreUnavailableError)
        await expect(database.run('CREATE TABLE never_made (id int)')).rejects.toBeInstanceOf(StoreUnavailableError)
        await expect(database.transaction((sql) => sql.get('SELECT 1 AS one'))).rejects.toBeInstanceOf(StoreUnavailableError)
      } finally {
        await database.close()
        await alone.close()
      }
    }))

  it('a read that finds neither the primary nor the read nodes (the moment of a failover) tries again after a pause, and gets its answer', () =>
    withPassfile(async () => {
      // Two gates to the cluster that cut every connection until opened: the lost primary and the
      // standby being promoted, which has stopped being a read node.
      const gates = await Promise.all([tcpGate(db.url), tcpGate(db.url)])
      const database = await openPostgres({ url: gates[0]!.url, readUrl: gates[1]!.url, timeoutMs: 2_000 })
      try {
        const read = database.get<{ one: number }>('SELECT 1 AS one')
        // Once both were tried twice, as at once after a failover, the primary path comes back.
        await eventually('both gates cut two tries each', async () => gates.every((gate) => gate.cut >= 2), throughFaults)
        gates[0]!.open()
        expect(await read).toEqual({ one: 1 })
      } finally {
        await database.close()
        for (const gate of gates) await gate.close()
      }
    }))

  it('SIGKILL of engine 1 under 16 identify loops at the front: no failed request; it is restarted and catches up', async () => {
    const before = site.engine(1)
    const LOOPS = 16
    const PER_LOOP = 60
    const total = LOOPS * PER_LOOP
    let done = 0
    let from = -1
    const failures: string[] = []
    await Promise.all(
      Array.from({ length: LOOPS }, async (_, loop) => {
        for (let i = 0; i < PER_LOOP; i++) {
          const seed = seeds[(loop + i) % seeds.length]!
          try {
            const reply = await front.call('POST', '/bioengine/identify', identifyBody(seed.template))
            if (reply.status !== 200 || bestOf(reply) !== seed.id) failures.push(`${reply.status} ${JSON.stringify(reply.body).slice(0, 200)}`)
          } catch (error) {
            failures.push((error as Error).message)
          }
          // A third of the way in: engine 1 dies with requests in flight.
          if (++done === Math.floor(total / 3)) {
            from = site.output.length
            process.kill(before.pid, 'SIGKILL')
          }
        }
      }),
    )
    expect(from).toBeGreaterThanOrEqual(0)
    expect(failures).toEqual([])

    // Enrolled through engine 2 while engine 1 is down or restarting.
    const late = { id: 'enrolled-while-engine-1-was-down', template: template() }
    const engine2 = siteApi(site.engine(2).url)
    try {
      expect((await engine2.call('POST', `/bioengine/persons/${late.id}/biometrics`, enrollBody(late.template))).status).toBe(201)
    } finally {
      await engine2.close()
    }
    const again = await site.lineAfter(from, ENGINE_1)
    expect(again[1]).toBe(before.url)
    expect(Number(again[2])).not.toBe(before.pid)
    expect(alive(before.pid)).toBe(false)

    // Back on its port, ready means caught up: engine 1 itself finds what engine 2 enrolled.
    await eventually('engine 1 is ready again', async () => (await readyStatus(before.url)) === 200, { ...throughFaults, attempts: 600 })
    const engine1 = siteApi(before.url)
    try {
      const found = await engine1.call('POST', '/bioengine/identify', identifyBody(late.template))
      expect(found.status).toBe(200)
      expect(bestOf(found)).toBe(late.id)
    } finally {
      await engine1.close()
    }
  })

  it('PostgreSQL restarted (fast) under enroll and identify load: no 500, no acknowledged enrollment lost, both engines reconnect', async () => {
    const enginePids = [site.engine(1).pid, site.engine(2).pid]
    const acknowledged = new Map<string, string>()
    const statuses = new Map<number, number>()
    const unexpected: string[] = []
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1)
    let stop = false

    /** One enrollment as a client makes it: again after a 503, as Retry-After says (bounded). */
    const enrollOne = async (id: string, data: string) => {
      for (let attempt = 0; attempt < 100; attempt++) {
        let reply: SiteReply
        try {
          reply = await front.call('POST', `/bioengine/persons/${id}/biometrics`, enrollBody(data))
        } catch (error) {
          unexpected.push(`enroll ${id}: ${(error as Error).message}`)
          return
        }
        count(reply.status)
        if (reply.status === 201) return void acknowledged.set(id, data)
        if (reply.status !== 503) return void unexpected.push(`enroll ${id}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 200)}`)
        const retryAfter = Number(reply.headers['retry-after'])
        await new Promise((resolve) => setTimeout(resolve, Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter, 2) * 1000 : 250))
      }
      unexpected.push(`enroll ${id}: still 503 after 100 attempts`)
    }
    const enrollers = Array.from({ length: 4 }, async (_, loop) => {
      for (let i = 0; i < 100 && !stop; i++) await enrollOne(`load-${loop}-${i}`, template())
    })
    const identifiers = Array.from({ length: 4 }, async (_, loop) => {
      for (let i = 0; i < 2_000 && !stop; i++) {
        const seed = seeds[(loop + i) % seeds.length]!
        try {
          const reply = await front.call('POST', '/bioengine/identify', identifyBody(seed.template))
          count(reply.status)
          if (reply.status === 200 && bestOf(reply) !== seed.id) unexpected.push(`identify ${seed.id}: ${JSON.stringify(reply.body).slice(0, 200)}`)
          else if (reply.status !== 200 && reply.status !== 503) unexpected.push(`identify: ${reply.status} ${JSON.stringify(reply.body).slice(0, 200)}`)
          // A client does not hammer a site that said 503.
          else if (reply.status === 503) await new Promise((resolve) => setTimeout(resolve, 100))
        } catch (error) {
          unexpected.push(`identify: ${(error as Error).message}`)
        }
      }
    })
    const load = Promise.all([...enrollers, ...identifiers])
    try {
      await eventually('enrollments acknowledged before the restart', async () => acknowledged.size >= 8, throughFaults)
      const beforeRestart = db.pid
      await db.restart({ mode: 'fast' })
      expect(db.pid).not.toBe(beforeRestart)
      const atRestart = acknowledged.size
      await eventually('enrollments acknowledged after the restart', async () => acknowledged.size >= atRestart + 8, { ...throughFaults, attempts: 600 })
    } finally {
      stop = true
      await load
    }
    expect(unexpected).toEqual([])
    expect(statuses.get(500)).toBeUndefined()
    // The restart did reach the load (the engines or haproxy answered 503 meanwhile).
    expect(statuses.get(503) ?? 0).toBeGreaterThan(0)

    // Reconnected, not restarted: the same two processes are ready again.
    for (const n of [1, 2]) {
      const { url } = site.engine(n)
      await eventually(`engine ${n} ready again`, async () => (await readyStatus(url)) === 200, throughFaults)
    }
    expect([site.engine(1).pid, site.engine(2).pid]).toEqual(enginePids)

    // Every enrollment the site acknowledged is in the database, and identifiable through the front.
    const ids = [...acknowledged.keys()]
    for (let i = 0; i < ids.length; i += 8) {
      await Promise.all(
        ids.slice(i, i + 8).map(async (id) => {
          const stored = await front.call('GET', `/bioengine/persons/${id}/biometrics`)
          expect(stored.status, id).toBe(200)
          expect(stored.body.biometricInfos, id).toHaveLength(1)
          expect(bestOf(await front.call('POST', '/bioengine/identify', identifyBody(acknowledged.get(id)!))), id).toBe(id)
        }),
      )
    }
  })

  it('PostgreSQL unreachable: the front answers 503 within the request timeout, never 500, never a hang; back when it is', async () => {
    await db.stop()
    try {
      const timed = async (call: () => Promise<SiteReply>) => {
        const started = Date.now()
        const reply = await call()
        return { reply, ms: Date.now() - started }
      }
      const identify = () => front.call('POST', '/bioengine/identify', identifyBody(seeds[0]!.template), KIOSK_TIMEOUT_MS)
      const tenant = () => front.call('GET', '/v2/gmiserver/tenant/FRONTDESK', undefined, KIOSK_TIMEOUT_MS)
      // At once (the engines answer), and later (haproxy does): 503 with Retry-After.
      for (const { reply, ms } of [await timed(tenant), await timed(identify)]) {
        expect(reply.status).toBe(503)
        expect(Number(reply.headers['retry-after'])).toBeGreaterThan(0)
        expect(ms).toBeLessThan(KIOSK_TIMEOUT_MS)
      }
      for (const n of [1, 2]) {
        const { url } = site.engine(n)
        await eventually(`engine ${n} reports not ready`, async () => (await readyStatus(url)) === 503, throughFaults)
      }
      // Then haproxy has no engine to send to and answers itself (its own page, not JSON).
      const own = await eventually('haproxy answers for itself', async () => {
        const { reply } = await timed(tenant)
        return reply.status === 503 && typeof reply.body === 'string' && /No server is available/i.test(reply.body) && reply
      }, throughFaults)
      // haproxy's own 503 says when to try again, as an engine's does (electron/site/haproxy-config.ts).
      expect(Number(own.headers['retry-after'])).toBeGreaterThan(0)
      for (const { reply, ms } of [await timed(tenant), await timed(identify)]) {
        expect(reply.status).toBe(503)
        expect(Number(reply.headers['retry-after'])).toBeGreaterThan(0)
        expect(ms).toBeLessThan(KIOSK_TIMEOUT_MS)
      }
    } finally {
      await db.restart()
    }
    await eventually('the front answers again', async () => (await front.call('GET', '/v2/gmiserver/tenant/FRONTDESK')).status === 200, { ...throughFaults, attempts: 600 })
    for (const n of [1, 2]) {
      const { url } = site.engine(n)
      await eventually(`engine ${n} ready again`, async () => (await readyStatus(url)) === 200, throughFaults)
    }
    expect(bestOf(await front.call('POST', '/bioengine/identify', identifyBody(seeds[1]!.template)))).toBe(seeds[1]!.id)
  })
})

/** A TCP gate to `url`'s server: it cuts each connection (`cut` counts them) until opened, then passes them through. */
async function tcpGate(url: string): Promise<{ url: string; cut: number; open(): void; close(): Promise<void> }> {
  const target = new URL(url)
  let opened = false
  const sockets = new Set<Socket>()
  const gate = {
    url: '',
    cut: 0,
    open: () => (opened = true),
    close: () => {
      for (const socket of sockets) socket.destroy()
      return new Promise<void>((done) => server.close(() => done()))
    },
  }
  const server = createNetServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    if (!opened) {
      gate.cut++
      socket.destroy()
      return
    }
    const upstream = connect(Number(target.port), target.hostname)
    sockets.add(upstream)
    upstream.on('close', () => sockets.delete(upstream))
    socket.pipe(upstream).pipe(socket)
    socket.on('error', () => upstream.destroy())
    upstream.on('error', () => socket.destroy())
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const through = new URL(url)
  through.port = String((server.address() as AddressInfo).port)
  gate.url = through.toString()
  return gate
}

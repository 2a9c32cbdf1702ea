import { execFile, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer as createHttpServer, type Server, type ServerResponse } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { Agent, request } from 'undici'
import { afterAll, describe, expect, it } from 'vitest'
import { waitForFront } from '../../electron/site/front-probe'
import { BUFFER_BYTES, EVENTS_PATH, renderHaproxyConfig } from '../../electron/site/haproxy-config'
import { startPostgresCluster, type PostgresCluster } from '../../electron/site/postgres-cluster'
import { alive, freeLoopbackPort } from '../../electron/site/processes'
import { dashboardMetrics, isKioskHealthMetric } from '../support/dashboard'
import { postgresClient, startTestPostgres, type TestPostgres } from '../support/postgres'
import { tsxArgs } from '../support/process'
import { SITE_CLI, SITE_CLIENT, SITE_TENANT, startSite, type RunningSite, type SiteOptions } from '../support/site'

const run = promisify(execFile)
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`

/** Everything a test started, stopped by pid in afterAll even when the test failed. */
const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

function killIfAlive(pid: number): void {
  if (alive(pid)) process.kill(pid, 'SIGKILL')
}

/** A temporary folder, removed in afterAll. */
function tempFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix))
  cleanups.push(async () => rmSync(folder, { recursive: true, force: true }))
  return folder
}

/** test/support/site's startSite, stopped in afterAll too (its stop is safe to call twice). */
async function startSiteStoppedAfterAll(options: SiteOptions): Promise<RunningSite> {
  const site = await startSite(options)
  cleanups.push(async () => void (await site.stop()))
  return site
}

/** A token from the front, then a call with it, as a kiosk in remote mode makes them. */
async function tenantThroughFront(url: string, dispatcher?: Agent): Promise<{ tokenStatus: number; status: number; body: any }> {
  const tokenReply = await request(`${url}/v2/oauth2/oauth/token?scope=SCOPE_TENANT_ADMIN&grant_type=client_credentials`, {
    method: 'POST',
    headers: { authorization: basic(SITE_CLIENT.id, SITE_CLIENT.secret), 'content-type': 'application/x-www-form-urlencoded' },
    dispatcher,
  })
  const token = (await tokenReply.body.json()) as { access_token?: string }
  const reply = await request(`${url}/v2/gmiserver/tenant/${SITE_TENANT}`, { headers: { authorization: `Bearer ${token.access_token}` }, dispatcher })
  return { tokenStatus: tokenReply.statusCode, status: reply.statusCode, body: await reply.body.json() }
}

describe('npm run site', () => {
  it('runs PostgreSQL, two engines and haproxy; an engine killed comes back on its port while the front answers; SIGTERM leaves nothing', async () => {
    const site = await startSiteStoppedAfterAll({ engines: 2 })
    const { url, data } = site
    expect(url).toBe(`http://127.0.0.1:${site.port}`)

    const engines = site.engines()
    expect(engines.map((engine) => engine.n)).toEqual([1, 2])
    expect(site.output.some((line) => /^postgres pid \d+$/.test(line))).toBe(true)
    expect(site.output.some((line) => /^haproxy pid \d+$/.test(line))).toBe(true)
    // The shared template key: made once, the site's alone, and never on a command line.
    expect(statSync(join(data, 'template.key')).mode & 0o777).toBe(0o600)
    expect(readFileSync(join(data, 'template.key')).length).toBe(32)
    const config = readFileSync(join(data, 'haproxy.cfg'), 'utf8')
    for (const engine of engines) expect(config).toContain(`${new URL(engine.url).host} check`)

    // Several calls, so that both engines answer some (one token is good on both: one database).
    for (let i = 0; i < 4; i++) {
      const reply = await tenantThroughFront(url)
      expect(reply).toMatchObject({ tokenStatus: 200, status: 200 })
      expect(JSON.stringify(reply.body)).toContain(SITE_TENANT)
    }

    // Metrics: each engine's and haproxy's, as printed, on this machine; never through the front.
    const printed = site.output.flatMap((line) => /^metrics (http:\/\/127\.0\.0\.1:\d+\/metrics)$/.exec(line)?.[1] ?? [])
    expect(printed).toEqual(expect.arrayContaining(engines.map((engine) => `${engine.url}/metrics`)))
    expect(printed).toHaveLength(engines.length + 1)
    let exposed = ''
    for (const metrics of printed) {
      const scraped = await request(metrics)
      expect(scraped.statusCode, metrics).toBe(200)
      const text = await scraped.body.text()
      const engine = engines.some((one) => metrics === `${one.url}/metrics`)
      expect(text).toMatch(engine ? /^kiosk_engine_changes_applied \d+$/m : /^haproxy_backend_http_responses_total\{proxy="engines",code="2xx"\} [1-9]/m)
      exposed += text
    }
    // The Grafana dashboard that ships asks only for metrics these expose.
    // (The kiosks' health metrics appear once a kiosk has reported: test/integration/kiosk-health.test.ts.)
    const queried = dashboardMetrics().filter((metric) => !isKioskHealthMetric(metric))
    expect(queried.length).toBeGreaterThan(8)
    for (const metric of queried) expect(exposed, metric).toMatch(new RegExp(`^${metric}[{ ]`, 'm'))
    const throughFront = await request(`${url}/metrics`)
    expect(throughFront.statusCode).toBe(404)
    await throughFront.body.dump()

    // A request's id, from the caller through the front to an engine's log, and back in the reply;
    // one is made for a request that comes with none.
    const given = `kiosk-${randomUUID()}`
    const ids: string[] = []
    for (const headers of [{ 'x-request-id': given }, {}]) {
      const reply = await request(`${url}/v2/oauth2/oauth/token?grant_type=client_credentials`, { method: 'POST', headers })
      await reply.body.dump()
      ids.push(String(reply.headers['x-request-id']))
    }
    expect(ids[0]).toBe(given)
    expect(ids[1]).toMatch(/^[0-9a-f-]{36}$/)
    const logged = () => engines.map((engine) => readFileSync(join(data, `engine-${engine.n}`, 'logs', 'engine.log'), 'utf8')).join('\n')
    for (const id of ids) expect(logged()).toMatch(new RegExp(`"reqId":"${id}".*"route":"/v2/oauth2/oauth/token","status":401`))

    const { n, url: engineUrl, pid } = engines[0]!
    const from = site.output.length
    process.kill(pid, 'SIGKILL')
    // Right away, before it is back: haproxy sends the POST and the GET to the other engine.
    for (let i = 0; i < 4; i++) expect(await tenantThroughFront(url)).toMatchObject({ tokenStatus: 200, status: 200 })
    const again = await site.lineAfter(from, new RegExp(`^engine ${n} http://127\\.0\\.0\\.1:${new URL(engineUrl).port} pid (\\d+)$`))
    expect(Number(again[1])).not.toBe(pid)
    expect(alive(pid)).toBe(false)
    for (let i = 0; i < 4; i++) expect(await tenantThroughFront(url)).toMatchObject({ tokenStatus: 200, status: 200 })

    expect(site.pids().length).toBeGreaterThanOrEqual(5) // 2 engines + 1 restarted + postgres + haproxy
    // SIGTERM; then every pid it printed must be gone.
    const { code, left } = await site.stop()
    expect(code).toBe(0)
    expect(left, 'pids still there').toEqual([])
  }, 300_000)

  it('serves HTTPS with the given certificate', async () => {
    const folder = tempFolder('kiosk-site-tls-')
    const key = join(folder, 'key.pem')
    const cert = join(folder, 'cert.pem')
    await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-days', '1', '-keyout', key, '-out', cert])
    // haproxy wants the certificate and its key in one file.
    const pem = join(folder, 'site.pem')
    writeFileSync(pem, readFileSync(cert, 'utf8') + readFileSync(key, 'utf8'), { mode: 0o600 })
    // The client credentials from the environment this time, as the engine also takes them.
    const site = await startSiteStoppedAfterAll({ engines: 1, clientFrom: 'environment', args: ['--tls-cert', pem] })
    const url = site.url
    expect(url).toBe(`https://127.0.0.1:${site.port}`)

    const trusting = new Agent({ connect: { ca: readFileSync(cert, 'utf8'), servername: 'localhost' } })
    const untrusting = new Agent({ connect: { servername: 'localhost' } })
    try {
      expect(await tenantThroughFront(url, trusting)).toMatchObject({ tokenStatus: 200, status: 200 })
      await expect(request(`${url}/health/live`, { dispatcher: untrusting })).rejects.toThrow(/self[- ]signed/i)
    } finally {
      await trusting.close()
      await untrusting.close()
    }

    const { code, left } = await site.stop()
    expect(code).toBe(0)
    expect(left, 'pids still there').toEqual([])
  }, 300_000)

  it('refuses a database URL with a password in it, without echoing it', async () => {
    const [command, argv] = tsxArgs(SITE_CLI, ['--engines', '1', '--port', '1', '--data', join(tmpdir(), 'unused'), '--database', 'postgres://kiosk:hunter2@127.0.0.1/kiosk'])
    const failure = await run(command, argv).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    )
    expect(failure?.code).toBe(2)
    expect(failure?.stderr).toMatch(/must not contain a password/)
    expect(failure?.stderr).not.toContain('hunter2')
  })
})

describe("the site's haproxy configuration", () => {
  it('sends a POST whose engine closed without answering to another engine, body and all', async () => {
    // Two stand-in engines, both healthy; one reads each POST whole, then dies on it (as an
    // engine killed mid-identify would), the other answers with the size it received.
    const seen = { dying: 0, answering: 0 }
    const standIn = (answer: boolean): Promise<{ server: Server; port: number }> => {
      const server = createHttpServer((req, res) => {
        if (req.url === '/health/ready') return res.end('{"status":"ready"}')
        let bytes = 0
        req.on('data', (chunk: Buffer) => (bytes += chunk.length))
        req.on('end', () => {
          if (!answer) {
            seen.dying++
            return req.socket.destroy()
          }
          seen.answering++
          res.setHeader('content-type', 'application/json')
          res.end(JSON.stringify({ bytes }))
        })
      })
      return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port })))
    }
    const dying = await standIn(false)
    const answering = await standIn(true)
    cleanups.push(async () => {
      dying.server.closeAllConnections()
      answering.server.closeAllConnections()
      dying.server.close()
      answering.server.close()
    })
    const folder = tempFolder('kiosk-haproxy-')
    const configFile = join(folder, 'haproxy.cfg')
    const port = await freeLoopbackPort()
    writeFileSync(configFile, renderHaproxyConfig({ host: '127.0.0.1', port, statsPort: await freeLoopbackPort(), tlsCert: undefined, engines: [{ name: 'dying', port: dying.port }, { name: 'answering', port: answering.port }] }))
    const haproxy = spawn('haproxy', ['-f', configFile, '-db'], { stdio: 'ignore' })
    cleanups.push(async () => {
      if (haproxy.pid) killIfAlive(haproxy.pid)
    })
    await waitForFront(`http://127.0.0.1:${port}`, 30_000)

    // A body just under the buffer (three camera photos, base64) arrives in many packets: haproxy must hold it whole.
    const body = JSON.stringify({ images: 'x'.repeat(BUFFER_BYTES - 64 * 1024) })
    for (let i = 0; i < 6; i++) {
      const reply = await request(`http://127.0.0.1:${port}/v2/gmiserver/identify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
      expect(reply.statusCode).toBe(200)
      expect(await reply.body.json()).toEqual({ bytes: Buffer.byteLength(body) })
    }
    // Both were tried: the dying one got requests, and each of those was answered by the other.
    expect(seen.dying).toBeGreaterThan(0)
    expect(seen.answering).toBe(6)
  }, 60_000)
})

describe("the site's haproxy configuration: event streams", () => {
  it("keeps the front desk's event streams out of the engines' request slots", async () => {
    // A stand-in engine that holds every event stream open and answers anything else at once.
    const streams: ServerResponse[] = []
    const server = createHttpServer((req, res) => {
      if (req.url === '/health/ready') return res.end('{"status":"ready"}')
      if (req.url === EVENTS_PATH) {
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        res.write(': connected\n\n')
        streams.push(res)
        return
      }
      res.setHeader('content-type', 'application/json')
      res.end('{"ok":true}')
    })
    const port0 = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)))
    const dispatcher = new Agent({ connections: 100 })
    cleanups.push(async () => {
      await dispatcher.destroy()
      server.closeAllConnections()
      server.close()
    })
    const folder = tempFolder('kiosk-haproxy-')
    const configFile = join(folder, 'haproxy.cfg')
    const port = await freeLoopbackPort()
    writeFileSync(configFile, renderHaproxyConfig({ host: '127.0.0.1', port, statsPort: await freeLoopbackPort(), tlsCert: undefined, engines: [{ name: 'engine-1', port: port0 }] }))
    const haproxy = spawn('haproxy', ['-f', configFile, '-db'], { stdio: 'ignore' })
    cleanups.push(async () => {
      if (haproxy.pid) killIfAlive(haproxy.pid)
    })
    await waitForFront(`http://127.0.0.1:${port}`, 30_000)

    // More kiosks listening than an engine takes requests at once (32).
    const open = await Promise.all(Array.from({ length: 40 }, () => request(`http://127.0.0.1:${port}${EVENTS_PATH}`, { dispatcher })))
    expect(open.map((reply) => reply.statusCode)).toEqual(Array(40).fill(200))
    await expect.poll(() => streams.length, { timeout: 30_000 }).toBe(40)
    // A kiosk's ordinary call still goes straight through.
    const reply = await request(`http://127.0.0.1:${port}/v2/gmiserver/person?userId=a`, { dispatcher })
    expect(reply.statusCode).toBe(200)
    await reply.body.dump()
    for (const stream of streams) stream.end()
    await Promise.all(open.map((r) => r.body.dump()))
  }, 90_000)
})

describe('postgres-cluster', () => {
  it('starts a private cluster, reached with its passfile; restarts fast; stops leaving no postmaster; reuses its folder', async () => {
    const db: TestPostgres = await startTestPostgres()
    cleanups.push(() => db.close())
    expect(db.url).toMatch(/^postgres:\/\/kiosk@127\.0\.0\.1:\d+\/kiosk$/)
    expect(statSync(db.passfile).mode & 0o777).toBe(0o600)
    const password = readFileSync(db.passfile, 'utf8').trim().split(':').at(-1)!
    expect(password.length).toBeGreaterThanOrEqual(24)
    // The password is in no process's arguments (the postmaster's, here).
    expect(readFileSync(`/proc/${db.pid}/cmdline`, 'utf8')).not.toContain(password)
    expect(readFileSync(join(db.folder, 'postgres', 'postgres.log'), 'utf8')).not.toContain(password)

    const query = async (sql: string) => {
      // pg reads PGPASSFILE as the engine will; the URL has no password.
      const previous = process.env.PGPASSFILE
      process.env.PGPASSFILE = db.passfile
      const client = postgresClient(db.url)
      try {
        await client.connect()
        return (await client.query(sql)).rows
      } finally {
        await client.end().catch(() => {})
        if (previous === undefined) delete process.env.PGPASSFILE
        else process.env.PGPASSFILE = previous
      }
    }
    expect(await query('SELECT current_user AS who, current_database() AS db')).toEqual([{ who: 'kiosk', db: 'kiosk' }])
    // The engine's migrations create citext: the role owns its database, and citext is trusted.
    await query('CREATE EXTENSION IF NOT EXISTS citext; CREATE TABLE kept (email citext PRIMARY KEY); INSERT INTO kept VALUES (\'A@Example.org\')')

    const before = db.pid
    await db.restart({ mode: 'fast' })
    expect(db.pid).not.toBe(before)
    expect(alive(before)).toBe(false)
    expect(await query("SELECT count(*)::int AS n FROM kept WHERE email = 'a@example.ORG'")).toEqual([{ n: 1 }])

    // Stopped, then started again on the same folder: same port, same data, same password.
    const { port, pid } = db
    await db.stop()
    expect(alive(pid)).toBe(false)
    const again: PostgresCluster = await startPostgresCluster(join(db.folder, 'postgres'))
    cleanups.push(async () => {
      await again.stop()
      killIfAlive(again.pid)
    })
    expect(again.port).toBe(port)
    expect(readFileSync(again.passfile, 'utf8').trim().split(':').at(-1)).toBe(password)
    process.env.PGPASSFILE = again.passfile
    const client = postgresClient(again.url)
    try {
      await client.connect()
      expect((await client.query('SELECT count(*)::int AS n FROM kept')).rows).toEqual([{ n: 1 }])
    } finally {
      await client.end().catch(() => {})
      delete process.env.PGPASSFILE
    }
    const last = again.pid
    await again.stop()
    expect(alive(last)).toBe(false)
  }, 120_000)
})

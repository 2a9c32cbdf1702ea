import { execFile, spawn } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer as createHttpServer, type Server } from 'node:http'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { Agent, request } from 'undici'
import { afterAll, describe, expect, it } from 'vitest'
import { waitForFront } from '../../electron/site/front-probe'
import { renderHaproxyConfig } from '../../electron/site/haproxy-config'
import { startPostgresCluster, type PostgresCluster } from '../../electron/site/postgres-cluster'
import { postgresClient, startTestPostgres, type TestPostgres } from '../support/postgres'
import { startUntil, tsxArgs, type Started } from '../support/process'

const run = promisify(execFile)
const SITE = 'electron/site/cli.ts'
// The site's engines get these through its flags or environment (not test/support/engine, which
// would load a whole engine into this process).
const TEST_CLIENT = { id: 'kiosk-site-test', secret: 'site-secret-0123456789' }
const TEST_TENANT = 'FRONTDESK'
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`
const ENGINE_LINE = /^engine (\d+) http:\/\/127\.0\.0\.1:(\d+) pid (\d+)$/

/** Everything a test started, stopped by pid in afterAll even when the test failed. */
const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

function gone(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return false
  } catch {
    return true
  }
}

function killIfThere(pid: number): void {
  if (!gone(pid)) process.kill(pid, 'SIGKILL')
}

/** A temporary folder that root's PostgreSQL (run as postgres) can get through. */
function tempFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix))
  chmodSync(folder, 0o755)
  cleanups.push(async () => rmSync(folder, { recursive: true, force: true }))
  return folder
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/** Every pid the site printed: engines (old and new), postgres, haproxy. */
function printedPids(site: Started): number[] {
  const pids = new Set<number>()
  for (const line of site.output) {
    const match = ENGINE_LINE.exec(line) ?? /^(?:postgres|haproxy) pid (\d+)$/.exec(line)
    if (match) pids.add(Number(match.at(-1)))
  }
  return [...pids]
}

/** Resolves with the first output line from index `from` on that matches; waits on the line, up to `timeoutMs`. */
async function lineAfter(site: Started, from: number, pattern: RegExp, timeoutMs = 60_000): Promise<RegExpExecArray> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    for (const line of site.output.slice(from)) {
      const match = pattern.exec(line)
      if (match) return match
    }
    if (Date.now() > deadline) throw new Error(`no line matching ${pattern} within ${timeoutMs} ms:\n${site.output.join('\n')}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** Starts `npm run site` as the README says, and registers its cleanup by pid. */
async function startSite(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Started> {
  const [command, argv] = tsxArgs(SITE, args)
  const site = await startUntil(command, argv, /^site ready (https?:\/\/\S+)$/, 240_000, env)
  cleanups.push(async () => {
    // Still running (the test failed before its SIGTERM): stop it, then make sure by pid.
    if (site.child.exitCode === null && site.child.signalCode === null) {
      site.child.kill('SIGTERM')
      const timer = setTimeout(() => site.child.kill('SIGKILL'), 30_000)
      await new Promise((resolve) => site.child.once('exit', resolve))
      clearTimeout(timer)
    }
    for (const pid of printedPids(site)) killIfThere(pid)
  })
  return site
}

async function exitCode(site: Started): Promise<number | null> {
  if (site.child.exitCode !== null || site.child.signalCode !== null) return site.child.exitCode
  return new Promise((resolve) => site.child.once('exit', (code) => resolve(code)))
}

/** A token from the front, then a call with it, as a kiosk in remote mode makes them. */
async function tenantThroughFront(url: string, dispatcher?: Agent): Promise<{ tokenStatus: number; status: number; body: any }> {
  const tokenReply = await request(`${url}/v2/oauth2/oauth/token?scope=SCOPE_TENANT_ADMIN&grant_type=client_credentials`, {
    method: 'POST',
    headers: { authorization: basic(TEST_CLIENT.id, TEST_CLIENT.secret), 'content-type': 'application/x-www-form-urlencoded' },
    dispatcher,
  })
  const token = (await tokenReply.body.json()) as { access_token?: string }
  const reply = await request(`${url}/v2/gmiserver/tenant/${TEST_TENANT}`, { headers: { authorization: `Bearer ${token.access_token}` }, dispatcher })
  return { tokenStatus: tokenReply.statusCode, status: reply.statusCode, body: await reply.body.json() }
}

describe('npm run site', () => {
  it('runs PostgreSQL, two engines and haproxy; an engine killed comes back on its port while the front answers; SIGTERM leaves nothing', async () => {
    const data = join(tempFolder('kiosk-site-'), 'site')
    const port = await freePort()
    const site = await startSite(['--engines', '2', '--port', String(port), '--data', data, '--client-id', TEST_CLIENT.id, '--client-secret', TEST_CLIENT.secret, '--tenant', TEST_TENANT])
    const url = site.match[1]!
    expect(url).toBe(`http://127.0.0.1:${port}`)

    const engines = site.output.map((line) => ENGINE_LINE.exec(line)).filter((match) => match !== null)
    expect(engines.map((match) => match[1])).toEqual(['1', '2'])
    expect(site.output.some((line) => /^postgres pid \d+$/.test(line))).toBe(true)
    expect(site.output.some((line) => /^haproxy pid \d+$/.test(line))).toBe(true)
    // The shared template key: made once, the site's alone, and never on a command line.
    expect(statSync(join(data, 'template.key')).mode & 0o777).toBe(0o600)
    expect(readFileSync(join(data, 'template.key')).length).toBe(32)
    const config = readFileSync(join(data, 'haproxy.cfg'), 'utf8')
    for (const match of engines) expect(config).toContain(`127.0.0.1:${match[2]} check`)

    // Several calls, so that both engines answer some (one token is good on both: one database).
    for (let i = 0; i < 4; i++) {
      const reply = await tenantThroughFront(url)
      expect(reply).toMatchObject({ tokenStatus: 200, status: 200 })
      expect(JSON.stringify(reply.body)).toContain(TEST_TENANT)
    }

    const [, n, enginePort, pid] = engines[0]!
    const from = site.output.length
    process.kill(Number(pid), 'SIGKILL')
    // Right away, before it is back: haproxy sends the POST and the GET to the other engine.
    for (let i = 0; i < 4; i++) expect(await tenantThroughFront(url)).toMatchObject({ tokenStatus: 200, status: 200 })
    const again = await lineAfter(site, from, new RegExp(`^engine ${n} http://127\\.0\\.0\\.1:${enginePort} pid (\\d+)$`))
    expect(Number(again[1])).not.toBe(Number(pid))
    expect(gone(Number(pid))).toBe(true)
    for (let i = 0; i < 4; i++) expect(await tenantThroughFront(url)).toMatchObject({ tokenStatus: 200, status: 200 })

    const pids = printedPids(site)
    expect(pids.length).toBeGreaterThanOrEqual(5) // 2 engines + 1 restarted + postgres + haproxy
    site.child.kill('SIGTERM')
    expect(await exitCode(site)).toBe(0)
    for (const printed of pids) expect(gone(printed), `pid ${printed} is still there`).toBe(true)
  }, 300_000)

  it('serves HTTPS with the given certificate', async () => {
    const folder = tempFolder('kiosk-site-tls-')
    const key = join(folder, 'key.pem')
    const cert = join(folder, 'cert.pem')
    await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-days', '1', '-keyout', key, '-out', cert])
    // haproxy wants the certificate and its key in one file.
    const pem = join(folder, 'site.pem')
    writeFileSync(pem, readFileSync(cert, 'utf8') + readFileSync(key, 'utf8'), { mode: 0o600 })
    const port = await freePort()
    // The client credentials from the environment this time, as the engine also takes them.
    const site = await startSite(['--engines', '1', '--port', String(port), '--data', join(folder, 'site'), '--tenant', TEST_TENANT, '--tls-cert', pem], {
      ...process.env,
      ENGINE_CLIENT_ID: TEST_CLIENT.id,
      ENGINE_CLIENT_SECRET: TEST_CLIENT.secret,
    })
    const url = site.match[1]!
    expect(url).toBe(`https://127.0.0.1:${port}`)

    const trusting = new Agent({ connect: { ca: readFileSync(cert, 'utf8'), servername: 'localhost' } })
    const untrusting = new Agent({ connect: { servername: 'localhost' } })
    try {
      expect(await tenantThroughFront(url, trusting)).toMatchObject({ tokenStatus: 200, status: 200 })
      await expect(request(`${url}/health/live`, { dispatcher: untrusting })).rejects.toThrow(/self[- ]signed/i)
    } finally {
      await trusting.close()
      await untrusting.close()
    }

    const pids = printedPids(site)
    site.child.kill('SIGTERM')
    expect(await exitCode(site)).toBe(0)
    for (const printed of pids) expect(gone(printed), `pid ${printed} is still there`).toBe(true)
  }, 300_000)

  it('refuses a database URL with a password in it, without echoing it', async () => {
    const [command, argv] = tsxArgs(SITE, ['--engines', '1', '--port', '1', '--data', join(tmpdir(), 'unused'), '--database', 'postgres://kiosk:hunter2@127.0.0.1/kiosk'])
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
    const port = await freePort()
    writeFileSync(configFile, renderHaproxyConfig({ host: '127.0.0.1', port, tlsCert: undefined, engines: [{ name: 'dying', port: dying.port }, { name: 'answering', port: answering.port }] }))
    const haproxy = spawn('haproxy', ['-f', configFile, '-db'], { stdio: 'ignore' })
    cleanups.push(async () => {
      if (haproxy.pid) killIfThere(haproxy.pid)
    })
    await waitForFront(`http://127.0.0.1:${port}`, 30_000)

    // A 1 MB body (three camera photos, base64) arrives in many packets: haproxy must hold it whole.
    const body = JSON.stringify({ images: 'x'.repeat(1024 * 1024) })
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
    expect(gone(before)).toBe(true)
    expect(await query("SELECT count(*)::int AS n FROM kept WHERE email = 'a@example.ORG'")).toEqual([{ n: 1 }])

    // Stopped, then started again on the same folder: same port, same data, same password.
    const { port, pid } = db
    await db.stop()
    expect(gone(pid)).toBe(true)
    const again: PostgresCluster = await startPostgresCluster(join(db.folder, 'postgres'))
    cleanups.push(async () => {
      await again.stop()
      killIfThere(again.pid)
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
    expect(gone(last)).toBe(true)
  }, 120_000)
})

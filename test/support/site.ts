import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Agent, request, type Dispatcher } from 'undici'
import { expect } from 'vitest'
import { freeLoopbackPort, running } from '../../electron/site/processes'
import { startUntil, tsxArgs, type Started } from './process'

/** The client and tenant the site is started with (flags), as its kiosks sign in. */
export const SITE_CLIENT = Object.freeze({ id: 'kiosk-site-test', secret: 'site-secret-0123456789' })
export const SITE_TENANT = 'FRONTDESK'
/** The kiosk's default template type, which the site's engines offer. */
export const SITE_TEMPLATE_TYPE = 'Face:HumanFaceRes'
/** The site's entry point, as `npm run site` runs it (with tsx). */
export const SITE_CLI = 'electron/site/cli.ts'

const ENGINE_LINE = /^engine (\d+) (http:\/\/127\.0\.0\.1:\d+) pid (\d+)$/
const PID_LINE = /^(?:postgres|haproxy|etcd) pid (\d+)$/
/** `--ha`: a PostgreSQL node under Patroni, printed at start and whenever its processes or role change. */
export const NODE_LINE = /^postgres node (\d+) 127\.0\.0\.1:(\d+) patroni pid (\d+) postgres pid (\d+) (primary|standby)$/
const STOP_GRACE_MS = 30_000

export interface SiteEngine {
  n: number
  /** The engine's own URL, past haproxy. */
  url: string
  pid: number
}

export interface RunningSite {
  /** The front (haproxy). */
  url: string
  /** The port it was given (`--port`). */
  port: number
  /** Its data folder (`--data`): template.key, haproxy.cfg, postgres/ … */
  data: string
  /** Every line the site wrote (stdout and stderr), in order. */
  output: string[]
  /** Every engine line it printed so far, in order (a restarted engine prints again). */
  engines(): SiteEngine[]
  /** Engine `n`'s latest line: its own URL (past haproxy) and pid. */
  engine(n: number): SiteEngine
  /** Every pid it printed so far: engines (old and new), postgres, haproxy; with --ha etcd, and each node's Patroni and postmaster. */
  pids(): number[]
  /** Resolves with the first line from index `from` on that matches; waits on the output, up to `timeoutMs`. */
  lineAfter(from: number, pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>
  /**
   * SIGTERM, as an operator stops it (SIGKILL after 30 s), then every pid it ever printed is
   * checked: `left` lists those still there (then killed). Safe to call twice.
   */
  stop(): Promise<{ code: number | null; left: number[] }>
}

export interface SiteOptions {
  engines: number
  /**
   * An external PostgreSQL the test controls (its URL has no password; PGPASSFILE goes in the
   * child's environment); none: the site's own private cluster, in its data folder.
   */
  database?: { url: string; passfile: string }
  /** Where the test client's credentials go: `--client-id`/`--client-secret` (default), or ENGINE_CLIENT_ID/ENGINE_CLIENT_SECRET. */
  clientFrom?: 'flags' | 'environment'
  /** More flags, after the others (e.g. `--tls-cert`, `--host`). */
  args?: string[]
}

/**
 * `npm run site` (electron/site/cli.ts with tsx, as the npm script runs it) on a free port and a
 * new temporary folder, with the test client and tenant, resolved at `site ready`.
 */
export async function startSite(options: SiteOptions): Promise<RunningSite> {
  const folder = mkdtempSync(join(tmpdir(), 'kiosk-site-'))
  // Root's private PostgreSQL (run as postgres) must get through to DATA/postgres.
  chmodSync(folder, 0o755)
  const port = await freeLoopbackPort()
  const data = join(folder, 'site')
  const args = ['--engines', String(options.engines), '--port', String(port), '--data', data, '--tenant', SITE_TENANT]
  const env: NodeJS.ProcessEnv = { ...process.env }
  if (options.clientFrom === 'environment') Object.assign(env, { ENGINE_CLIENT_ID: SITE_CLIENT.id, ENGINE_CLIENT_SECRET: SITE_CLIENT.secret })
  else args.push('--client-id', SITE_CLIENT.id, '--client-secret', SITE_CLIENT.secret)
  if (options.database) {
    args.push('--database', options.database.url)
    env.PGPASSFILE = options.database.passfile
    delete env.PGPASSWORD
  }
  args.push(...(options.args ?? []))
  let site: Started
  try {
    site = await startUntil(...tsxArgs(SITE_CLI, args), /^site ready (https?:\/\/\S+)$/, 240_000, env)
  } catch (error) {
    // startUntil has SIGTERMed it; the site stops what it started, and each child dies with it.
    rmSync(folder, { recursive: true, force: true })
    throw error
  }
  const { child, output } = site

  const engines = () =>
    output.flatMap((line) => {
      const match = ENGINE_LINE.exec(line)
      return match ? [{ n: Number(match[1]), url: match[2]!, pid: Number(match[3]) }] : []
    })
  const printedPids = () => {
    const pids = new Set<number>()
    for (const line of output) {
      const match = ENGINE_LINE.exec(line) ?? PID_LINE.exec(line)
      if (match) pids.add(Number(match.at(-1)))
      const node = NODE_LINE.exec(line)
      if (node) pids.add(Number(node[3])).add(Number(node[4]))
    }
    return [...pids]
  }
  let stopped: Promise<{ code: number | null; left: number[] }> | undefined
  const stopOnce = async () => {
    let code = child.exitCode
    if (child.exitCode === null && child.signalCode === null) {
      const exit = new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)))
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS)
      code = await exit
      clearTimeout(timer)
    }
    // A zombie is gone (it holds no port, no lock): Patroni's postmaster is PID 1's child, reaped when PID 1 gets to it.
    const left = printedPids().filter(running)
    for (const pid of left) process.kill(pid, 'SIGKILL')
    rmSync(folder, { recursive: true, force: true })
    return { code, left }
  }

  return {
    url: site.match[1]!,
    port,
    data,
    output,
    engines,
    engine(n) {
      const engine = engines().findLast((e) => e.n === n)
      if (!engine) throw new Error(`the site printed no line for engine ${n}:\n${output.join('\n')}`)
      return engine
    },
    pids: printedPids,
    async lineAfter(from, pattern, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        for (const line of output.slice(from)) {
          const match = pattern.exec(line)
          if (match) return match
        }
        if (Date.now() > deadline) throw new Error(`no line matching ${pattern} within ${timeoutMs} ms:\n${output.slice(-40).join('\n')}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },
    stop: () => (stopped ??= stopOnce()),
  }
}

export interface SiteReply {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: any
}

/** A reply as tests read it: its status, headers, and its body parsed as JSON where it is JSON. */
export async function replyOf(reply: Dispatcher.ResponseData): Promise<SiteReply> {
  const text = await reply.body.text()
  let parsed: unknown = text
  try {
    parsed = text ? JSON.parse(text) : undefined
  } catch {
    // not JSON (haproxy's own pages, an event stream): keep the text
  }
  return { status: reply.statusCode, headers: reply.headers, body: parsed }
}

/** A client the site's API is called as: its credentials and the scopes its token asks for. */
export interface SiteClient {
  id: string
  secret: string
  scope: string
}

/**
 * The site's API as a kiosk calls it (person server at `url`, BioEngine under `/bioengine`), with
 * the test client's token (or `client`'s: a paired kiosk's), fetched on first use and again after a
 * 401. Any engine's token is good at every engine (one signing key, in the database).
 */
export function siteApi(url: string, dispatcher: Dispatcher = new Agent({ connections: 64 }), client: SiteClient = { ...SITE_CLIENT, scope: 'SCOPE_TENANT_ADMIN' }) {
  let token: string | undefined
  const fetchToken = async () => {
    const reply = await request(`${url}/v2/oauth2/oauth/token?scope=${encodeURIComponent(client.scope)}&grant_type=client_credentials`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      dispatcher,
    })
    const body = (await reply.body.json()) as { access_token?: string }
    if (reply.statusCode !== 200 || !body.access_token) throw new Error(`the token call answered ${reply.statusCode}`)
    return body.access_token
  }
  const once = async (method: string, path: string, body: unknown, timeoutMs: number): Promise<SiteReply> => {
    token ??= await fetchToken()
    const reply = await request(`${url}${path}`, {
      method: method as 'GET',
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      dispatcher,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    })
    return replyOf(reply)
  }
  const call = async (method: string, path: string, body?: unknown, timeoutMs = 20_000): Promise<SiteReply> => {
    const reply = await once(method, path, body, timeoutMs)
    if (reply.status !== 401) return reply
    token = undefined
    return once(method, path, body, timeoutMs)
  }
  return {
    call,
    /** A fresh token now (so a load does not start by fetching one per loop). */
    async signIn() {
      token = await fetchToken()
    },
    /** Person and template tallies for a userId: the exactly-once check. */
    async tally(userId: string, templateType = SITE_TEMPLATE_TYPE) {
      const found = await call('GET', `/v2/gmiserver/person?userId=${encodeURIComponent(userId)}`)
      if (found.status === 404) return { persons: 0, templates: 0, uuid: null }
      if (found.status !== 200) throw new Error(`look-up of ${userId}: ${found.status}`)
      const uuid = found.body.uuid as string
      // The database's unique constraint allows one; the list says so rather than assuming it.
      const listed = await call('GET', `/v2/gmiserver/person?find=${encodeURIComponent(userId)}&pageSize=100`)
      const templates = await call('GET', `/bioengine/persons/${uuid}/biometrics`)
      return {
        persons: (listed.body.content as { userId: string }[]).filter((p) => p.userId.toLowerCase() === userId.toLowerCase()).length,
        templates: (templates.body.biometricInfos as { templateType: string }[]).filter((t) => t.templateType === templateType).length,
        uuid,
      }
    },
    close: () => dispatcher.close(),
  }
}

/** Stops the site as an operator stops it, and expects exit 0 with nothing it started left behind. */
export async function stopSiteCleanly(site: RunningSite | undefined): Promise<void> {
  if (!site) return
  const { code, left } = await site.stop()
  expect(left, 'pids the site printed that are still there').toEqual([])
  expect(code).toBe(0)
}

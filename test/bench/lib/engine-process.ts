import { readFileSync } from 'node:fs'
import { Pool } from 'undici'
import { TEST_CLIENT, TEST_TENANT, basic } from '../../support/engine'
import { startUntil, tsxArgs, type Started } from '../../support/process'

export interface EngineProcess {
  url: string
  pid: number
  /** Keep-alive connections to the engine, as many as asked for. */
  pool: Pool
  token: string
  /** Resident memory of the engine process (its worker threads included), in MB. */
  rssMb(): number
  stop(): Promise<void>
}

/**
 * The standalone engine as its own process (as the kiosk runs it), so its memory can be read
 * apart from the benchmark's: `npm run engine` on `dataDir`, with the test client and tenant;
 * `env` is added to this process's environment.
 */
export async function startEngineProcess(dataDir: string, connections = 16, env?: NodeJS.ProcessEnv): Promise<EngineProcess & { startedMs: number }> {
  const started = performance.now()
  const [command, args] = tsxArgs('electron/engine/cli.ts', [
    '--port', '0', '--data', dataDir, '--client-id', TEST_CLIENT.id, '--client-secret', TEST_CLIENT.secret, '--tenant', TEST_TENANT,
  ])
  const engine: Started = await startUntil(command, args, /^engine ready (http:\/\/\S+)$/, 300_000, env && { ...process.env, ...env })
  const startedMs = performance.now() - started
  const url = engine.match[1]!
  const pool = new Pool(url, { connections, pipelining: 1 })
  const reply = await pool.request({
    method: 'POST',
    path: '/v2/oauth2/oauth/token?scope=SCOPE_TENANT_ADMIN&grant_type=client_credentials',
    headers: { authorization: basic(TEST_CLIENT.id, TEST_CLIENT.secret) },
  })
  const { access_token: token } = (await reply.body.json()) as { access_token: string }
  const pid = engine.child.pid!
  return {
    url,
    pid,
    pool,
    token,
    startedMs,
    rssMb: () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN) / 1024,
    async stop() {
      await pool.close()
      await engine.stop()
    },
  }
}

/** One JSON POST through the pool; throws on a non-2xx status so a failure is never timed as a success. */
export async function postJson<T>(engine: EngineProcess, path: string, body: unknown): Promise<T> {
  const reply = await engine.pool.request({
    method: 'POST',
    path,
    headers: { authorization: `Bearer ${engine.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const text = await reply.body.text()
  if (reply.statusCode >= 300) throw new Error(`${path}: HTTP ${reply.statusCode}: ${text.slice(0, 300)}`)
  return JSON.parse(text) as T
}

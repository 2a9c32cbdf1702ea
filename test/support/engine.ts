import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import type { FacePlugin } from '../../electron/engine/face/types'
import { createEngine, type Engine, type EngineOptions } from '../../electron/engine/server'

export const TEST_CLIENT = { id: 'kiosk-test', secret: 'test-secret-0123456789' }
export const TEST_TENANT = 'FRONTDESK'

export interface TestEngine {
  engine: Engine
  url: string
  bio: string
  dataDir: string
  /** A fresh access token for the test client. */
  token(): Promise<string>
  /** JSON call with the test client's bearer token (unless headers override it). */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Record<string, unknown> }>
  close(): Promise<void>
}

/** A real engine in this process on a random loopback port, with a test client and tenant. */
export async function startTestEngine(
  plugins: FacePlugin[],
  dataDir = mkdtempSync(join(tmpdir(), 'kiosk-engine-')),
  options: Pick<EngineOptions, 'limits' | 'databaseUrl' | 'readDatabaseUrl' | 'pollMs' | 'staleServeMs' | 'metricsToken' | 'metrics' | 'trustedProxy' | 'tenant' | 'frontDesk'> = {},
): Promise<TestEngine> {
  const engine = await createEngine({ dataDir, plugins, ...options })
  await engine.ctx.store.clients.ensure(TEST_CLIENT.id, TEST_CLIENT.secret)
  await engine.ctx.store.tenants.upsert(TEST_TENANT, { name: 'Front desk', maxIdentities: 0, defaultPostBack: null })
  await engine.app.listen({ host: '127.0.0.1', port: 0 })
  const address = engine.app.server.address()
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`

  const token = async () => {
    const reply = await request(`${url}/v2/oauth2/oauth/token?scope=SCOPE_TENANT_ADMIN&grant_type=client_credentials`, {
      method: 'POST',
      headers: { authorization: basic(TEST_CLIENT.id, TEST_CLIENT.secret), 'content-type': 'application/x-www-form-urlencoded' },
    })
    const json = (await reply.body.json()) as { access_token: string }
    return json.access_token
  }
  let cached: string | undefined
  const call: TestEngine['call'] = async (method, path, body, headers = {}) => {
    cached ??= await token()
    const reply = await request(`${url}${path}`, {
      method: method as 'GET',
      headers: {
        authorization: `Bearer ${cached}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    })
    const text = await reply.body.text()
    let parsed: unknown = text
    try {
      parsed = text ? JSON.parse(text) : undefined
    } catch {
      // not JSON: keep the text
    }
    return { status: reply.statusCode, body: parsed, headers: reply.headers }
  }
  return {
    engine,
    url,
    bio: `${url}/bioengine`,
    dataDir,
    token,
    call,
    async close() {
      await engine.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

export function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`
}

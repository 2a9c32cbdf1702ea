import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SignJWT } from 'jose'
import { Agent, request } from 'undici'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest'
import { TOKEN_ISSUER, TOKEN_LIFETIME_SECONDS } from '../../electron/engine/auth/tokens'
import { scryptKey, type DeriveKey } from '../../electron/engine/store/clients'
import { openSqlite } from '../../electron/records/sql/sqlite'
import { signingKey } from '../../electron/engine/store/signing-keys'
import { basic, startTestEngine, TEST_CLIENT, type TestEngine } from '../support/engine'
import { startUntil, tsxArgs } from '../support/process'
import { until } from '../support/until'

// The engine's authentication under hostile callers (bad-secret floods, back-off, token claims, a private
// data folder), against a real engine over real HTTP. Every loopback address
// (127.0.0.0/8) reaches the engine, so each scenario speaks from its own peer address.

const FREE_FAILURES = 3

/** A promise that stays pending until `open()` is called. */
function gate() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { opened, open }
}

describe('token endpoint under a flood of bad client secrets', () => {
  let t: TestEngine
  const agents = new Map<string, Agent>()
  const from = (peer: string) => {
    if (!agents.has(peer)) agents.set(peer, new Agent({ localAddress: peer }))
    return agents.get(peer)!
  }
  const tokenCall = async (peer: string, clientId: string, secret: string) => {
    const reply = await request(`${t.url}/v2/oauth2/oauth/token?scope=SCOPE_TENANT_ADMIN&grant_type=client_credentials`, {
      dispatcher: from(peer),
      method: 'POST',
      headers: { authorization: basic(clientId, secret), 'content-type': 'application/x-www-form-urlencoded' },
    })
    return { status: reply.statusCode, retryAfter: reply.headers['retry-after'], body: (await reply.body.json()) as Record<string, unknown> }
  }
  /** Every scrypt the engine runs for a client secret goes through ClientStore.derive. */
  let derive: MockInstance<DeriveKey>
  const hashesOf = (secret: string) => derive.mock.calls.filter(([given]) => given === secret).length

  beforeAll(async () => {
    t = await startTestEngine([])
    for (const id of ['flood-target', 'victim', 'known-client']) await t.engine.ctx.store.clients.ensure(id, `${id}-secret`)
    derive = vi.spyOn(t.engine.ctx.store.clients, 'derive')
  })
  afterEach(() => {
    vi.useRealTimers()
    derive.mockReset()
    derive.mockImplementation(scryptKey)
  })
  afterAll(async () => {
    await Promise.all([...agents.values()].map((agent) => agent.close()))
    await t.close()
  })

  it('answers a legitimate token call while flood calls are still being hashed, and refuses the rest of the flood without hashing', async () => {
    // Back-off windows are read from Date.now: freezing it keeps every window open, so what is
    // refused below is refused because of state, not because the test ran fast enough.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() })
    const held = gate()
    const hashing = gate()
    derive.mockImplementationOnce(async (secret, salt) => {
      hashing.open()
      await held.opened
      return scryptKey(secret, salt)
    })

    let answered = 0
    const flood = Array.from({ length: 200 }, () =>
      tokenCall('127.0.0.2', 'flood-target', 'wrong-secret').then((reply) => {
        answered++
        return reply
      }),
    )
    await hashing.opened // a flood call is inside scrypt, and stays there

    const legit = await tokenCall('127.0.0.1', TEST_CLIENT.id, TEST_CLIENT.secret)
    expect(legit.status).toBe(200)
    expect(legit.body.access_token).toEqual(expect.any(String))
    expect(answered).toBeLessThan(200)

    // All but the held call are answered without waiting for it; then let it finish.
    await until(() => answered === 199)
    held.open()
    const replies = await Promise.all(flood)

    // Only the free failures ever reached scrypt; every other call was refused before it.
    expect(hashesOf('wrong-secret')).toBe(FREE_FAILURES)
    expect(replies.filter((r) => r.status === 401)).toHaveLength(FREE_FAILURES)
    const refused = replies.filter((r) => r.status === 429)
    expect(refused).toHaveLength(200 - FREE_FAILURES)
    for (const reply of refused) {
      expect(reply.body).toEqual({ error: 'slow_down', error_description: expect.stringMatching(/retry/i) })
      expect(Number(reply.retryAfter)).toBeGreaterThanOrEqual(1)
    }

    // Later bad calls: still refused, still no scrypt, whatever the secret or peer for this id.
    const later = await Promise.all([tokenCall('127.0.0.2', 'flood-target', 'another-guess'), tokenCall('127.0.0.3', 'flood-target', 'third-guess')])
    expect(later.map((r) => r.status)).toEqual([429, 429])
    expect(hashesOf('another-guess') + hashesOf('third-guess')).toBe(0)

    // Once the pause is over one more try is hashed; failing it doubles the pause.
    const firstPause = Number(later[0]!.retryAfter)
    vi.setSystemTime(Date.now() + firstPause * 1000)
    const retry = await tokenCall('127.0.0.4', 'flood-target', 'after-the-pause')
    expect(retry.status).toBe(401)
    expect(hashesOf('after-the-pause')).toBe(1)
    expect(Number((await tokenCall('127.0.0.4', 'flood-target', 'again')).retryAfter)).toBe(2 * firstPause)
  })

  it('runs exactly one scrypt for a known client id and for an unknown one', async () => {
    const known = await tokenCall('127.0.0.10', 'known-client', 'guess-1')
    const unknown = await tokenCall('127.0.0.11', 'no-such-client', 'guess-2')
    const right = await tokenCall('127.0.0.12', TEST_CLIENT.id, TEST_CLIENT.secret)
    expect([known.status, unknown.status, right.status]).toEqual([401, 401, 200])
    expect(known.body).toEqual(unknown.body)
    expect([hashesOf('guess-1'), hashesOf('guess-2'), hashesOf(TEST_CLIENT.secret)]).toEqual([1, 1, 1])
    // The same work: a salt of the same size, hence the same scrypt, for either kind of id.
    expect(new Set(derive.mock.calls.map(([, salt]) => salt.length))).toEqual(new Set([16]))
  })

  it('backs off a peer across different client ids, refusing it without scrypt', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() })
    for (const id of ['sprayed-1', 'sprayed-2', 'sprayed-3']) expect((await tokenCall('127.0.0.20', id, 'spray')).status).toBe(401)
    expect(hashesOf('spray')).toBe(FREE_FAILURES)

    // The next call from that peer is refused even with another client's right secret.
    const next = await tokenCall('127.0.0.20', TEST_CLIENT.id, TEST_CLIENT.secret)
    expect(next.status).toBe(429)
    expect(next.body.error).toBe('slow_down')
    expect(hashesOf(TEST_CLIENT.secret)).toBe(0)
    // Another peer with the same credentials is not held back.
    expect((await tokenCall('127.0.0.21', TEST_CLIENT.id, TEST_CLIENT.secret)).status).toBe(200)
  })

  it('backs off a client id across peers, and a success resets its count', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() })
    const secret = 'victim-secret'
    expect((await tokenCall('127.0.0.30', 'victim', 'wrong-a')).status).toBe(401)
    expect((await tokenCall('127.0.0.31', 'victim', 'wrong-b')).status).toBe(401)
    expect((await tokenCall('127.0.0.32', 'victim', secret)).status).toBe(200)
    // Had the success not reset the count, the second of these would already be refused.
    for (const peer of ['127.0.0.33', '127.0.0.34', '127.0.0.35']) expect((await tokenCall(peer, 'victim', `wrong-${peer}`)).status).toBe(401)

    const locked = await tokenCall('127.0.0.36', 'victim', secret)
    expect(locked.status).toBe(429)
    expect(hashesOf(secret)).toBe(1)
    vi.setSystemTime(Date.now() + Number(locked.retryAfter) * 1000)
    expect((await tokenCall('127.0.0.36', 'victim', secret)).status).toBe(200)
  })

  it('bounds the scrypt work in progress, refusing calls beyond what may wait with 503', async () => {
    const held = gate()
    derive.mockImplementation(async (secret, salt) => {
      await held.opened
      return scryptKey(secret, salt)
    })
    // Thirty peers, one unknown id each: no back-off applies, so only the bound holds them.
    let answered = 0
    const calls = Array.from({ length: 30 }, (_, i) =>
      tokenCall(`127.0.1.${i + 1}`, `many-peers-${i}`, 'many-peers').then((reply) => {
        answered++
        return reply
      }),
    )
    await until(() => answered === 12)
    expect(hashesOf('many-peers')).toBe(2) // scrypt running at once: 2 of libuv's 4 threads at most
    held.open()
    const replies = await Promise.all(calls)
    expect(replies.filter((r) => r.status === 401)).toHaveLength(18) // 2 hashing + 16 waiting
    const busy = replies.filter((r) => r.status === 503)
    expect(busy).toHaveLength(12)
    for (const reply of busy) {
      expect(reply.body).toEqual({ error: 'temporarily_unavailable', error_description: expect.any(String) })
      expect(reply.retryAfter).toBe('1')
    }
  })
})

describe('behind the site\'s load balancer', () => {
  // haproxy connects from 127.0.0.1 for every kiosk; its X-Forwarded-For says which kiosk it is.
  const tokenVia = async (t: TestEngine, forwardedFor: string, clientId: string, secret: string) =>
    (
      await request(`${t.url}/v2/oauth2/oauth/token?grant_type=client_credentials`, {
        method: 'POST',
        headers: { authorization: basic(clientId, secret), 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': forwardedFor },
      })
    ).statusCode
  afterEach(() => vi.useRealTimers())

  it.each([
    ['trusts X-Forwarded-For from the trusted proxy: one kiosk in back-off does not hold back another', '127.0.0.1', 200],
    ['ignores X-Forwarded-For from anyone else: the peer is the connection', undefined, 429],
  ] as const)('%s', async (_name, trustedProxy, otherKiosk) => {
    const t = await startTestEngine([], undefined, { trustedProxy })
    try {
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() })
      for (const id of ['spray-1', 'spray-2', 'spray-3']) expect(await tokenVia(t, '192.0.2.10', id, 'guess')).toBe(401)
      expect(await tokenVia(t, '192.0.2.10', TEST_CLIENT.id, TEST_CLIENT.secret)).toBe(429)
      expect(await tokenVia(t, '192.0.2.11', TEST_CLIENT.id, TEST_CLIENT.secret)).toBe(otherKiosk)
    } finally {
      await t.close()
    }
  })
})

describe('bearer tokens must say when they expire', () => {
  let t: TestEngine
  beforeAll(async () => {
    t = await startTestEngine([])
  })
  afterAll(() => t.close())

  it('refuses a token signed with the engine key but without exp, iat or sub, or outliving the token lifetime', async () => {
    const key = await signingKey(t.engine.ctx.store.db)
    const now = Math.floor(Date.now() / 1000)
    const sign = (claims: { sub?: string; iat?: number; exp?: number }) => {
      const jwt = new SignJWT({ scope: 'SCOPE_TENANT_ADMIN' }).setProtectedHeader({ alg: 'HS256', kid: key.kid, typ: 'JWT' }).setIssuer(TOKEN_ISSUER)
      if (claims.sub) jwt.setSubject(claims.sub)
      if (claims.iat) jwt.setIssuedAt(claims.iat)
      if (claims.exp) jwt.setExpirationTime(claims.exp)
      return jwt.sign(key.secret)
    }
    const call = async (token: string) => (await t.call('GET', '/v2/gmiserver/person', undefined, { authorization: `Bearer ${token}` })).status

    expect(await call(await sign({ sub: TEST_CLIENT.id, iat: now, exp: now + TOKEN_LIFETIME_SECONDS }))).toBe(200)
    expect(await call(await sign({ sub: TEST_CLIENT.id, iat: now }))).toBe(401)
    expect(await call(await sign({ sub: TEST_CLIENT.id, exp: now + 60 }))).toBe(401)
    expect(await call(await sign({ iat: now, exp: now + 60 }))).toBe(401)
    expect(await call(await sign({ sub: TEST_CLIENT.id, iat: now, exp: now + 10 * 365 * 24 * 3600 }))).toBe(401)
    expect(await call(await sign({ sub: TEST_CLIENT.id, iat: now + 600, exp: now + 900 }))).toBe(401)
  })
})

describe('data folder privacy', () => {
  const modeOf = (path: string) => lstatSync(path).mode & 0o777
  /** Every directory and file under `dir` (no symlinks are made here), with its mode. */
  const modes = (dir: string): Record<string, number> => {
    const found: Record<string, number> = {}
    const walk = (folder: string, prefix: string) => {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        const path = join(folder, entry.name)
        found[prefix + entry.name] = modeOf(path)
        if (entry.isDirectory()) walk(path, `${prefix}${entry.name}/`)
      }
    }
    walk(dir, '')
    return found
  }

  it('makes an existing 0755 data folder 0700 and every file in it 0600 at start, the WAL and SHM too', async () => {
    // A data folder left by an older engine: world-readable folder, database, key and logs.
    const data = join(mkdtempSync(join(tmpdir(), 'kiosk-engine-')), 'data')
    mkdirSync(join(data, 'logs'), { recursive: true })
    await openSqlite(join(data, 'engine.db')).close()
    writeFileSync(join(data, 'template.key'), Buffer.alloc(32, 7))
    writeFileSync(join(data, 'logs', 'engine.log'), 'old\n')
    writeFileSync(join(data, 'logs', 'engine.log.1'), 'older\n')
    for (const file of ['engine.db', 'template.key', 'logs/engine.log', 'logs/engine.log.1']) chmodSync(join(data, file), 0o644)
    for (const folder of [data, join(data, 'logs')]) chmodSync(folder, 0o755)

    // The engine as the kiosk runs it: the command line, as a child process.
    const flags = ['--port', '0', '--data', data, '--client-id', 'modes-client', '--client-secret', 'modes-secret']
    const engine = await startUntil(...tsxArgs('electron/engine/cli.ts', flags), /ready (http:\/\/127\.0\.0\.1:\d+)/, 120_000)
    try {
      const url = engine.match[1]!
      const token = await request(`${url}/v2/oauth2/oauth/token?grant_type=client_credentials`, {
        method: 'POST',
        headers: { authorization: basic('modes-client', 'modes-secret'), 'content-type': 'application/x-www-form-urlencoded' },
      })
      const bearer = ((await token.body.json()) as { access_token: string }).access_token
      // Writes while the engine runs: the WAL and its index exist now.
      await request(`${url}/v1/tenant/MODES`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        body: JSON.stringify({ code: 'MODES', name: 'Modes', maxIdentities: 0 }),
      }).then((reply) => reply.body.dump())

      const found = modes(data)
      expect(Object.keys(found)).toEqual(expect.arrayContaining(['engine.db', 'engine.db-wal', 'engine.db-shm', 'template.key', 'logs', 'logs/engine.log', 'logs/engine.log.1', 'logs/plugins.log']))
      expect(modeOf(data)).toBe(0o700)
      for (const [name, mode] of Object.entries(found)) expect([name, mode.toString(8)]).toEqual([name, name === 'logs' ? '700' : '600'])
    } finally {
      expect(await engine.stop()).toBe(0)
    }
  })

  it('makes the data folder private when the engine is created in-process too (createEngine, not only the command line)', async () => {
    const data = join(mkdtempSync(join(tmpdir(), 'kiosk-engine-')), 'data')
    mkdirSync(data, { mode: 0o755 })
    await openSqlite(join(data, 'engine.db')).close()
    chmodSync(join(data, 'engine.db'), 0o644)
    const t = await startTestEngine([], data)
    try {
      expect((await t.call('PUT', '/v1/tenant/MODES', { code: 'MODES', name: 'Modes', maxIdentities: 0 })).status).toBe(201)
      expect(modeOf(data)).toBe(0o700)
      for (const [name, mode] of Object.entries(modes(data))) expect([name, mode.toString(8)]).toEqual([name, name === 'logs' ? '700' : '600'])
    } finally {
      await t.close()
    }
  })
})

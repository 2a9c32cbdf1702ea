import { describe, expect, it, vi } from 'vitest'
import { createBackOff } from '../../electron/engine/auth/back-off'
import { clientAuthRefusal, createClientAuth, type ClientVerifier } from '../../electron/engine/auth/client-auth'
import { createWorkLimit } from '../../electron/engine/auth/work-limit'
import { ClientRepository } from '../../electron/engine/store/clients'
import { openSqlite } from '../../electron/records/sql/sqlite'
import { migrateEngineSchema } from '../../electron/engine/store/schema'

// The parts of the token endpoint's defence against a flood of bad client secrets, each on its own clock and stand-ins.

const clock = () => {
  let time = 1_000_000
  return { now: () => time, advance: (ms: number) => (time += ms) }
}

describe('failure back-off', () => {
  const make = (now: () => number, maxKeys = 100) => createBackOff({ freeFailures: 3, firstPauseMs: 1000, maxPauseMs: 4000, maxKeys, now })
  const fail = (backOff: ReturnType<typeof make>, key: string) => {
    backOff.begin(key)
    return backOff.end(key, 'failed')
  }

  it('lets the free failures pass, then pauses for a doubling time up to the cap', () => {
    const c = clock()
    const backOff = make(c.now)
    expect([fail(backOff, 'k'), fail(backOff, 'k')]).toEqual([0, 0])
    expect(backOff.waitMs('k')).toBe(0)
    const pauses = [fail(backOff, 'k')]
    for (let i = 0; i < 3; i++) {
      expect(backOff.waitMs('k')).toBe(pauses.at(-1))
      c.advance(pauses.at(-1)! - 1)
      expect(backOff.waitMs('k')).toBe(1)
      c.advance(1)
      expect(backOff.waitMs('k')).toBe(0)
      pauses.push(fail(backOff, 'k'))
    }
    expect(pauses).toEqual([1000, 2000, 4000, 4000])
    expect(backOff.waitMs('other')).toBe(0)
  })

  it('counts attempts in flight, so concurrent tries cannot outrun the free failures', () => {
    const backOff = make(clock().now)
    for (let i = 0; i < 3; i++) {
      expect(backOff.waitMs('k')).toBe(0)
      backOff.begin('k')
    }
    expect(backOff.waitMs('k')).toBeGreaterThan(0)
    backOff.end('k', 'abandoned')
    expect(backOff.waitMs('k')).toBe(0)
  })

  it('clears a key on success, and forgets one quiet for a whole maximum pause', () => {
    const c = clock()
    const backOff = make(c.now)
    fail(backOff, 'k')
    fail(backOff, 'k')
    backOff.begin('k')
    backOff.end('k', 'succeeded')
    expect(backOff.size).toBe(0)
    expect([fail(backOff, 'k'), fail(backOff, 'k')]).toEqual([0, 0])

    for (let i = 0; i < 4; i++) fail(backOff, 'j')
    c.advance(2000 + 4000) // the pause, then a whole maximum pause of quiet
    expect(backOff.waitMs('j')).toBe(0)
    expect(fail(backOff, 'j')).toBe(0) // counting starts afresh
  })

  it('remembers at most maxKeys keys, forgetting the least recently failed', () => {
    const backOff = make(clock().now, 3)
    for (const key of ['a', 'b', 'c']) for (let i = 0; i < 3; i++) fail(backOff, key)
    fail(backOff, 'a') // 'a' is now the most recent
    fail(backOff, 'd')
    expect(backOff.size).toBe(3)
    expect(backOff.waitMs('b')).toBe(0) // forgotten
    expect(backOff.waitMs('a')).toBeGreaterThan(0)
    expect(backOff.waitMs('c')).toBeGreaterThan(0)
  })
})

/** After a macrotask turn every pending promise callback has run. */
const settled = () => new Promise((resolve) => setImmediate(resolve))

describe('work limit', () => {
  it('runs at most maxRunning at once, lines up maxWaiting, and refuses the rest without running them', async () => {
    const limit = createWorkLimit(2, 1)
    const releases: Array<() => void> = []
    const started: number[] = []
    const work = (n: number) => () => {
      started.push(n)
      return new Promise<number>((resolve) => releases.push(() => resolve(n)))
    }
    const runs = [1, 2, 3].map((n) => limit.run(work(n)))
    expect(limit.run(work(4))).toBeNull()
    await settled()
    expect(started).toEqual([1, 2])
    expect([limit.running, limit.waiting]).toEqual([2, 1])
    releases[0]!()
    await settled()
    expect(started).toEqual([1, 2, 3])
    expect([limit.running, limit.waiting]).toEqual([2, 0])
    releases[1]!()
    releases[2]!()
    expect(await Promise.all(runs)).toEqual([1, 2, 3])
    expect(limit.running).toBe(0)
  })

  it('frees the turn of work that fails', async () => {
    const limit = createWorkLimit(1, 0)
    await expect(limit.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    expect(await limit.run(() => Promise.resolve('next'))).toBe('next')
  })
})

describe('client authentication', () => {
  /** Clients 'known' (secret 'right') and 'other' (secret 'other'); verify counts its calls. */
  const verifier = () => {
    const secrets: Record<string, string> = { known: 'right', other: 'other' }
    const verify = vi.fn(async (id: string, secret: string) => (secrets[id] === secret ? ['SCOPE_TENANT_ADMIN'] : null))
    return { has: (id: string) => id in secrets, verify } satisfies ClientVerifier
  }

  it('refuses missing credentials without verifying, and does not count them', async () => {
    const clients = verifier()
    const auth = createClientAuth(clients, { freeFailures: 1 })
    expect(await auth.authenticate(null, '127.0.0.1')).toEqual({ ok: false, status: 401 })
    expect(await auth.authenticate(null, '127.0.0.1')).toEqual({ ok: false, status: 401 })
    expect(clients.verify).not.toHaveBeenCalled()
    expect(await auth.authenticate({ clientId: 'known', secret: 'right' }, '127.0.0.1')).toEqual({ ok: true, clientId: 'known', scopes: ['SCOPE_TENANT_ADMIN'] })
  })

  it('keeps a known id paused however many unknown ids are sprayed at it', async () => {
    const c = clock()
    const clients = verifier()
    const auth = createClientAuth(clients, { now: c.now, maxTrackedKeys: 2 })
    for (let i = 0; i < 3; i++) await auth.authenticate({ clientId: 'known', secret: `guess-${i}` }, `10.0.0.${i}`)
    for (let i = 0; i < 50; i++) await auth.authenticate({ clientId: `made-up-${i}`, secret: 'x' }, `10.0.1.${i}`)
    expect(await auth.authenticate({ clientId: 'known', secret: 'right' }, '10.0.2.1')).toEqual({ ok: false, status: 429, retryAfterSeconds: 1 })
  })

  it('does not let a success clear the peer: it would launder guesses at other clients', async () => {
    const clients = verifier()
    const auth = createClientAuth(clients, { now: clock().now })
    const peer = '127.0.0.9'
    await auth.authenticate({ clientId: 'other', secret: 'guess-1' }, peer)
    await auth.authenticate({ clientId: 'known', secret: 'right' }, peer)
    await auth.authenticate({ clientId: 'other', secret: 'guess-2' }, peer)
    await auth.authenticate({ clientId: 'nobody', secret: 'guess-3' }, peer)
    expect(await auth.authenticate({ clientId: 'known', secret: 'right' }, peer)).toMatchObject({ ok: false, status: 429 })
  })

  it('treats an IPv4-mapped IPv6 peer as the IPv4 address', async () => {
    const auth = createClientAuth(verifier(), { now: clock().now })
    for (let i = 0; i < 3; i++) await auth.authenticate({ clientId: `id-${i}`, secret: 'x' }, '::ffff:127.0.0.5')
    expect(await auth.authenticate({ clientId: 'known', secret: 'right' }, '127.0.0.5')).toMatchObject({ ok: false, status: 429 })
  })

  it('ends the attempt when verify throws, so a fault does not hold a key back', async () => {
    const clients = verifier()
    clients.verify.mockRejectedValue(new Error('disk'))
    const auth = createClientAuth(clients, { now: clock().now, freeFailures: 1 })
    for (let i = 0; i < 3; i++) await expect(auth.authenticate({ clientId: 'known', secret: 'right' }, '127.0.0.1')).rejects.toThrow('disk')
    clients.verify.mockResolvedValue(['SCOPE_TENANT_ADMIN'])
    expect((await auth.authenticate({ clientId: 'known', secret: 'right' }, '127.0.0.1')).ok).toBe(true)
  })

  it('logs when a key starts a pause, not for every refused call', async () => {
    const log = vi.fn()
    const auth = createClientAuth(verifier(), { now: clock().now, log })
    for (let i = 0; i < 10; i++) await auth.authenticate({ clientId: 'known', secret: 'wrong' }, '127.0.0.1')
    expect(log.mock.calls.map(([line]) => line)).toEqual([
      'client authentication: client id "known" paused for 1 s after repeated failures',
      'client authentication: peer 127.0.0.1 paused for 1 s after repeated failures',
    ])
  })

  it('answers each refusal with an RFC 6749 error body and the headers that go with it', () => {
    expect(clientAuthRefusal({ ok: false, status: 401 })).toEqual({
      status: 401,
      headers: { 'WWW-Authenticate': 'Basic realm="person-server"' },
      body: { error: 'invalid_client', error_description: expect.any(String) },
    })
    expect(clientAuthRefusal({ ok: false, status: 429, retryAfterSeconds: 8 })).toMatchObject({ status: 429, headers: { 'Retry-After': '8' }, body: { error: 'slow_down' } })
    expect(clientAuthRefusal({ ok: false, status: 503, retryAfterSeconds: 1 })).toMatchObject({
      status: 503,
      headers: { 'Retry-After': '1' },
      body: { error: 'temporarily_unavailable' },
    })
  })
})

describe('client store', () => {
  it('derives exactly once per verify, with a salt of the same size, for a known and an unknown id', async () => {
    const db = openSqlite(':memory:')
    await migrateEngineSchema(db)
    const real = new ClientRepository(db)
    await real.ensure('known', 'right')
    const derive = vi.fn(real.derive)
    const clients = new ClientRepository(db, derive)
    expect(await clients.verify('known', 'right')).toEqual(['SCOPE_TENANT_ADMIN'])
    expect(await clients.verify('known', 'wrong')).toBeNull()
    expect(await clients.verify('unknown', 'right')).toBeNull()
    expect(await clients.verify('unknown', '')).toBeNull()
    expect(derive.mock.calls.map(([secret, salt]) => [secret, salt.length])).toEqual([
      ['right', 16],
      ['wrong', 16],
      ['right', 16],
      ['', 16],
    ])
    expect([await clients.has('known'), await clients.has('unknown')]).toEqual([true, false])
    await db.close()
  })
})

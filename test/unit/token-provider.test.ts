import { describe, expect, it } from 'vitest'
import { TokenProvider, withToken } from '../../electron/services/clients/token-provider'

describe('TokenProvider', () => {
  it('issues once for many concurrent callers and caches until shortly before expiry', async () => {
    let now = 0
    let issued = 0
    const tokens = new TokenProvider(
      async () => {
        issued += 1
        await new Promise((resolve) => setTimeout(resolve, 10))
        return { token: `t${issued}`, expiresInSeconds: 120 }
      },
      { now: () => now, skewMs: 60_000 },
    )
    expect(await Promise.all([tokens.get(), tokens.get(), tokens.get()])).toEqual(['t1', 't1', 't1'])
    now = 59_000
    expect(await tokens.get()).toBe('t1')
    now = 60_001 // within the 60 s skew of the 120 s lifetime
    expect(await tokens.get()).toBe('t2')
    expect(issued).toBe(2)
  })

  it('drops a refused token and retries the call once', async () => {
    let issued = 0
    const tokens = new TokenProvider(async () => ({ token: `t${++issued}`, expiresInSeconds: 3600 }))
    const seen: string[] = []
    const result = await withToken(
      tokens,
      async (token) => {
        seen.push(token)
        if (token === 't1') throw new Error('401')
        return 'ok'
      },
      (error) => (error as Error).message === '401',
    )
    expect(result).toBe('ok')
    expect(seen).toEqual(['t1', 't2'])
    // A second refusal is not retried again.
    await expect(withToken(tokens, async () => Promise.reject(new Error('401')), () => true)).rejects.toThrow('401')
  })

  it('lets a failed issue be retried by the next caller', async () => {
    let attempts = 0
    const tokens = new TokenProvider(async () => {
      attempts += 1
      if (attempts === 1) throw new Error('server down')
      return { token: 'ok', expiresInSeconds: 3600 }
    })
    await expect(tokens.get()).rejects.toThrow('server down')
    expect(await tokens.get()).toBe('ok')
  })

  it('answers refused credentials from memory for a while, so retries and probes are not failed sign-ins', async () => {
    let now = 0
    let attempts = 0
    const refusal = new Error('invalid_client')
    const tokens = new TokenProvider(
      async () => {
        attempts += 1
        if (attempts <= 1) throw refusal
        return { token: 'ok', expiresInSeconds: 3600 }
      },
      { now: () => now, isRefusal: (error) => error === refusal, refusalHoldMs: 300_000 },
    )
    await expect(tokens.get()).rejects.toBe(refusal)
    now = 299_000
    await expect(tokens.get()).rejects.toBe(refusal)
    await expect(tokens.get()).rejects.toBe(refusal)
    expect(attempts).toBe(1)
    now = 300_001
    expect(await tokens.get()).toBe('ok')
    expect(attempts).toBe(2)
  })

  it('keeps a token issued without expires_in until a server refuses it', async () => {
    let now = 0
    let issued = 0
    const tokens = new TokenProvider(async () => ({ token: `t${++issued}`, expiresInSeconds: null }), { now: () => now, unknownLifetimeMs: 600_000 })
    expect(await tokens.get()).toBe('t1')
    now = 599_000
    expect(await tokens.get()).toBe('t1')
    tokens.invalidate('t1')
    expect(await tokens.get()).toBe('t2')
  })
})

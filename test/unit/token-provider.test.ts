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
      () => now,
      60_000,
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
})

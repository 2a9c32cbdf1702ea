import { createServer } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadFacePlugins } from '../../electron/engine/face'
import { testConnection } from '../../electron/services/workflows/connection-test'
import { settingsSchema } from '../../electron/shared/settings'
import { testBackend } from '../support/backend'
import { startTestEngine, TEST_TENANT, type TestEngine } from '../support/engine'

/** A loopback port that was just free and is closed again: nothing listens there. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return typeof address === 'object' && address ? address.port : 0
}

const settingsFor = (url: string) => settingsSchema.parse({ mode: 'remote', personServerUrl: url, bioEngineUrl: `${url}/bioengine`, tenantCode: TEST_TENANT })

describe('the connection test (real clients)', () => {
  let t: TestEngine
  beforeAll(async () => {
    t = await startTestEngine(await loadFacePlugins({ threads: 1, log: () => {} }))
  })
  afterAll(async () => {
    await t.close()
  })

  it('fails at "servers" for a URL where nothing listens, with a plain reason', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`
    const backend = testBackend(url)
    const result = await testConnection(settingsFor(url), async () => backend)
    await backend.close()
    expect(result.ok).toBe(false)
    expect(result.steps).toHaveLength(1)
    expect(result.steps[0]).toMatchObject({ name: 'servers', ok: false })
    expect(result.steps[0]!.detail).toMatch(/^Nothing answers at 127\.0\.0\.1:\d+: nothing is listening there \(ECONNREFUSED\)\. Check the URL and that the server is running\.$/)
  })

  it('passes every step against the live engine', async () => {
    const backend = testBackend(t.url)
    const result = await testConnection(settingsFor(t.url), async () => backend)
    await backend.close()
    expect(result.steps.map((s) => [s.name, s.ok])).toEqual([
      ['servers', true],
      ['token', true],
      ['templateTypes', true],
      ['tenant', true],
    ])
    expect(result.ok).toBe(true)
    expect(result.steps[0]!.detail).toBe(`${t.url} and ${t.bio} answer.`)
  })
})

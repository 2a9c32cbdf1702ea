import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDispatch } from '../../electron/services/dispatch'
import { handlersWithoutServers } from '../support/handlers'
import { createWebHost, type WebHost } from '../../electron/host/server'
import { BRIDGE_TOKEN_HEADER } from '../../electron/shared/web-security'

// The real host and the real handler table over real HTTP on loopback.
describe('web host bridge', () => {
  let host: WebHost
  let origin: string
  const listeners = new Set<(event: unknown) => void>()
  const engineStatus = () => ({ mode: 'embedded' as const, state: 'starting' as const, url: null, pid: null, restarts: 0, lastError: null })

  beforeAll(async () => {
    const rendererDir = mkdtempSync(join(tmpdir(), 'kiosk-renderer-'))
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>kiosk test page</title>')
    host = createWebHost({
      dispatch: createDispatch(handlersWithoutServers(engineStatus)),
      rendererDir,
      subscribe: (_key, listener) => {
        listeners.add(listener)
        return () => listeners.delete(listener)
      },
    })
    origin = (await host.listen(0)).origin
  })
  afterAll(() => host.close())

  const call = (method: string, headers: Record<string, string>, body: string = '{}') =>
    request(`${origin}/bridge/${method}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body })

  it('answers a call that carries the launch token', async () => {
    const reply = await call('getAppInfo', { [BRIDGE_TOKEN_HEADER]: host.token })
    expect(reply.statusCode).toBe(200)
    expect(await reply.body.json()).toMatchObject({ ok: true, value: { version: '1.2.3', shell: 'web', nodeVersion: process.versions.node } })
  })

  it('refuses a call without the token, or with a wrong one, with 401', async () => {
    const attempts: Array<Record<string, string>> = [{}, { [BRIDGE_TOKEN_HEADER]: '' }, { [BRIDGE_TOKEN_HEADER]: 'x'.repeat(host.token.length) }, { [BRIDGE_TOKEN_HEADER]: `${host.token}x` }]
    for (const headers of attempts) {
      const reply = await call('getAppInfo', headers)
      expect(reply.statusCode).toBe(401)
      expect(JSON.stringify(await reply.body.json())).not.toContain('nodeVersion')
    }
  })

  it('refuses a foreign Origin with 403, even with the token', async () => {
    const reply = await call('getAppInfo', { [BRIDGE_TOKEN_HEADER]: host.token, origin: 'https://evil.example' })
    expect(reply.statusCode).toBe(403)
    const own = await call('getAppInfo', { [BRIDGE_TOKEN_HEADER]: host.token, origin })
    expect(own.statusCode).toBe(200)
  })

  it('refuses a foreign Host header (DNS rebinding) with 403', async () => {
    const reply = await call('getAppInfo', { [BRIDGE_TOKEN_HEADER]: host.token, host: 'evil.example' })
    expect(reply.statusCode).toBe(403)
  })

  it('answers bad input with a clear error, never a crash', async () => {
    const auth = { [BRIDGE_TOKEN_HEADER]: host.token }
    expect(await (await call('getEngineStatus', auth, '{"unexpected":1}')).body.json()).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
    expect(await (await call('doesNotExist', auth)).body.json()).toMatchObject({ ok: false, error: { code: 'UNKNOWN_METHOD' } })
    const malformed = await call('getAppInfo', auth, '{not json')
    expect(malformed.statusCode).toBe(400)
    await malformed.body.dump()
    const status = await call('getEngineStatus', auth)
    expect(await status.body.json()).toMatchObject({ ok: true, value: { state: 'starting' } })
  })

  it('streams pushed events to a page holding the token, and to no one else', async () => {
    expect((await request(`${origin}/bridge/events`)).statusCode).toBe(401)
    const stream = await request(`${origin}/bridge/events`, { headers: { [BRIDGE_TOKEN_HEADER]: host.token } })
    expect(stream.statusCode).toBe(200)
    expect(stream.headers['content-type']).toBe('text/event-stream')
    await expect.poll(() => listeners.size).toBe(1)
    const event = { type: 'engine', status: { ...engineStatus(), state: 'running' } }
    listeners.forEach((listener) => listener(event))
    let text = ''
    for await (const chunk of stream.body) {
      text += chunk.toString()
      if (text.includes('data: ')) break
    }
    expect(text).toContain(`data: ${JSON.stringify(event)}\n\n`)
    stream.body.destroy()
    await expect.poll(() => listeners.size).toBe(0) // the host unsubscribes when the page goes away
  })

  it('serves the renderer with a strict Content-Security-Policy', async () => {
    const page = await request(`${origin}/`)
    expect(page.statusCode).toBe(200)
    expect(await page.body.text()).toContain('kiosk test page')
    const csp = String(page.headers['content-security-policy'])
    expect(csp).toContain("default-src 'self'")
    expect(csp).toContain("object-src 'none'")
    expect(csp).not.toContain('unsafe-inline')
  })
})

import { describe, expect, it } from 'vitest'
import { KioskError } from '../../electron/shared/errors'
import { createKioskApi } from '../../electron/shared/kiosk-api'
import { createDispatch, type Handlers } from '../../electron/services/dispatch'
import { handlersWithoutServers } from '../support/handlers'

const engineStatus = () => ({ mode: 'embedded' as const, state: 'running' as const, url: 'http://127.0.0.1:1', pid: 1, restarts: 0, lastError: null })

describe('dispatch', () => {
  const logs: string[] = []
  const dispatch = createDispatch(handlersWithoutServers(engineStatus), undefined, (m) => logs.push(m))

  it('answers a valid call with the handler value', async () => {
    const reply = await dispatch('getAppInfo', {})
    expect(reply).toMatchObject({ ok: true, value: { version: '1.2.3', shell: 'web', nodeVersion: process.versions.node } })
  })

  it('refuses unknown methods, including prototype names', async () => {
    for (const method of ['nope', 'constructor', '__proto__', 42, null]) {
      const reply = await dispatch(method, {})
      expect(reply).toMatchObject({ ok: false, error: { code: 'UNKNOWN_METHOD' } })
    }
  })

  it('refuses input that does not match the schema, with a readable reason', async () => {
    for (const input of [{ extra: 1 }, 'text', 5, null, []]) {
      const reply = await dispatch('getEngineStatus', input)
      expect(reply.ok).toBe(false)
      if (!reply.ok) {
        expect(reply.error.code).toBe('INVALID_INPUT')
        expect(reply.error.message).toContain('getEngineStatus')
      }
    }
  })

  it('passes KioskErrors through and hides unexpected errors behind INTERNAL', async () => {
    const failing = (error: Error): Handlers => ({
      ...handlersWithoutServers(engineStatus),
      getAppInfo: async () => {
        throw error
      },
    })
    const known = await createDispatch(failing(new KioskError('NOT_FOUND', 'No such visitor.')), undefined, () => {})('getAppInfo', {})
    expect(known).toEqual({ ok: false, error: { code: 'NOT_FOUND', message: 'No such visitor.' } })

    const seen: string[] = []
    const unknown = await createDispatch(failing(new TypeError('secret=hunter2 boom')), undefined, (m) => seen.push(m))('getAppInfo', {})
    expect(unknown).toEqual({ ok: false, error: { code: 'INTERNAL', message: 'The kiosk could not complete getAppInfo.' } })
    expect(seen.join('\n')).toContain('TypeError')
  })

  it('refuses handler output that breaks the contract', async () => {
    const broken = { ...handlersWithoutServers(engineStatus), getEngineStatus: async () => ({ state: 'dancing' }) } as unknown as Handlers
    const reply = await createDispatch(broken, undefined, () => {})('getEngineStatus', {})
    expect(reply).toMatchObject({ ok: false, error: { code: 'INTERNAL' } })
  })

  it('round-trips errors through the client API as KioskErrors', async () => {
    const api = createKioskApi((method, input) => dispatch(method, input), () => () => {})
    expect(Object.isFrozen(api)).toBe(true)
    await expect(api.getAppInfo({})).resolves.toMatchObject({ shell: 'web' })
    const bad = api.getEngineStatus({ extra: true } as unknown as Record<string, never>)
    await expect(bad).rejects.toBeInstanceOf(KioskError)
    await expect(bad).rejects.toMatchObject({ code: 'INVALID_INPUT' })
  })

  it('turns an unreadable transport reply into a KioskError', async () => {
    const api = createKioskApi(async () => ({ nonsense: true }), () => () => {})
    await expect(api.getAppInfo({})).rejects.toMatchObject({ code: 'INTERNAL' })
  })
})

import { describe, expect, it } from 'vitest'
import { KioskError } from '../../electron/shared/errors'
import { createKioskApi } from '../../electron/shared/kiosk-api'
import { createDispatch, type Handlers } from '../../electron/services/dispatch'
import { handlersWithoutServers } from '../support/handlers'

const engineStatus = () => ({ mode: 'embedded' as const, state: 'running' as const, url: 'http://127.0.0.1:1', pid: 1, restarts: 0, lastError: null })

// Staff see the services' own messages; what a visitor sees is tested below.
const operator = () => ({ role: 'operator' as const, account: 'op' })

describe('dispatch', () => {
  const logs: string[] = []
  const dispatch = createDispatch(handlersWithoutServers(engineStatus), operator, (m) => logs.push(m))

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
    const known = await createDispatch(failing(new KioskError('NOT_FOUND', 'No such visitor.')), operator, () => {})('getAppInfo', {})
    expect(known).toEqual({ ok: false, error: { code: 'NOT_FOUND', message: 'No such visitor.' } })

    const seen: string[] = []
    const unknown = await createDispatch(failing(new TypeError('secret=hunter2 boom')), operator, (m) => seen.push(m))('getAppInfo', {})
    expect(unknown).toEqual({ ok: false, error: { code: 'INTERNAL', message: 'The kiosk could not complete getAppInfo.' } })
    expect(seen.join('\n')).toContain('TypeError')
  })

  it('gives a visitor plain words with the next step, never the services’ detail, which goes to the log', async () => {
    const seen: string[] = []
    const failing: Handlers = {
      ...handlersWithoutServers(engineStatus),
      verifyVisitor: async () => {
        throw new KioskError('SERVER_ERROR', 'The BioEngine answered 503: upstream pool exhausted at 10.0.0.7')
      },
    }
    const visitorDispatch = createDispatch(failing, undefined, (m) => seen.push(m))
    const reply = await visitorDispatch('verifyVisitor', { userId: 'ana@example.com', sample: 'x'.repeat(32) })
    expect(reply).toEqual({ ok: false, error: { code: 'SERVER_ERROR', message: 'The kiosk’s servers have a problem right now. Please try again in a few minutes, or ask staff.' } })
    expect(seen.join('\n')).toContain('upstream pool exhausted')
    const invalid = await visitorDispatch('verifyVisitor', { userId: 'not-an-email', sample: 'x' })
    expect(invalid).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
    expect(JSON.stringify(invalid)).not.toMatch(/verifyVisitor|✖/)
    // An unexpected failure reads the same: no method name, and the next step.
    const broken = createDispatch({ ...failing, verifyVisitor: async () => Promise.reject(new TypeError('x is undefined')) }, undefined, () => {})
    expect(await broken('verifyVisitor', { userId: 'ana@example.com', sample: 'x'.repeat(32) })).toEqual({
      ok: false,
      error: { code: 'INTERNAL', message: 'The kiosk cannot do this right now. Please ask staff for help.' },
    })
    // Staff get the detail.
    expect(await createDispatch(failing, operator, () => {})('verifyVisitor', { userId: 'ana@example.com', sample: 'x'.repeat(32) })).toMatchObject({
      error: { message: expect.stringContaining('503') },
    })
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

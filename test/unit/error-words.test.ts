import { describe, expect, it } from 'vitest'
import { BackendResolver } from '../../electron/services/backend-resolver'
import { classify } from '../../electron/services/outbox/classify'
import type { CredentialStore } from '../../electron/services/secrets/credentials'
import { errorCodes, KioskError } from '../../electron/shared/errors'
import { settingsSchema } from '../../electron/shared/settings'
import { staffNextStep, visitorError } from '../../electron/shared/visitor-errors'

// What a server, a schema or the engine might put in a message: a visitor must never read it.
const internal = 'Invalid input for verifyVisitor: ✖ Invalid email (HTTP 503) the embedded engine is not running (starting) ECONNREFUSED'
// Every visitor message ends with what to do next.
const nextStep = /try again|ask staff|sign in|take it again|check your|look straight|make sure/i

const noCredentials = {} as CredentialStore
const settings = settingsSchema.parse({})

describe('the error → visitor message mapping', () => {
  it.each(errorCodes.filter((code) => code !== 'TOO_MANY_ATTEMPTS'))('%s: plain words with a next step, never the internal text', (code) => {
    const { message } = visitorError({ code, message: internal })
    expect(message).not.toMatch(/HTTP|Invalid input|ECONN|✖|verifyVisitor|\(starting\)|`/)
    expect(message).toMatch(nextStep)
  })

  it('keeps the sign-in back-off, which is the kiosk’s own words with the wait', () => {
    expect(visitorError({ code: 'TOO_MANY_ATTEMPTS', message: 'Too many failed sign-ins. Try again in 30 seconds.' }).message).toBe('Too many failed sign-ins. Try again in 30 seconds.')
  })

  it('UNAUTHORIZED is the sign-in’s answer only for a sign-in; elsewhere the servers refused the kiosk', () => {
    expect(visitorError({ code: 'UNAUTHORIZED', message: internal }, 'signIn').message).toBe('That name and PIN or password do not match an active staff account.')
    expect(visitorError({ code: 'UNAUTHORIZED', message: internal }, 'enrollVisitor').message).toMatch(/ask staff/)
  })

  it('servers that cannot be reached ask the visitor to try later, not to fix a network', () => {
    for (const code of ['UNREACHABLE', 'TIMEOUT', 'SERVER_ERROR'] as const) expect(visitorError({ code, message: internal }).message).toMatch(/try again in a few minutes/)
  })
})

describe('a call while the embedded engine starts', () => {
  const resolver = (state: string) => new BackendResolver(noCredentials, { url: () => null, state: () => state })
  const failure = async (state: string) => (await resolver(state).backend(settings).catch((error: unknown) => error)) as KioskError

  it.each(['starting', 'restarting'])('says the kiosk is %s and to try again in a moment, with no network advice', async (state) => {
    const error = await failure(state)
    expect(error).toBeInstanceOf(KioskError)
    expect(error.code).toBe('ENGINE_UNAVAILABLE')
    expect(error.message).toMatch(/^The kiosk is starting .*try again in a moment\.$/)
    expect(staffNextStep(error.code)).not.toMatch(/network/i)
    expect(staffNextStep(error.code)).toMatch(/try again in a moment/)
    expect(visitorError(error.toJSON()).message).toBe('The kiosk is starting. Please try again in a moment; if this keeps happening, ask staff.')
  })

  it('a failed engine asks for a restart instead', async () => {
    const error = await failure('failed')
    expect(error.code).toBe('ENGINE_UNAVAILABLE')
    expect(error.message).toMatch(/not running \(failed\); restart the kiosk/)
  })

  it('the outbox keeps an enrollment made meanwhile, and sends it as soon as a probe finds the engine up', async () => {
    expect(classify(await failure('starting'))).toMatchObject({ action: 'retry', connectivity: true })
  })
})

import { randomBytes } from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createCredentialStore } from '../../electron/services/secrets/credentials'
import { createKeychain } from '../../electron/services/secrets/keychain'
import { startPrivateKeyring, type PrivateKeyring } from './private-keyring'
import { rejection } from '../support/rejection'

// A real gnome-keyring that this file locks and unlocks: its own, so that locking it cannot break
// the other keychain test files running at the same time on run-with-secret-service.sh's keyring.
let keyring: PrivateKeyring

beforeAll(async () => {
  keyring = await startPrivateKeyring()
  keyring.use()
})

afterAll(async () => {
  await keyring?.stop()
})

// One failed assertion must not leave the keyring locked for the next test.
afterEach(async () => {
  if (keyring?.isLocked()) expect(await keyring.unlock()).toBe('ok')
})

const service = () => `identity-kiosk-locked-${randomBytes(4).toString('hex')}`


/** KEYCHAIN_LOCKED with the plain operator message, and none of the given secrets in it. */
async function expectLocked(call: Promise<unknown>, ...secrets: string[]): Promise<void> {
  const error = await rejection(call)
  expect(error.code).toBe('KEYCHAIN_LOCKED')
  expect(error.message).toMatch(/^The OS keychain is locked; unlock the login keyring and try again\b/)
  for (const secret of secrets) expect(error.message).not.toContain(secret)
}

describe('keychain wrapper on a locked keyring (real gnome-keyring)', () => {
  it('says KEYCHAIN_LOCKED for reads, writes and deletes instead of "not stored", then works once unlocked', async () => {
    const keychain = createKeychain(service())
    const secret = `s3cr3t-${randomBytes(8).toString('hex')}`
    await keychain.set('stored', secret)
    expect(await keychain.get('stored')).toBe(secret)
    expect(await keychain.get('absent')).toBeNull()

    keyring.lock()
    expect(keyring.isLocked()).toBe(true)

    await expectLocked(keychain.get('stored'), secret)
    await expectLocked(keychain.get('absent'))
    await expectLocked(keychain.set('stored', `${secret}-new`), secret)
    await expectLocked(keychain.set('other', `${secret}-other`), secret)
    await expectLocked(keychain.delete('stored'), secret)
    expect(await keychain.state()).toBe('locked')

    // A wrong password leaves it locked; the right one unlocks it.
    expect(await keyring.unlock('not-the-password')).toBe('denied')
    expect(keyring.isLocked()).toBe(true)
    await expectLocked(keychain.get('stored'))
    expect(await keyring.unlock()).toBe('ok')
    expect(keyring.isLocked()).toBe(false)

    // Nothing attempted while locked went through, and everything works again.
    expect(await keychain.state()).toBe('ready')
    expect(await keychain.get('stored')).toBe(secret)
    expect(await keychain.get('other')).toBeNull()
    await keychain.set('stored', `${secret}-rotated`)
    expect(await keychain.get('stored')).toBe(`${secret}-rotated`)
    expect(await keychain.delete('stored')).toBe(true)
    expect(await keychain.get('stored')).toBeNull()
  })

  it('tells locked from absent on first use too: a fresh wrapper, and a service never used before', async () => {
    const used = service()
    await createKeychain(used).set('stored', 'value-1')
    keyring.lock()
    // A restarted kiosk: a new wrapper that has not seen the canary yet.
    await expectLocked(createKeychain(used).get('stored'))
    await expectLocked(createKeychain(used).get('absent'))
    // A service that never wrote anything: no canary at all, and nothing can be written.
    await expectLocked(createKeychain(service()).get('anything'))
    expect(await createKeychain(service()).state()).toBe('locked')
    expect(await keyring.unlock()).toBe('ok')
    expect(await createKeychain(used).get('stored')).toBe('value-1')
  })

  it('keeps saying locked on repeated calls, without crashing the process', async () => {
    const keychain = createKeychain(service())
    expect(await keychain.get('x')).toBeNull()
    keyring.lock()
    for (let i = 0; i < 5; i++) await expectLocked(keychain.get('x'))
    await Promise.all([expectLocked(keychain.get('x')), expectLocked(keychain.set('x', 'y')), expectLocked(keychain.delete('x'))])
    expect(await keyring.unlock()).toBe('ok')
    expect(await keychain.get('x')).toBeNull()
  })
})

describe('credential store on a locked keyring (real gnome-keyring)', () => {
  it('never replaces keys or hides credentials while locked, and serves the same values once unlocked', async () => {
    const name = service()
    const credentials = createCredentialStore(createKeychain(name))
    const clientSecret = `secret-${randomBytes(8).toString('hex')}`
    await credentials.setServerCredentials({ clientId: 'kiosk-client', clientSecret })
    const outboxKey = await credentials.outboxKey()
    const templateKey = await credentials.engineTemplateKey()
    const engine = await credentials.embeddedEngineCredentials()

    keyring.lock()
    const values = [clientSecret, outboxKey.toString('base64'), templateKey.toString('base64'), engine.clientSecret]
    // A fresh store, as after a restart, so nothing is remembered in memory either.
    const afterRestart = createCredentialStore(createKeychain(name))
    for (const store of [credentials, afterRestart]) {
      await expectLocked(store.credentialStatus(), ...values)
      await expectLocked(store.serverCredentials(), ...values)
      await expectLocked(store.personServerClient(), ...values)
      await expectLocked(store.outboxKey(), ...values)
      await expectLocked(store.engineTemplateKey(), ...values)
      await expectLocked(store.embeddedEngineCredentials(), ...values)
      await expectLocked(store.setServerCredentials({ clientSecret: 'replacement-secret' }), ...values)
      await expectLocked(store.clearServerCredentials(), ...values)
      expect(await store.keychainState()).toBe('locked')
    }
    // Many calls at once (libsecret alone would hang on three concurrent lookups of a locked keyring).
    await Promise.all(
      [credentials, afterRestart].flatMap((store) => [
        expectLocked(store.credentialStatus(), ...values),
        expectLocked(store.outboxKey(), ...values),
        expectLocked(store.engineTemplateKey(), ...values),
        expectLocked(store.embeddedEngineCredentials(), ...values),
        expectLocked(store.personServerClient(), ...values),
      ]),
    )

    expect(await keyring.unlock()).toBe('ok')
    expect(await credentials.keychainState()).toBe('ready')
    expect(await credentials.credentialStatus()).toEqual({ clientId: true, clientSecret: true, bioengineJwt: false })
    expect(await afterRestart.personServerClient()).toEqual({ clientId: 'kiosk-client', clientSecret })
    expect((await afterRestart.outboxKey()).equals(outboxKey)).toBe(true)
    expect((await afterRestart.engineTemplateKey()).equals(templateKey)).toBe(true)
    expect(await afterRestart.embeddedEngineCredentials()).toEqual(engine)
  })
})


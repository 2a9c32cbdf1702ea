import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { KioskError } from '../../electron/shared/errors'
import { createKeychain, KEYCHAIN_CANARY_ACCOUNT } from '../../electron/services/secrets/keychain'
import { projectRoot } from '../support/process'

// Runs inside test/keychain/run-with-secret-service.sh: a real gnome-keyring on a private bus.
describe('keychain (real Secret Service)', () => {
  const keychain = createKeychain(`identity-kiosk-test-${randomBytes(4).toString('hex')}`)

  it('stores, reads back and deletes a secret', async () => {
    const secret = `s3cr3t-${randomBytes(8).toString('hex')}`
    expect(await keychain.get('client-secret')).toBeNull()
    await keychain.set('client-secret', secret)
    expect(await keychain.get('client-secret')).toBe(secret)
    await keychain.set('client-secret', `${secret}-rotated`)
    expect(await keychain.get('client-secret')).toBe(`${secret}-rotated`)
    expect(await keychain.delete('client-secret')).toBe(true)
    expect(await keychain.get('client-secret')).toBeNull()
    expect(await keychain.delete('client-secret')).toBe(false)
  })

  it('keeps accounts apart', async () => {
    await keychain.set('a', 'first')
    await keychain.set('b', 'second')
    expect(await keychain.get('a')).toBe('first')
    expect(await keychain.get('b')).toBe('second')
    await keychain.delete('a')
    await keychain.delete('b')
  })

  it('says plainly when there is no Secret Service, and does not crash', () => {
    // A process whose session bus does not exist stands for a desktop without a keyring.
    const script = `
      import { createKeychain } from './electron/services/secrets/keychain.ts'
      createKeychain('identity-kiosk-test').get('x').then(
        () => console.log('NO ERROR'),
        (e) => console.log(e.code + ': ' + e.message))`
    const env = { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus', DISPLAY: '' }
    const args = ['--import', 'tsx', '--input-type=module', '-e', script]
    const run = spawnSync(process.execPath, args, { cwd: projectRoot, env, encoding: 'utf8', timeout: 20_000 })
    expect(run.status).toBe(0)
    expect(run.stdout).toMatch(/^KEYCHAIN_UNAVAILABLE: The OS keychain \(Secret Service\) is not available/m)
  })
})

describe('keychain state and the canary entry (real Secret Service)', () => {
  it('reports ready, and proves "not stored" with a public canary entry, never a secret', async () => {
    const service = `identity-kiosk-test-${randomBytes(4).toString('hex')}`
    const keychain = createKeychain(service)
    expect(await keychain.state()).toBe('ready')
    expect(await keychain.get('nothing-here')).toBeNull()
    // The canary is a fixed, non-secret marker under the same service.
    const canary = await createKeychain(service).get(KEYCHAIN_CANARY_ACCOUNT)
    expect(canary).toMatch(/^identity-kiosk keychain canary v\d+$/)
    // A second wrapper (a restarted kiosk) trusts the canary it finds.
    expect(await createKeychain(service).get('nothing-here')).toBeNull()
    expect(await createKeychain(service).delete('nothing-here')).toBe(false)
  })

  it('reports unavailable, without throwing, when there is no Secret Service', () => {
    const script = `
      import { createKeychain } from './electron/services/secrets/keychain.ts'
      createKeychain('identity-kiosk-test').state().then((s) => console.log('STATE ' + s), (e) => console.log('THREW ' + e.code))`
    const env = { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus', DISPLAY: '' }
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: projectRoot, env, encoding: 'utf8', timeout: 20_000 })
    expect(run.status).toBe(0)
    expect(run.stdout.trim()).toBe('STATE unavailable')
  })
})

describe('keychain call queue (real Secret Service)', () => {
  it('runs calls one at a time; a call whose deadline passes while queued fails plainly and never runs', async () => {
    const service = `identity-kiosk-test-${randomBytes(4).toString('hex')}`
    const keychain = createKeychain(service)
    await keychain.set('queued', 'first')
    // Keep the queue busy with real lookups, then queue a write that may wait only 5 ms.
    const busy = Array.from({ length: 100 }, () => keychain.get('queued'))
    const late = createKeychain(service, { timeoutMs: 5 }).set('queued', 'second')
    const error = await late.then(
      () => null,
      (e: unknown) => e as KioskError,
    )
    expect(error?.code).toBe('KEYCHAIN_UNAVAILABLE')
    expect(error?.message).toMatch(/^The OS keychain did not answer within 0 s/)
    expect(await Promise.all(busy)).toEqual(Array(100).fill('first'))
    // The expired write never reached the keychain.
    expect(await keychain.get('queued')).toBe('first')
    await keychain.delete('queued')
  })
})

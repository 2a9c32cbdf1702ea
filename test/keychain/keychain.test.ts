import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createKeychain } from '../../electron/services/secrets/keychain'
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

import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { defaultDataDir } from '../../electron/services/data-dir'
import { createKioskServices, type KioskServices } from '../../electron/services/kiosk-services'
import { KEYCHAIN_SERVICE, keychainServiceFor } from '../../electron/services/secrets/keychain'
import { adminDispatch } from '../support/staff'

// Two kiosks on one OS account (a staging copy, `start:web --data`, the e2e hosts) each keep their
// own secrets: one's stored credentials never show up in, or get replaced by, the other.
describe('the keychain is scoped to the data folder', () => {
  const started: KioskServices[] = []
  afterAll(async () => {
    for (const services of started) await services.stop()
  })
  const kiosk = async () => {
    const services = createKioskServices({ shell: 'web', version: '0.0.0-test', dataDir: mkdtempSync(join(tmpdir(), 'kiosk-scope-')), launchEngine: () => { throw new Error('no engine in this test') }, log: () => {} })
    started.push(services)
    const call = await adminDispatch(services.dispatch)
    return async (method: string, input: unknown = {}) => {
      const reply = await call(method, input)
      if (!reply.ok) throw new Error(`${method}: ${reply.error.code} ${reply.error.message}`)
      return reply.value as Record<string, unknown>
    }
  }

  it('credentials stored by one kiosk are not seen by a kiosk on another data folder', async () => {
    const first = await kiosk()
    const second = await kiosk()
    await first('setCredentials', { clientId: 'scope-client-a', clientSecret: 'scope-secret-a-0123' })
    expect(await first('getCredentialStatus')).toMatchObject({ clientId: true, clientSecret: true })
    expect(await second('getCredentialStatus')).toMatchObject({ clientId: false, clientSecret: false })
    await second('setCredentials', { clientId: 'scope-client-b' })
    await second('clearCredentials', {})
    expect(await first('getCredentialStatus')).toMatchObject({ clientId: true, clientSecret: true })
  })

  it('the per-user default folder keeps the plain service name, shared by the desktop app and the web host', () => {
    const env = { ...process.env, KIOSK_DATA_DIR: undefined }
    expect(keychainServiceFor(defaultDataDir(env), env)).toBe(KEYCHAIN_SERVICE)
    expect(keychainServiceFor('/srv/kiosk-staging', env)).toBe(`${KEYCHAIN_SERVICE} (/srv/kiosk-staging)`)
    expect(keychainServiceFor('/srv/kiosk-staging/', env)).toBe(keychainServiceFor('/srv/kiosk-staging', env))
  })
})

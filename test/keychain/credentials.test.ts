import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { credentialStatusSchema } from '../../electron/shared/settings'
import { createCredentialStore, credentialAccounts } from '../../electron/services/secrets/credentials'
import { createKeychain } from '../../electron/services/secrets/keychain'
import { createSettingsStore } from '../../electron/services/settings-store'
import { projectRoot } from '../support/process'
import { rejection } from '../support/rejection'

// Runs inside test/keychain/run-with-secret-service.sh: a real gnome-keyring on a private bus.
// Each test uses its own keychain service name, so it starts empty and stays apart from other files.
const fresh = () => {
  const keychain = createKeychain(`identity-kiosk-test-${randomBytes(4).toString('hex')}`)
  return { keychain, credentials: createCredentialStore(keychain) }
}
const token = () => randomBytes(12).toString('base64url')
const jwt = () => `${token()}.${token()}.${token()}`


const dirs: string[] = []
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

describe('credential store (real Secret Service)', () => {
  it('stores, updates, reads and clears the server credentials', async () => {
    const { credentials, keychain } = fresh()
    expect(await credentials.credentialStatus()).toEqual({ clientId: false, clientSecret: false, bioengineJwt: false })
    expect(await credentials.serverCredentials()).toEqual({ clientId: null, clientSecret: null, bioengineJwt: null })

    const clientSecret = `secret-${token()}`
    expect(await credentials.setServerCredentials({ clientId: 'kiosk-client', clientSecret })).toEqual({ clientId: true, clientSecret: true, bioengineJwt: false })
    expect(await credentials.personServerClient()).toEqual({ clientId: 'kiosk-client', clientSecret })
    // They are in the OS keychain, under the documented account names.
    expect(await keychain.get(credentialAccounts.clientSecret)).toBe(clientSecret)

    // Fields left out stay as they are.
    const bioengineJwt = jwt()
    expect(await credentials.setServerCredentials({ bioengineJwt })).toEqual({ clientId: true, clientSecret: true, bioengineJwt: true })
    await credentials.setServerCredentials({ clientSecret: `${clientSecret}-rotated` })
    expect(await credentials.serverCredentials()).toEqual({ clientId: 'kiosk-client', clientSecret: `${clientSecret}-rotated`, bioengineJwt })
    expect(await credentials.bioEngineJwt()).toBe(bioengineJwt)

    // A new store over the same keychain (a restarted kiosk) sees the same values.
    expect(await createCredentialStore(keychain).serverCredentials()).toEqual({ clientId: 'kiosk-client', clientSecret: `${clientSecret}-rotated`, bioengineJwt })

    expect(await credentials.clearServerCredentials(['bioengineJwt'])).toEqual({ clientId: true, clientSecret: true, bioengineJwt: false })
    expect(await credentials.clearServerCredentials()).toEqual({ clientId: false, clientSecret: false, bioengineJwt: false })
    expect(await credentials.serverCredentials()).toEqual({ clientId: null, clientSecret: null, bioengineJwt: null })
    expect(await credentials.clearServerCredentials()).toEqual({ clientId: false, clientSecret: false, bioengineJwt: false })
  })

  it('says NOT_CONFIGURED, plainly, when the services ask for credentials that are not stored', async () => {
    const { credentials } = fresh()
    const missingClient = await rejection(credentials.personServerClient())
    expect(missingClient.code).toBe('NOT_CONFIGURED')
    await credentials.setServerCredentials({ clientId: 'only-the-id' })
    expect((await rejection(credentials.personServerClient())).code).toBe('NOT_CONFIGURED')
    expect((await rejection(credentials.bioEngineJwt())).code).toBe('NOT_CONFIGURED')
  })

  it('shows the renderer presence only, never a value', async () => {
    const { credentials } = fresh()
    const values = { clientId: `id-${token()}`, clientSecret: `secret-${token()}`, bioengineJwt: jwt() }
    const status = await credentials.setServerCredentials(values)
    for (const shown of [status, await credentials.credentialStatus()]) {
      expect(shown).toEqual({ clientId: true, clientSecret: true, bioengineJwt: true })
      expect(credentialStatusSchema.parse(shown)).toEqual(shown)
      const text = JSON.stringify(shown)
      for (const value of Object.values(values)) expect(text).not.toContain(value)
    }
  })

  it('rejects bad credentials with INVALID_INPUT naming the rule, never the value, and stores nothing', async () => {
    const { credentials } = fresh()
    const bad: Array<[unknown, RegExp]> = [
      [{ clientSecret: '' }, /client secret must not be empty/],
      [{ clientId: 'x'.repeat(257) }, /client id must be at most 256 characters/],
      [{ clientSecret: 'with\nnewline-SECRETVALUE' }, /control characters/],
      [{ clientSecret: ' padded-SECRETVALUE ' }, /must not start or end with spaces/],
      [{ bioengineJwt: 'Bearer SECRETVALUE.abc.def' }, /must be a JWT/],
      [{ bioengineJwt: 'SECRETVALUE' }, /must be a JWT/],
      [{ clientId: 42 }, /expected string/],
      [{}, /at least one credential/],
      [{ password: 'SECRETVALUE' }, /Unknown field\(s\): password/],
    ]
    for (const [input, reason] of bad) {
      const error = await rejection(credentials.setServerCredentials(input as never))
      expect(error.code).toBe('INVALID_INPUT')
      expect(error.message).toMatch(reason)
      expect(error.message).not.toContain('SECRETVALUE')
    }
    // One bad field stops the whole call: the good field next to it is not stored either.
    await rejection(credentials.setServerCredentials({ clientId: 'good-id', clientSecret: '' }))
    expect(await credentials.credentialStatus()).toEqual({ clientId: false, clientSecret: false, bioengineJwt: false })
  })

  it('creates the outbox and template keys once: 32 random bytes, stable, per install', async () => {
    const { credentials, keychain } = fresh()
    // Concurrent first use still makes one key.
    const [a, b] = await Promise.all([credentials.outboxKey(), credentials.outboxKey()])
    expect(a.length).toBe(32)
    expect(a.equals(b)).toBe(true)
    expect((await credentials.outboxKey()).equals(a)).toBe(true)
    expect((await createCredentialStore(keychain).outboxKey()).equals(a)).toBe(true)
    expect(await keychain.get(credentialAccounts.outboxKey)).toBe(a.toString('base64'))

    const template = await credentials.engineTemplateKey()
    expect(template.length).toBe(32)
    expect(template.equals(a)).toBe(false)
    expect((await createCredentialStore(keychain).engineTemplateKey()).equals(template)).toBe(true)

    // The key invite codes are signed with: its own, kept in the keychain under its own name.
    const invite = await credentials.inviteKey()
    expect(invite.length).toBe(32)
    expect(invite.equals(a) || invite.equals(template)).toBe(false)
    expect(await keychain.get(credentialAccounts.inviteKey)).toBe(invite.toString('base64'))
    expect((await createCredentialStore(keychain).inviteKey()).equals(invite)).toBe(true)

    // Another install (another keychain) gets other keys.
    const other = fresh().credentials
    expect((await other.outboxKey()).equals(a)).toBe(false)
    expect((await other.engineTemplateKey()).equals(template)).toBe(false)
  })

  it('refuses a damaged key instead of silently replacing it', async () => {
    const { credentials, keychain } = fresh()
    await keychain.set(credentialAccounts.outboxKey, 'not a 32-byte key')
    const error = await rejection(credentials.outboxKey())
    expect(error.code).toBe('INTERNAL')
    expect(error.message).toMatch(/outbox key in the OS keychain is damaged/)
    expect(error.message).not.toContain('not a 32-byte key')
    expect(await keychain.get(credentialAccounts.outboxKey)).toBe('not a 32-byte key')
  })

  it('creates the embedded engine client once per install', async () => {
    const { credentials, keychain } = fresh()
    const [first, again] = await Promise.all([credentials.embeddedEngineCredentials(), credentials.embeddedEngineCredentials()])
    expect(first.clientId).toMatch(/^kiosk-[0-9a-f]{16}$/)
    expect(first.clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(again).toEqual(first)
    expect(await createCredentialStore(keychain).embeddedEngineCredentials()).toEqual(first)
    expect(await fresh().credentials.embeddedEngineCredentials()).not.toEqual(first)
    // The engine client is not the person-server client the renderer manages.
    expect(await credentials.credentialStatus()).toEqual({ clientId: false, clientSecret: false, bioengineJwt: false })
  })

  it('never lets a credential reach the settings file', async () => {
    const { credentials } = fresh()
    const values = { clientId: `id-${token()}`, clientSecret: `secret-${token()}`, bioengineJwt: jwt() }
    await credentials.setServerCredentials(values)
    const keys = [(await credentials.outboxKey()).toString('base64'), (await credentials.engineTemplateKey()).toString('base64')]
    const engine = await credentials.embeddedEngineCredentials()
    const secrets = [...Object.values(values), ...keys, engine.clientId, engine.clientSecret]

    const dataDir = mkdtempSync(join(tmpdir(), 'kiosk-settings-'))
    dirs.push(dataDir)
    const settings = createSettingsStore({ dataDir, log: () => {} })
    await settings.save({ mode: 'remote', personServerUrl: 'https://persons.example.test', bioEngineUrl: 'https://bio.example.test/bioengine', bioEngineAuth: 'stored-jwt' })
    await settings.update({ tenantCode: 'LOBBY' })
    // Attempts to smuggle a credential in are refused.
    await rejection(settings.save({ clientSecret: values.clientSecret } as never))
    await rejection(settings.update({ personServerUrl: `https://${values.clientId}:${values.clientSecret}@persons.example.test` }))

    const files = readdirSync(dataDir)
    expect(files).toEqual(['settings.json'])
    const text = readFileSync(join(dataDir, 'settings.json'), 'utf8')
    expect(JSON.parse(text)).toMatchObject({ mode: 'remote', tenantCode: 'LOBBY', bioEngineAuth: 'stored-jwt' })
    for (const secret of secrets) expect(text).not.toContain(secret)
  })

  it('says KEYCHAIN_UNAVAILABLE when there is no Secret Service, and does not crash', () => {
    const script = `
      import { createCredentialStore } from './electron/services/secrets/credentials.ts'
      import { createKeychain } from './electron/services/secrets/keychain.ts'
      const store = createCredentialStore(createKeychain('identity-kiosk-test'))
      const show = (name, p) => p.then(() => console.log(name + ' NO ERROR'), (e) => console.log(name + ' ' + e.code + ': ' + e.message))
      await show('status', store.credentialStatus())
      await show('set', store.setServerCredentials({ clientSecret: 'SECRETVALUE' }))
      await show('key', store.outboxKey())
      console.log('state ' + await store.keychainState())`
    const env = { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus', DISPLAY: '' }
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: projectRoot, env, encoding: 'utf8', timeout: 20_000 })
    expect(run.status).toBe(0)
    for (const name of ['status', 'set', 'key']) {
      expect(run.stdout).toMatch(new RegExp(`^${name} KEYCHAIN_UNAVAILABLE: The OS keychain \\(Secret Service\\) is not available`, 'm'))
    }
    expect(run.stdout).toMatch(/^state unavailable$/m)
    expect(run.stdout).not.toContain('SECRETVALUE')
  })
})

import { mkdtempSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openAccounts } from '../../electron/services/staff/accounts'
import { KioskError, unwrapEnvelope } from '../../electron/shared/errors'
import { Sessions } from '../../electron/services/staff/sessions'
import { signInInput } from '../../electron/shared/staff'

// Staff accounts on a real SQLite file, and the session table, each with a clock the test moves.
describe('staff accounts', () => {
  const setup = () => {
    const dir = mkdtempSync(join(tmpdir(), 'kiosk-accounts-'))
    const clock = { now: 1_000_000 }
    const open = () => openAccounts({ dir, now: () => clock.now })
    return { dir, clock, open }
  }

  it('keeps only a salted scrypt hash in a private file, and refuses a second first administrator', async () => {
    const { dir, open } = setup()
    const accounts = open()
    await accounts.createFirst('Ada', 'correct horse 1')
    await expect(accounts.createFirst('Mallory', 'another-secret')).rejects.toMatchObject({ code: 'FORBIDDEN' })
    await accounts.create('Otto', 'operator', 'correct horse 1')
    accounts.close()
    const bytes = readFileSync(join(dir, 'accounts.db'))
    expect(bytes.includes(Buffer.from('correct horse 1'))).toBe(false)
    expect((statSync(join(dir, 'accounts.db')).mode & 0o777).toString(8)).toBe('600')
    const reopened = open()
    // The same secret under two accounts: two salts, two hashes.
    await expect(reopened.verify('ada', 'correct horse 1')).resolves.toMatchObject({ name: 'Ada', role: 'admin' })
    await expect(reopened.verify('Otto', 'correct horse 1')).resolves.toMatchObject({ role: 'operator' })
    reopened.close()
  })

  it('creating the first administrator signs them in: it counts as their last sign-in', async () => {
    const { clock, open } = setup()
    const accounts = open()
    const created = await accounts.createFirst('Ada', 'correct horse 1')
    expect(created.lastSignInAt).toBe(clock.now)
    expect(accounts.list().find((a) => a.name === 'Ada')?.lastSignInAt).toBe(clock.now)
    // An account made by an administrator has not signed in yet.
    expect((await accounts.create('Otto', 'operator', 'correct horse 1')).lastSignInAt).toBeNull()
    accounts.close()
  })

  it('knows a name whatever its case or Unicode form: "Élise" signs in as "élise" or with a decomposed É, and no second "ÉLISE" can be made', async () => {
    const { open } = setup()
    const accounts = open()
    await accounts.createFirst(signInInput.parse({ name: 'Élise', secret: 'right-secret' }).name, 'right-secret')
    for (const typed of ['élise', 'ÉLISE', 'E\u0301lise', ' e\u0301LISE ']) {
      const { name } = signInInput.parse({ name: typed, secret: 'right-secret' })
      await expect(accounts.verify(name, 'right-secret'), typed).resolves.toMatchObject({ name: 'Élise', role: 'admin' })
    }
    await expect(accounts.create('ÉLISE', 'operator', 'another-secret')).rejects.toMatchObject({ code: 'REJECTED' })
    // Failures count against the account, whichever form was typed.
    for (let i = 0; i < 3; i++) await expect(accounts.verify('élise', 'wrong')).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    await expect(accounts.verify('ÉLISE', 'right-secret')).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS' })
    accounts.close()
  })

  it('backs off exponentially after failures, across a restart, and answers an unknown name the same way', async () => {
    const { clock, open } = setup()
    let accounts = open()
    await accounts.createFirst('Ada', 'right-secret')
    for (let i = 0; i < 3; i++) await expect(accounts.verify('Ada', 'wrong')).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    // Paused now: even the right secret waits.
    await expect(accounts.verify('Ada', 'right-secret')).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS', message: expect.stringContaining('5 seconds'), retryAfterSeconds: 5 })
    // The wait travels with the error (the sign-in form counts it down), through the transport's envelope.
    const paused = (await accounts.verify('Ada', 'right-secret').then(() => null, (error: unknown) => error)) as KioskError
    expect(() => unwrapEnvelope({ ok: false, error: paused.toJSON() })).toThrow(expect.objectContaining({ code: 'TOO_MANY_ATTEMPTS', retryAfterSeconds: 5 }))
    accounts.close()
    accounts = open() // a restart does not lift the pause
    await expect(accounts.verify('Ada', 'right-secret')).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS' })
    clock.now += 5_001
    await expect(accounts.verify('Ada', 'wrong')).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    await expect(accounts.verify('Ada', 'right-secret')).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS', message: expect.stringContaining('10 seconds') })
    clock.now += 10_001
    await expect(accounts.verify('Ada', 'right-secret')).resolves.toMatchObject({ name: 'Ada' })

    const unknown = await accounts.verify('Nobody', 'whatever').catch((error: unknown) => error)
    const wrong = await accounts.verify('Ada', 'whatever').catch((error: unknown) => error)
    expect(unknown).toEqual(wrong)
    accounts.close()
  })

  it('refuses a disabled account, and never disables the last active administrator', async () => {
    const { open } = setup()
    const accounts = open()
    await accounts.createFirst('Ada', 'right-secret')
    expect(() => accounts.setDisabled('Ada', true)).toThrow(expect.objectContaining({ code: 'REJECTED' }))
    await accounts.create('Otto', 'operator', 'otto-secret')
    accounts.setDisabled('Otto', true)
    await expect(accounts.verify('Otto', 'otto-secret')).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    accounts.setDisabled('Otto', false)
    await expect(accounts.verify('Otto', 'otto-secret')).resolves.toMatchObject({ disabled: false })
    accounts.close()
  })
})

describe('staff sessions', () => {
  it('end after the idle limit, which status polls do not reset, and say so once', () => {
    let now = 0
    const expired: string[] = []
    const sessions = new Sessions({ idleMs: () => 60_000, now: () => now, onExpired: (key, who) => expired.push(`${key}:${who.account}`) })
    sessions.begin('tab-1', 'Ada', 'admin')
    now = 50_000
    expect(sessions.actor('tab-1', true)).toEqual({ role: 'admin', account: 'Ada' }) // a real call: activity
    now = 100_000
    expect(sessions.actor('tab-1', false)).toEqual({ role: 'admin', account: 'Ada' }) // a poll: no activity
    now = 111_000
    sessions.sweep()
    expect(sessions.actor('tab-1', true)).toEqual({ role: 'visitor', account: null })
    expect(expired).toEqual(['tab-1:Ada'])
    expect(sessions.actor('other-tab')).toEqual({ role: 'visitor', account: null })
  })
})

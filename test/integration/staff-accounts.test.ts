import { mkdtempSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createFrontDesk } from '../../electron/records/frontdesk/create-front-desk'
import type { FrontDesk } from '../../electron/records/frontdesk/front-desk'
import { FRONTDESK_FILE, openLocalFrontDesk, type LocalFrontDesk } from '../../electron/records/frontdesk/local'
import { StoreUnavailableError, type Database } from '../../electron/records/sql/types'
import { KioskError, unwrapEnvelope } from '../../electron/shared/errors'
import { Sessions } from '../../electron/services/staff/sessions'
import { signInInput } from '../../electron/shared/staff'

// Staff accounts of a kiosk on its own (its front desk on a real SQLite file, frontdesk.db), and
// the kiosk's session table, each with a clock the test moves.
describe('staff accounts', () => {
  const setup = () => {
    const dir = mkdtempSync(join(tmpdir(), 'kiosk-accounts-'))
    const clock = { now: 1_000_000 }
    let opened: LocalFrontDesk | null = null
    /** The front desk, opened again (a restart) each time. */
    const open = async (): Promise<FrontDesk> => {
      await opened?.close()
      opened = await openLocalFrontDesk({ dataDir: dir, now: () => clock.now })
      return opened.frontDesk
    }
    const close = async () => opened?.close()
    /** A sign-in's account, as the kiosk's verifyAdmin reads it. */
    const verify = async (desk: FrontDesk, name: string, secret: string) => (await desk.signIn(name, secret, 'test-kiosk')).account
    return { dir, clock, open, close, verify }
  }

  it('keeps only a salted scrypt hash in a private file, and refuses a second first administrator', async () => {
    const { dir, open, close, verify } = setup()
    const accounts = await open()
    await accounts.createFirstAdmin('Ada', 'correct horse 1', null)
    await expect(accounts.createFirstAdmin('Mallory', 'another-secret', null)).rejects.toMatchObject({ code: 'FORBIDDEN' })
    await accounts.createAccount('Otto', 'operator', 'correct horse 1')
    await close()
    const bytes = readFileSync(join(dir, FRONTDESK_FILE))
    expect(bytes.includes(Buffer.from('correct horse 1'))).toBe(false)
    expect((statSync(join(dir, FRONTDESK_FILE)).mode & 0o777).toString(8)).toBe('600')
    const reopened = await open()
    // The same secret under two accounts: two salts, two hashes.
    await expect(verify(reopened, 'ada', 'correct horse 1')).resolves.toMatchObject({ name: 'Ada', role: 'admin' })
    await expect(verify(reopened, 'Otto', 'correct horse 1')).resolves.toMatchObject({ role: 'operator' })
    await close()
  })

  it('creating the first administrator signs them in: it counts as their last sign-in', async () => {
    const { clock, open, close } = setup()
    const accounts = await open()
    const created = await accounts.createFirstAdmin('Ada', 'correct horse 1', null)
    expect(created.account.lastSignInAt).toBe(clock.now)
    // Signed in: the session it came with is the administrator's.
    expect(await accounts.session(created.session)).toEqual({ account: 'Ada', role: 'admin' })
    expect((await accounts.listAccounts()).find((a) => a.name === 'Ada')?.lastSignInAt).toBe(clock.now)
    // An account made by an administrator has not signed in yet.
    expect((await accounts.createAccount('Otto', 'operator', 'correct horse 1')).lastSignInAt).toBeNull()
    await close()
  })

  it('knows a name whatever its case or Unicode form: "Élise" signs in as "élise" or with a decomposed É, and no second "ÉLISE" can be made', async () => {
    const { open, close, verify } = setup()
    const accounts = await open()
    await accounts.createFirstAdmin(signInInput.parse({ name: 'Élise', secret: 'right-secret' }).name, 'right-secret', null)
    for (const typed of ['élise', 'ÉLISE', 'E\u0301lise', ' e\u0301LISE ']) {
      const { name } = signInInput.parse({ name: typed, secret: 'right-secret' })
      await expect(verify(accounts, name, 'right-secret'), typed).resolves.toMatchObject({ name: 'Élise', role: 'admin' })
    }
    await expect(accounts.createAccount('ÉLISE', 'operator', 'another-secret')).rejects.toMatchObject({ code: 'REJECTED' })
    // Failures count against the account, whichever form was typed.
    for (let i = 0; i < 3; i++) await expect(verify(accounts, 'élise', 'wrong')).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    await expect(verify(accounts, 'ÉLISE', 'right-secret')).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS' })
    await close()
  })

  it('checks a session while the database takes no writes (a failover: reads from the standby): answered from the read, its activity written on a later call; one idle past the limit still ends', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kiosk-accounts-'))
    const clock = { now: 1_000_000 }
    const local = await openLocalFrontDesk({ dataDir: dir, now: () => clock.now })
    let writable = true
    // The site's database as the engines see it while its primary is lost: reads answer, writes are refused as unavailable (a 503).
    const standby = new Proxy(local.database, {
      get(target, property) {
        if (!writable && (property === 'run' || property === 'exec' || property === 'transaction')) return () => Promise.reject(new StoreUnavailableError('the primary cannot be reached'))
        const value = Reflect.get(target, property) as unknown
        return typeof value === 'function' ? value.bind(target) : value
      },
    }) as Database
    const idleMs = 60 * 60_000
    const desk = createFrontDesk(standby, { now: () => clock.now, sessionIdleMs: idleMs })
    try {
      const { session } = await desk.createFirstAdmin('Ada', 'correct horse 1', null)
      // A minute on: the check would write the session's activity, and the database takes no writes.
      clock.now += 60_000
      writable = false
      expect(await desk.session(session)).toEqual({ account: 'Ada', role: 'admin' })
      // Writable again a second later: this call's activity is written, so the idle limit counts from it.
      clock.now += 1_000
      writable = true
      expect(await desk.session(session)).toEqual({ account: 'Ada', role: 'admin' })
      clock.now += idleMs - 1
      expect(await desk.session(session)).toEqual({ account: 'Ada', role: 'admin' })
      // Idle past the limit while no writes are taken: ended all the same (it is forgotten once the database takes writes).
      clock.now += idleMs + 1
      writable = false
      await expect(desk.session(session)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    } finally {
      await local.close()
    }
  })

  it('backs off exponentially after failures, across a restart, and answers an unknown name the same way', async () => {
    const { clock, open, close, verify } = setup()
    let accounts = await open()
    await accounts.createFirstAdmin('Ada', 'right-secret', null)
    for (let i = 0; i < 3; i++) await expect(verify(accounts, 'Ada', 'wrong')).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    // Paused now: even the right secret waits.
    await expect(verify(accounts, 'Ada', 'right-secret')).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS', message: expect.stringContaining('5 seconds'), retryAfterSeconds: 5 })
    // The wait travels with the error (the sign-in form counts it down), through the transport's envelope.
    const paused = (await verify(accounts, 'Ada', 'right-secret').then(() => null, (error: unknown) => error)) as KioskError
    expect(() => unwrapEnvelope({ ok: false, error: paused.toJSON() })).toThrow(expect.objectContaining({ code: 'TOO_MANY_ATTEMPTS', retryAfterSeconds: 5 }))
    accounts = await open() // a restart does not lift the pause
    await expect(verify(accounts, 'Ada', 'right-secret')).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS' })
    clock.now += 5_001
    await expect(verify(accounts, 'Ada', 'wrong')).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    await expect(verify(accounts, 'Ada', 'right-secret')).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS', message: expect.stringContaining('10 seconds') })
    clock.now += 10_001
    await expect(verify(accounts, 'Ada', 'right-secret')).resolves.toMatchObject({ name: 'Ada' })

    const unknown = await verify(accounts, 'Nobody', 'whatever').catch((error: unknown) => error)
    const wrong = await verify(accounts, 'Ada', 'whatever').catch((error: unknown) => error)
    expect(unknown).toEqual(wrong)
    await close()
  })

  it('refuses a disabled account (its open sessions too), and never disables the last active administrator', async () => {
    const { open, close, verify } = setup()
    const accounts = await open()
    await accounts.createFirstAdmin('Ada', 'right-secret', null)
    await expect(accounts.setAccountDisabled('Ada', true)).rejects.toMatchObject({ code: 'REJECTED' })
    await accounts.createAccount('Otto', 'operator', 'otto-secret')
    const otto = await accounts.signIn('Otto', 'otto-secret', null)
    await accounts.setAccountDisabled('Otto', true)
    await expect(accounts.session(otto.session)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    await expect(verify(accounts, 'Otto', 'otto-secret')).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    await accounts.setAccountDisabled('Otto', false)
    await expect(verify(accounts, 'Otto', 'otto-secret')).resolves.toMatchObject({ disabled: false })
    await close()
  })
})

describe('staff sessions', () => {
  it('end after the idle limit, which status polls do not reset, and say so once', () => {
    let now = 0
    const expired: string[] = []
    const sessions = new Sessions({ idleMs: () => 60_000, now: () => now, onExpired: (key, who, session) => expired.push(`${key}:${who.account}:${session.token}`) })
    sessions.begin('tab-1', { account: 'Ada', role: 'admin', token: 'ada-token', desk: 'own' })
    now = 50_000
    expect(sessions.actor('tab-1', true)).toEqual({ role: 'admin', account: 'Ada' }) // a real call: activity
    now = 100_000
    expect(sessions.actor('tab-1', false)).toEqual({ role: 'admin', account: 'Ada' }) // a poll: no activity
    now = 111_000
    sessions.sweep()
    expect(sessions.actor('tab-1', true)).toEqual({ role: 'visitor', account: null })
    expect(expired).toEqual(['tab-1:Ada:ada-token'])
    expect(sessions.actor('other-tab')).toEqual({ role: 'visitor', account: null })
  })

  it('keep each window’s front-desk token to that window, and end a session only with its own token', () => {
    const sessions = new Sessions({ idleMs: () => 60_000 })
    sessions.begin('tab-1', { account: 'Ada', role: 'admin', token: 'ada-token', desk: 'own' })
    sessions.begin('tab-2', { account: 'Otto', role: 'operator', token: 'otto-token', desk: 'own' })
    expect(sessions.held('tab-1')).toMatchObject({ token: 'ada-token', account: 'Ada' })
    expect(sessions.held('tab-2')).toMatchObject({ token: 'otto-token', account: 'Otto' })
    // A sign-in again in the same window replaces its session: the old token is handed back to be ended.
    expect(sessions.begin('tab-1', { account: 'Ada', role: 'admin', token: 'ada-token-2', desk: 'own' })).toEqual({ token: 'ada-token', desk: 'own' })
    expect(sessions.end('tab-1', 'ada-token')).toBeNull()
    // The front desk says who the session is now: a demotion applies at once.
    sessions.update('tab-1', 'ada-token-2', { account: 'Ada', role: 'operator' })
    expect(sessions.actor('tab-1')).toEqual({ role: 'operator', account: 'Ada' })
    expect(sessions.end('tab-1')).toEqual({ actor: { role: 'operator', account: 'Ada' }, session: { token: 'ada-token-2', desk: 'own' } })
    expect(sessions.held('tab-1')).toBeNull()
  })
})

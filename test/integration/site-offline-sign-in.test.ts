import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import * as secrets from '../../electron/records/frontdesk/secrets'
import type { SiteConnection } from '../../electron/services/clients/connect'
import type { Call } from '../../electron/services/dispatch'
import { staffFeature, type StaffFeature } from '../../electron/services/features/staff'
import type { KioskDesk, StaffDesk } from '../../electron/services/front-desk/desk'
import { heldWhileAway } from '../../electron/services/site/away-sessions'
import { offlineDesk } from '../../electron/services/site/offline-desk'
import { openSiteCopy, SITE_COPY_FILE, type SiteCopy } from '../../electron/services/site/site-copy'
import { siteDesk } from '../../electron/services/site/site-desk'
import { siteSync, type SiteSync } from '../../electron/services/site/site-sync'
import { startTestEngine, TEST_TENANT, type TestEngine } from '../support/engine'
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy'
import { fd, pair, post, type PairedKiosk } from '../support/paired-kiosk'
import { siteConnection } from '../support/site-connection'

/**
 * Staff signing in at a site kiosk while its site is away: a real engine (SQLite)
 * as the site behind the fault proxy, and the kiosk's copy, sync and offline desk as kiosk-services
 * wires them, with a clock of the test's (the copy's age) and the hours a setting gives.
 */

// Watched, not replaced: the offline desk must hash as much for a name it does not know as for one it does.
vi.mock('../../electron/records/frontdesk/secrets', async (original) => {
  const real = await original<typeof import('../../electron/records/frontdesk/secrets')>()
  return { ...real, derivePin: vi.fn(real.derivePin) }
})

const TIMEOUTS = { connectTimeoutMs: 1000, requestTimeoutMs: 1000 }
const HOUR = 3_600_000
const REFUSED = 'That name and PIN or password do not match an active staff account.'
const PINS = { ada: 'admin-secret-1', olga: 'operator-secret-1', dora: 'disabled-secret-1', bea: 'backoff-secret-1' }

describe('staff sign in at a site kiosk while its site is away', () => {
  let engine: TestEngine
  let proxy: FaultProxy
  let lobby: PairedKiosk
  let admin: StaffDesk
  let lobbyConnection: SiteConnection

  const folders: string[] = []
  let kioskDir: string
  let copy: SiteCopy
  let sync: SiteSync
  let desk: KioskDesk
  let staff: StaffFeature
  const logged: string[] = []
  const audited: Array<{ action: string; detail?: string | null }> = []
  const siteId = () => `site|${proxy.url}`

  /** The kiosk's clock: moved forward to age its copy. */
  let shift = 0
  const now = () => Date.now() + shift
  /** The setting: offline sign-in for operators up to this many hours since the last pull. */
  let hours = 12

  /** Sign-ins made here while away, in order (the site audits each once when it is back). */
  const signedInAway: string[] = []

  beforeAll(async () => {
    const siteDir = mkdtempSync(join(tmpdir(), 'kiosk-offline-sign-in-site-'))
    kioskDir = mkdtempSync(join(tmpdir(), 'kiosk-offline-sign-in-kiosk-'))
    folders.push(siteDir, kioskDir)
    engine = await startTestEngine([], siteDir, { tenant: TEST_TENANT })
    proxy = await startFaultProxy(engine.url)
    lobby = await pair(engine, 'Lobby')
    const annex = await pair(engine, 'Annex')
    const adminSession = (await post(engine.url, fd('/staff/first-admin'), { name: 'Ada Admin', secret: PINS.ada }, annex.token)).body.session
    const annexConnection = siteConnection(engine.url, annex.token, TIMEOUTS)
    admin = siteDesk(`site|${engine.url}`, async () => annexConnection).as({ token: adminSession, account: 'Ada Admin' })
    await admin.createAccount('Olga Operator', 'operator', PINS.olga)
    await admin.createAccount('Dora Disabled', 'operator', PINS.dora)
    await admin.setAccountDisabled('Dora Disabled', true)
    await admin.createAccount('Bea Backoff', 'operator', PINS.bea)

    copy = openSiteCopy({ dataDir: kioskDir, key: randomBytes(32), log: (line) => logged.push(line) })
    lobbyConnection = siteConnection(proxy.url, lobby.token, TIMEOUTS)
    sync = siteSync({ openCopy: async () => copy, siteId: async () => siteId(), connection: async () => lobbyConnection, now, log: (line) => logged.push(line), intervalMs: 3_600_000 })
    desk = offlineDesk(siteDesk(siteId(), async () => lobbyConnection), {
      sync,
      selfId: async () => lobby.kioskId,
      kioskName: async () => 'Lobby',
      alerted: () => {},
      offlineSignInMs: async () => hours * HOUR,
      now,
      log: (line) => logged.push(line),
    })
    staff = staffFeature({
      desk: async () => desk,
      kiosk: async () => ({ idleTimeoutSeconds: 90, templateType: 'Face:HumanFaceRes' }),
      idleMs: () => 90_000,
      audit: { log: (() => ({ append: () => undefined })) as never, record: (entry: { action: string; detail?: string | null }) => void audited.push(entry) } as never,
      log: (line) => logged.push(line),
    })
  })

  afterAll(async () => {
    staff?.stop?.()
    await sync?.stop()
    await proxy?.close()
    await engine?.close()
    for (const folder of folders) rmSync(folder, { recursive: true, force: true })
  })

  const signIn = (name: string, secret: string) => desk.signIn(name, secret)
  const signedIn = async (name: string, secret: string) => {
    const result = await signIn(name, secret)
    signedInAway.push(result.account.name)
    return result
  }
  const staffActs = () => copy.waiting().filter((act) => act.kind === 'staff-sign-in')
  const awaySignInsAtSite = () =>
    engine.engine.ctx.store.db.all<{ account: string; role: string; kiosk_id: string; detail: string }>(
      "SELECT account, role, kiosk_id, detail FROM site_audit WHERE action = 'sign-in' AND detail LIKE 'signed in at the kiosk while the site was away%' ORDER BY seq",
    )

  it("refuses on a kiosk that never pulled: the site's failure stands", async () => {
    proxy.setUpstream(null)
    const failure = await signIn('Ada Admin', PINS.ada).catch((error: unknown) => error)
    expect(failure).toMatchObject({ code: expect.not.stringMatching(/^UNAUTHORIZED$/) })
    expect((failure as Error).message).not.toBe(REFUSED)
    expect(copy.waiting()).toEqual([])
    proxy.setUpstream(engine.url)
  })

  it("copies the site's accounts on a pull: each PIN's hash, never the PIN, and nothing in the counts", async () => {
    await sync.sync()
    expect(proxy.hits.filter((h) => h.path.startsWith(fd('/sync/pull'))).at(-1)!.path).toContain('accounts=1')
    const ada = copy.account('ada admin')
    expect(ada).toEqual({ name: 'Ada Admin', role: 'admin', salt: expect.any(String), hash: expect.any(String), params: expect.stringContaining('"N"'), disabled: false })
    expect(Buffer.from(ada!.hash, 'base64')).toHaveLength(32)
    expect(copy.account('dora disabled')).toMatchObject({ role: 'operator', disabled: true })
    expect(copy.account('olga operator')).toMatchObject({ name: 'Olga Operator', role: 'operator', disabled: false })
    expect(copy.account('nobody here')).toBeNull()
    // Sealed: the file names no account and holds no PIN.
    const file = readFileSync(join(kioskDir, SITE_COPY_FILE))
    for (const text of ['Ada Admin', 'Olga Operator', ...Object.values(PINS)]) expect(file.includes(Buffer.from(text))).toBe(false)
    expect(copy.counts()).toEqual({ watchlistEntries: 0, openVisits: 0, waitingActs: 0 })
    expect(await sync.state()).toMatchObject({ online: true, watchlistEntries: 0, openVisits: 0, waitingActs: 0 })
  })

  let olgaToken: string

  it('signs an operator and an administrator in with the right PIN while the site is away', async () => {
    proxy.setUpstream(null)
    logged.length = 0
    const olga = await signedIn('Olga Operator', PINS.olga)
    expect(olga).toMatchObject({ session: expect.stringMatching(/^away\.[A-Za-z0-9_-]{43}$/), account: { name: 'Olga Operator', role: 'operator', disabled: false } })
    olgaToken = olga.session
    // The name as the account has it, whatever case it was typed in.
    const ada = await signedIn('ADA ADMIN', PINS.ada)
    expect(ada).toMatchObject({ account: { name: 'Ada Admin', role: 'admin' } })
    expect(ada.session).not.toBe(olga.session)
    expect(staffActs().map((act) => act.args)).toEqual([
      { account: 'Olga Operator', role: 'operator' },
      { account: 'Ada Admin', role: 'admin' },
    ])
    // Logged without a name or a PIN.
    expect(logged.some((line) => line.includes('sign-in'))).toBe(true)
    for (const text of ['Olga', 'Ada', ...Object.values(PINS)]) expect(logged.join('\n')).not.toContain(text)
  })

  it("refuses a wrong PIN, an unknown name and an account disabled at the last pull, in the site's words", async () => {
    const before = staffActs().length
    const derivePin = vi.mocked(secrets.derivePin)
    derivePin.mockClear()
    await expect(signIn('Olga Operator', 'not-her-pin')).rejects.toMatchObject({ code: 'UNAUTHORIZED', message: REFUSED })
    await expect(signIn('Nobody Here', PINS.olga)).rejects.toMatchObject({ code: 'UNAUTHORIZED', message: REFUSED })
    // The same scrypt for a name the copy does not have (a decoy's salt, the current parameters).
    expect(derivePin.mock.calls.map(([, salt, params]) => [salt.length, params.N])).toEqual([
      [16, secrets.PIN_PARAMS.N],
      [16, secrets.PIN_PARAMS.N],
    ])
    await expect(signIn('Dora Disabled', PINS.dora)).rejects.toMatchObject({ code: 'UNAUTHORIZED', message: REFUSED })
    expect(staffActs()).toHaveLength(before)
  })

  it('backs off a name after three failures, known or not, and forgets it after a good sign-in', async () => {
    for (let i = 0; i < 3; i++) await expect(signIn('Bea Backoff', 'wrong-pin-000')).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    // Paused: even the right PIN waits (and the pause is told, not the PIN's rightness).
    await expect(signIn('bea backoff', PINS.bea)).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS', retryAfterSeconds: 5 })
    for (let i = 0; i < 3; i++) await expect(signIn('Made Up Name', 'wrong-pin-000')).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    await expect(signIn('Made Up Name', 'wrong-pin-000')).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS', retryAfterSeconds: 5 })
    shift += 6_000
    expect(await signedIn('Bea Backoff', PINS.bea)).toMatchObject({ account: { name: 'Bea Backoff' } })
    // Counted from zero again: one failure is free.
    await expect(signIn('Bea Backoff', 'wrong-pin-000')).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    expect(await signedIn('Bea Backoff', PINS.bea)).toMatchObject({ account: { name: 'Bea Backoff' } })
    // The unknown name doubles its pause: 10 s after its fourth failure.
    await expect(signIn('Made Up Name', 'wrong-pin-000')).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    await expect(signIn('Made Up Name', 'wrong-pin-000')).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS', retryAfterSeconds: 10 })
  })

  it('lets only an administrator sign in past the configured hours since the last pull (0: only administrators)', async () => {
    hours = 0
    await expect(signIn('Olga Operator', PINS.olga)).rejects.toMatchObject({ code: 'FORBIDDEN', message: expect.stringMatching(/only an administrator/i) })
    hours = 12
    shift += 12 * HOUR + 60_000
    const refusal = await signIn('Olga Operator', PINS.olga).catch((error: unknown) => error)
    expect(refusal).toMatchObject({ code: 'FORBIDDEN' })
    expect((refusal as Error).message).toMatch(/12 hours/)
    expect((refusal as Error).message).toMatch(/only an administrator can sign in/i)
    // A wrong PIN is told as a wrong PIN: the role is said only to whoever knows the PIN.
    await expect(signIn('Olga Operator', 'not-her-pin')).rejects.toMatchObject({ code: 'UNAUTHORIZED', message: REFUSED })
    expect(await signedIn('Ada Admin', PINS.ada)).toMatchObject({ account: { role: 'admin' } })
  })

  const window1: Call = { actor: { role: 'visitor', account: null }, key: 'window-1' }

  it('holds an offline session for what a held session may do while away: the evacuation list and the alerts', async () => {
    const view = await staff.handlers.signIn!({ name: 'Ada Admin', secret: PINS.ada }, window1)
    signedInAway.push('Ada Admin')
    expect(view).toMatchObject({ role: 'admin', account: 'Ada Admin' })
    // The site cannot vouch for the session: the readable methods go by its role as issued here.
    expect(await heldWhileAway(staff.resolveActor, staff.sessions)('window-1', true)).toEqual({ role: 'admin', account: 'Ada Admin' })
    await expect(staff.resolveActor('window-1', true)).rejects.toMatchObject({ code: expect.stringMatching(/UNREACHABLE|SERVER_ERROR|BAD_REPLY|TIMEOUT/) })
    const held = desk.as({ token: olgaToken, account: 'Olga Operator' })
    expect(await held.onSite()).toMatchObject({ visits: [], offline: { asOf: expect.any(String) } })
    expect(await held.watchlistAlerts()).toEqual([])
    // Signing out asks nothing of a site that never knew the session.
    await expect(desk.signOut(olgaToken)).resolves.toBeUndefined()
  })

  it("tells the site of each sign-in once it is back, and the site ends the sessions it never issued", async () => {
    const waiting = staffActs()
    expect(waiting.map((act) => act.args.account)).toEqual(signedInAway)
    proxy.setUpstream(engine.url)
    await sync.sync()
    expect(copy.waiting()).toEqual([])
    const rows = await awaySignInsAtSite()
    expect(rows.map((row) => row.account)).toEqual(signedInAway)
    expect(rows.map((row) => row.detail)).toEqual(waiting.map((act) => `signed in at the kiosk while the site was away, ${new Date(act.at).toISOString()}`))
    for (const row of rows) expect(row.kiosk_id).toBe(lobby.kioskId)
    await sync.sync()
    expect(await awaySignInsAtSite()).toHaveLength(signedInAway.length)

    await expect(desk.session(olgaToken)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    expect(await staff.resolveActor('window-1', true)).toEqual({ role: 'visitor', account: null })
    expect(audited).toContainEqual(expect.objectContaining({ action: 'sign-out', detail: 'ended by the front desk' }))
    // Online, a sign-in is the site's again (a real session of its own).
    const live = await signIn('Olga Operator', PINS.olga)
    expect(live.session).not.toMatch(/^away\./)
    expect(staffActs()).toEqual([])
  })

  it('pulls the whole copy again once when it was filled before the accounts (and the invitations) were asked for', async () => {
    const olderDir = mkdtempSync(join(tmpdir(), 'kiosk-offline-sign-in-older-'))
    folders.push(olderDir)
    const older = openSiteCopy({ dataDir: olderDir, key: randomBytes(32) })
    const olderSync = siteSync({ openCopy: async () => older, siteId: async () => siteId(), connection: async () => lobbyConnection, now, log: () => {}, intervalMs: 3_600_000 })
    try {
      // As an older kiosk left it: filled (a cookie, a pull's time), no accounts.
      older.useSite(siteId())
      const { cookie } = copy.state()
      expect(older.apply(siteId(), { cookie, reset: false, more: false, ops: [], lastMutationSeq: 0 }, now())).toBe(true)
      expect(older.accountsCopied()).toBe(false)
      const olderDesk = offlineDesk(siteDesk(siteId(), async () => lobbyConnection), {
        sync: olderSync,
        selfId: async () => lobby.kioskId,
        kioskName: async () => 'Lobby',
        alerted: () => {},
        offlineSignInMs: async () => hours * HOUR,
        now,
        log: () => {},
      })
      // Away: it knows no account, so the site's failure stands (not "no such account").
      proxy.setUpstream(null)
      const failure = await olderDesk.signIn('Ada Admin', PINS.ada).catch((error: unknown) => error)
      expect(failure).not.toMatchObject({ code: 'UNAUTHORIZED' })
      expect(older.waiting()).toEqual([])
      proxy.setUpstream(engine.url)

      await olderSync.sync()
      expect(proxy.hits.filter((h) => h.path.startsWith(fd('/sync/pull'))).at(-1)!.path).toMatch(/accounts=1&invites=1&cookie=0$/)
      expect([older.accountsCopied(), older.invitesCopied()]).toEqual([true, true])
      expect(older.account('ada admin')).toMatchObject({ name: 'Ada Admin', role: 'admin' })
      // And then only what changed since.
      await olderSync.sync()
      expect(proxy.hits.filter((h) => h.path.startsWith(fd('/sync/pull'))).at(-1)!.path).toMatch(new RegExp(`cookie=${older.state().cookie}$`))
    } finally {
      await olderSync.stop()
    }
  })
})

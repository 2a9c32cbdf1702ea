import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startTestEngine, TEST_TENANT, type TestEngine } from '../support/engine'
import { freshKiosk, type FreshKiosk } from '../support/site-kiosk'

// A kiosk that ran on its own joins a site (a real engine in this process, on its SQLite) and its
// administrator chooses to bring its records: the site takes them in with the pairing, a code the
// kiosk printed works at the site, and the kiosk's frontdesk.db no longer holds them. A pairing
// the site refuses leaves everything where it was.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 })

const ADA = { name: 'Ada', secret: 'kiosk-ada-pin' }
const today = () => {
  const now = new Date()
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`
}

describe('a kiosk on its own brings its records when it joins', () => {
  let site: TestEngine
  let siteFolder: string
  let kiosk: FreshKiosk

  /** Rows of the kiosk's own frontdesk.db, read beside its services (WAL: a reader does not stop them). */
  const rowsHere = (table: string): number => {
    const db = new BetterSqlite(join(kiosk.dataDir, 'frontdesk.db'), { readonly: true, fileMustExist: true })
    try {
      return (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n
    } finally {
      db.close()
    }
  }

  beforeAll(async () => {
    siteFolder = mkdtempSync(join(tmpdir(), 'kiosk-merge-site-'))
    site = await startTestEngine([], siteFolder, { tenant: TEST_TENANT })
    kiosk = await freshKiosk()
  })
  afterAll(async () => {
    await kiosk?.close().catch(() => undefined)
    await site?.close()
    rmSync(siteFolder, { recursive: true, force: true })
  })

  it('brings accounts, hosts and invites with the pairing, and keeps none of them once the site has them', async () => {
    await kiosk.call('createFirstAdmin', ADA)
    await kiosk.call('createAccount', { name: 'Bea', role: 'operator', secret: 'bea-pin-123' })
    const host = await kiosk.call('addHost', { name: 'Harriet Host', email: 'harriet@example.com', webhookUrl: null })
    const invite = await kiosk.call('createInvite', { email: 'guest@example.com', hostId: host.id, date: today() })
    expect(rowsHere('accounts')).toBe(2)

    // The site has an administrator of the same name.
    const desk = site.engine.ctx.frontDesk
    await desk.createFirstAdmin('ada', 'site-ada-pin', null)

    // A visitor may not bring them; a refused pairing takes nothing and removes nothing.
    const { code } = await desk.createPairingCode('ada')
    expect(await kiosk.failure('joinSite', { url: site.url, code, name: 'Lobby', bringRecords: true }, 'tab:visitor')).toMatchObject({ code: 'FORBIDDEN' })
    const wrong = code === 'ABCDEFGH' ? 'ABCDEFGJ' : 'ABCDEFGH'
    expect(await kiosk.failure('joinSite', { url: site.url, code: wrong, name: 'Lobby', bringRecords: true })).toMatchObject({ code: 'REJECTED' })
    expect([rowsHere('accounts'), rowsHere('hosts'), rowsHere('invites')]).toEqual([2, 1, 1])
    expect(await desk.listHosts()).toEqual([])

    const joined = await kiosk.call('joinSite', { url: site.url, code, name: 'Lobby', bringRecords: true })
    expect(joined).toEqual({
      kioskId: expect.any(String),
      name: 'Lobby',
      url: site.url,
      brought: { accounts: 2, watchlist: 0, alerts: 0, hosts: 1, visits: 0, invites: 1 },
      // The site has staff: the kiosk's accounts come in disabled, for its administrators to enable.
      keptApart: [
        { name: 'Ada', importedAs: 'Ada - Lobby' },
        { name: 'Bea', importedAs: 'Bea' },
      ],
    })
    // The kiosk's own session ended with its accounts: the site's administrator signs in here now.
    await kiosk.call('signIn', { name: 'ada', secret: 'site-ada-pin' }, 'tab:site-admin')
    expect(await kiosk.call('getSettings', {}, 'tab:site-admin')).toMatchObject({ mode: 'site', kioskName: 'Lobby' })

    // The site has them: the accounts kept apart disabled, the code the kiosk printed valid there.
    expect((await desk.listAccounts()).map(({ name, disabled }) => ({ name, disabled }))).toEqual(
      expect.arrayContaining([
        { name: 'ada', disabled: false },
        { name: 'Ada - Lobby', disabled: true },
        { name: 'Bea', disabled: true },
      ]),
    )
    expect(await desk.listHosts()).toEqual([host])
    expect(await desk.checkInvite(invite.token)).toMatchObject({ status: 'valid', email: 'guest@example.com', hostId: host.id })

    // Once the site's administrator enabled her, Bea signs in at the kiosk with the PIN she had.
    expect(await kiosk.failure('signIn', { name: 'Bea', secret: 'bea-pin-123' }, 'tab:bea')).toMatchObject({ code: 'UNAUTHORIZED' })
    await desk.setAccountDisabled('Bea', false)
    expect(await kiosk.call('signIn', { name: 'Bea', secret: 'bea-pin-123' }, 'tab:bea')).toMatchObject({ role: 'operator', account: 'Bea' })

    // The kiosk keeps no second copy; its log has counts only.
    for (const table of ['accounts', 'staff_sessions', 'hosts', 'invites', 'visits', 'watchlist_entries']) expect(rowsHere(table), table).toBe(0)
    expect(kiosk.lines.find((line) => line.startsWith('site: brought to the site'))).toBe(
      'site: brought to the site and removed here: 2 staff accounts, 0 watchlist entries, 0 alerts, 1 hosts, 0 visits, 1 invites',
    )
  })
})

import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { SCOPE_TENANT_ADMIN } from '../../electron/shared/api-requests'
import type { KioskEvent } from '../../electron/shared/events'
import { FRONTDESK_PREFIX, SCOPE_FRONTDESK_KIOSK } from '../../electron/shared/frontdesk-api'
import type { SiteSyncState } from '../../electron/shared/site-sync'
import { SITE_COPY_FILE } from '../../electron/services/site/site-copy'
import { basic, startTestEngine, TEST_TENANT, type TestEngine } from '../support/engine'
import { freshKiosk, type FreshKiosk } from '../support/site-kiosk'
import { replyOf } from '../support/site'

// A kiosk's services as installed, joined to a site (a real engine in this process), then cut off
// from it: the copy follows the site's records-changed events, and a staff session held at the
// kiosk reads the evacuation list from the copy once the site is gone, and nothing else.

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 })

const fd = (path: string) => `${FRONTDESK_PREFIX}${path}`
const OLGA = { name: 'olga', secret: 'olga-pin-123' }

describe('a site kiosk whose site goes away', () => {
  let site: TestEngine
  let siteFolder: string
  let kiosk: FreshKiosk
  let annexToken: string
  let seen: KioskEvent[]
  const syncStates = () => seen.flatMap((e) => (e.type === 'site-sync' ? [e.state as SiteSyncState] : []))

  beforeAll(async () => {
    siteFolder = mkdtempSync(join(tmpdir(), 'kiosk-offline-site-'))
    site = await startTestEngine([], siteFolder, { tenant: TEST_TENANT })
    kiosk = await freshKiosk()
    const desk = site.engine.ctx.frontDesk
    await desk.createFirstAdmin('ada', 'site-ada-pin', null)
    await desk.createAccount(OLGA.name, 'operator', OLGA.secret)
    // Another kiosk of the site, which admits visitors this one will not hear of while cut off.
    const pairing = JSON.stringify({ code: (await desk.createPairingCode('ada')).code, name: 'Annex' })
    const { body } = await replyOf(await request(`${site.url}${fd('/pair')}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: pairing }))
    const token = await request(`${site.url}/v2/oauth2/oauth/token?grant_type=client_credentials&scope=${encodeURIComponent(`${SCOPE_TENANT_ADMIN} ${SCOPE_FRONTDESK_KIOSK}`)}`, {
      method: 'POST',
      headers: { authorization: basic(body.clientId, body.clientSecret), 'content-type': 'application/x-www-form-urlencoded' },
    })
    annexToken = ((await token.body.json()) as { access_token: string }).access_token
  })
  afterAll(async () => {
    await kiosk?.close().catch(() => undefined)
    await site?.engine.close().catch(() => undefined)
    rmSync(siteFolder, { recursive: true, force: true })
  })

  it("keeps a copy that follows the site's changes", async () => {
    const { code } = await site.engine.ctx.frontDesk.createPairingCode('ada')
    await kiosk.call('joinSite', { url: site.url, code, name: 'Lobby' }, 'tab:first-run')
    await kiosk.call('signIn', OLGA, 'tab:olga')
    seen = kiosk.listen('tab:olga')
    const visitor = { personUuid: randomUUID(), email: `walter-${randomUUID().slice(0, 8)}@example.com`, firstName: 'Walter' }
    const checkIn = await request(`${site.url}${fd('/visits/check-in')}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${annexToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ person: visitor, hostId: null, purpose: 'Interview', inviteToken: null, asLastTime: false }),
    })
    expect(checkIn.statusCode).toBe(200)
    await checkIn.body.dump()
    // Sooner than the fallback timer: the site's records-changed event brought it.
    await expect.poll(() => syncStates().at(-1)?.openVisits, { timeout: 15_000 }).toBe(1)
    expect(syncStates().at(-1)).toMatchObject({ online: true, offlineSince: null, waitingActs: 0, watchlistEntries: 0 })
    const file = join(kiosk.dataDir, SITE_COPY_FILE)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(await kiosk.call('listOnSite', {}, 'tab:olga')).toMatchObject({ offline: null, visits: [expect.objectContaining({ email: visitor.email, kioskName: 'Annex' })] })
  })

  it("tells this kiosk's staff, and only them, of an invitation code the site would not count for another kiosk's act, and of its dismissal", async () => {
    const desk = site.engine.ctx.frontDesk
    const email = `rita-${randomUUID().slice(0, 8)}@example.com`
    const { invite } = await desk.createInvite({ email, hostId: null, date: '2099-01-01', expiresAt: Date.now() + 86_400_000, createdBy: 'ada' })
    await desk.revokeInvite(invite.id)
    const visitorSeen = kiosk.listen('tab:visitor-invites')
    // The Annex, back from an outage, sends a check-in it made with the code from its copy.
    const act = { kind: 'check-in', id: randomUUID(), seq: 1, at: Date.now(), args: { person: { personUuid: randomUUID(), email, firstName: 'Rita' }, hostId: null, purpose: null, asLastTime: false, inviteId: invite.id } }
    const push = await request(`${site.url}${fd('/sync/push')}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${annexToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ mutations: [act] }),
    })
    expect(push.statusCode).toBe(200)
    await push.body.dump()

    // By the site's events, to staff sessions only.
    await expect.poll(() => seen.filter((e) => e.type === 'invite-alert'), { timeout: 15_000 }).toHaveLength(1)
    const [alert] = await kiosk.call('getInviteAlerts', {}, 'tab:olga')
    expect(alert).toMatchObject({ id: (seen.find((e) => e.type === 'invite-alert') as { alertId: string }).alertId, inviteId: invite.id, email, reason: 'revoked', visit: { id: act.id, kioskName: 'Annex' } })
    expect(visitorSeen.filter((e) => e.type.startsWith('invite-alert'))).toEqual([])

    expect(await kiosk.call('dismissInviteAlert', { id: alert.id }, 'tab:olga')).toEqual({ ok: true })
    await expect.poll(() => seen.some((e) => e.type === 'invite-alert-dismissed' && e.alertId === alert.id), { timeout: 15_000 }).toBe(true)
    expect(await kiosk.call('getInviteAlerts', {}, 'tab:olga')).toEqual([])
    expect((await kiosk.call('getAuditLog', { actions: ['invite-alert-dismiss'], trail: 'kiosk' }, 'tab:olga')).entries[0]).toMatchObject({ outcome: 'ok', account: OLGA.name, detail: `alert ${alert.id}` })
    // Rita leaves: the evacuation list below is Walter's alone.
    await kiosk.call('endVisit', { id: act.id }, 'tab:olga')
    await expect.poll(() => syncStates().at(-1)?.openVisits, { timeout: 15_000 }).toBe(1)
  })

  it('reads the evacuation list from the copy while the site is away, for a session held here, and nothing else', async () => {
    const asOf = syncStates().at(-1)!.copyAsOf!
    await site.engine.close()
    const list = await kiosk.call('listOnSite', {}, 'tab:olga')
    expect(list.visits).toEqual([expect.objectContaining({ firstName: 'Walter', kioskName: 'Annex' })])
    // This kiosk (Lobby) is not one it has not heard from.
    expect(list.offline).toEqual({ asOf: new Date(asOf).toISOString(), unheardKiosks: ['Annex'] })
    expect(await kiosk.call('getSession', {}, 'tab:olga')).toMatchObject({ role: 'operator', account: OLGA.name })
    expect(await kiosk.call('getWatchlistAlerts', {}, 'tab:olga')).toEqual([])
    // Invitation alerts are found at the site only.
    expect(await kiosk.call('getInviteAlerts', {}, 'tab:olga')).toEqual([])
    // Anything else waits for the site.
    expect(await kiosk.failure('visitLog', { pageNo: 0, pageSize: 10 }, 'tab:olga')).toMatchObject({ code: 'UNREACHABLE' })
    expect(await kiosk.failure('listWatchlist', {}, 'tab:olga')).toMatchObject({ code: 'UNREACHABLE' })
    // A window with no session gets nothing from the copy.
    expect(await kiosk.failure('listOnSite', {}, 'tab:visitor')).toMatchObject({ code: 'FORBIDDEN' })
  })
})

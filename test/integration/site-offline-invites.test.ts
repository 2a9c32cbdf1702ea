import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CheckInOutcome } from '../../electron/records/frontdesk/visit-types'
import type { Invite } from '../../electron/shared/invites'
import type { KioskCheckIn, KioskDesk, StaffDesk } from '../../electron/services/front-desk/desk'
import { offlineDesk } from '../../electron/services/site/offline-desk'
import { openSiteCopy, type SiteCopy } from '../../electron/services/site/site-copy'
import { siteDesk } from '../../electron/services/site/site-desk'
import { siteSync, type SiteSync } from '../../electron/services/site/site-sync'
import { startTestEngine, TEST_TENANT, type TestEngine } from '../support/engine'
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy'
import { fd, pair, post, type PairedKiosk } from '../support/paired-kiosk'
import { siteConnection } from '../support/site-connection'

/**
 * Invitations at a site kiosk while its site is away: a real engine (SQLite) as the site behind the
 * fault proxy, the kiosk's copy (the invitations and the site's public invitation keys), its sync
 * and its offline desk as kiosk-services wires them; another kiosk (Annex) reaches the site directly.
 */

const TIMEOUTS = { connectTimeoutMs: 1000, requestTimeoutMs: 1000 }
const tag = () => randomBytes(4).toString('hex')
const DAY = 86_400_000

describe('a site kiosk takes invitations while its site is away', () => {
  let engine: TestEngine
  let proxy: FaultProxy
  let lobby: PairedKiosk
  let annexDesk: KioskDesk
  let admin: StaffDesk
  /** The same administrator's session, at the Lobby (through its offline desk). */
  let lobbyAdmin: StaffDesk
  let host: { id: string; name: string }
  const folders: string[] = []
  let copy: SiteCopy
  let sync: SiteSync
  let desk: KioskDesk
  const siteId = () => `site|${proxy.url}`

  const guest = (name: string) => ({ personUuid: randomUUID(), email: `${name}-${tag()}@example.com`, firstName: name })
  const ines = guest('ines')
  const ivan = guest('ivan')
  const iris = guest('iris')
  const invites: Record<string, { invite: Invite; token: string }> = {}
  const checkIn = (person: ReturnType<typeof guest>, inviteToken: string, over: Partial<KioskCheckIn> = {}): Promise<CheckInOutcome> =>
    desk.checkIn({ person, hostId: null, purpose: null, inviteToken, asLastTime: false, ...over })

  beforeAll(async () => {
    const siteDir = mkdtempSync(join(tmpdir(), 'kiosk-offline-invites-site-'))
    const kioskDir = mkdtempSync(join(tmpdir(), 'kiosk-offline-invites-kiosk-'))
    folders.push(siteDir, kioskDir)
    engine = await startTestEngine([], siteDir, { tenant: TEST_TENANT })
    proxy = await startFaultProxy(engine.url)
    lobby = await pair(engine, 'Lobby')
    const annex = await pair(engine, 'Annex')
    const adminSession = (await post(engine.url, fd('/staff/first-admin'), { name: 'Ada Admin', secret: 'admin-secret-1' }, annex.token)).body.session
    const annexConnection = siteConnection(engine.url, annex.token, TIMEOUTS)
    annexDesk = siteDesk(`site|${engine.url}`, async () => annexConnection)
    admin = annexDesk.as({ token: adminSession, account: 'Ada Admin' })
    host = await admin.addHost({ name: 'Hana Host', email: null, webhookUrl: null })
    const invite = (person: ReturnType<typeof guest>) => admin.createInvite({ email: person.email, hostId: host.id, date: '2099-01-01', expiresAt: Date.now() + DAY })
    invites.ines = await invite(ines)
    invites.ivan = await invite(ivan)
    invites.iris = await invite(iris)
    invites.revoked = await invite(guest('rex'))
    await admin.revokeInvite(invites.revoked.invite.id)

    copy = openSiteCopy({ dataDir: kioskDir, key: randomBytes(32), log: () => {} })
    const lobbyConnection = siteConnection(proxy.url, lobby.token, TIMEOUTS)
    sync = siteSync({ openCopy: async () => copy, siteId: async () => siteId(), connection: async () => lobbyConnection, log: () => {}, intervalMs: 3_600_000 })
    desk = offlineDesk(siteDesk(siteId(), async () => lobbyConnection), { sync, selfId: async () => lobby.kioskId, kioskName: async () => 'Lobby', alerted: () => {}, log: () => {} })
    lobbyAdmin = desk.as({ token: adminSession, account: 'Ada Admin' })
  })

  afterAll(async () => {
    await sync?.stop()
    await proxy?.close()
    await engine?.close()
    for (const folder of folders) rmSync(folder, { recursive: true, force: true })
  })

  it("copies the invitations and the site's public invitation key", async () => {
    await sync.sync()
    expect(copy.invitesCopied()).toBe(true)
    expect(copy.invite(invites.ines!.invite.id)).toMatchObject({ email: ines.email, hostId: host.id, hostName: 'Hana Host', usedAt: null, revokedAt: null })
    expect(copy.inviteKey(invites.ines!.token.split('.')[1]!)).toEqual({ kid: invites.ines!.token.split('.')[1], publicKey: expect.any(String) })
  })

  it('checks a code by the copied key and invitation while the site is away, each refusal as the site words it', async () => {
    proxy.setUpstream(null)
    expect(await desk.checkInvite(invites.ines!.token)).toEqual({ status: 'valid', email: ines.email, hostId: host.id, hostName: 'Hana Host', date: '2099-01-01' })
    expect(await desk.checkInvite(invites.revoked!.token)).toEqual({ status: 'refused', reason: 'revoked' })
    const token = invites.ines!.token
    const forged = token.slice(0, -2) + (token.at(-2) === 'A' ? 'B' : 'A') + token.at(-1)
    expect(await desk.checkInvite(forged)).toEqual({ status: 'refused', reason: 'invalid' })
    // Made at the site since the last pull: only the site can say.
    const newer = await admin.createInvite({ email: `newer-${tag()}@example.com`, hostId: null, date: '2099-01-01', expiresAt: Date.now() + DAY })
    await expect(desk.checkInvite(newer.token)).rejects.toMatchObject({ code: 'UNREACHABLE' })
  })

  it("checks in with a code: kept with the invitation and its host; the code then used, another visitor's e-mail refused", async () => {
    const kept = await checkIn(ines, invites.ines!.token)
    expect(kept).toMatchObject({ outcome: 'checked-in', offline: true, alreadyOnSite: false, visit: { hostId: host.id, hostName: 'Hana Host', inviteId: invites.ines!.invite.id } })
    expect(copy.waiting().filter((act) => act.kind === 'check-in').map((act) => act.args)).toEqual([expect.objectContaining({ inviteId: invites.ines!.invite.id, hostId: host.id })])
    expect(await desk.checkInvite(invites.ines!.token)).toEqual({ status: 'refused', reason: 'used' })
    expect(await checkIn(guest('someone'), invites.ines!.token)).toEqual({ outcome: 'invite-refused', reason: 'used' })
    expect(await checkIn(guest('someone'), invites.ivan!.token)).toEqual({ outcome: 'invite-refused', reason: 'other-email' })
    expect(await checkIn(ivan, invites.ivan!.token)).toMatchObject({ outcome: 'checked-in', offline: true })
  })

  it('has the site use each code up as it applies the check-ins; a code used at the site meanwhile stays with that visit, and the kiosk’s visit stands without it', async () => {
    // Iris's code is used at the Annex (through the site) while the Lobby is cut off and takes it too.
    expect(await checkIn(iris, invites.iris!.token)).toMatchObject({ outcome: 'checked-in', offline: true })
    const atAnnex = await annexDesk.checkIn({ person: { ...iris, personUuid: randomUUID() }, hostId: null, purpose: null, inviteToken: invites.iris!.token, asLastTime: false })
    expect(atAnnex).toMatchObject({ outcome: 'checked-in', visit: { inviteId: invites.iris!.invite.id } })

    proxy.setUpstream(engine.url)
    await sync.sync()
    expect(copy.waiting()).toEqual([])
    const used = new Map((await admin.listInvites('used')).invites.map((invite) => [invite.id, invite]))
    const visitOf = async (email: string) => (await admin.visitLog({ search: email }, 0, 10)).visits
    const [inesVisit] = await visitOf(ines.email)
    expect(inesVisit).toMatchObject({ inviteId: invites.ines!.invite.id, hostId: host.id, kioskName: 'Lobby' })
    expect(used.get(invites.ines!.invite.id)?.visitId).toBe(inesVisit!.id)
    expect(used.get(invites.ivan!.invite.id)?.visitId).toBe((await visitOf(ivan.email))[0]!.id)
    // Iris: two visits, the Annex's with her invitation, the Lobby's without it.
    const irisVisits = await visitOf(iris.email)
    expect(irisVisits.map((visit) => [visit.kioskName, visit.inviteId]).sort()).toEqual([
      ['Annex', invites.iris!.invite.id],
      ['Lobby', null],
    ])
    // The copy follows: the codes it took are used at the site now.
    expect(copy.invite(invites.ines!.invite.id)?.usedAt).toEqual(expect.any(Number))
  })

  it('tells staff of the code used twice by an invitation alert naming both visits and kiosks, at every kiosk; dismissed once, it is gone', async () => {
    const visits = new Map((await admin.visitLog({ search: iris.email }, 0, 10)).visits.map((visit) => [visit.kioskName, visit]))
    const alerts = await admin.inviteAlerts()
    expect(alerts).toEqual([
      expect.objectContaining({
        inviteId: invites.iris!.invite.id,
        email: iris.email,
        hostName: 'Hana Host',
        reason: 'used',
        visit: expect.objectContaining({ id: visits.get('Lobby')!.id, kioskId: lobby.kioskId, kioskName: 'Lobby' }),
        firstVisit: expect.objectContaining({ id: visits.get('Annex')!.id, kioskName: 'Annex' }),
      }),
    ])
    expect(await lobbyAdmin.inviteAlerts()).toEqual(alerts)
    // Found only at the site: while it is away the Lobby has none to show.
    proxy.setUpstream(null)
    expect(await lobbyAdmin.inviteAlerts()).toEqual([])
    proxy.setUpstream(engine.url)

    const [alert] = alerts
    expect(await admin.dismissInviteAlert(alert!.id)).toBe(true)
    expect(await admin.inviteAlerts()).toEqual([])
    expect(await lobbyAdmin.inviteAlerts()).toEqual([])
    expect(await lobbyAdmin.dismissInviteAlert(alert!.id)).toBe(false)
  })
})

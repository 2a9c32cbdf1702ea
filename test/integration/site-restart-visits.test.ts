import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Visit } from '../../electron/shared/visits'
import type { SiteConnection } from '../../electron/services/clients/connect'
import type { KioskDesk, StaffDesk } from '../../electron/services/front-desk/desk'
import { offlineDesk } from '../../electron/services/site/offline-desk'
import { openSiteCopy, type SiteCopy } from '../../electron/services/site/site-copy'
import { siteDesk } from '../../electron/services/site/site-desk'
import { siteSync, type SiteSync } from '../../electron/services/site/site-sync'
import { startTestEngine, TEST_TENANT, type TestEngine } from '../support/engine'
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy'
import { fd, pair, post, type PairedKiosk } from '../support/paired-kiosk'
import { siteConnection } from '../support/site-connection'

/**
 * The site stopped and started again in the middle of a check-in and of a check-out: a real engine
 * (SQLite) as the site, restarted on its data folder, the fault proxy in front of it, and a kiosk's
 * copy, sync and offline desk as kiosk-services wires them. Whether the site did the work before it
 * went (its reply lost) or never saw the request, the visit is recorded once.
 */

const TIMEOUTS = { connectTimeoutMs: 1000, requestTimeoutMs: 2000 }
const person = (tag: string) => ({ personUuid: randomUUID(), email: `${tag}-${randomBytes(4).toString('hex')}@example.com`, firstName: tag })

describe('a site restarted in the middle of a check-in or a check-out', () => {
  let siteDir: string
  let kioskDir: string
  let engine: TestEngine | null = null
  let proxy: FaultProxy
  let admin: StaffDesk
  let copy: SiteCopy
  let sync: SiteSync
  let desk: KioskDesk
  const siteId = () => `site|${proxy.url}`

  /** The site as its staff reach it (another kiosk's client): straight to whichever engine runs now. */
  let annex: PairedKiosk | undefined
  let annexConnection: SiteConnection

  async function stopSite(): Promise<void> {
    proxy.setUpstream(null)
    // The engine alone: the test engine's own close() deletes its data folder too.
    await engine?.engine.close()
    engine = null
  }
  async function startSite(): Promise<void> {
    engine = await startTestEngine([], siteDir, { tenant: TEST_TENANT })
    proxy.setUpstream(engine.url)
    // Staff reach the engine itself, at its new port.
    if (annex) annexConnection = siteConnection(engine.url, annex.token, TIMEOUTS)
  }
  /** Every visit of this person at the site. */
  const visitsOf = async (email: string): Promise<Visit[]> => (await admin.visitLog({ search: email }, 0, 50)).visits

  beforeAll(async () => {
    siteDir = mkdtempSync(join(tmpdir(), 'kiosk-restart-site-'))
    kioskDir = mkdtempSync(join(tmpdir(), 'kiosk-restart-kiosk-'))
    proxy = await startFaultProxy(null)
    await startSite()
    const lobby = await pair(engine!, 'Lobby')
    annex = await pair(engine!, 'Annex')
    const session = (await post(engine!.url, fd('/staff/first-admin'), { name: 'Ada Admin', secret: 'admin-secret-1' }, annex.token)).body.session as string
    annexConnection = siteConnection(engine!.url, annex.token, TIMEOUTS)
    admin = siteDesk(`site|annex`, async () => annexConnection).as({ token: session, account: 'Ada Admin' })

    copy = openSiteCopy({ dataDir: kioskDir, key: randomBytes(32) })
    const lobbyConnection = siteConnection(proxy.url, lobby.token, TIMEOUTS)
    sync = siteSync({ openCopy: async () => copy, siteId: async () => siteId(), connection: async () => lobbyConnection, personId: async () => null, log: () => undefined, intervalMs: 3_600_000 })
    desk = offlineDesk(siteDesk(siteId(), async () => lobbyConnection), { sync, selfId: async () => lobby.kioskId, kioskName: async () => 'Lobby', alerted: () => undefined, log: () => undefined })
    await sync.sync()
    expect(copy.state().pulledAt).not.toBeNull()
  })

  afterAll(async () => {
    await sync?.stop()
    await proxy?.close()
    await engine?.engine.close()
    for (const folder of [siteDir, kioskDir]) if (folder) rmSync(folder, { recursive: true, force: true })
  })

  it('records a check-in and a check-out the site did before it went down (their replies lost) once', async () => {
    const ann = person('ann')
    // The site stores the check-in, then the connection drops before its reply: the kiosk keeps it as an act.
    proxy.inject({ method: 'POST', path: /\/visits\/check-in/, fault: 'reset', when: 'after' })
    const checkedIn = await desk.checkIn({ person: ann, hostId: null, purpose: 'Audit', inviteToken: null, asLastTime: false })
    expect(checkedIn).toMatchObject({ outcome: 'checked-in', offline: true, alreadyOnSite: false })
    await stopSite()
    await startSite()
    await sync.sync()
    expect(copy.counts().waitingActs).toBe(0)
    const [visit, ...more] = await visitsOf(ann.email)
    expect(more).toEqual([])
    expect(visit).toMatchObject({ personUuid: ann.personUuid, checkedOutAt: null, kioskName: 'Lobby' })

    // The same for the check-out: ended at the site, the reply lost, the site restarted.
    proxy.inject({ method: 'POST', path: /\/visits\/check-out/, fault: 'reset', when: 'after' })
    const out = await desk.checkOut({ personUuid: ann.personUuid, email: ann.email })
    expect(out).toMatchObject({ offline: true, checkedOutBy: 'visitor' })
    const [ended] = await visitsOf(ann.email)
    expect(ended!.checkedOutAt).not.toBeNull()
    await stopSite()
    await startSite()
    await sync.sync()
    expect(copy.counts().waitingActs).toBe(0)
    // One visit, ended once: the site's own check-out time stands.
    expect(await visitsOf(ann.email)).toEqual([ended])
  })

  it('records a check-in and a check-out made while the site was down once, at the times they were made', async () => {
    const bob = person('bob')
    await stopSite()
    const checkedIn = await desk.checkIn({ person: bob, hostId: null, purpose: 'Delivery', inviteToken: null, asLastTime: false })
    expect(checkedIn).toMatchObject({ outcome: 'checked-in', offline: true })
    const visitId = checkedIn.outcome === 'checked-in' ? checkedIn.visit.id : ''
    // On this kiosk's evacuation list while it waits.
    const onSite = await desk.as({ token: 'no session: the site is away', account: 'Ada Admin' }).onSite()
    expect(onSite.offline).not.toBeNull()
    expect(onSite.visits.map((v) => v.id)).toContain(visitId)
    const out = await desk.checkOut({ personUuid: bob.personUuid, email: bob.email })
    expect(out).toMatchObject({ id: visitId, offline: true })
    await sync.sync()
    expect(copy.counts().waitingActs).toBe(2)

    await startSite()
    await sync.sync()
    expect(copy.counts().waitingActs).toBe(0)
    const visits = await visitsOf(bob.email)
    expect(visits).toEqual([expect.objectContaining({ id: visitId, personUuid: bob.personUuid, checkedInAt: checkedIn.outcome === 'checked-in' ? checkedIn.visit.checkedInAt : '', checkedOutAt: out!.checkedOutAt, checkedOutBy: 'visitor' })])

    // Stopped again before a push's reply: the site applied it; the kiosk sends it again; still one.
    const cy = person('cy')
    await stopSite()
    await desk.checkIn({ person: cy, hostId: null, purpose: 'Tour', inviteToken: null, asLastTime: false })
    await startSite()
    proxy.inject({ method: 'POST', path: /\/sync\/push/, fault: 'reset', when: 'after' })
    await sync.sync()
    expect(copy.counts().waitingActs).toBe(1)
    await stopSite()
    await startSite()
    await sync.sync()
    expect(copy.counts().waitingActs).toBe(0)
    expect(await visitsOf(cy.email)).toHaveLength(1)
  })
})

import { randomBytes, randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type SiteEvent } from '../../electron/shared/frontdesk-api'
import { defaultSettings } from '../../electron/shared/settings'
import { pullResult, syncMutationSchema, type SyncMutation } from '../../electron/shared/site-sync'
import type { WatchlistAlert } from '../../electron/shared/watchlist'
import { TokenProvider } from '../../electron/services/clients/token-provider'
import type { SiteConnection } from '../../electron/services/clients/connect'
import type { KioskDesk, StaffDesk } from '../../electron/services/front-desk/desk'
import { offlineDesk } from '../../electron/services/site/offline-desk'
import { openSiteCopy, SITE_COPY_FILE, type SiteCopy } from '../../electron/services/site/site-copy'
import { siteDesk } from '../../electron/services/site/site-desk'
import { siteEvents, type SiteEvents } from '../../electron/services/site/site-events'
import { siteCall } from '../../electron/services/site/site-http'
import { siteSync, type SiteSync } from '../../electron/services/site/site-sync'
import { startTestEngine, TEST_TENANT, type TestEngine } from '../support/engine'
import { startFaultProxy, type Fault, type FaultProxy } from '../support/fault-proxy'
import { fd, pair, post, type PairedKiosk } from '../support/paired-kiosk'
import { siteConnection } from '../support/site-connection'
import { replyOf } from '../support/site'
import { eventually } from '../support/until'

/**
 * A site kiosk away from its site: a real engine (SQLite) in this process as the site, the fault
 * proxy between it and the kiosk's calls, and the kiosk's copy (site-copy.db), its sync and its
 * offline desk as kiosk-services wires them. The site's event stream goes straight to the engine
 * (the proxy buffers whole replies).
 */

/** The kiosk's timeouts here: a hung reply is given up within about 2 s. */
const TIMEOUTS = { connectTimeoutMs: 1000, requestTimeoutMs: 1000 }

const connection = (baseUrl: string, token: string) => siteConnection(baseUrl, token, TIMEOUTS)

const person = (tag: string) => ({ personUuid: randomUUID(), email: `${tag}-${randomBytes(4).toString('hex')}@example.com`, firstName: tag })

describe('a site kiosk away from its site', () => {
  let engine: TestEngine
  let proxy: FaultProxy
  let lobby: PairedKiosk
  let annex: PairedKiosk
  /** The site as another kiosk (Annex) and its staff reach it, past the proxy. */
  let annexDesk: KioskDesk
  let admin: StaffDesk
  let adminSession: string
  let operatorSession: string

  const folders: string[] = []
  let kioskDir: string
  let key: Buffer
  let copy: SiteCopy
  let sync: SiteSync
  let desk: KioskDesk
  let events: SiteEvents
  const siteId = () => `site|${proxy.url}`
  const raised: string[] = []
  const logged: string[] = []
  const siteEventsSeen: SiteEvent[] = []
  let lobbyConnection: SiteConnection

  /** Who is listed and on site, kept for the checks below. */
  const listed = person('listed')
  const visitor = person('visitor')

  beforeAll(async () => {
    const siteDir = mkdtempSync(join(tmpdir(), 'kiosk-offline-site-'))
    kioskDir = mkdtempSync(join(tmpdir(), 'kiosk-offline-kiosk-'))
    folders.push(kioskDir)
    engine = await startTestEngine([], siteDir, { tenant: TEST_TENANT })
    proxy = await startFaultProxy(engine.url)
    lobby = await pair(engine, 'Lobby')
    annex = await pair(engine, 'Annex')
    adminSession = (await post(engine.url, fd('/staff/first-admin'), { name: 'Ada Admin', secret: 'admin-secret-1' }, annex.token)).body.session
    const annexConnection = connection(engine.url, annex.token)
    annexDesk = siteDesk(`site|${engine.url}`, async () => annexConnection)
    admin = annexDesk.as({ token: adminSession, account: 'Ada Admin' })
    await admin.createAccount('Olga Operator', 'operator', 'operator-secret-1')
    operatorSession = (await annexDesk.signIn('Olga Operator', 'operator-secret-1')).session

    // The site before the kiosk's first pull: one listed person, one visitor on site (through Annex).
    await admin.addToWatchlist({ personUuid: listed.personUuid, email: listed.email, reason: 'Banned after an incident' })
    const checkedIn = await annexDesk.checkIn({ person: visitor, hostId: null, purpose: 'Interview', inviteToken: null, asLastTime: false })
    expect(checkedIn.outcome).toBe('checked-in')

    key = randomBytes(32)
    copy = openSiteCopy({ dataDir: kioskDir, key, log: (line) => logged.push(line) })
    lobbyConnection = connection(proxy.url, lobby.token)
    sync = siteSync({ openCopy: async () => copy, siteId: async () => siteId(), connection: async () => lobbyConnection, log: (line) => logged.push(line), intervalMs: 3_600_000 })
    desk = offlineDesk(
      siteDesk(siteId(), async () => lobbyConnection),
      { sync, selfId: async () => lobby.kioskId, kioskName: async () => 'Lobby', alerted: (alertId) => raised.push(alertId), log: (line) => logged.push(line) },
    )
  })

  afterAll(async () => {
    await events?.stop()
    await sync?.stop()
    await proxy?.close()
    await engine?.close()
    for (const folder of folders) rmSync(folder, { recursive: true, force: true })
  })

  const snapshot = () => ({
    watchlist: copy.watchlist().map((e) => e.personUuid).sort(),
    visits: copy.openVisits().map((v) => v.id),
    kiosks: copy.kiosks().map((k) => k.name).sort(),
    cookie: copy.state().cookie,
  })
  const alertsAtSite = async (id: string): Promise<WatchlistAlert[]> => (await admin.watchlistAlerts()).filter((a) => a.id === id)

  it('fills the copy on the first pull: the watchlist, the open visits and the kiosks', async () => {
    expect(await sync.state()).toMatchObject({ online: true, copyAsOf: null, watchlistEntries: 0, openVisits: 0, waitingActs: 0 })
    const before = Date.now()
    await sync.sync()
    expect(copy.watchlist()).toEqual([expect.objectContaining({ personUuid: listed.personUuid, email: listed.email, reason: 'Banned after an incident' })])
    expect(copy.openVisits()).toEqual([expect.objectContaining({ personUuid: visitor.personUuid, email: visitor.email, kioskName: 'Annex', checkedOutAt: null })])
    expect(copy.kiosks().map((k) => k.name).sort()).toEqual(['Annex', 'Lobby'])
    expect(copy.state().cookie).toBeGreaterThan(0)
    const state = await sync.state()
    expect(state).toMatchObject({ online: true, offlineSince: null, watchlistEntries: 1, openVisits: 1, waitingActs: 0 })
    expect(state!.copyAsOf).toBeGreaterThanOrEqual(before)
    expect(proxy.hits.filter((h) => h.path.startsWith(fd('/sync/pull'))).map((h) => h.status)).toEqual([200])
  })

  it("follows the site's changes by its records-changed events: a watchlist add and removal, a check-in and a check-out", async () => {
    const streamLog: string[] = []
    events = siteEvents({
      settings: async () => ({ ...defaultSettings, mode: 'site', personServerUrl: engine.url, bioEngineUrl: `${engine.url}/bioengine`, connectTimeoutSeconds: 1, requestTimeoutSeconds: 5 }),
      tokens: async () => new TokenProvider(async () => ({ token: lobby.token, expiresInSeconds: 3600 })),
      onEvent: (event) => {
        siteEventsSeen.push(event)
        if (event.type === 'records-changed') sync.recordsChanged(event.seq)
      },
      onConnected: () => sync.request(),
      log: (line) => streamLog.push(line),
    })
    events.refresh()
    await eventually('the stream is connected', async () => streamLog.some((line) => line.includes('listening')))

    const other = person('other')
    await admin.addToWatchlist({ personUuid: other.personUuid, email: other.email, reason: 'Trespass' })
    await eventually('the new entry in the copy', async () => copy.watchlist().some((e) => e.personUuid === other.personUuid))
    expect(await admin.removeFromWatchlist(other.personUuid)).toBe(true)
    await eventually('the entry gone from the copy', async () => !copy.watchlist().some((e) => e.personUuid === other.personUuid))

    const guest = person('guest')
    const visit = await annexDesk.checkIn({ person: guest, hostId: null, purpose: 'Delivery', inviteToken: null, asLastTime: false })
    const visitId = visit.outcome === 'checked-in' ? visit.visit.id : ''
    await eventually('the visit in the copy', async () => copy.openVisits().some((v) => v.id === visitId))
    expect(copy.openVisits().map((v) => v.personUuid)).toEqual([visitor.personUuid, guest.personUuid])
    expect(await annexDesk.checkOut(guest)).toMatchObject({ id: visitId })
    await eventually('the ended visit gone from the copy', async () => !copy.openVisits().some((v) => v.id === visitId))

    expect(siteEventsSeen.some((e) => e.type === 'records-changed')).toBe(true)
    // Incremental pulls after the first: each from the cookie it had.
    const pulls = proxy.hits.filter((h) => h.path.startsWith(fd('/sync/pull')))
    expect(pulls.length).toBeGreaterThan(1)
    expect(pulls.slice(1).every((h) => !h.path.endsWith('cookie=0'))).toBe(true)
    expect(snapshot().watchlist).toEqual([listed.personUuid])
  })

  it('keeps every row as it was through each fault, offline since the first, and is online again with the next good pull', async () => {
    await events.stop()
    const before = snapshot()
    // A change the site has that a good pull would bring: no faulty reply may bring or lose anything.
    const late = person('late')
    await admin.addToWatchlist({ personUuid: late.personUuid, email: late.email, reason: 'Threats' })
    const faults: Fault[] = ['status500', 'garbage', 'hang', 'reset', 'html404', 'login200', 'redirect302', 'status400', 'status429']
    let offlineSince: number | null = null
    for (const fault of faults) {
      proxy.inject({ path: /\/sync\/pull/, fault })
      await sync.sync()
      expect(snapshot(), fault).toEqual(before)
      const state = await sync.state()
      expect(state, fault).toMatchObject({ online: false, watchlistEntries: 1, openVisits: 1 })
      offlineSince ??= state!.offlineSince
      expect(state!.offlineSince, `${fault}: offline since the first failure`).toBe(offlineSince)
      expect(proxy.hits.at(-1), fault).toMatchObject({ fault })
    }
    // A site that is not there at all.
    proxy.setUpstream(null)
    await sync.sync()
    expect(snapshot()).toEqual(before)
    proxy.setUpstream(engine.url)

    await sync.sync()
    expect(await sync.state()).toMatchObject({ online: true, offlineSince: null, watchlistEntries: 2 })
    expect(snapshot().watchlist).toEqual([listed.personUuid, late.personUuid].sort())
    expect(await admin.removeFromWatchlist(late.personUuid)).toBe(true)
    await sync.sync()
    expect(snapshot().watchlist).toEqual([listed.personUuid])
  })

  it('replaces the whole copy when the site sends everything (its log no longer reaches the cookie)', async () => {
    const gone = person('gone')
    await admin.addToWatchlist({ personUuid: gone.personUuid, email: gone.email, reason: 'Fraud' })
    await sync.sync()
    expect(snapshot().watchlist).toContain(gone.personUuid)
    // Removed at the site, and the change pruned from its log before the kiosk pulled it.
    expect(await admin.removeFromWatchlist(gone.personUuid)).toBe(true)
    const cookie = copy.state().cookie
    expect(await engine.engine.ctx.frontDesk.pruneChanges(0)).toBeGreaterThan(0)
    await sync.sync()
    expect(proxy.hits.filter((h) => h.path.startsWith(fd('/sync/pull'))).at(-1)!.path).toMatch(new RegExp(`cookie=${cookie}$`))
    expect(snapshot().watchlist).toEqual([listed.personUuid])
    expect(snapshot().visits).toHaveLength(1)
    expect(snapshot().kiosks).toEqual(['Annex', 'Lobby'])
  })

  it('runs one sync at a time: requests made during a run share the next one', async () => {
    const pullsBefore = proxy.hits.filter((h) => h.path.startsWith(fd('/sync/pull'))).length
    proxy.inject({ path: /\/sync\/pull/, fault: 'hang' })
    const runs = [sync.sync(), sync.sync(), sync.sync(), sync.sync()]
    sync.request()
    await Promise.all(runs)
    // The hung run, then one more for all that asked meanwhile.
    expect(proxy.hits.filter((h) => h.path.startsWith(fd('/sync/pull'))).length - pullsBefore).toBe(2)
    expect((await sync.state())?.online).toBe(true)
  })

  let queued: SyncMutation[] = []

  it('screens from the copy while the site is away: a listed person is stopped by uuid or by e-mail, an alert queued and raised once each', async () => {
    proxy.setUpstream(null)
    const screensBefore = proxy.hits.filter((h) => h.path === fd('/watchlist/screen')).length

    // By the person's uuid, as a face match names it (any case).
    const byUuid = await desk.screen({ personUuids: [randomUUID(), listed.personUuid.toUpperCase()], givenEmail: null, place: 'check-in' })
    expect(byUuid).toMatchObject({ screening: 'watchlisted', personUuid: listed.personUuid, email: listed.email })
    // By the e-mail typed at an enrollment (spaces and case as a visitor types them), under a new person.
    const byEmail = await desk.screen({ personUuids: [randomUUID()], givenEmail: `  ${listed.email.toUpperCase()} `, place: 'enrollment' })
    expect(byEmail).toMatchObject({ screening: 'watchlisted', personUuid: listed.personUuid, email: listed.email })
    // Anyone else is clear, and queues nothing.
    expect(await desk.screen({ personUuids: [visitor.personUuid], givenEmail: visitor.email, place: 'check-in' })).toEqual({ screening: 'clear' })

    // The site was asked each time first.
    expect(proxy.hits.filter((h) => h.path === fd('/watchlist/screen')).length - screensBefore).toBe(3)
    const alertIds = [byUuid, byEmail].map((r) => (r.screening === 'watchlisted' ? r.alertId : ''))
    expect(raised).toEqual(alertIds)
    // Every one names its person by the site's id: as the wire takes them.
    queued = copy.waiting().map((act) => syncMutationSchema.parse(act))
    expect(queued.map((a) => a.id)).toEqual(alertIds)
    expect(queued.map((a) => a.args)).toEqual([
      { place: 'check-in', personUuid: listed.personUuid, email: listed.email, givenEmail: null, reason: 'Banned after an incident' },
      { place: 'enrollment', personUuid: listed.personUuid, email: listed.email, givenEmail: null, reason: 'Banned after an incident' },
    ])
    expect(queued[1]!.seq).toBe(queued[0]!.seq + 1)
    await eventually('the state says two acts wait', async () => (await sync.state())?.waitingActs === 2)
    expect((await sync.state())?.online).toBe(false)

    // Staff here see these alerts while the site is away.
    const operator = desk.as({ token: operatorSession, account: 'Olga Operator' })
    const shown = await operator.watchlistAlerts()
    expect(shown.map((a) => a.id).sort()).toEqual([...alertIds].sort())
    for (const alert of shown) expect(alert).toMatchObject({ kioskId: lobby.kioskId, kioskName: 'Lobby', personUuid: listed.personUuid, email: listed.email, reason: 'Banned after an incident' })
  })

  it('refuses as the site refused when the site answered in its own words, and when there is no copy yet', async () => {
    proxy.setUpstream(engine.url)
    proxy.inject({ path: /\/watchlist\/screen/, fault: 'status400' })
    await expect(desk.screen({ personUuids: [listed.personUuid], givenEmail: null, place: 'check-in' })).rejects.toMatchObject({ status: 400 })
    proxy.setUpstream(null)
    // A kiosk whose copy was never filled cannot screen from it: the failure stands.
    const emptyDir = mkdtempSync(join(tmpdir(), 'kiosk-offline-empty-'))
    folders.push(emptyDir)
    const empty = openSiteCopy({ dataDir: emptyDir, key: randomBytes(32) })
    const emptySync = siteSync({ openCopy: async () => empty, siteId: async () => siteId(), connection: async () => lobbyConnection, log: () => {} })
    const emptyDesk = offlineDesk(siteDesk(siteId(), async () => lobbyConnection), { sync: emptySync, selfId: async () => lobby.kioskId, kioskName: async () => 'Lobby', alerted: () => {}, log: () => {} })
    await expect(emptyDesk.screen({ personUuids: [listed.personUuid], givenEmail: null, place: 'check-in' })).rejects.toMatchObject({ code: 'UNREACHABLE' })
    expect(empty.waiting()).toEqual([])
    await emptySync.stop()
    expect(copy.waiting()).toHaveLength(2)
  })

  it('reads the evacuation list from the copy while the site is away: as of the last pull, with the other kiosks named', async () => {
    proxy.setUpstream(null)
    const operator = desk.as({ token: operatorSession, account: 'Olga Operator' })
    const list = await operator.onSite()
    expect(list.visits.map((v) => [v.personUuid, v.email, v.kioskName])).toEqual([[visitor.personUuid, visitor.email, 'Annex']])
    expect(list.offline).toEqual({ asOf: new Date(copy.state().pulledAt!).toISOString(), unheardKiosks: ['Annex'] })
    // Anything else staff do waits for the site.
    await expect(operator.visitLog({}, 0, 10)).rejects.toMatchObject({ code: 'UNREACHABLE' })
    // Online, the list is the site's own.
    proxy.setUpstream(engine.url)
    expect(await operator.onSite()).toMatchObject({ offline: null, visits: [expect.objectContaining({ personUuid: visitor.personUuid })] })
  })

  it("pushes the acts when the site is back, and the site has each alert exactly once though the first push's reply was lost", async () => {
    proxy.setUpstream(engine.url)
    const pushesBefore = proxy.hits.filter((h) => h.path === fd('/sync/push')).length
    // The site applies the push, then the reply is lost.
    proxy.inject({ method: 'POST', path: /\/sync\/push/, fault: 'status500', when: 'after' })
    await sync.sync()
    expect(copy.waiting()).toHaveLength(2)
    expect((await sync.state())?.online).toBe(false)
    for (const act of queued) expect(await alertsAtSite(act.id)).toHaveLength(1)

    // Sent again: the site has them already; the acts are done here.
    await sync.sync()
    expect(proxy.hits.filter((h) => h.path === fd('/sync/push')).length - pushesBefore).toBe(2)
    expect(copy.waiting()).toEqual([])
    expect(await sync.state()).toMatchObject({ online: true, waitingActs: 0 })
    for (const act of queued) {
      expect(await alertsAtSite(act.id)).toEqual([expect.objectContaining({ id: act.id, kioskId: lobby.kioskId, kioskName: 'Lobby', personUuid: listed.personUuid, email: listed.email, place: act.kind === 'watchlist-alert' ? act.args.place : null })])
    }
    // The same acts pushed once more, as a kiosk killed before it recorded the reply would: no-ops.
    const again = await siteCall(lobbyConnection, 'syncPush', { body: { mutations: queued } })
    expect(again.lastMutationSeq).toBe(queued.at(-1)!.seq)
    for (const act of queued) expect(await alertsAtSite(act.id)).toHaveLength(1)
    // Online, staff see each alert once (the site's), not again from the kiosk.
    const operator = desk.as({ token: operatorSession, account: 'Olga Operator' })
    const ids = (await operator.watchlistAlerts()).map((a) => a.id)
    for (const act of queued) expect(ids.filter((id) => id === act.id)).toHaveLength(1)
  })

  it('keeps the copy private: 0600 in a 0700 folder, with no e-mail or listed person in plain text', async () => {
    expect(statSync(kioskDir).mode & 0o777).toBe(0o700)
    const files = [SITE_COPY_FILE, `${SITE_COPY_FILE}-wal`, `${SITE_COPY_FILE}-shm`].map((name) => join(kioskDir, name)).filter((file) => existsSync(file))
    for (const file of files) expect(statSync(file).mode & 0o777, file).toBe(0o600)
    expect(copy.counts()).toMatchObject({ watchlistEntries: 1, openVisits: 1 })
    const bytes = Buffer.concat(files.map((file) => readFileSync(file)))
    expect(bytes.length).toBeGreaterThan(0)
    for (const secret of [listed.email, visitor.email, listed.personUuid, visitor.personUuid, 'Banned after an incident', visitor.firstName]) {
      expect(bytes.includes(Buffer.from(secret)), secret).toBe(false)
    }
  })

  it('starts over for another site, and when its key no longer opens it', async () => {
    expect(copy.useSite('site|https://other.example')).toBe(true)
    expect(snapshot()).toEqual({ watchlist: [], visits: [], kiosks: [], cookie: 0 })
    expect(copy.state()).toMatchObject({ site: 'site|https://other.example', pulledAt: null })
    // Back to this site: a full copy again (a reset pull).
    expect(copy.useSite(siteId())).toBe(true)
    await sync.sync()
    expect(snapshot().watchlist).toEqual([listed.personUuid])
    expect(proxy.hits.filter((h) => h.path.startsWith(fd('/sync/pull'))).at(-1)!.path).toMatch(/cookie=0$/)

    // Opened with another key (the keychain's was replaced): nothing is read, the copy starts over.
    const reopened = openSiteCopy({ dataDir: kioskDir, key: randomBytes(32), log: (line) => logged.push(line) })
    try {
      expect(reopened.counts()).toEqual({ watchlistEntries: 0, openVisits: 0, waitingActs: 0 })
      expect(reopened.state()).toMatchObject({ site: siteId(), cookie: 0, pulledAt: null })
      expect(logged).toContain('site copy: sealed under another key; starting over')
    } finally {
      reopened.close()
    }
  })

  it('numbers a new copy’s acts above those the site applied (site-copy.db lost while the kiosk stays paired)', async () => {
    const lost = mkdtempSync(join(tmpdir(), 'kiosk-offline-lost-'))
    folders.push(lost)
    const fresh = openSiteCopy({ dataDir: lost, key: randomBytes(32) })
    try {
      fresh.useSite(siteId())
      // The site has applied Lobby's acts up to some seq (the tests above pushed); a fresh copy learns it at its first pull.
      const page = pullResult.parse((await replyOf(await request(`${engine.url}${fd('/sync/pull')}`, { headers: { authorization: `Bearer ${lobby.token}` } }))).body)
      expect(page.lastMutationSeq).toBeGreaterThan(0)
      fresh.apply(siteId(), page, Date.now())
      const act = fresh.queue({ kind: 'watchlist-alert', args: { place: 'check-in', personUuid: randomUUID(), email: 'after-loss@example.com', givenEmail: null, reason: 'Banned' } }, Date.now())
      expect(act.seq).toBe(page.lastMutationSeq + 1)
      // And the site applies it: pushed, it is the site's newest.
      const pushed = await post(engine.url, fd('/sync/push'), { mutations: [act] }, lobby.token)
      expect(pushed.body).toEqual({ lastMutationSeq: act.seq })
      expect(await alertsAtSite(act.id)).toHaveLength(1)
    } finally {
      fresh.close()
    }
  })
})

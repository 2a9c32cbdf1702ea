import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { syncMutationSchema, type QueuedAct, type SyncMutation } from '../../electron/shared/site-sync'
import type { HostName, Visit, VisitorCheckResult } from '../../electron/shared/visits'
import type { IdentifyVisitorResult } from '../../electron/shared/workflows'
import type { SiteConnection } from '../../electron/services/clients/connect'
import type { Call, Handlers } from '../../electron/services/dispatch'
import type { VisitsFeature } from '../../electron/services/features/visits'
import type { KioskDesk, StaffDesk } from '../../electron/services/front-desk/desk'
import { offlineDesk } from '../../electron/services/site/offline-desk'
import { openSiteCopy, type SiteCopy } from '../../electron/services/site/site-copy'
import { siteDesk } from '../../electron/services/site/site-desk'
import { siteCall } from '../../electron/services/site/site-http'
import { siteSync, type SiteSync } from '../../electron/services/site/site-sync'
import { awayFeatures } from '../support/away-features'
import { startTestEngine, TEST_TENANT, type TestEngine } from '../support/engine'
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy'
import { fd, pair, post, type PairedKiosk } from '../support/paired-kiosk'
import { siteConnection } from '../support/site-connection'

/**
 * Visitors checking in and out at a site kiosk while its site is away: a real engine (SQLite) as the
 * site behind the fault proxy, the kiosk's copy, sync and offline desk as kiosk-services wires them,
 * and the visits feature over them. Identify is a stand-in that answers as the offline replica does
 * (its own person ids, `offline` set); the person server's ids come from `personId`, as
 * kiosk-services asks the servers (and the outbox) for them.
 */

const TIMEOUTS = { connectTimeoutMs: 1000, requestTimeoutMs: 1000 }
const tag = () => randomBytes(4).toString('hex')
const visitorCall: Call = { actor: { role: 'visitor', account: null }, key: 'window-1' }
const faceInput = { sample: 'c2FtcGxlLWltYWdlLWJ5dGVz' }

describe('a site kiosk checks visitors in and out while its site is away', () => {
  let engine: TestEngine
  let proxy: FaultProxy
  let lobby: PairedKiosk
  let annexDesk: KioskDesk
  let admin: StaffDesk
  let operator: StaffDesk
  let host: { id: string; name: string }
  let lobbyConnection: SiteConnection

  const folders: string[] = []
  let copy: SiteCopy
  let sync: SiteSync
  let desk: KioskDesk
  let visits: VisitsFeature
  let handlers: Handlers
  const logged: string[] = []
  const siteId = () => `site|${proxy.url}`

  /** What the servers say of an e-mail: the site's person id, or an enrollment still in the outbox. */
  const servers = new Map<string, string | 'waiting'>()
  /** The person server is the site's engine: away with it (a run queued meanwhile learns nothing). */
  let serversAway = false
  /** What Identify answers next. */
  let identified: IdentifyVisitorResult

  // Rita came before (her last visit names the host); Vic is on site through the Annex; Lena is listed.
  const rita = { personUuid: randomUUID(), email: `rita-${tag()}@example.com`, firstName: 'Rita' }
  const vic = { personUuid: randomUUID(), email: `vic-${tag()}@example.com`, firstName: 'Vic' }
  const lena = { personUuid: randomUUID(), email: `lena-${tag()}@example.com`, firstName: 'Lena' }
  const nina = { personUuid: randomUUID(), email: `nina-${tag()}@example.com` }
  const ghostEmail = `ghost-${tag()}@example.com`

  /** Identify as the offline replica answers: a match under the replica's own person id. */
  const replicaMatch = (email: string): IdentifyVisitorResult => ({
    decision: 'match',
    threshold: 0.5,
    scaleMax: 1,
    thresholdSource: 'server',
    candidates: [{ personUuid: randomUUID(), userId: email, score: 0.9 }],
    offline: { recordAt: Date.now() - 60_000, lastSyncAt: Date.now() - 60_000 },
  })

  beforeAll(async () => {
    const siteDir = mkdtempSync(join(tmpdir(), 'kiosk-offline-visits-site-'))
    const kioskDir = mkdtempSync(join(tmpdir(), 'kiosk-offline-visits-kiosk-'))
    folders.push(siteDir, kioskDir)
    engine = await startTestEngine([], siteDir, { tenant: TEST_TENANT })
    proxy = await startFaultProxy(engine.url)
    lobby = await pair(engine, 'Lobby')
    const annex = await pair(engine, 'Annex')
    const adminSession = (await post(engine.url, fd('/staff/first-admin'), { name: 'Ada Admin', secret: 'admin-secret-1' }, annex.token)).body.session
    const annexConnection = siteConnection(engine.url, annex.token, TIMEOUTS)
    annexDesk = siteDesk(`site|${engine.url}`, async () => annexConnection)
    admin = annexDesk.as({ token: adminSession, account: 'Ada Admin' })
    await admin.createAccount('Olga Operator', 'operator', 'operator-secret-1')
    const operatorSession = (await annexDesk.signIn('Olga Operator', 'operator-secret-1')).session

    host = await admin.addHost({ name: 'Harriet Host', email: null, webhookUrl: null })
    await admin.addToWatchlist({ personUuid: lena.personUuid, email: lena.email, reason: 'Banned after an incident' })
    // Rita's last visit, ended: a returning visitor who names no host comes to see Harriet again.
    await annexDesk.checkIn({ person: rita, hostId: host.id, purpose: 'Audit', inviteToken: null, asLastTime: false })
    await annexDesk.checkOut(rita)
    expect(await annexDesk.checkIn({ person: vic, hostId: null, purpose: 'Delivery', inviteToken: null, asLastTime: false })).toMatchObject({ outcome: 'checked-in' })
    servers.set(rita.email, rita.personUuid).set(vic.email, vic.personUuid).set(lena.email, lena.personUuid)

    copy = openSiteCopy({ dataDir: kioskDir, key: randomBytes(32), log: (line) => logged.push(line) })
    lobbyConnection = siteConnection(proxy.url, lobby.token, TIMEOUTS)
    sync = siteSync({
      openCopy: async () => copy,
      siteId: async () => siteId(),
      connection: async () => lobbyConnection,
      personId: async (email) => {
        if (serversAway) throw new Error('the person server did not answer')
        return servers.get(email) ?? null
      },
      log: (line) => logged.push(line),
      intervalMs: 3_600_000,
    })
    desk = offlineDesk(siteDesk(siteId(), async () => lobbyConnection), { sync, selfId: async () => lobby.kioskId, kioskName: async () => 'Lobby', alerted: () => {}, log: (line) => logged.push(line) })
    operator = desk.as({ token: operatorSession, account: 'Olga Operator' })

    visits = awayFeatures({ desk, staff: operator, identified: () => identified, log: (line) => logged.push(line) }).visits
    // An enrollment at this window while the servers are away: queued in the outbox (its e-mail as typed).
    handlers = visits.rememberEnrollments({
      ...visits.handlers,
      enrollVisitor: async () => ({ outcome: 'queued', outboxId: randomUUID(), reason: 'The servers could not be reached.' }),
    } as Handlers)
  })

  afterAll(async () => {
    await sync?.stop()
    await proxy?.close()
    await engine?.close()
    for (const folder of folders) rmSync(folder, { recursive: true, force: true })
  })

  const enrollQueued = (email: string) => handlers.enrollVisitor({ userId: email, samples: [faceInput.sample], consent: true, consentVersion: '1' }, visitorCall)
  const checkInByFace = (email: string) => {
    identified = replicaMatch(email)
    return handlers.checkInByFace(faceInput, visitorCall)
  }
  const checkOutByFace = (email: string) => {
    identified = replicaMatch(email)
    return handlers.checkOutByFace(faceInput, visitorCall)
  }
  const visitsAtSite = async (email: string): Promise<Visit[]> => (await admin.visitLog({ search: email }, 0, 10)).visits
  const visitActs = () => copy.waiting().filter((act) => act.kind !== 'watchlist-alert')
  const idOf = (result: VisitorCheckResult) => (result.outcome === 'checked-in' || result.outcome === 'checked-out' ? result.visitId : '')

  let hostNames: HostName[]
  let ritaVisit: string
  let ninaVisit: string

  it('fills the copy and keeps the host names the site gave', async () => {
    await sync.sync()
    expect(copy.openVisits().map((v) => v.email)).toEqual([vic.email])
    hostNames = await handlers.listHostNames(undefined as never, visitorCall)
    expect(hostNames).toEqual([{ id: host.id, name: 'Harriet Host' }])
    expect(copy.hostNames()).toEqual(hostNames)
  })

  it('answers whom a visitor can pick from the kept list while the site is away', async () => {
    proxy.setUpstream(null)
    serversAway = true
    expect(await handlers.listHostNames(undefined as never, visitorCall)).toEqual(hostNames)
  })

  it('checks a returning visitor in by face (the offline replica decided): kept for the site, named by e-mail alone', async () => {
    const before = Date.now()
    const result = await checkInByFace(rita.email)
    expect(result).toMatchObject({ outcome: 'checked-in', alreadyOnSite: false, hostNotified: false, offline: true, greeting: rita.email })
    // The replica's person id is never shown as the servers'.
    expect(result).not.toHaveProperty('personUuid')
    ritaVisit = idOf(result)
    const [act] = visitActs()
    expect(act).toMatchObject({ kind: 'check-in', id: ritaVisit, args: { person: { personUuid: null, email: rita.email, firstName: null }, hostId: null, purpose: null, asLastTime: true } })
    expect(act!.at).toBeGreaterThanOrEqual(before)
    expect(result.outcome === 'checked-in' && result.checkedInAt).toBe(new Date(act!.at).toISOString())

    // Again: already on site (this kiosk's own waiting check-in), nothing more kept.
    expect(await checkInByFace(rita.email.toUpperCase())).toMatchObject({ outcome: 'checked-in', alreadyOnSite: true, visitId: ritaVisit })
    // A visitor on site through another kiosk (the copy's) is on site too.
    expect(await checkInByFace(vic.email)).toMatchObject({ outcome: 'checked-in', alreadyOnSite: true })
    expect(visitActs()).toHaveLength(1)
  })

  it('checks in the person this window just enrolled whose enrollment waits in the outbox, with the host they chose', async () => {
    expect(await enrollQueued(nina.email)).toMatchObject({ outcome: 'queued', checkIn: true })
    // Another person's id is no proof.
    await expect(handlers.checkIn({ personUuid: randomUUID() }, visitorCall)).rejects.toMatchObject({ code: 'FORBIDDEN' })
    const result = await handlers.checkIn({ hostId: host.id, purpose: 'Interview', firstName: 'Nina' }, visitorCall)
    expect(result).toMatchObject({ outcome: 'checked-in', alreadyOnSite: false, offline: true, greeting: 'Nina', hostName: 'Harriet Host', hostNotified: false })
    ninaVisit = idOf(result)
    expect(visitActs().at(-1)).toMatchObject({ kind: 'check-in', id: ninaVisit, args: { person: { personUuid: null, email: nina.email, firstName: 'Nina' }, hostId: host.id, purpose: 'Interview', asLastTime: false } })
  })

  it('stops a listed person known by e-mail alone, from the copy', async () => {
    expect(await checkInByFace(lena.email)).toMatchObject({ outcome: 'refused', reason: 'see-front-desk', why: 'watchlisted' })
    expect(copy.waiting().filter((act) => act.kind === 'watchlist-alert')).toEqual([expect.objectContaining({ args: expect.objectContaining({ personUuid: lena.personUuid, email: lena.email, givenEmail: null, place: 'check-in' }) })])
    expect(visitActs()).toHaveLength(2)
  })

  it("shows this kiosk's own waiting check-ins on the offline evacuation list", async () => {
    const list = await operator.onSite()
    expect(list.offline).not.toBeNull()
    expect(list.visits.map((v) => [v.email, v.kioskName, v.hostName])).toEqual([
      [vic.email, 'Annex', null],
      [rita.email, 'Lobby', null],
      [nina.email, 'Lobby', 'Harriet Host'],
    ])
    const own = list.visits.filter((v) => v.kioskName === 'Lobby')
    expect(own.map((v) => v.id)).toEqual([ritaVisit, ninaVisit])
    for (const visit of own) expect(visit).toMatchObject({ kioskId: lobby.kioskId, checkedOutAt: null, inviteId: null })
  })

  it('checks visitors out by face: its own waiting check-in, and a visit of the copy', async () => {
    const ritaOut = await checkOutByFace(rita.email)
    expect(ritaOut).toMatchObject({ outcome: 'checked-out', visitId: ritaVisit, offline: true })
    const vicOut = await checkOutByFace(vic.email)
    expect(vicOut).toMatchObject({ outcome: 'checked-out', offline: true })
    const vicVisit = idOf(vicOut)
    expect(visitActs().slice(2)).toEqual([
      expect.objectContaining({ kind: 'check-out', args: { visitId: ritaVisit, person: { personUuid: null, email: rita.email } } }),
      // The copy names Vic by the site's id: nothing to learn before the push.
      expect.objectContaining({ kind: 'check-out', args: { visitId: vicVisit, person: { personUuid: vic.personUuid, email: vic.email } } }),
    ])
    // Out is out: not on the list, and not on site for another check-out.
    expect((await operator.onSite()).visits.map((v) => v.email)).toEqual([nina.email])
    expect(await checkOutByFace(rita.email)).toMatchObject({ outcome: 'refused', reason: 'not-on-site' })
  })

  it('drops an act whose person is on no server and in no outbox, saying so without their e-mail', async () => {
    expect(await enrollQueued(ghostEmail)).toMatchObject({ outcome: 'queued' })
    expect(await handlers.checkIn({}, visitorCall)).toMatchObject({ outcome: 'checked-in', offline: true })
    expect(visitActs()).toHaveLength(5)
  })

  let pushed: QueuedAct[] = []

  it('counts a person server that does not answer as a failed run: nothing is pushed', async () => {
    // The site answers; the person server not yet.
    proxy.setUpstream(engine.url)
    const before = copy.waiting()
    await sync.sync()
    expect(copy.waiting()).toEqual(before)
    expect((await sync.state())?.online).toBe(false)
    expect(await visitsAtSite(rita.email)).toHaveLength(1)
    serversAway = false
  })

  it("pushes, when the site is back, only the acts before an enrollment still in the outbox, with the site's person ids", async () => {
    servers.set(nina.email, 'waiting')
    pushed = copy.waiting()
    await sync.sync()
    expect((await sync.state())?.online).toBe(true)
    // Rita's check-in reached the site; Nina's and all after it wait, in order.
    expect(copy.waiting().map((act) => act.seq)).toEqual(pushed.slice(1).map((act) => act.seq))
    const [atSite] = (await visitsAtSite(rita.email)).filter((v) => v.id === ritaVisit)
    expect(atSite).toMatchObject({ personUuid: rita.personUuid, email: rita.email, kioskId: lobby.kioskId, checkedOutAt: null, hostId: host.id, hostName: 'Harriet Host', purpose: 'Audit' })
    expect(atSite!.checkedInAt).toBe(new Date(pushed[0]!.at).toISOString())
    // The learned id is kept with the act.
    expect(copy.waiting().filter((act) => act.kind === 'check-out' && act.args.visitId === ritaVisit)).toEqual([
      expect.objectContaining({ args: { visitId: ritaVisit, person: { personUuid: null, email: rita.email } } }),
    ])
  })

  it('pushes the rest once the enrollment is delivered: each act reaches the site once', async () => {
    servers.set(nina.email, nina.personUuid)
    logged.length = 0
    await sync.sync()
    expect(copy.waiting()).toEqual([])
    expect(await sync.state()).toMatchObject({ online: true, waitingActs: 0 })

    const ritas = await visitsAtSite(rita.email)
    expect(ritas.filter((v) => v.id === ritaVisit)).toEqual([expect.objectContaining({ personUuid: rita.personUuid, checkedOutBy: 'visitor', checkedOutAt: new Date(pushed[3]!.at).toISOString() })])
    expect(ritas).toHaveLength(2)
    expect(await visitsAtSite(nina.email)).toEqual([
      expect.objectContaining({ id: ninaVisit, personUuid: nina.personUuid, firstName: 'Nina', hostId: host.id, purpose: 'Interview', checkedOutAt: null, checkedInAt: new Date(pushed[1]!.at).toISOString() }),
    ])
    expect(await visitsAtSite(vic.email)).toEqual([expect.objectContaining({ checkedOutBy: 'visitor', checkedOutAt: new Date(pushed[4]!.at).toISOString() })])
    expect(await visitsAtSite(ghostEmail)).toEqual([])
    expect((await admin.watchlistAlerts()).filter((a) => a.id === pushed[2]!.id)).toHaveLength(1)
    // The ghost's act was dropped; the log names neither it nor anyone else by e-mail.
    expect(logged.some((line) => line.includes('dropped'))).toBe(true)
    for (const email of [ghostEmail, rita.email, nina.email, vic.email]) expect(logged.join('\n')).not.toContain(email)

    // Online, the evacuation list is the site's (Nina, through Lobby).
    const list = await operator.onSite()
    expect(list.offline).toBeNull()
    expect(list.visits.map((v) => [v.id, v.personUuid])).toEqual([[ninaVisit, nina.personUuid]])
  })

  it('changes nothing when the same acts are pushed again', async () => {
    const ids = new Map([...servers].filter((entry): entry is [string, string] => entry[1] !== 'waiting'))
    const wire: SyncMutation[] = pushed.flatMap((act) => {
      if (act.kind === 'watchlist-alert') return [syncMutationSchema.parse(act)]
      if (act.kind !== 'check-in' && act.kind !== 'check-out') return []
      const personUuid = act.args.person.personUuid ?? ids.get(act.args.person.email)
      return personUuid ? [syncMutationSchema.parse({ ...act, args: { ...act.args, person: { ...act.args.person, personUuid } } })] : []
    })
    const before = await Promise.all([rita.email, nina.email, vic.email].map(visitsAtSite))
    const again = await siteCall(lobbyConnection, 'syncPush', { body: { mutations: wire } })
    // The ghost's act (the last made) was dropped, never sent: the site's last is the act before it.
    expect(wire.map((act) => act.seq)).toEqual(pushed.slice(0, -1).map((act) => act.seq))
    expect(again.lastMutationSeq).toBe(wire.at(-1)!.seq)
    expect(await Promise.all([rita.email, nina.email, vic.email].map(visitsAtSite))).toEqual(before)
  })

  it("refuses a check-out by e-mail alone at the site's desk itself: it knows visitors by its own id only", async () => {
    await expect(siteDesk(siteId(), async () => lobbyConnection).checkOut({ personUuid: null, email: nina.email })).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})

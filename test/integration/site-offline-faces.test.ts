import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadFacePlugins } from '../../electron/engine/face'
import { CONSENT } from '../../electron/shared/consent'
import type { IdentifyVisitorResult } from '../../electron/shared/workflows'
import type { Call } from '../../electron/services/dispatch'
import { enrollment } from '../../electron/services/features/enrollment'
import type { KioskDesk, StaffDesk } from '../../electron/services/front-desk/desk'
import { matchListedFaces } from '../../electron/services/site/listed-face-match'
import { offlineDesk } from '../../electron/services/site/offline-desk'
import { openSiteCopy, type SiteCopy } from '../../electron/services/site/site-copy'
import { siteDesk } from '../../electron/services/site/site-desk'
import { siteSync, type SiteSync } from '../../electron/services/site/site-sync'
import { awayFeatures } from '../support/away-features'
import { testBackend } from '../support/backend'
import { startTestEngine, TEST_TENANT, type TestEngine } from '../support/engine'
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy'
import { fd, pair, post, type PairedKiosk } from '../support/paired-kiosk'
import { projectRoot } from '../support/process'
import { siteConnection } from '../support/site-connection'

/**
 * A site kiosk screens faces against the site's watchlist while the site is away: two real engines
 * with the face models, one the site (behind the fault proxy), one the kiosk's own; the kiosk's copy,
 * sync and offline desk as kiosk-services wires them, and the enrollment, watchlist and visits
 * features over them. Photos: person-a1/a2 are one person (Lena, listed), b and c others.
 */

const TIMEOUTS = { connectTimeoutMs: 1000, requestTimeoutMs: 1000 }
const tag = () => randomBytes(4).toString('hex')
const photo = (name: string) => readFileSync(join(projectRoot, 'test/fixtures/generated', name)).toString('base64')
const visitorCall: Call = { actor: { role: 'visitor', account: null }, key: 'window-1' }
const TYPE = 'Face:HumanFaceRes'

describe('a site kiosk screens faces from its copy of the watchlist while its site is away', () => {
  let site: TestEngine
  let own: TestEngine
  let proxy: FaultProxy
  let lobby: PairedKiosk
  let admin: StaffDesk
  const folders: string[] = []
  let copy: SiteCopy
  let sync: SiteSync
  let desk: KioskDesk
  const siteId = () => `site|${proxy.url}`
  const ownBio = () => testBackend(own.url).bio
  /** The kiosk's own engine answers (false: it is down, as when it cannot start). */
  let ownUp = true
  const queued: string[] = []
  const raised: string[] = []
  let identified: IdentifyVisitorResult
  let features: {
    enroll: (email: string, sample: string) => Promise<unknown>
    checkInByFace: (sample: string) => Promise<unknown>
  }

  const lena = { email: `lena-${tag()}@example.com`, uuid: '' }
  const bob = { email: `bob-${tag()}@example.com`, uuid: '' }
  const nora = { email: `nora-${tag()}@example.com`, uuid: '' }

  beforeAll(async () => {
    const plugins = await loadFacePlugins({ threads: 2, log: () => {} })
    const [siteDir, ownDir, kioskDir] = ['site', 'own', 'kiosk'].map((name) => mkdtempSync(join(tmpdir(), `kiosk-offline-faces-${name}-`)))
    folders.push(siteDir!, ownDir!, kioskDir!)
    site = await startTestEngine(plugins, siteDir, { tenant: TEST_TENANT })
    own = await startTestEngine(plugins, ownDir)
    proxy = await startFaultProxy(site.url)
    lobby = await pair(site, 'Lobby')
    const annex = await pair(site, 'Annex')
    const adminSession = (await post(site.url, fd('/staff/first-admin'), { name: 'Ada Admin', secret: 'admin-secret-1' }, annex.token)).body.session
    const annexConnection = siteConnection(site.url, annex.token, TIMEOUTS)
    admin = siteDesk(`site|${site.url}`, async () => annexConnection).as({ token: adminSession, account: 'Ada Admin' })

    // Enrolled at the site: Lena (listed), Bob (not listed), Nora (listed, no face enrolled).
    for (const [person, sample] of [[lena, 'person-a1.jpg'], [bob, 'person-b.jpg'], [nora, null]] as const) {
      person.uuid = (await site.call('POST', `/v2/gmiserver/tenant/${TEST_TENANT}/person`, { userId: person.email })).body.uuid
      if (sample) expect((await site.call('POST', `/bioengine/persons/${person.uuid}/biometrics`, { templateType: TYPE, templateContext: 'desk', samples: [photo(sample)] })).status).toBe(201)
    }
    await admin.addToWatchlist({ personUuid: lena.uuid, email: lena.email, reason: 'Banned after an incident' })
    await admin.addToWatchlist({ personUuid: nora.uuid, email: nora.email, reason: 'Trespass notice' })

    copy = openSiteCopy({ dataDir: kioskDir!, key: randomBytes(32), log: () => {} })
    const lobbyConnection = siteConnection(proxy.url, lobby.token, TIMEOUTS)
    sync = siteSync({ openCopy: async () => copy, siteId: async () => siteId(), connection: async () => lobbyConnection, log: () => {}, intervalMs: 3_600_000 })
    desk = offlineDesk(siteDesk(siteId(), async () => lobbyConnection), {
      sync,
      selfId: async () => lobby.kioskId,
      kioskName: async () => 'Lobby',
      alerted: (alertId) => raised.push(alertId),
      matchListedFaces: async (samples, listed) => {
        if (!ownUp) throw new Error('The engine could not be started.')
        return matchListedFaces(ownBio(), null, samples, listed)
      },
      log: () => {},
    })
    const operator = desk.as({ token: adminSession, account: 'Ada Admin' })
    const { watchlist, visits } = awayFeatures({ desk, staff: operator, identified: () => identified })
    const siteBackend = testBackend(proxy.url, { requestTimeoutMs: 1000 })
    const enrolling = enrollment({
      backend: async () => siteBackend,
      templateType: async () => TYPE,
      liveness: { judge: async () => ({ outcome: undefined, release: () => {} }) } as never,
      outbox: async () => ({ enqueue: async (request: { userId: string }, id: string) => (queued.push(request.userId), { id }) }) as never,
      replica: { record: async () => {} },
      reachable: () => {},
      audit: { systemAct: async () => undefined } as never,
      watchlist,
    })
    features = {
      enroll: (email, sample) => enrolling.handlers.enrollVisitor!({ userId: email, samples: [photo(sample)], consent: true, consentVersion: CONSENT.version }, visitorCall),
      checkInByFace: (sample) => visits.handlers.checkInByFace!({ sample: photo(sample) }, visitorCall),
    }
  })

  afterAll(async () => {
    await sync?.stop()
    await proxy?.close()
    await site?.close()
    await own?.close()
    for (const folder of folders) rmSync(folder, { recursive: true, force: true })
  })

  const waitingAlerts = () => copy.waiting().filter((act) => act.kind === 'watchlist-alert')

  it("copies each listed person's faces with their entry: Lena's template, none for Nora who has no face enrolled", async () => {
    await sync.sync()
    const entries = new Map(copy.watchlist().map((entry) => [entry.personUuid, entry]))
    expect(entries.get(lena.uuid)?.faces).toEqual([{ templateType: TYPE, template: expect.any(String) }])
    expect(entries.get(nora.uuid)?.faces ?? []).toEqual([])
  })

  it('stops Lena enrolling under a new e-mail by her face (another photo of her), queues nothing and raises the alert for the site', async () => {
    proxy.setUpstream(null)
    const newEmail = `lena-again-${tag()}@example.com`
    expect(await features.enroll(newEmail, 'person-a2.jpg')).toEqual({ outcome: 'needs-staff', reason: 'see-front-desk' })
    expect(queued).toEqual([])
    expect(waitingAlerts()).toEqual([expect.objectContaining({ args: expect.objectContaining({ place: 'enrollment', personUuid: lena.uuid, email: lena.email, givenEmail: newEmail }) })])
    expect(raised).toHaveLength(1)
  })

  it('queues a face nobody listed (Bob, and a new visitor), and stops a listed e-mail whose person has no face copied', async () => {
    const [bobAgain, carla] = [`bob-again-${tag()}@example.com`, `carla-${tag()}@example.com`]
    expect(await features.enroll(bobAgain, 'person-b.jpg')).toMatchObject({ outcome: 'queued' })
    expect(await features.enroll(carla, 'person-c.jpg')).toMatchObject({ outcome: 'queued' })
    expect(queued).toEqual([bobAgain, carla])
    expect(await features.enroll(nora.email, 'person-d.jpg')).toEqual({ outcome: 'needs-staff', reason: 'see-front-desk' })
    expect(queued).toHaveLength(2)
    expect(waitingAlerts().map((act) => act.args.personUuid)).toEqual([lena.uuid, nora.uuid])
  })

  it('refuses a check-in by face that the offline replica put to another e-mail when the face is a listed one', async () => {
    identified = {
      decision: 'match',
      threshold: 0.5,
      scaleMax: 1,
      thresholdSource: 'server',
      candidates: [{ personUuid: randomUUID(), userId: `someone-${tag()}@example.com`, score: 0.9 }],
      offline: { recordAt: Date.now() - 60_000, lastSyncAt: Date.now() - 60_000 },
    }
    expect(await features.checkInByFace('person-a2.jpg')).toMatchObject({ outcome: 'refused', reason: 'see-front-desk', why: 'watchlisted' })
    expect(waitingAlerts().at(-1)?.args).toMatchObject({ place: 'check-in', personUuid: lena.uuid })
    // Bob's face is nobody's on the list: checked in for the site.
    expect(await features.checkInByFace('person-b.jpg')).toMatchObject({ outcome: 'checked-in', offline: true })
  })

  it('fails closed when the own engine cannot compare the faces: nothing queued, no alert, a clear error', async () => {
    ownUp = false
    const before = { queued: queued.length, alerts: waitingAlerts().length }
    await expect(features.enroll(`dana-${tag()}@example.com`, 'person-e.jpg')).rejects.toMatchObject({ code: 'INTERNAL', message: expect.stringMatching(/watchlist's faces could not be checked.*Nobody is admitted unscreened/) })
    expect({ queued: queued.length, alerts: waitingAlerts().length }).toEqual(before)
    ownUp = true
  })

  it('delivers the alerts raised away to the site once it is back', async () => {
    proxy.setUpstream(site.url)
    const ids = waitingAlerts().map((act) => act.id)
    await sync.sync()
    expect(copy.waiting().filter((act) => act.kind === 'watchlist-alert')).toEqual([])
    const atSite = (await admin.watchlistAlerts()).map((alert) => alert.id)
    for (const id of ids) expect(atSite).toContain(id)
  })
})

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { launchEngineFromSource } from '../../electron/services/engine-launch'
import { CONSENT } from '../../electron/shared/consent'
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy'
import { startTestPostgres, type TestPostgres } from '../support/postgres'
import { projectRoot } from '../support/process'
import { kioskAt, type KioskAt, type RemoteServers } from '../support/remote-kiosk'
import { SITE_CLIENT, SITE_TEMPLATE_TYPE, SITE_TENANT, siteApi, startSite, stopSiteCleanly, type RunningSite } from '../support/site'

// Two kiosks in remote mode (each with its own data folder and keychain scope) on one
// site (`npm run site`: two engines on a PostgreSQL this suite starts, so that it can stop it, and
// haproxy in front). Kiosk A reaches the front through a proxy the test can cut; kiosk B directly,
// with the offline replica on. Real faces, recognised by the site's engines.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 })

const photo = (name: string) => readFileSync(join(projectRoot, 'test/fixtures/generated', name)).toString('base64')
// a1 and a2 are the same woman; b and e are two other people.
const [ANA, ANA_OTHER_PHOTO, BO, EVE] = ['person-a1.jpg', 'person-a2.jpg', 'person-b.jpg', 'person-e.jpg'].map(photo) as [string, string, string, string]
const enroll = (userId: string, sample: string) => ({ userId, samples: [sample], consent: true, consentVersion: CONSENT.version })
const [ANA_ID, BO_ID, EVE_ID] = ['ana@site-kiosks.example', 'bo@site-kiosks.example', 'eve@site-kiosks.example']

describe('two kiosks on one site', () => {
  let db: TestPostgres
  let site: RunningSite
  let proxy: FaultProxy
  let api: ReturnType<typeof siteApi>
  let a: KioskAt
  let b: KioskAt

  const servers = (url: string): RemoteServers => ({
    personServerUrl: url,
    bioEngineUrl: `${url}/bioengine`,
    tenantCode: SITE_TENANT,
    templateType: SITE_TEMPLATE_TYPE,
    clientId: SITE_CLIENT.id,
    clientSecret: SITE_CLIENT.secret,
  })
  const replicaUntil = async (done: (status: any) => boolean, what: string) => {
    for (let polls = 0; polls < 600; polls++) {
      const status = await b.call('getReplicaStatus')
      if (done(status)) return status
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error(`kiosk B's replica never reached: ${what}`)
  }

  beforeAll(async () => {
    db = await startTestPostgres()
    site = await startSite({ engines: 2, database: { url: db.url, passfile: db.passfile } })
    api = siteApi(site.url)
    proxy = await startFaultProxy(site.url)
    a = await kioskAt(servers(proxy.url))
    b = await kioskAt(servers(site.url), { settings: { offlineReplica: true }, launchEngine: launchEngineFromSource(projectRoot) })
  })

  afterAll(async () => {
    // Whatever fails here, the site and PostgreSQL are still stopped below.
    for (const close of [() => a?.close(), () => b?.close(), () => proxy?.close(), () => api?.close()]) await Promise.resolve().then(close).catch(() => undefined)
    try {
      await stopSiteCleanly(site)
    } finally {
      await db?.close()
    }
  })

  it('a visitor enrolled at kiosk A is verified and identified at kiosk B', async () => {
    expect(await a.call('testConnection')).toMatchObject({ steps: expect.arrayContaining([expect.objectContaining({ name: 'tenant', ok: true })]) })
    expect(await a.call('enrollVisitor', enroll(ANA_ID, ANA))).toMatchObject({ outcome: 'enrolled', created: true, person: { userId: ANA_ID } })
    expect(await api.tally(ANA_ID)).toMatchObject({ persons: 1, templates: 1 })

    const verified = await b.call('verifyVisitor', { userId: ANA_ID, sample: ANA_OTHER_PHOTO })
    expect(verified).toMatchObject({ decision: 'match', person: { userId: ANA_ID } })
    expect(verified.offline).toBeUndefined()
    expect(await b.call('identifyVisitor', { sample: ANA_OTHER_PHOTO })).toMatchObject({ decision: 'match', candidates: [{ userId: ANA_ID }] })
    expect(await b.call('identifyVisitor', { sample: BO })).toMatchObject({ decision: 'no-match', candidates: [] })
  })

  it("kiosk B's offline replica keeps the visitor it verified, and its sync from the site removes them once kiosk A has", async () => {
    // The face the site just confirmed at B is kept on B (its own engine, started on demand).
    await replicaUntil((s) => s.persons === 1, 'the verified visitor kept')
    expect(await a.call('removeVisitor', { userId: ANA_ID })).toMatchObject({ outcome: 'deleted' })
    expect(await api.tally(ANA_ID)).toMatchObject({ persons: 0 })

    expect(await b.call('syncReplica')).toMatchObject({ checked: 1, removed: 1 })
    expect(await b.call('getReplicaStatus')).toMatchObject({ persons: 0, lastSyncAt: expect.any(Number) })
    expect(await b.call('verifyVisitor', { userId: ANA_ID, sample: ANA })).toMatchObject({ decision: 'not-found' })
  })

  it('an enrollment kiosk A queues while the site is unreachable for it is delivered once, when it is reachable again', async () => {
    proxy.setUpstream(null)
    try {
      expect(await a.call('enrollVisitor', enroll(BO_ID, BO))).toMatchObject({ outcome: 'queued' })
      await a.outboxUntil((s) => s.online === false && s.counts.queued === 1, 'offline, one queued')
      expect(await api.tally(BO_ID)).toMatchObject({ persons: 0 })
    } finally {
      proxy.setUpstream(site.url)
    }
    await a.outboxUntil((s) => s.counts.delivered === 1 && s.counts.queued === 0, 'delivered')
    expect(await api.tally(BO_ID)).toMatchObject({ persons: 1, templates: 1 })
    expect(await b.call('identifyVisitor', { sample: BO })).toMatchObject({ decision: 'match', candidates: [{ userId: BO_ID }] })
  })

  it("an enrollment kiosk A makes while the site's PostgreSQL is down (503) is queued, and delivered once after its restart", async () => {
    await db.stop()
    try {
      const queued = await a.call('enrollVisitor', enroll(EVE_ID, EVE))
      expect(queued).toMatchObject({ outcome: 'queued', reason: expect.stringMatching(/HTTP 503/) })
      // Tried again while the database is down: refused with 503 each time, still queued, not parked.
      await a.outboxUntil((s) => s.items.some((i: any) => i.id === queued.outboxId && i.state === 'queued' && i.attempts >= 1 && i.lastError?.code === 'SERVER_ERROR'), 'a delivery refused with 503')
    } finally {
      await db.restart()
    }
    const state = await a.outboxUntil((s) => s.counts.delivered === 2 && s.counts.queued === 0, 'delivered after the restart')
    expect(state.counts.needsAttention).toBe(0)
    expect(await api.tally(EVE_ID)).toMatchObject({ persons: 1, templates: 1 })
    expect(await api.tally(BO_ID)).toMatchObject({ persons: 1, templates: 1 })
    expect(await b.call('identifyVisitor', { sample: EVE })).toMatchObject({ decision: 'match', candidates: [{ userId: EVE_ID }] })
  })
})

import { randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { loadFacePlugins } from '../../electron/engine/face'
import { CONSENT } from '../../electron/shared/consent'
import type { KioskEvent } from '../../electron/shared/events'
import type { SiteSyncState } from '../../electron/shared/site-sync'
import { startTestEngine, TEST_TENANT, type TestEngine } from '../support/engine'
import { projectRoot } from '../support/process'
import { freshKiosk, type FreshKiosk } from '../support/site-kiosk'

// A kiosk's services as installed, joined to a site (a real engine with the face models, in this
// process), then cut off from it: the listed person's face, copied with their watchlist entry, still
// stops them enrolling under another e-mail, compared by the kiosk's own engine (started from source).

vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 })

const photo = (name: string) => readFileSync(join(projectRoot, 'test/fixtures/generated', name)).toString('base64')
const ADA = { name: 'ada', secret: 'site-ada-pin' }
const enrollment = (userId: string, sample: string) => ({ userId, samples: [photo(sample)], consent: true, consentVersion: CONSENT.version })

describe('a site kiosk screens faces from its copy once its site goes away', () => {
  let site: TestEngine
  let siteFolder: string
  let kiosk: FreshKiosk
  let seen: KioskEvent[]
  const syncStates = () => seen.flatMap((e) => (e.type === 'site-sync' ? [e.state as SiteSyncState] : []))
  const lena = `lena-${randomUUID().slice(0, 8)}@example.com`

  beforeAll(async () => {
    siteFolder = mkdtempSync(join(tmpdir(), 'kiosk-offline-faces-site-'))
    site = await startTestEngine(await loadFacePlugins({ threads: 2, log: () => {} }), siteFolder, { tenant: TEST_TENANT })
    kiosk = await freshKiosk()
    const desk = site.engine.ctx.frontDesk
    await desk.createFirstAdmin(ADA.name, ADA.secret, null)
    const { code } = await desk.createPairingCode(ADA.name)
    await kiosk.call('joinSite', { url: site.url, code, name: 'Lobby' }, 'tab:first-run')
    await kiosk.call('signIn', ADA, 'tab:ada')
    seen = kiosk.listen('tab:ada')
  })
  afterAll(async () => {
    await kiosk?.close().catch(() => undefined)
    await site?.engine.close().catch(() => undefined)
    rmSync(siteFolder, { recursive: true, force: true })
  })

  it('copies the listed person with their face while the site answers', async () => {
    expect(await kiosk.call('enrollVisitor', enrollment(lena, 'person-a1.jpg'), 'tab:visitor')).toMatchObject({ outcome: 'enrolled' })
    await kiosk.call('addToWatchlist', { email: lena, reason: 'Banned after an incident' }, 'tab:ada')
    await expect.poll(() => syncStates().at(-1)?.watchlistEntries, { timeout: 30_000 }).toBe(1)
  })

  it('stops her enrolling under another e-mail by her face once the site is gone, and queues a face nobody listed', async () => {
    await site.engine.close()
    const alerts = kiosk.listen('tab:ada')
    expect(await kiosk.call('enrollVisitor', enrollment(`lena-again-${randomUUID().slice(0, 8)}@example.com`, 'person-a2.jpg'), 'tab:visitor')).toEqual({ outcome: 'needs-staff', reason: 'see-front-desk' })
    expect(alerts.filter((event) => event.type === 'watchlist-alert')).toHaveLength(1)
    expect(await kiosk.call('enrollVisitor', enrollment(`carla-${randomUUID().slice(0, 8)}@example.com`, 'person-c.jpg'), 'tab:visitor')).toMatchObject({ outcome: 'queued' })
  })
})

import { request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { reportHealth } from '../../electron/services/site/health-report'
import { STAFF_SESSION_HEADER, type KioskHealthReport } from '../../electron/shared/frontdesk-api'
import { dashboardMetrics, isKioskHealthMetric } from '../support/dashboard'
import { startTestEngine, TEST_TENANT, type TestEngine } from '../support/engine'
import { fd, pair, type PairedKiosk } from '../support/paired-kiosk'
import { siteConnection } from '../support/site-connection'

/** A site's kiosks report their health; staff list it with each kiosk (the site's side, and the kiosk's reporter). */
const REPORT: KioskHealthReport = { version: '4.9.0', outbox: { waiting: 2, failed: 1 }, hostNoticesWaiting: 3, replicaAgeSeconds: 12, camera: 'found', lastErrorCode: 'UNREACHABLE' }

describe('kiosk health reports', () => {
  let t: TestEngine
  let lobby: PairedKiosk
  let garden: PairedKiosk
  let admin: string
  const send = (method: string, path: string, token: string, body?: unknown, session?: string) => t.call(method, path, body, { authorization: `Bearer ${token}`, ...(session ? { [STAFF_SESSION_HEADER]: session } : {}) })
  const listed = async () => (await send('GET', fd('/kiosks'), lobby.token, undefined, admin)).body as Array<{ name: string; health: unknown }>

  beforeAll(async () => {
    t = await startTestEngine([], undefined, { tenant: TEST_TENANT })
    lobby = await pair(t, 'Lobby')
    garden = await pair(t, 'Garden door')
    admin = (await send('POST', fd('/staff/first-admin'), lobby.token, { name: 'Site Admin', secret: 'site-admin-secret-1' })).body.session
  })
  afterAll(() => t?.close())

  it('keeps each kiosk’s last report with when it came, and lists it to staff beside the kiosk', async () => {
    expect((await listed()).map((k) => [k.name, k.health])).toEqual([
      ['Lobby', null],
      ['Garden door', null],
    ])
    const before = Date.now()
    expect((await send('POST', fd('/kiosks/health'), garden.token, REPORT)).status).toBe(204)
    expect((await send('POST', fd('/kiosks/health'), garden.token, { ...REPORT, outbox: { waiting: 0, failed: 0 } })).status).toBe(204)
    const [lobbyRow, gardenRow] = await listed()
    expect(lobbyRow!.health).toBeNull()
    expect(gardenRow!.health).toEqual({ ...REPORT, outbox: { waiting: 0, failed: 0 }, reportedAt: expect.any(Number) })
    expect((gardenRow!.health as { reportedAt: number }).reportedAt).toBeGreaterThanOrEqual(before)
  })

  it('exposes each kiosk’s last report as the site’s metrics', async () => {
    const scraped = await (await request(`${t.url}/metrics`)).body.text()
    const labels = `kiosk="${garden.kioskId}",name="Garden door"`
    expect(scraped).toMatch(new RegExp(`^kiosk_site_kiosk_outbox\\{${labels},state="waiting"\\} 0$`, 'm'))
    expect(scraped).toMatch(new RegExp(`^kiosk_site_kiosk_outbox\\{${labels},state="failed"\\} 0$`, 'm'))
    expect(scraped).toMatch(new RegExp(`^kiosk_site_kiosk_host_notices_waiting\\{${labels}\\} 3$`, 'm'))
    expect(scraped).toMatch(new RegExp(`^kiosk_site_kiosk_copy_age_seconds\\{${labels}\\} 12$`, 'm'))
    expect(scraped).toMatch(new RegExp(`^kiosk_site_kiosk_camera_found\\{${labels}\\} 1$`, 'm'))
    expect(scraped).toMatch(new RegExp(`^kiosk_site_kiosk_report_age_seconds\\{${labels}\\} \\d`, 'm'))
    // The dashboard that ships asks only for kiosk metrics a reporting kiosk has.
    const asked = dashboardMetrics().filter(isKioskHealthMetric)
    expect(asked.length).toBeGreaterThan(3)
    for (const metric of asked) expect(scraped, metric).toMatch(new RegExp(`^${metric}[{ ]`, 'm'))
    // A kiosk that never reported has no series: absent, not zero.
    expect(scraped).not.toContain(`kiosk="${lobby.kioskId}"`)
  })

  it('takes a report only from a paired kiosk, and only in its shape', async () => {
    expect((await t.call('POST', fd('/kiosks/health'), REPORT)).status).toBe(403)
    for (const body of [{ ...REPORT, camera: 'maybe' }, { ...REPORT, email: 'someone@example.com' }, { ...REPORT, lastErrorCode: 'see ada@example.com' }, { ...REPORT, outbox: { waiting: -1, failed: 0 } }]) {
      expect((await send('POST', fd('/kiosks/health'), lobby.token, body)).status, JSON.stringify(body)).toBe(400)
    }
    expect((await listed()).find((k) => k.name === 'Lobby')!.health).toBeNull()
  })
})

describe('a kiosk’s health reporter', () => {
  let t: TestEngine
  let kiosk: PairedKiosk
  let session: string

  beforeAll(async () => {
    t = await startTestEngine([], undefined, { tenant: TEST_TENANT })
    kiosk = await pair(t, 'Side door')
    session = (await t.call('POST', fd('/staff/first-admin'), { name: 'Site Admin', secret: 'site-admin-secret-1' }, { authorization: `Bearer ${kiosk.token}` })).body.session
  })
  afterAll(() => t?.close())

  const health = async () =>
    ((await t.call('GET', fd('/kiosks'), undefined, { authorization: `Bearer ${kiosk.token}`, [STAFF_SESSION_HEADER]: session })).body as Array<{ health: { outbox: { waiting: number } } | null }>)[0]!.health

  it('sends what it gathers; says once that reports stopped getting through, and once that they get through again', async () => {
    const lines: string[] = []
    let waiting = 4
    let reachable = true
    const connection = siteConnection(t.url, kiosk.token, { connectTimeoutMs: 2_000, requestTimeoutMs: 5_000 })
    const away = siteConnection('http://127.0.0.1:9', kiosk.token, { connectTimeoutMs: 500, requestTimeoutMs: 500 })
    const reporter = reportHealth({ connection: async () => (reachable ? connection : away), gather: async () => ({ ...REPORT, outbox: { waiting, failed: 0 } }), log: (line) => lines.push(line), intervalMs: 3_600_000 })
    try {
      await reporter.reportNow()
      expect((await health())?.outbox.waiting).toBe(4)
      reachable = false
      waiting = 5
      await reporter.reportNow()
      await reporter.reportNow()
      expect(lines).toEqual(['site: a health report did not get through (UNREACHABLE)'])
      reachable = true
      await reporter.reportNow()
      expect((await health())?.outbox.waiting).toBe(5)
      expect(lines).toEqual(['site: a health report did not get through (UNREACHABLE)', 'site: health reports get through again'])
    } finally {
      reporter.stop()
      await connection.http.close()
      await away.http.close()
    }
  })
})

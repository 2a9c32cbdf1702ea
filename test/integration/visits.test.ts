import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadFacePlugins } from '../../electron/engine/face'
import { visitsFeature, type VisitsFeature } from '../../electron/services/features/visits'
import { DAY_MS } from '../../electron/services/workflows/retention-purge'
import { CONSENT } from '../../electron/shared/consent'
import type { ArrivalNotice, Visit } from '../../electron/shared/visits'
import { startTestEngine, type TestEngine } from '../support/engine'
import { livenessServices } from '../support/liveness-services'
import { closedPortUrl } from '../support/outbox-helpers'
import { projectRoot } from '../support/process'

const sample = (name: string) => readFileSync(join(projectRoot, 'test/fixtures/generated', name)).toString('base64')
const enrollInput = (userId: string, photo: string, extra: object = {}) => ({ userId, samples: [sample(photo)], consent: true, consentVersion: CONSENT.version, ...extra })

// Visits as the kiosk composes them (roles, audit, result shaping, the visits store in a real data
// folder) over the real embedded engine: check-in after enrolling and by face, check-out, staff's
// views, the hosts directory, retention and removal with the person.
describe('visits (real engine, real store, roles and audit)', () => {
  let t: TestEngine
  let k: Awaited<ReturnType<typeof livenessServices>>
  let visits: VisitsFeature
  let dir: string
  let clock = Date.parse('2026-11-27T09:00:00Z')
  let retentionDays: number | null = null
  let wakes = 0
  /** The arrivals the check-ins queued for their hosts in the kiosk's frontdesk.db (one job per channel), in order, as the notices carry them. */
  const arrivals = (): ArrivalNotice[] => {
    const db = new BetterSqlite(join(dir, 'frontdesk.db'), { readonly: true })
    try {
      const rows = db.prepare("SELECT subject, payload FROM jobs WHERE kind = 'host-notice' ORDER BY seq").all() as Array<{ subject: string; payload: Buffer }>
      const seen = new Set<string>()
      return rows.filter((row) => !seen.has(row.subject) && seen.add(row.subject)).map((row) => JSON.parse(row.payload.toString('utf8')) as ArrivalNotice)
    } finally {
      db.close()
    }
  }
  const watchlist = new Set<string>()
  let host: { id: string; name: string }
  let ada: string
  const latest = (action: string) => k.audit.query({ actions: [action] } as never).find((e) => e.outcome !== 'started')!

  beforeAll(async () => {
    t = await startTestEngine(await loadFacePlugins({ threads: 2, log: () => {} }))
    dir = mkdtempSync(join(tmpdir(), 'kiosk-visits-test-'))
    k = await livenessServices(t, {
      // The front desk keeps the visits on the test's clock, which jumps days: staff sessions outlast the jumps.
      frontDesk: { dataDir: dir, kioskId: 'front-desk-1', now: () => clock, sessionIdleMs: 365 * DAY_MS },
      visits: (parts) =>
        (visits = visitsFeature({
          ...parts,
          retentionDays: async () => retentionDays,
          now: () => clock,
          hooks: { noticesQueued: () => void wakes++, screenPerson: async ({ personUuid }) => (personUuid && watchlist.has(personUuid) ? 'watchlisted' : 'clear') },
        })),
    })
  })
  afterAll(async () => {
    visits?.stop?.()
    await k?.close()
    await t?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('keeps the hosts directory for staff; a visitor sees names only; a bad webhook is refused', async () => {
    host = await k.operator.call('addHost', { name: 'Grace Hopper', email: 'grace@host.example', webhookUrl: 'https://hooks.example/visits' })
    expect(host).toMatchObject({ name: 'Grace Hopper', email: 'grace@host.example', webhookUrl: 'https://hooks.example/visits' })
    const other = await k.operator.call('addHost', { name: 'Alan Turing' })
    expect(await k.visitor.call('listHostNames')).toEqual([
      { id: other.id, name: 'Alan Turing' },
      { id: host.id, name: 'Grace Hopper' },
    ])
    expect(await k.operator.call('updateHost', { id: other.id, name: 'Alan M. Turing', email: 'alan@host.example' })).toMatchObject({ name: 'Alan M. Turing', email: 'alan@host.example', webhookUrl: null })
    expect((await k.operator.failure('addHost', { name: 'Mallory', webhookUrl: 'http://10.0.0.5/hook' })).code).toBe('INVALID_INPUT')
    expect(await k.operator.call('removeHost', { id: other.id })).toEqual({ ok: true })
    expect(latest('host-change')).toMatchObject({ outcome: 'ok', role: 'operator', detail: `host ${other.id} removed` })
    expect((await k.operator.failure('removeHost', { id: other.id })).code).toBe('NOT_FOUND')
    expect((await k.visitor.failure('addHost', { name: 'Eve' })).code).toBe('FORBIDDEN')
    // The store is personal data: private to the kiosk's user.
    expect(statSync(join(dir, 'frontdesk.db')).mode & 0o777).toBe(0o600)
  })

  it('enroll, then check in: on site, the host told; then check out by face', async () => {
    const enrolled = await k.visitor.call('enrollVisitor', enrollInput('ada@visits.example', 'person-a1.jpg'))
    ada = enrolled.person.uuid
    // Another window cannot check in the person this one enrolled.
    expect((await k.window('test:other-tab').failure('checkIn', { personUuid: ada, hostId: host.id })).code).toBe('FORBIDDEN')

    const checkedIn = await k.visitor.call('checkIn', { personUuid: ada, hostId: host.id, purpose: 'Interview', firstName: 'Ada' })
    // Neither e-mail nor a signing secret is set up on this kiosk: the notices are queued (for staff to
    // see), but the visitor is not promised that their host will hear.
    expect(checkedIn).toEqual({ outcome: 'checked-in', visitId: expect.any(String), greeting: 'Ada', hostName: 'Grace Hopper', checkedInAt: new Date(clock).toISOString(), alreadyOnSite: false, hostNotified: false })
    // Queued with the visit, in the check-in's transaction; the kiosk's runner woken.
    expect(arrivals()).toEqual([{ visitId: checkedIn.visitId, host, visitorName: 'Ada', purpose: 'Interview', arrivedAt: new Date(clock).toISOString(), kioskId: 'front-desk-1' }])
    expect(wakes).toBe(1)
    expect(latest('check-in')).toMatchObject({ outcome: 'ok', role: 'visitor', subject: { personUuid: ada }, detail: `visit ${checkedIn.visitId}` })
    // The enrollment's ticket is used once.
    expect((await k.visitor.failure('checkIn', { personUuid: ada })).code).toBe('FORBIDDEN')

    const onSite = await k.operator.call('listOnSite')
    expect(onSite.visits).toEqual([
      expect.objectContaining({ id: checkedIn.visitId, personUuid: ada, email: 'ada@visits.example', firstName: 'Ada', hostId: host.id, purpose: 'Interview', checkedOutAt: null, kioskId: 'front-desk-1' }),
    ])
    expect((await k.visitor.failure('listOnSite')).code).toBe('FORBIDDEN')

    // Who is on site (the evacuation list) comes from the kiosk's own store: it answers with the servers gone.
    await k.goOffline(await closedPortUrl())
    expect((await k.operator.call('listOnSite')).visits.map((v: Visit) => v.id)).toEqual([checkedIn.visitId])
    k.goOnline()

    clock += 3_600_000
    const out = await k.visitor.call('checkOutByFace', { sample: sample('person-a2.jpg') })
    expect(out).toEqual({ outcome: 'checked-out', visitId: checkedIn.visitId, greeting: 'Ada', checkedOutAt: new Date(clock).toISOString() })
    expect((await k.operator.call('listOnSite')).visits).toEqual([])
    expect(await k.visitor.call('checkOutByFace', { sample: sample('person-a2.jpg') })).toEqual({ outcome: 'refused', reason: 'not-on-site' })
  })

  it('a returning visitor checks in by face in one step: their last host and purpose, their own name only', async () => {
    clock += DAY_MS
    const back = await k.visitor.call('checkInByFace', { sample: sample('person-a2.jpg') })
    expect(back).toEqual({ outcome: 'checked-in', visitId: expect.any(String), greeting: 'Ada', hostName: 'Grace Hopper', checkedInAt: new Date(clock).toISOString(), alreadyOnSite: false, hostNotified: false })
    expect(arrivals().at(-1)).toMatchObject({ visitId: back.visitId, visitorName: 'Ada', purpose: 'Interview' })
    // Checking in twice gives the open visit back.
    expect(await k.visitor.call('checkInByFace', { sample: sample('person-a1.jpg') })).toMatchObject({ visitId: back.visitId, alreadyOnSite: true })
    expect(arrivals()).toHaveLength(2)
    expect(latest('check-in')).toMatchObject({ outcome: 'ok', subject: { personUuid: ada }, detail: `visit ${back.visitId} (already on site)` })
    // Watchlisted while on site: sent to the desk, not given the open visit back.
    watchlist.add(ada)
    expect(await k.visitor.call('checkInByFace', { sample: sample('person-a1.jpg') })).toEqual({ outcome: 'refused', reason: 'see-front-desk' })
    watchlist.delete(ada)
  })

  it('puts the visitor\'s photo on the badge only when the tenant keeps face crops and the visitor agreed', async () => {
    const keepCrops = async (on: boolean) => {
      const tenant = await k.admin.call('getTenant')
      await k.admin.call('updateTenant', { name: tenant.name, maxIdentities: tenant.maxIdentities ?? 0, defaultPostBack: tenant.defaultPostBack, keepFaceCrops: on })
    }
    // Ada is on site: each check-in by face gives her open visit back, with or without the photo.
    const byFace = (extra: object = {}) => k.visitor.call('checkInByFace', { sample: sample('person-a1.jpg'), ...extra })
    expect(await k.visitor.call('getBadgePolicy')).toEqual({ photo: false })
    expect(await byFace({ badgePhoto: true })).not.toHaveProperty('badgePhoto')

    await keepCrops(true)
    try {
      expect(await k.visitor.call('getBadgePolicy')).toEqual({ photo: true })
      expect(await byFace({ badgePhoto: true })).toMatchObject({ outcome: 'checked-in', greeting: 'Ada', alreadyOnSite: true, badgePhoto: true })
      expect(await byFace({ badgePhoto: false })).not.toHaveProperty('badgePhoto')
      expect(await byFace()).not.toHaveProperty('badgePhoto')
      // The tenant's setting unreadable (the servers gone): no photo is offered.
      await k.goOffline(await closedPortUrl())
      expect(await k.visitor.call('getBadgePolicy')).toEqual({ photo: false })
      k.goOnline()
    } finally {
      await keepCrops(false)
    }
  })

  it('a stranger, a tie and a watchlisted face read "please see the front desk" alone; staff and the audit see why', async () => {
    const stranger = await k.visitor.call('checkInByFace', { sample: sample('person-c.jpg'), hostId: host.id })
    expect(stranger).toEqual({ outcome: 'refused', reason: 'see-front-desk' })
    expect(latest('check-in')).toMatchObject({ outcome: 'refused', detail: 'see-front-desk: no-match' })

    // The same face enrolled under two e-mails (staff accepted the duplicate): 1:N cannot pick one.
    await k.operator.call('enrollVisitor', enrollInput('twin1@visits.example', 'person-b.jpg'))
    await k.operator.call('enrollVisitor', enrollInput('twin2@visits.example', 'person-b.jpg', { acceptDuplicates: true }))
    expect(await k.visitor.call('checkInByFace', { sample: sample('person-b.jpg') })).toEqual({ outcome: 'refused', reason: 'see-front-desk' })
    expect(await k.operator.call('checkInByFace', { sample: sample('person-b.jpg') })).toEqual({ outcome: 'refused', reason: 'see-front-desk', why: 'tie' })

    const eve = await k.operator.call('enrollVisitor', enrollInput('eve@visits.example', 'person-d.jpg'))
    watchlist.add(eve.person.uuid)
    expect(await k.visitor.call('checkInByFace', { sample: sample('person-d.jpg'), hostId: host.id })).toEqual({ outcome: 'refused', reason: 'see-front-desk' })
    expect(latest('check-in')).toMatchObject({ outcome: 'refused', subject: { personUuid: eve.person.uuid }, detail: 'see-front-desk: watchlisted' })
    expect((await k.operator.call('visitLog', { search: 'eve@' })).total).toBe(0)
    expect(arrivals()).toHaveLength(2)

    // Bad input is a clear error, never a crash.
    expect((await k.visitor.failure('checkInByFace', { sample: sample('person-a2.jpg'), hostId: 'no-such-host' })).code).toBe('INVALID_INPUT')
    expect((await k.visitor.failure('checkInByFace', { sample: 'short' })).code).toBe('INVALID_INPUT')
  })

  it('staff search and filter the log, page it, export CSV with formulas defused, and end a forgotten visit', async () => {
    const bob = await k.visitor.call('enrollVisitor', enrollInput('bob@visits.example', 'person-e.jpg'))
    const sneaky = await k.visitor.call('checkIn', { personUuid: bob.person.uuid, purpose: '=HYPERLINK("http://evil.example","x")', firstName: '@Bob' })
    expect(sneaky).toMatchObject({ outcome: 'checked-in', greeting: '@Bob', hostName: null })

    expect((await k.operator.call('visitLog', {})).total).toBe(3)
    expect((await k.operator.call('visitLog', { search: 'interview' })).visits.map((v: Visit) => v.email)).toEqual(['ada@visits.example', 'ada@visits.example'])
    expect((await k.operator.call('visitLog', { search: '%' })).total).toBe(0)
    expect((await k.operator.call('visitLog', { hostId: host.id, onSite: true })).visits).toEqual([expect.objectContaining({ email: 'ada@visits.example', checkedOutAt: null })])
    expect((await k.operator.call('visitLog', { onSite: false })).total).toBe(1)
    expect((await k.operator.call('visitLog', { from: new Date(clock - 3_600_000).toISOString() })).total).toBe(2)
    expect((await k.operator.call('visitLog', { to: new Date(clock - 3_600_000).toISOString() })).total).toBe(1)
    // The Overview: staff's only, counts of the same visits, a range of at most a year that ends after it starts.
    const day = { from: new Date(clock - 300 * 86_400_000).toISOString(), to: new Date(clock + 60_000).toISOString() }
    const counted = await k.operator.call('visitOverview', day)
    expect(counted).toMatchObject({ onSiteNow: 2, ended: 1, busiestHosts: [{ hostId: host.id, visits: 2 }] })
    expect(counted.arrivals.reduce((sum: number, [, n]: [number, number]) => sum + n, 0)).toBe(3)
    expect((await k.visitor.failure('visitOverview', day)).code).toBe('FORBIDDEN')
    expect((await k.operator.failure('visitOverview', { from: day.to, to: day.from })).code).toBe('INVALID_INPUT')
    expect((await k.operator.failure('visitOverview', { from: new Date(clock - 367 * 86_400_000).toISOString(), to: day.to })).code).toBe('INVALID_INPUT')
    expect((await k.operator.failure('visitOverview', { ...day, hostId: host.id })).code).toBe('INVALID_INPUT')
    const page = await k.operator.call('visitLog', { pageNo: 1, pageSize: 2 })
    expect(page).toMatchObject({ total: 3, pageNo: 1, pageSize: 2, visits: [expect.objectContaining({ checkedOutBy: 'visitor' })] })

    const csv = await k.operator.call('exportVisitsCsv', {})
    expect(csv).toMatchObject({ fileName: expect.stringMatching(/^visits-\d{4}-\d{2}-\d{2}\.csv$/), visits: 3 })
    const lines = csv.content.trimEnd().split('\r\n')
    expect(lines[0]).toBe('"visit","email","first name","host","purpose","checked in","checked out","checked out by","kiosk","kiosk name","invite"')
    const bobLine = lines.find((line: string) => line.includes('bob@visits.example'))!
    expect(bobLine).toContain(`"'@Bob","","'=HYPERLINK(""http://evil.example"",""x"")"`)
    // A kiosk on its own has no name: its id, then an empty name.
    const [bobVisit] = (await k.operator.call('visitLog', { search: 'bob@' })).visits as Visit[]
    expect(bobVisit!.kioskName).toBeNull()
    expect(bobLine.endsWith(`,"${bobVisit!.kioskId}","",""`)).toBe(true)
    expect(latest('visits-export')).toMatchObject({ outcome: 'ok', detail: '3 visits' })

    const ended = await k.operator.call('endVisit', { id: sneaky.visitId })
    expect(ended).toMatchObject({ id: sneaky.visitId, checkedOutBy: 'staff', checkedOutAt: new Date(clock).toISOString() })
    expect(latest('check-out')).toMatchObject({ outcome: 'ok', role: 'operator', subject: { userId: 'bob@visits.example', personUuid: bob.person.uuid } })
    expect((await k.operator.failure('endVisit', { id: sneaky.visitId })).code).toBe('INVALID_INPUT')
    expect((await k.operator.failure('endVisit', { id: 'no-such-visit' })).code).toBe('NOT_FOUND')
  })

  it('visits follow the visitor retention and go with the person removed', async () => {
    // Removing Ada removes every visit of hers, the open one too.
    expect(await k.operator.call('removeVisitor', { userId: 'ADA@visits.example' })).toMatchObject({ outcome: 'deleted' })
    expect((await k.operator.call('visitLog', { search: 'ada@' })).total).toBe(0)
    expect((await k.operator.call('listOnSite')).visits).toEqual([])

    const bobVisits = (await k.operator.call('visitLog', {})).total
    expect(bobVisits).toBe(1)
    await visits.purgeExpired() // retention off: nothing goes
    expect((await k.operator.call('visitLog', {})).total).toBe(1)
    retentionDays = 30
    clock += 29 * DAY_MS
    await visits.purgeExpired()
    expect((await k.operator.call('visitLog', {})).total).toBe(1)
    clock += 2 * DAY_MS
    await visits.purgeExpired()
    expect((await k.operator.call('visitLog', {})).total).toBe(0)
    expect(latest('visits-purge')).toMatchObject({ outcome: 'ok', role: 'system', detail: '1 visits older than 30 days removed' })
  })

  it('an invitation brought to the check-in: checked first, its host taken, the visit linked to it, then used up once', async () => {
    // The visit's day on the front desk's clock (the test's), YYYY-MM-DD, kiosk time, as invites are dated.
    const today = new Date(clock).toLocaleDateString('sv')
    const cleo = (await k.visitor.call('enrollVisitor', enrollInput('cleo@visits.example', 'person-c.jpg'))).person.uuid
    const { invite, token } = await k.operator.call('createInvite', { email: 'Cleo@Visits.example', hostId: host.id, date: today })
    const forSomeoneElse = await k.operator.call('createInvite', { email: 'someone@else.example', hostId: null, date: today })
    const openInvites = async () => (await k.operator.call('listInvites', { state: 'open' })).invites.map((i: { id: string }) => i.id).sort()

    // Refused in the visitor's plain words; nothing stored, no code used up, and the enrollment may still check in.
    expect(await k.visitor.call('checkIn', { personUuid: cleo, inviteToken: forSomeoneElse.token })).toEqual({ outcome: 'refused', reason: 'invite', invite: 'other-email' })
    expect(latest('check-in')).toMatchObject({ outcome: 'refused', subject: { personUuid: cleo }, detail: 'invite: other-email' })
    const forged = `${token.slice(0, -4)}${token.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`
    expect(await k.visitor.call('checkIn', { personUuid: cleo, inviteToken: forged })).toEqual({ outcome: 'refused', reason: 'invite', invite: 'invalid' })
    expect((await k.visitor.failure('checkIn', { personUuid: cleo, inviteToken: 'x'.repeat(300) })).code).toBe('INVALID_INPUT')
    expect((await k.operator.call('visitLog', { search: 'cleo@' })).total).toBe(0)
    expect(await openInvites()).toEqual([invite.id, forSomeoneElse.invite.id].sort())

    // No host chosen: the invitation's; the e-mail's case does not matter.
    const told = arrivals().length
    const checkedIn = await k.visitor.call('checkIn', { personUuid: cleo, inviteToken: token, firstName: 'Cleo' })
    expect(checkedIn).toEqual({ outcome: 'checked-in', visitId: expect.any(String), greeting: 'Cleo', hostName: 'Grace Hopper', checkedInAt: new Date(clock).toISOString(), alreadyOnSite: false, hostNotified: false })
    expect(arrivals().slice(told)).toEqual([expect.objectContaining({ visitId: checkedIn.visitId, visitorName: 'Cleo' })])
    expect((await k.operator.call('visitLog', { search: 'cleo@' })).visits).toEqual([expect.objectContaining({ id: checkedIn.visitId, inviteId: invite.id, hostId: host.id })])
    expect((await k.operator.call('listInvites', {})).invites.find((i: { id: string }) => i.id === invite.id)).toMatchObject({ state: 'used', visitId: checkedIn.visitId })
    expect(latest('check-in')).toMatchObject({ outcome: 'ok', subject: { personUuid: cleo }, detail: `visit ${checkedIn.visitId}` })

    // The same code again is refused as used, before anything else (staff checking her in by id too).
    expect(await k.operator.call('checkIn', { personUuid: cleo, inviteToken: token })).toEqual({ outcome: 'refused', reason: 'invite', invite: 'used', personUuid: cleo })
    expect((await k.operator.call('visitLog', { search: 'cleo@' })).total).toBe(1)
    expect(arrivals().length).toBe(told + 1)
  })

  it('asks for liveness where the tenant does', async () => {
    await k.admin.call('associateAlgorithm', { algCode: 'HumanFaceRes' })
    await k.admin.call('associateLiveness', { algCode: 'HumanFaceRes', livenessCode: 'active-challenge' })
    expect((await k.visitor.failure('checkInByFace', { sample: sample('person-e.jpg') })).code).toBe('LIVENESS_REQUIRED')
    expect((await k.visitor.failure('checkOutByFace', { sample: sample('person-e.jpg') })).code).toBe('LIVENESS_REQUIRED')
    expect(latest('check-in')).toMatchObject({ outcome: 'refused', detail: expect.stringMatching(/^liveness failed/) })
  })
})

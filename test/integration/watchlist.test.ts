import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadFacePlugins } from '../../electron/engine/face'
import { openAuditLog, type AuditLog } from '../../electron/services/audit'
import { auditedHandlers } from '../../electron/services/audited-handlers'
import { createDispatch, type Dispatch } from '../../electron/services/dispatch'
import { auditTrail } from '../../electron/services/features/audit'
import { enrollment } from '../../electron/services/features/enrollment'
import { watchlistFeature, type WatchlistFeature } from '../../electron/services/features/watchlist'
import { createChallengeStore } from '../../electron/services/liveness/challenge-store'
import { livenessGate } from '../../electron/services/liveness/gate'
import { livenessPolicy } from '../../electron/services/liveness/policy'
import { eventFor, roleViews } from '../../electron/services/role-views'
import { FRONTDESK_FILE } from '../../electron/records/frontdesk/local'
import { CONSENT } from '../../electron/shared/consent'
import type { KioskEvent } from '../../electron/shared/events'
import { testBackend } from '../support/backend'
import { startTestEngine, TEST_TENANT, type TestEngine } from '../support/engine'
import { handlersWithoutServers, testFrontDesk, testStaff } from '../support/handlers'
import { projectRoot } from '../support/process'
import { adminDispatch, type SessionCall } from '../support/staff'

const sample = (name: string) => readFileSync(join(projectRoot, 'test/fixtures/generated', name)).toString('base64')
const enrollInput = (userId: string, photo: string) => ({ userId, samples: [sample(photo)], consent: true, consentVersion: CONSENT.version })
const OPERATOR = { name: 'Otto Operator', secret: 'operator-secret-1' }
const REASON = 'Threatened reception staff on 3 November'

// The watchlist composed as the kiosk composes it (audit trail, roles, result shaping, dispatch)
// over the real embedded engine: the 1:N search of a real enrollment is what finds the listed face.
describe('the watchlist (real engine, audit, roles)', () => {
  let t: TestEngine
  let backend: ReturnType<typeof testBackend>
  let dir: string
  let audit: AuditLog
  let watchlist: WatchlistFeature
  let frontDesk: ReturnType<typeof testFrontDesk>
  let dispatch: Dispatch
  let admin: SessionCall
  const events: KioskEvent[] = []
  const lines: string[] = []

  const value = async (reply: Promise<{ ok: boolean }>) => {
    const answered = (await reply) as { ok: true; value: any } | { ok: false; error: { code: string; message: string } }
    if (!answered.ok) throw new Error(`${answered.error.code}: ${answered.error.message}`)
    return answered.value
  }
  const errorOf = async (reply: Promise<{ ok: boolean }>) => {
    const answered = (await reply) as { ok: boolean; error?: { code: string; message: string } }
    expect(answered.ok).toBe(false)
    return answered.error!
  }
  const visitor = (method: string, input: unknown = {}) => dispatch(method, input, 'test:visitor')
  const operator = (method: string, input: unknown = {}) => dispatch(method, input, 'test:operator')
  /** The newest entry of an action with its outcome (not the 'started' one). */
  const latest = (action: string) => audit.query({ actions: [action] } as never).find((e) => e.outcome !== 'started')

  let ada: string
  beforeAll(async () => {
    t = await startTestEngine(await loadFacePlugins({ threads: 2, log: () => {} }))
    backend = testBackend(t.url)
    dir = mkdtempSync(join(tmpdir(), 'kiosk-watchlist-'))
    audit = openAuditLog({ dir, kioskId: 'watchlist-test' })
    const log = (line: string) => lines.push(line)
    const liveness = livenessGate({
      backend: async () => backend,
      tenantCode: async () => TEST_TENANT,
      policy: livenessPolicy(log),
      challenges: createChallengeStore(),
      evaluate: (request) => backend.bio.evaluateLiveness(request),
      stepSeconds: async () => 8,
    })
    // The kiosk's own front desk keeps the list (a site of one).
    frontDesk = testFrontDesk({ dataDir: join(dir, 'data'), kioskId: 'kiosk-lobby' })
    const staff = testStaff(frontDesk)
    watchlist = watchlistFeature({
      desk: staff.desk,
      staffDesk: staff.staffDesk,
      backend: async () => backend,
      audit: auditTrail({ open: () => audit, settings: async () => ({}) as never, log }),
      emit: (event) => events.push(event),
      log,
    })
    const handlers = handlersWithoutServers(() => ({ mode: 'embedded', state: 'running', url: t.url, pid: null, restarts: 0, lastError: null }), {
      backend: async () => backend,
      liveness,
      staff,
      audit: () => audit,
      watchlist,
    })
    dispatch = createDispatch(roleViews(auditedHandlers(handlers, () => audit, log)), staff.resolveActor, log)
    admin = await adminDispatch(dispatch)
    await value(admin('createAccount', { ...OPERATOR, role: 'operator' }))
    await value(dispatch('signIn', OPERATOR, 'test:operator'))
    const enrolled = await value(visitor('enrollVisitor', enrollInput('ada@watch.example', 'person-a1.jpg')))
    expect(enrolled).toMatchObject({ outcome: 'enrolled' })
    ada = enrolled.person.uuid
  })
  afterAll(async () => {
    await watchlist?.stop?.()
    await frontDesk?.close()
    audit?.close()
    await backend?.close()
    await t?.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('screens a person nobody listed as clear, and raises nothing', async () => {
    expect(await watchlist.screenPerson({ personUuid: ada, email: 'ada@watch.example' })).toBe('clear')
    expect(events).toEqual([])
    expect(await value(operator('getWatchlistAlerts'))).toEqual([])
  })

  it('lets only an administrator put a person on the list, and audits it with the reason', async () => {
    expect(await errorOf(operator('addToWatchlist', { email: 'ada@watch.example', reason: REASON }))).toMatchObject({ code: 'FORBIDDEN' })
    expect(await errorOf(visitor('addToWatchlist', { email: 'ada@watch.example', reason: REASON }))).toMatchObject({ code: 'FORBIDDEN' })
    const entry = await value(admin('addToWatchlist', { email: 'ada@watch.example', reason: REASON }))
    expect(entry).toMatchObject({ personUuid: ada.toLowerCase(), email: 'ada@watch.example', reason: REASON, addedBy: 'Test Admin' })
    expect(latest('watchlist-add')).toMatchObject({ outcome: 'ok', role: 'admin', account: 'Test Admin', subject: { personUuid: ada.toLowerCase(), userId: 'ada@watch.example' }, detail: `reason: ${REASON}` })
    // Operators at the desk see the list; a visitor does not.
    expect(await value(operator('listWatchlist'))).toEqual([entry])
    expect(await errorOf(visitor('listWatchlist'))).toMatchObject({ code: 'FORBIDDEN' })
  })

  it('keeps the list private: the front desk’s file is 0600 in a 0700 folder', () => {
    expect(statSync(join(dir, 'data')).mode & 0o777).toBe(0o700)
    expect(statSync(join(dir, 'data', FRONTDESK_FILE)).mode & 0o777).toBe(0o600)
  })

  it('refuses bad input in plain words: an unknown person, both ids, no reason', async () => {
    expect(await errorOf(admin('addToWatchlist', { email: 'nobody@watch.example', reason: REASON }))).toMatchObject({ code: 'NOT_FOUND', message: expect.stringMatching(/No enrolled person/) })
    expect(await errorOf(admin('addToWatchlist', { email: 'ada@watch.example', personUuid: ada, reason: REASON }))).toMatchObject({ code: 'INVALID_INPUT' })
    expect(await errorOf(admin('addToWatchlist', { personUuid: ada, reason: '   ' }))).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/reason/) })
    expect(await errorOf(admin('addToWatchlist', { personUuid: 'not-a-uuid', reason: REASON }))).toMatchObject({ code: 'INVALID_INPUT' })
  })

  it('stops the listed face enrolling under another e-mail: the visitor reads only "see the front desk", staff are alerted, the stop is audited', async () => {
    events.length = 0
    const reply = await value(visitor('enrollVisitor', enrollInput('someone-else@watch.example', 'person-a2.jpg')))
    // Exactly the needs-staff shape, and nothing of the list, the listed person or the reason.
    expect(reply).toEqual({ outcome: 'needs-staff', reason: 'see-front-desk' })
    expect(JSON.stringify(reply)).not.toMatch(/watch|ada|Threatened|[0-9a-f]{8}-/i)
    expect(await backend.persons.findPersonByUserId('someone-else@watch.example')).toBeNull()

    // One pushed event, carrying only the alert's id; a visitor's page is not sent it at all.
    expect(events).toHaveLength(1)
    const event = events[0]!
    expect(event).toEqual({ type: 'watchlist-alert', alertId: expect.any(String) })
    expect(eventFor('visitor', event)).toBeNull()
    expect(eventFor('operator', event)).toEqual(event)

    const alerts = await value(operator('getWatchlistAlerts'))
    expect(alerts).toEqual([
      { id: (event as { alertId: string }).alertId, at: expect.any(Number), kioskId: 'kiosk-lobby', kioskName: null, place: 'enrollment', personUuid: ada.toLowerCase(), email: 'ada@watch.example', givenEmail: 'someone-else@watch.example', reason: REASON, firstName: null },
    ])
    expect(await errorOf(visitor('getWatchlistAlerts'))).toMatchObject({ code: 'FORBIDDEN' })

    expect(latest('watchlist-hit')).toMatchObject({ outcome: 'refused', role: 'system', subject: { personUuid: ada.toLowerCase(), userId: 'someone-else@watch.example' }, detail: expect.stringMatching(/^enrollment stopped: on the watchlist/) })
    expect(latest('enroll')).toMatchObject({ outcome: 'refused', detail: 'needs staff: see-front-desk' })
    // No face data anywhere near it: the entries and the log lines name persons, never images.
    expect(JSON.stringify(audit.query({} as never))).not.toContain(sample('person-a2.jpg').slice(0, 40))
    expect(lines.join('\n')).not.toMatch(/Threatened/)
  })

  it('stops the listed person enrolling again under their own e-mail, with the same face', async () => {
    expect(await value(visitor('enrollVisitor', enrollInput('ada@watch.example', 'person-a2.jpg')))).toEqual({ outcome: 'needs-staff', reason: 'see-front-desk' })
  })

  it('stops staff enrolling them too: the alert tells staff why', async () => {
    expect(await value(operator('enrollVisitor', enrollInput('third@watch.example', 'person-a2.jpg')))).toEqual({ outcome: 'needs-staff', reason: 'see-front-desk' })
  })

  it('lets everyone else enroll', async () => {
    expect(await value(visitor('enrollVisitor', enrollInput('bea@watch.example', 'person-b.jpg')))).toMatchObject({ outcome: 'enrolled' })
  })

  it('stops a queued enrollment of the listed face when it is delivered: refused for staff in the outbox, nothing saved', async () => {
    const log = (line: string) => lines.push(line)
    const delivering = enrollment({
      backend: async () => backend,
      templateType: async () => backend.templateType,
      liveness: null as never, // delivery judges no liveness: it was judged when the capture was queued
      outbox: async () => Promise.reject(new Error('no outbox here')),
      replica: { record: async () => {} },
      reachable: () => {},
      audit: auditTrail({ open: () => audit, settings: async () => ({}) as never, log }),
      watchlist,
    })
    const item = { userId: 'queued@watch.example', templateType: backend.templateType, templateContext: 'queued-1', samples: [sample('person-a2.jpg')] }
    await expect(delivering.deliver(item)).rejects.toMatchObject({ code: 'REJECTED', message: expect.stringMatching(/watchlist/) })
    expect(await backend.persons.findPersonByUserId('queued@watch.example')).toBeNull()
    expect(latest('watchlist-hit')).toMatchObject({ subject: { userId: 'queued@watch.example' } })
  })

  it('screenPerson says watchlisted for the listed person (check-in), clear for another', async () => {
    events.length = 0
    const bea = (await backend.persons.findPersonByUserId('bea@watch.example'))!.uuid
    expect(await watchlist.screenPerson({ personUuid: bea, email: 'bea@watch.example' })).toBe('clear')
    expect(await watchlist.screenPerson({ personUuid: ada.toUpperCase(), email: 'ada@watch.example' })).toBe('watchlisted')
    expect(events).toHaveLength(1)
    expect((await value(operator('getWatchlistAlerts')))[0]).toMatchObject({ place: 'check-in', personUuid: ada.toLowerCase(), givenEmail: null })
    expect(latest('watchlist-hit')).toMatchObject({ detail: expect.stringMatching(/^check-in stopped/) })
    // Known by e-mail alone (an enrollment still in the outbox, or a face the offline replica found): stopped all the same.
    expect(await watchlist.screenPerson({ personUuid: null, email: 'ADA@watch.example' })).toBe('watchlisted')
    expect(events).toHaveLength(2)
  })

  it('lets staff dismiss an alert (audited); it is then gone for every staff screen', async () => {
    const [first, ...rest] = await value(operator('getWatchlistAlerts'))
    events.length = 0
    expect(await value(operator('dismissWatchlistAlert', { id: first.id }))).toEqual({ ok: true })
    // Every staff screen is told at once, and drops it.
    expect(events).toEqual([{ type: 'watchlist-alert-dismissed', alertId: first.id }])
    expect(latest('watchlist-dismiss')).toMatchObject({ outcome: 'ok', account: 'Otto Operator', detail: `alert ${first.id}` })
    expect(await value(admin('getWatchlistAlerts'))).toEqual(rest)
    expect(await errorOf(operator('dismissWatchlistAlert', { id: first.id }))).toMatchObject({ code: 'NOT_FOUND' })
  })

  it('lets only an administrator take a person off the list (audited); they are then clear', async () => {
    expect(await errorOf(operator('removeFromWatchlist', { personUuid: ada }))).toMatchObject({ code: 'FORBIDDEN' })
    expect(await value(admin('removeFromWatchlist', { personUuid: ada }))).toEqual({ ok: true })
    expect(latest('watchlist-remove')).toMatchObject({ outcome: 'ok', account: 'Test Admin', subject: { personUuid: ada } })
    expect(await watchlist.screenPerson({ personUuid: ada, email: 'ada@watch.example' })).toBe('clear')
    expect(await value(operator('listWatchlist'))).toEqual([])
    expect(await errorOf(admin('removeFromWatchlist', { personUuid: ada }))).toMatchObject({ code: 'NOT_FOUND' })
    expect(await value(visitor('enrollVisitor', enrollInput('ada@watch.example', 'person-a2.jpg')))).toMatchObject({ outcome: 'enrolled' })
  })
})

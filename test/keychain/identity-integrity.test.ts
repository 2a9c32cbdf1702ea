import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchEngineFromSource } from '../../electron/services/engine-launch'
import { createKioskServices, type KioskServices } from '../../electron/services/kiosk-services'
import { createKeychain } from '../../electron/services/secrets/keychain'
import { CONSENT } from '../../electron/shared/consent'
import { projectRoot } from '../support/process'
import { adminDispatch, type SessionCall } from '../support/staff'

// Nobody may become someone else: the enroll workflow's identity checks, through the composed
// services (real keychain, the embedded engine with real face recognition), as a visitor at the
// screen and as staff.
const sample = (name: string) => readFileSync(join(projectRoot, 'test/fixtures/generated', name)).toString('base64')
const enroll = (userId: string, photo: string, extra: object = {}) => ({ userId, samples: [sample(photo)], consent: true, consentVersion: CONSENT.version, ...extra })

describe('identity integrity', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'kiosk-identity-'))
  const logLines: string[] = []
  let services: KioskServices
  let staff: SessionCall
  // The clock visitor retention is measured by: moved forward in the last test.
  let clock = Date.now()
  const visitor = (method: string, input: unknown) => services.dispatch(method, input, 'test:visitor-screen')
  const value = async (reply: Promise<{ ok: boolean; value?: unknown; error?: unknown }>): Promise<any> => {
    const settled = await reply
    if (!settled.ok) throw new Error(JSON.stringify(settled.error))
    return settled.value
  }
  const templatesOf = async (userId: string): Promise<number> => {
    const { person } = await value(staff('findPerson', { userId }))
    return person ? (await value(staff('getPersonTemplates', { personUuid: person.uuid }))).length : 0
  }

  beforeAll(async () => {
    services = createKioskServices({
      shell: 'web',
      version: '0.0.0-test',
      dataDir,
      launchEngine: launchEngineFromSource(projectRoot),
      keychain: createKeychain(`identity-kiosk-integrity-${randomBytes(4).toString('hex')}`),
      log: (line) => logLines.push(line),
      now: () => clock,
    })
    await services.start()
    staff = await adminDispatch(services.dispatch)
    for (let i = 0; i < 600 && (await value(staff('getEngineStatus', {}))).state !== 'running'; i++) await new Promise((r) => setTimeout(r, 200))
  })
  afterAll(async () => {
    await services?.stop()
  })

  it('lets a visitor enroll themselves, and again with their own face', async () => {
    expect(await value(visitor('enrollVisitor', enroll('ana@integrity.example', 'person-a1.jpg')))).toMatchObject({ outcome: 'enrolled', created: true })
    expect(await value(visitor('enrollVisitor', enroll('ana@integrity.example', 'person-a2.jpg')))).toMatchObject({ outcome: 'enrolled', created: false })
    expect(await templatesOf('ana@integrity.example')).toBe(2)
  })

  it('refuses the takeover: a visitor enrolling an enrolled e-mail with another face is sent to staff, and nothing is added', async () => {
    expect(await value(visitor('enrollVisitor', enroll('ana@integrity.example', 'person-d.jpg')))).toEqual({ outcome: 'needs-staff', reason: 'already-enrolled' })
    expect(await templatesOf('ana@integrity.example')).toBe(2)
    // The other face is still not Ana.
    expect(await value(staff('verifyVisitor', { userId: 'ana@integrity.example', sample: sample('person-d.jpg') }))).toMatchObject({ decision: 'no-match' })
  })

  it('stops a visitor enrolling a face already enrolled under another e-mail, without creating anyone', async () => {
    expect(await value(visitor('enrollVisitor', enroll('ana.again@integrity.example', 'person-a2.jpg')))).toEqual({ outcome: 'needs-staff', reason: 'duplicate-face' })
    expect((await value(staff('findPerson', { userId: 'ana.again@integrity.example' }))).person).toBeNull()
  })

  it('shows staff both records and lets them decide: add, replace, or accept a duplicate', async () => {
    const duplicate = await value(staff('enrollVisitor', enroll('ana.twin@integrity.example', 'person-a2.jpg')))
    expect(duplicate).toMatchObject({ outcome: 'needs-decision', existing: null, duplicates: [{ userId: 'ana@integrity.example' }] })
    expect(await value(staff('enrollVisitor', enroll('ana.twin@integrity.example', 'person-a2.jpg', { acceptDuplicates: true })))).toMatchObject({ outcome: 'enrolled' })

    const existing = await value(staff('enrollVisitor', enroll('dan@integrity.example', 'person-d.jpg')))
    expect(existing).toMatchObject({ outcome: 'enrolled' })
    const takeover = await value(staff('enrollVisitor', enroll('dan@integrity.example', 'person-b.jpg')))
    expect(takeover).toMatchObject({ outcome: 'needs-decision', existing: { person: { userId: 'dan@integrity.example' }, templates: 1, sameFace: false }, duplicates: [] })
    expect(await value(staff('enrollVisitor', enroll('dan@integrity.example', 'person-b.jpg', { onExisting: 'replace' })))).toMatchObject({ outcome: 'enrolled' })
    expect(await templatesOf('dan@integrity.example')).toBe(1)
    expect(await value(staff('verifyVisitor', { userId: 'dan@integrity.example', sample: sample('person-b.jpg') }))).toMatchObject({ decision: 'match' })
    expect(await value(staff('verifyVisitor', { userId: 'dan@integrity.example', sample: sample('person-d.jpg') }))).toMatchObject({ decision: 'no-match' })
    expect(await value(staff('enrollVisitor', enroll('dan@integrity.example', 'person-b.jpg', { onExisting: 'add' })))).toMatchObject({ outcome: 'enrolled' })
    expect(await templatesOf('dan@integrity.example')).toBe(2)
  })

  it('reports two persons with the same face as a tie, not as one match', async () => {
    const identified = await value(staff('identifyVisitor', { sample: sample('person-a2.jpg') }))
    expect(identified.decision).toBe('tie')
    expect(identified.candidates.map((c: { userId: string }) => c.userId).sort()).toEqual(['ana.twin@integrity.example', 'ana@integrity.example'])
  })

  it('keeps staff decisions and person ids away from visitors', async () => {
    expect(await visitor('enrollVisitor', enroll('eve@integrity.example', 'person-c.jpg', { onExisting: 'add' }))).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } })
    expect(await visitor('enrollVisitor', enroll('eve@integrity.example', 'person-c.jpg', { acceptDuplicates: true }))).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } })
    const { person } = await value(staff('findPerson', { userId: 'ana@integrity.example' }))
    expect(await visitor('verifyVisitor', { personUuid: person.uuid, sample: sample('person-a1.jpg') })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } })
  })

  it('refuses consent to an outdated text', async () => {
    expect(await visitor('enrollVisitor', enroll('old@integrity.example', 'person-c.jpg', { consentVersion: 'v0' }))).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
  })

  it('tells a visitor nothing about which e-mails exist: unknown, other face and no face enrolled answer alike', async () => {
    await value(staff('enrollVisitor', enroll('bare@integrity.example', 'person-c.jpg')))
    await value(staff('deleteTemplates', { personUuid: (await value(staff('findPerson', { userId: 'bare@integrity.example' }))).person.uuid }))
    const answers = await Promise.all(
      ['nobody@integrity.example', 'ana@integrity.example', 'bare@integrity.example'].map(async (userId) => {
        const { threshold, scaleMax, thresholdSource, ...rest } = await value(visitor('verifyVisitor', { userId, sample: sample('person-d.jpg') }))
        expect({ threshold, scaleMax, thresholdSource }).toMatchObject({ scaleMax: 100 })
        return rest
      }),
    )
    // No liveness association here: each says so (null) alike.
    expect(answers).toEqual([
      { decision: 'no-match', score: null, person: null, liveness: null },
      { decision: 'no-match', score: null, person: null, liveness: null },
      { decision: 'no-match', score: null, person: null, liveness: null },
    ])
    // Staff see what it really was.
    expect(await value(staff('verifyVisitor', { userId: 'nobody@integrity.example', sample: sample('person-d.jpg') }))).toMatchObject({ decision: 'not-found', person: null })
    const own = await value(visitor('verifyVisitor', { userId: 'ana@integrity.example', sample: sample('person-a2.jpg') }))
    // A visitor's own face: confirmed, without a score (the numbers are for staff).
    expect(own).toMatchObject({ decision: 'match', person: null, score: null })
  })

  it('shows a visitor whether the engine runs, not where or as which process', async () => {
    expect(await value(visitor('getEngineStatus', {}))).toMatchObject({ state: 'running', url: null, pid: null, lastError: null })
    expect(await value(staff('getEngineStatus', {}))).toMatchObject({ state: 'running', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:/), pid: expect.any(Number) })
  })

  it('gives a visitor plain words with the next step, and staff the detail', async () => {
    const visitorReply = await visitor('verifyVisitor', { userId: 'ana@integrity.example', sample: sample('no-face.jpg') })
    expect(visitorReply).toEqual({ ok: false, error: { code: 'NO_FACE', message: 'No face was found in the photo. Look straight at the camera and try again.' } })
    const staffReply = await staff('verifyVisitor', { userId: 'ana@integrity.example', sample: sample('no-face.jpg') })
    expect(staffReply).toMatchObject({ ok: false, error: { code: 'NO_FACE' } })
    const bad = await visitor('enrollVisitor', { userId: 'not an e-mail', samples: [], consent: true, consentVersion: CONSENT.version })
    expect(bad).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
    expect(JSON.stringify(bad)).not.toMatch(/enrollVisitor|✖|samples/)
    expect(logLines.join('\n')).toContain('refused for a visitor: NO_FACE')
  })

  it('records consent with its version and the account that collected it', async () => {
    const { entries } = await value(staff('getAuditLog', { actions: ['enroll'], userId: 'dan@integrity.example' }))
    const done = entries.filter((e: { outcome: string }) => e.outcome === 'ok')
    expect(done.length).toBeGreaterThan(0)
    expect(done[0]).toMatchObject({ role: 'admin', account: 'Test Admin', detail: expect.stringContaining(`consent ${CONSENT.version}`) })
    const refusals = entries.filter((e: { outcome: string }) => e.outcome === 'refused')
    expect(refusals.some((e: { detail: string }) => e.detail.includes('e-mail already enrolled'))).toBe(true)
  })

  it('removes visitors past the retention by the removal rule, audited as the system; off by default', async () => {
    const before = (await value(staff('searchPersons', {}))).totalElements
    expect(before).toBeGreaterThan(0)
    // A visit of Ana's, which goes with her (the composed services' retention and visits together).
    const ana = (await value(staff('findPerson', { userId: 'ana@integrity.example' }))).person
    expect(await value(staff('checkIn', { personUuid: ana.uuid, purpose: 'Retention' }))).toMatchObject({ outcome: 'checked-in', greeting: 'ana@integrity.example' })
    clock = Date.now() + 400 * 86_400_000
    await services.purgeExpired() // retention is off by default: nobody goes
    expect((await value(staff('searchPersons', {}))).totalElements).toBe(before)
    expect((await value(staff('visitLog', {}))).total).toBe(1)

    clock = Date.now()
    expect(await value(staff('saveSettings', { visitorRetentionDays: 30 }))).toMatchObject({ visitorRetentionDays: 30 })
    await services.purgeExpired()
    expect((await value(staff('searchPersons', {}))).totalElements).toBe(before) // nobody is 30 days old yet

    clock = Date.now() + 31 * 86_400_000
    await services.purgeExpired()
    expect((await value(staff('searchPersons', {}))).totalElements).toBe(0)
    expect((await value(staff('findPerson', { userId: 'ana@integrity.example' }))).person).toBeNull()
    expect((await value(staff('visitLog', {}))).total).toBe(0)
    const { entries } = await value(staff('getAuditLog', { actions: ['retention-purge'] }))
    const done = entries.filter((e: { outcome: string }) => e.outcome === 'ok')
    expect(done).toHaveLength(before)
    expect(done[0]).toMatchObject({ role: 'system', account: null, detail: 'older than 30 days: deleted' })
  })
})

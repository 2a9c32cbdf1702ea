import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { projectRoot } from '../support/process'
import { remoteKiosk, remoteSettings, type RemoteKiosk } from '../support/remote-kiosk'
import { openAuditLog } from '../../electron/services/audit'
import { CONSENT } from '../../electron/shared/consent'

// The audit trail as the kiosk services write it: every act through dispatch leaves a 'started'
// entry and its outcome; an act whose entry cannot be written does not happen.
const photo = (name: string) => readFileSync(join(projectRoot, 'test/fixtures/generated', name)).toString('base64')
const [ANA, BO] = [photo('person-a1.jpg'), photo('person-b.jpg')]

describe('the audit trail of the kiosk services', () => {
  let k: RemoteKiosk
  beforeAll(async () => {
    k = await remoteKiosk()
  })
  afterAll(async () => {
    await k?.close()
  })

  it('records each act before it happens and its outcome after, with whom it concerned', async () => {
    // Configuring the kiosk (settings, credentials) was audited already; this test looks past it.
    const before = (await k.call('getAuditLog', { limit: 1 })).entries[0].seq
    const enrolled = await k.call('enrollVisitor', { userId: 'ana@example.org', samples: [ANA], consent: true, consentVersion: CONSENT.version })
    await k.call('verifyVisitor', { userId: 'ana@example.org', sample: ANA })
    expect(await k.call('verifyVisitor', { userId: 'nobody@example.org', sample: ANA })).toMatchObject({ decision: 'not-found' })
    await k.call('faceMatch', { image1: ANA, image2: BO })
    await k.call('saveSettings', { idleTimeoutSeconds: 120 })
    await k.call('getSettings')
    await k.call('searchPersons', {})

    const { entries, verdict } = await k.call('getAuditLog', { limit: 1000 }).then((log: any) => ({ ...log, entries: log.entries.filter((e: any) => e.seq > before) }))
    expect(verdict).toMatchObject({ ok: true })
    const acts = entries.map((e: any) => [e.action, e.outcome]).reverse()
    expect(acts).toEqual(
      expect.arrayContaining([
        ['enroll', 'started'],
        ['enroll', 'ok'],
        ['verify', 'ok'],
        ['face-match', 'ok'],
        ['settings-change', 'ok'],
      ]),
    )
    // Reads are not acts: nothing for getSettings or searchPersons.
    expect(entries).toHaveLength(10)
    const enrollOk = entries.find((e: any) => e.action === 'enroll' && e.outcome === 'ok')
    expect(enrollOk).toMatchObject({ role: 'admin', account: 'Test Admin', subject: { userId: 'ana@example.org', personUuid: enrolled.person.uuid }, detail: `consent ${CONSENT.version}; created; quality not given; enrollment ENROLLED` })
    // What staff need to answer "how good was the photo, and did the server take it?": this vendor stand-in reports no quality.
    const started = entries.find((e: any) => e.action === 'enroll' && e.outcome === 'started')
    expect(started.correlationId).toBe(enrollOk.correlationId)
    const verified = entries.filter((e: any) => e.action === 'verify' && e.outcome === 'ok')
    expect(verified.map((e: any) => e.detail).sort()).toEqual(['match', 'not-found'])
    expect(verified.find((e: any) => e.detail === 'match')).toMatchObject({ score: 0.97 })
    expect(entries.find((e: any) => e.action === 'settings-change' && e.outcome === 'started')).toMatchObject({ detail: 'idleTimeoutSeconds' })
  })

  it("filters a person's history, verifies the chain on demand, and exports", async () => {
    const ana = (await k.call('findPerson', { userId: 'ana@example.org' })).person
    const history = await k.call('getAuditLog', { personUuid: ana.uuid })
    expect(history.entries.map((e: any) => e.action)).toEqual(['verify', 'enroll'])
    expect(await k.call('verifyAuditLog')).toMatchObject({ ok: true, firstBadSeq: null })
    const csv = await k.call('exportAuditLog', { format: 'csv', actions: ['enroll'] })
    expect(csv.fileName).toMatch(/\.csv$/)
    expect(csv.content.split('\n')[0]).toContain('action')
    expect(csv.content).toContain('ana@example.org')
    // The export is an act too.
    expect((await k.call('getAuditLog', { actions: ['audit-export'] })).entries.map((e: any) => e.outcome)).toEqual(['ok', 'started'])
  })
})

describe('refused calls about nobody', () => {
  it("leave the trail intact: a visitor's refused calls, then staff's verify with neither e-mail nor id, then Verify now", async () => {
    const k = await remoteKiosk()
    try {
      const before = (await k.call('getAuditLog', { limit: 1 })).entries[0].seq
      // Nobody signed in at this screen: what a visitor can send from the page.
      const visitor = (method: string, input: unknown) => k.services.dispatch(method, input, 'test:visitor-screen')
      const enroll = { samples: [ANA], consent: true, consentVersion: CONSENT.version }
      expect(await visitor('verifyVisitor', { sample: ANA })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } }) // a photo with no e-mail
      expect(await visitor('verifyVisitor', { userId: '', sample: ANA })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
      expect(await visitor('verifyVisitor', { userId: 'not an e-mail', sample: ANA })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
      expect(await visitor('enrollVisitor', { ...enroll, userId: '' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
      expect(await visitor('enrollVisitor', { ...enroll, userId: 'ana@example', samples: [] })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
      expect(await visitor('verifyVisitor', { sample: ANA })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } })
      // Staff: verify with neither e-mail nor id.
      expect((await k.failure('verifyVisitor', { sample: ANA })).code).toBe('INVALID_INPUT')

      // An administrator on the same kiosk presses Verify now.
      const verdict = await k.call('verifyAuditLog')
      expect(verdict).toEqual({ ok: true, entries: expect.any(Number), firstBadSeq: null, reason: null, previousFormat: { entries: 0, seqs: [] } })
      // The refused calls are in the trail, about nobody (the others were refused before they could be acts).
      const entries = (await k.call('getAuditLog', { limit: 1000 })).entries.filter((e: any) => e.seq > before)
      expect(entries.map((e: any) => [e.action, e.outcome, e.role, e.subject, e.detail])).toEqual([
        ['verify', 'refused', 'admin', null, 'INVALID_INPUT'],
        ['verify', 'started', 'admin', null, null],
        ['verify', 'refused', 'visitor', null, 'INVALID_INPUT'],
        ['verify', 'started', 'visitor', null, null],
        ['verify', 'refused', 'visitor', null, 'INVALID_INPUT'],
        ['verify', 'started', 'visitor', null, null],
      ])
      // And the next start finds it intact too.
      const reopened = openAuditLog({ dir: k.dataDir, kioskId: 'next-start' })
      try {
        expect(reopened.startVerdict).toEqual(verdict)
      } finally {
        reopened.close()
      }
    } finally {
      await k.close()
    }
  })
})

describe('an audit trail that cannot be written', () => {
  it('stops the act: nothing reaches the servers, and the visitor is told to ask staff', async () => {
    const k = await remoteKiosk(
      {},
      {},
      (dataDir, standin) => {
        writeFileSync(join(dataDir, 'settings.json'), JSON.stringify(remoteSettings(standin)), { mode: 0o600 })
        writeFileSync(join(dataDir, 'audit.db'), 'this is not a database'.repeat(200))
      },
      false,
    )
    try {
      // Signing in is an act too: with no trail, not even the first administrator can be made, so nothing can be configured.
      expect((await k.failure('createFirstAdmin', { name: 'First Admin', secret: 'first-admin-secret' })).code).toBe('AUDIT_UNAVAILABLE')
      expect((await k.failure('setCredentials', { clientId: 'kiosk-remote', clientSecret: 'vendor-secret-0123' })).code).toBe('FORBIDDEN')
      const refused = await k.failure('enrollVisitor', { userId: 'blocked@example.org', samples: [ANA], consent: true, consentVersion: CONSENT.version })
      expect(refused).toMatchObject({ code: 'AUDIT_UNAVAILABLE', message: expect.stringContaining('ask staff') })
      expect(k.standin.state().persons.filter((p) => p.userId === 'blocked@example.org')).toEqual([])
      expect(k.standin.requests.filter((r) => r.method !== 'GET' && !r.path.includes('oauth'))).toEqual([])
    } finally {
      await k.close()
    }
  })
})

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { methodNames } from '../../electron/shared/contract'
import { projectRoot } from '../support/process'
import { remoteKiosk, type RemoteKiosk } from '../support/remote-kiosk'
import { VARIANTS, type ReplyVariant, type Standin, type VariantName } from '../support/vendor-standin'
import { CONSENT } from '../../electron/shared/consent'

// The kiosk in remote mode, composed as the web host and Electron compose it (real keychain, real
// clients, every call through dispatch), against a strict stand-in of the vendor's two servers in
// each reply variant. The stand-in records every request that departs from the reference.

// Outbox deliveries wait on the dispatcher's own timing (probes every 5 s while offline).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 })

const TYPE = 'Face:StandinFace'
const TENANT = 'KIOSK'
const photo = (name: string) => readFileSync(join(projectRoot, 'test/fixtures/generated', name)).toString('base64')
const [ANA, ANA_AGAIN, BO, STRANGER] = [photo('person-a1.jpg'), photo('person-a1.jpg'), photo('person-b.jpg'), photo('person-c.jpg')]
/**
 * A photo only this visitor has: the stand-in's matcher hashes the bytes, so the same photo under
 * two e-mails is one face twice, which the kiosk's identity checks stop (bytes after a JPEG's end
 * marker are ignored by decoders).
 */
const own = (sample: string, userId: string) => Buffer.concat([Buffer.from(sample, 'base64'), Buffer.from(userId)]).toString('base64')

/** Templates and persons the stand-in holds for a userId: the exactly-once tally. */
function tally(standin: Standin, userId: string) {
  const state = standin.state()
  const persons = state.persons.filter((p) => p.userId === userId)
  const templates = state.templates.filter((t) => persons.some((p) => p.uuid === t.personId))
  return { persons: persons.length, templates: templates.length }
}

const variants: Array<[string, ReplyVariant]> = [
  ...(Object.keys(VARIANTS) as VariantName[]).map((name): [string, ReplyVariant] => [name, VARIANTS[name]]),
  // The remaining combinations of the unshown shapes, so each value of each is met at least once.
  ['mixed', { personShape: 'both', listShape: 'array', livenessShape: 'strings', scoreScale: 'unit', faceMatchCase: 'lower', enrollReply: 'quality', extraFields: true }],
]

/** Contract methods that never reach a server; every other one must be exercised by each variant. */
const LOCAL_METHODS = new Set([
  'getAppInfo', 'getEngineStatus', 'getOutbox', 'retryOutboxItem', 'discardOutboxItem', 'getSettings', 'saveSettings', 'getCredentialStatus', 'setCredentials', 'clearCredentials',
  'getBranding', 'setLogo',
  'getAuditLog', 'verifyAuditLog', 'exportAuditLog',
  // The offline replica lives in the kiosk's own engine (test/keychain/offline-replica.test.ts).
  'getReplicaStatus', 'syncReplica', 'confirmReplicaRemovals', 'wipeReplica',
  // Staff sessions and accounts: against a vendor's servers the front desk stays on the kiosk (frontdesk.db).
  'getSession', 'keepSession', 'signIn', 'signOut', 'createFirstAdmin', 'listAccounts', 'createAccount', 'setAccountDisabled',
  // Host notices: a queue in the kiosk's data folder, secrets in its keychain (test/keychain/host-notices.test.ts).
  'getHostNotices', 'retryHostNotice', 'getHostNoticeSettings', 'saveHostNoticeSettings', 'setHostNoticeSecrets',
  // Visits and hosts live in the kiosk's own data folder (test/integration/visits.test.ts); check-in and check-out reach the servers.
  'listHostNames', 'listOnSite', 'visitLog', 'visitOverview', 'exportVisitsCsv', 'endVisit', 'listHosts', 'addHost', 'updateHost', 'removeHost',
  // Invites: the kiosk's frontdesk.db, signed with a key in the keychain (test/integration/invites.test.ts).
  'createInvite', 'listInvites', 'revokeInvite', 'checkInvite', 'getInviteAlerts', 'dismissInviteAlert',
  // The watchlist's entries and alerts: the kiosk's frontdesk.db (test/integration/watchlist.test.ts); only adding looks the person up.
  'removeFromWatchlist', 'listWatchlist', 'getWatchlistAlerts', 'dismissWatchlistAlert',
  // A site is our engines, not a vendor's servers (test/keychain/site-join.test.ts, site-frontdesk.test.ts).
  'joinSite', 'createPairingCode', 'listKiosks', 'removeKiosk', 'getSiteSync',
  // The screen's word on its camera goes into the health report to a site, never to a vendor's servers.
  'reportCamera',
])

describe.each(variants)('the kiosk against the vendor stand-in (%s replies)', (_name, variant) => {
  let k: RemoteKiosk
  const scaleMax = variant.scoreScale === 'unit' ? 1 : 100
  beforeAll(async () => {
    k = await remoteKiosk({ variant })
  })
  afterAll(async () => {
    await k?.close()
  })

  it('passes the connection test and shows the template type with its own threshold', async () => {
    const test = await k.call('testConnection')
    expect(test.steps.map((s: { name: string; ok: boolean }) => [s.name, s.ok])).toEqual([
      ['servers', true],
      ['token', true],
      ['templateTypes', true],
      ['tenant', true],
    ])
    expect(await k.call('getTemplateTypes')).toEqual([expect.objectContaining({ templateType: TYPE, scoreThreshold: variant.scoreScale === 'unit' ? 0.8 : 48 })])
  })

  it('enrolls a new visitor, reads their UUID whatever the person shape, and reuses the record on a second enrollment', async () => {
    // As the page does before each capture: the tenant has no liveness association, so none is asked for.
    expect(await k.call('startLivenessChallenge', { purpose: 'enroll' })).toMatchObject({ required: false })
    const first = await k.call('enrollVisitor', { userId: 'ana@example.org', samples: [ANA], consent: true, consentVersion: CONSENT.version })
    expect(first).toMatchObject({ outcome: 'enrolled', created: true, person: { userId: 'ana@example.org' } })
    expect(first.person.uuid).toBe(k.standin.state().persons.find((p) => p.userId === 'ana@example.org')?.uuid)
    // Staff enrolling an e-mail that has a face are shown the record first, and choose to add.
    const shown = await k.call('enrollVisitor', { userId: 'ana@example.org', samples: [ANA_AGAIN], consent: true, consentVersion: CONSENT.version })
    expect(shown).toMatchObject({ outcome: 'needs-decision', existing: { person: { uuid: first.person.uuid }, templates: 1, sameFace: true }, duplicates: [] })
    const again = await k.call('enrollVisitor', { userId: 'ana@example.org', samples: [ANA_AGAIN], consent: true, consentVersion: CONSENT.version, onExisting: 'add' })
    expect(again).toMatchObject({ outcome: 'enrolled', created: false, person: { uuid: first.person.uuid } })
    // A visitor known to another tenant is associated, not created again (reference §4.2 rule 1).
    const boUuid = k.standin.addPerson('bo@example.org', ['OTHER'], 'device-bo')
    expect(await k.call('enrollVisitor', { userId: 'bo@example.org', samples: [BO], consent: true, consentVersion: CONSENT.version })).toMatchObject({ outcome: 'enrolled', created: false, person: { uuid: boUuid } })
    expect(k.standin.state().persons.find((p) => p.uuid === boUuid)?.tenants.sort()).toEqual(['KIOSK', 'OTHER'])
  })

  it("verifies at the template type's own threshold and scale", async () => {
    const match = await k.call('verifyVisitor', { userId: 'ana@example.org', sample: ANA })
    expect(match).toMatchObject({ decision: 'match', threshold: variant.scoreScale === 'unit' ? 0.8 : 48, scaleMax, thresholdSource: 'server' })
    expect(match.score).toBeCloseTo(0.97 * scaleMax)
    expect(await k.call('verifyVisitor', { personUuid: match.person.uuid, sample: STRANGER })).toMatchObject({ decision: 'no-match', scaleMax })
    expect(await k.call('verifyVisitor', { userId: 'nobody@example.org', sample: ANA })).toMatchObject({ decision: 'not-found', person: null })
    k.standin.addPerson('new@example.org', [TENANT])
    expect(await k.call('verifyVisitor', { userId: 'new@example.org', sample: ANA })).toMatchObject({ decision: 'not-enrolled', score: null })
  })

  it('identifies the visitor with their e-mail, and says no-match for a stranger', async () => {
    const found = await k.call('identifyVisitor', { sample: BO })
    expect(found).toMatchObject({ decision: 'match', scaleMax, candidates: [{ userId: 'bo@example.org' }] })
    expect(await k.call('identifyVisitor', { sample: STRANGER })).toMatchObject({ decision: 'no-match', candidates: [] })
  })

  it('checks a visitor in and out by face, sends a stranger to the front desk, and lets staff check in by person id', async () => {
    // A vendor's tenant does not say it keeps face crops: no photo is offered, and a visitor's leave brings none.
    expect(await k.call('getBadgePolicy')).toEqual({ photo: false })
    const first = await k.call('checkInByFace', { sample: BO, badgePhoto: true })
    expect(first).toMatchObject({ outcome: 'checked-in', greeting: 'bo@example.org', alreadyOnSite: false })
    expect(first).not.toHaveProperty('badgePhoto')
    expect(await k.call('checkOutByFace', { sample: BO })).toMatchObject({ outcome: 'checked-out', greeting: 'bo@example.org' })
    expect(await k.call('checkInByFace', { sample: STRANGER })).toMatchObject({ outcome: 'refused', reason: 'see-front-desk', why: 'no-match' })
    const bo = (await k.call('findPerson', { userId: 'bo@example.org' })).person
    expect(await k.call('checkIn', { personUuid: bo.uuid, purpose: 'Stand-in' })).toMatchObject({ outcome: 'checked-in', greeting: 'bo@example.org', personUuid: bo.uuid })
  })

  it('puts a person on the watchlist by the e-mail the person server knows them by, and refuses an unknown one', async () => {
    const bo = (await k.call('findPerson', { userId: 'bo@example.org' })).person
    expect(await k.call('addToWatchlist', { email: 'bo@example.org', reason: 'Stand-in' })).toMatchObject({ personUuid: bo.uuid, email: 'bo@example.org' })
    await expect(k.call('addToWatchlist', { email: 'nobody@example.org', reason: 'Stand-in' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await k.call('removeFromWatchlist', { personUuid: bo.uuid })
  })

  it("shows face match's own verdict, in either letter case", async () => {
    expect(await k.call('faceMatch', { image1: ANA, image2: ANA_AGAIN })).toMatchObject({ pass: true, score: 97, threshold: 48 })
    expect(await k.call('faceMatch', { image1: ANA, image2: BO })).toMatchObject({ pass: false, score: 10 })
  })

  it('lists, looks up and details persons', async () => {
    const page = await k.call('searchPersons', { pageSize: 2, pageNo: 0 })
    expect(page.content).toHaveLength(2)
    // The vendor's user records carry no template types: the services ask the BioEngine per person.
    expect(page.content.map((p: { templateTypes: string[] | null }) => p.templateTypes)).toEqual([[TYPE], [TYPE]])
    expect(page.totalPages).toBeGreaterThanOrEqual(2)
    const ana = (await k.call('findPerson', { userId: 'ana@example.org' })).person
    expect(ana).toMatchObject({ userId: 'ana@example.org' })
    expect((await k.call('findPerson', { deviceId: 'no-such-device' })).person).toBeNull()
    const detail = await k.call('getPersonDetail', { personUuid: ana.uuid })
    // Two enrollments, two captures: two templates of the type.
    expect(detail).toMatchObject({ person: { uuid: ana.uuid }, tenants: [{ code: TENANT }], templates: [{ templateType: TYPE }, { templateType: TYPE }] })
    expect(await k.call('getPersonTemplates', { personUuid: ana.uuid, templateType: TYPE })).toHaveLength(2)
    expect(await k.call('getPersonTemplates', { personUuid: ana.uuid, templateType: 'Face:Other' })).toEqual([])
  })

  it('reads app user data and the tenant apps, and checks photo quality without enrolling', async () => {
    k.standin.addApp(TENANT, 'KIOSK', 'Front desk')
    expect(await k.call('getTenantApps')).toEqual([{ code: 'KIOSK', name: 'Front desk', associated: null }])
    expect(await k.call('getTenantApp', { appCode: 'KIOSK' })).toMatchObject({ code: 'KIOSK', name: 'Front desk' })
    expect((await k.call('getAppUser', { userId: 'ana@example.org' })).user).toMatchObject({ person: { userId: 'ana@example.org' } })
    const persons = k.standin.state().persons.length
    const checked = await k.call('checkSamples', { samples: [STRANGER] })
    expect(checked).toMatchObject({ templateType: TYPE })
    expect(checked.templateBytes).toBeGreaterThan(0)
    expect(k.standin.state().persons).toHaveLength(persons)
  })

  it('administers the tenant: update, apps, the licence (wrapped as licenseData) and liveness checks', async () => {
    expect(await k.call('updateTenant', { name: 'Front desk', maxIdentities: 50, defaultPostBack: null })).toMatchObject({ code: TENANT, name: 'Front desk', maxIdentities: 50 })
    expect((await k.call('associateApp', { appCode: 'LOBBYAPP' })).apps).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'LOBBYAPP' })]))
    expect((await k.call('disassociateApp', { appCode: 'LOBBYAPP' })).apps.map((a: { code: string }) => a.code)).not.toContain('LOBBYAPP')
    const licence = { info: 'site', maxIdentities: 100, expireDate: Date.parse('2031-01-01') }
    expect((await k.call('associateAlgorithm', { algCode: 'StandinFace', licenseData: licence })).algorithms).toEqual([{ code: 'StandinFace', licenseData: licence, liveness: [] }])
    expect(k.standin.state().tenants.find((t) => t.code === TENANT)?.algorithms[0]?.licenseData).toEqual(licence)
    expect((await k.call('associateLiveness', { algCode: 'StandinFace', livenessCode: 'BLINK' })).algorithms[0].liveness).toEqual(['BLINK'])
    expect((await k.call('getTenant')).algorithms[0].liveness).toEqual(['BLINK'])
    expect((await k.call('disassociateLiveness', { algCode: 'StandinFace', livenessCode: 'BLINK' })).algorithms[0].liveness).toEqual([])
    expect((await k.call('associateAlgorithm', { algCode: 'Second' })).algorithms.map((a: { code: string }) => a.code)).toContain('Second')
    expect((await k.call('disassociateAlgorithm', { algCode: 'Second' })).algorithms.map((a: { code: string }) => a.code)).not.toContain('Second')
  })

  it('rebuilds caches and downloads the logs', async () => {
    expect(await k.call('rebuildCaches', {})).toEqual({ ok: true })
    expect(await k.call('rebuildCaches', { pluginName: 'StandinFace' })).toEqual({ ok: true })
    const logs = await k.call('getEngineLogs')
    expect(Buffer.from(logs.contentBase64, 'base64').subarray(0, 2).toString()).toBe('PK')
  })

  it('counts the visitors a template-type change leaves behind, and migrates only to a type the BioEngine offers', async () => {
    const other = await k.call('getTemplateCoverage', { templateType: 'Face:Other' })
    expect(other).toMatchObject({ templateType: 'Face:Other', keepsFaceCrops: null })
    expect(other.enrolled).toBeGreaterThanOrEqual(2)
    expect(other.missing).toBe(other.enrolled)
    expect(await k.call('getTemplateCoverage', { templateType: TYPE })).toMatchObject({ enrolled: other.enrolled, missing: 0 })
    await expect(k.call('migrateTemplates', { templateType: 'Face:Other' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect(await k.call('migrateTemplates', { templateType: TYPE })).toMatchObject({ missingBefore: 0, rebuilt: 0, missing: 0 })
  })

  it('deletes one template, those of a type, and all of them', async () => {
    const ana = (await k.call('findPerson', { userId: 'ana@example.org' })).person
    const [template] = await k.call('getPersonTemplates', { personUuid: ana.uuid })
    expect(await k.call('deleteTemplates', { personUuid: ana.uuid, templateType: TYPE, templateContext: template.templateContext })).toEqual({ remaining: 1 })
    expect(await k.call('deleteTemplates', { personUuid: ana.uuid, templateType: TYPE })).toEqual({ remaining: 0 })
    await k.call('enrollVisitor', { userId: 'ana@example.org', samples: [ANA], consent: true, consentVersion: CONSENT.version })
    expect(await k.call('deleteTemplates', { personUuid: ana.uuid })).toEqual({ remaining: 0 })
  })

  it('removes visitors by the delete rule: leaves the tenant, deletes only when no other tenant holds them', async () => {
    expect(await k.call('removeVisitor', { userId: 'bo@example.org' })).toEqual({ outcome: 'disassociated', otherTenants: ['OTHER'] })
    expect(await k.call('removeVisitor', { userId: 'ana@example.org' })).toEqual({ outcome: 'deleted', otherTenants: [] })
    expect(tally(k.standin, 'ana@example.org')).toEqual({ persons: 0, templates: 0 })
    expect(await k.call('removeVisitor', { userId: 'ana@example.org' })).toEqual({ outcome: 'not-found', otherTenants: [] })
  })

  it('departed from the reference in no request, and reached the servers through every contract method', () => {
    expect(k.standin.departures).toEqual([])
    expect(k.standin.failedSignIns).toBe(0)
    expect(methodNames.filter((m) => !LOCAL_METHODS.has(m) && !k.called.has(m))).toEqual([])
  })
})

describe.each(variants)('the kiosk against the vendor stand-in under faults (%s replies)', (_name, variant) => {
  let k: RemoteKiosk
  beforeAll(async () => {
    // A short request timeout: a hung server costs seconds, not the old fixed ~30 s.
    k = await remoteKiosk({ variant }, { requestTimeoutSeconds: 2, connectTimeoutSeconds: 1 })
  })
  afterAll(async () => {
    await k?.close()
  })

  const cases: Array<[string, Parameters<Standin['inject']>[0]]> = [
    ['a 5xx on create', { method: 'POST', path: /\/tenant\/KIOSK\/person$/, fault: 'status500' }],
    ['garbage on the look-up', { method: 'GET', path: /\/person\?userId=/, fault: 'garbage' }],
    ['a hang on enroll', { method: 'POST', path: /\/persons\/[^/]+\/biometrics$/, fault: 'hang' }],
    ['a reset on the token call', { path: /\/oauth\/token/, fault: 'reset' }],
    ['an expired token on create', { method: 'POST', path: /\/tenant\/KIOSK\/person$/, fault: 'expired-token' }],
    ['a lost reply after enroll', { method: 'POST', path: /\/persons\/[^/]+\/biometrics$/, fault: 'lost-reply' }],
    ['a lost reply after create', { method: 'POST', path: /\/tenant\/KIOSK\/person$/, fault: 'lost-reply' }],
  ]

  it.each(cases)('delivers an enrollment exactly once through %s', async (name, rule) => {
    const userId = `${name.replace(/\W+/g, '-')}@faults.example`
    // A fresh token for each case, so that a fault on the token call meets one.
    if (rule.fault === 'reset' && /token/.test(rule.path.source)) await k.call('setCredentials', { clientSecret: 'vendor-secret-0123' })
    k.standin.inject(rule)
    const result = await k.call('enrollVisitor', { userId, samples: [own(ANA, userId)], consent: true, consentVersion: CONSENT.version })
    if (result.outcome === 'queued') {
      await k.outboxUntil((s) => s.items.some((i: { id: string; state: string }) => i.id === result.outboxId && i.state === 'delivered'), `${name} delivered`)
    }
    expect(tally(k.standin, userId)).toEqual({ persons: 1, templates: 1 })
  })

  it('queues while the servers are offline, probes only with credentials, and delivers exactly once when they are back', async () => {
    k.standin.setOnline(false)
    const queued = await k.call('enrollVisitor', { userId: 'offline@faults.example', samples: [own(BO, 'offline')], consent: true, consentVersion: CONSENT.version })
    expect(queued).toMatchObject({ outcome: 'queued' })
    await k.outboxUntil((s) => s.online === false, 'offline')
    k.standin.setOnline(true)
    await k.outboxUntil((s) => s.items.some((i: { id: string; state: string }) => i.id === queued.outboxId && i.state === 'delivered'), 'delivered after reconnecting')
    expect(tally(k.standin, 'offline@faults.example')).toEqual({ persons: 1, templates: 1 })
    // The probe's reads carried their bearer tokens: nothing departed, nobody failed to sign in.
    expect(k.standin.requests.some((r) => r.method === 'GET' && /\/tenant\/KIOSK$/.test(r.path))).toBe(true)
    expect(k.standin.departures).toEqual([])
    expect(k.standin.failedSignIns).toBe(0)
  })

  it('gives up on a hung server after the request timeout set in Settings, not a fixed 30 s', async () => {
    expect(await k.call('enrollVisitor', { userId: 'hung@faults.example', samples: [own(ANA, 'hung')], consent: true, consentVersion: CONSENT.version })).toMatchObject({ outcome: 'enrolled' })
    k.standin.inject({ method: 'POST', path: /\/verify$/, fault: 'hang' })
    const started = performance.now()
    expect((await k.failure('verifyVisitor', { userId: 'hung@faults.example', sample: own(ANA, 'hung') })).code).toBe('TIMEOUT')
    const waited = performance.now() - started
    // The configured 2 s, give or take a busy machine; the old fixed timeout was 30 s.
    expect(waited).toBeGreaterThanOrEqual(1_900)
    expect(waited).toBeLessThan(15_000)
  })

  it('verify renews an expired token by itself', async () => {
    expect(await k.call('enrollVisitor', { userId: 'renew@faults.example', samples: [own(ANA, 'renew')], consent: true, consentVersion: CONSENT.version })).toMatchObject({ outcome: 'enrolled' })
    k.standin.inject({ method: 'POST', path: /\/verify$/, fault: 'expired-token' })
    expect(await k.call('verifyVisitor', { userId: 'renew@faults.example', sample: own(ANA, 'renew') })).toMatchObject({ decision: 'match' })
  })

  it('departed from the reference in no request', () => {
    expect(k.standin.departures).toEqual([])
  })
})

describe('the kiosk against the vendor stand-in: credentials', () => {
  it("signs in with a secret holding reserved characters once Basic encoding matches the server's", async () => {
    const k = await remoteKiosk({ basicEncoding: 'plain', clientSecret: 'p%ss:w+rd&=' }, { basicAuthEncoding: 'form-urlencoded' })
    try {
      const refused = await k.call('testConnection')
      expect(refused.steps.find((s: { name: string }) => s.name === 'token')).toMatchObject({ ok: false })
      await k.call('saveSettings', { basicAuthEncoding: 'plain' })
      expect((await k.call('testConnection')).ok).toBe(true)
      expect(k.standin.departures).toEqual([])
    } finally {
      await k.close()
    }
  })

  it('does not repeat a refused sign-in: retries and probes answer from memory', async () => {
    const k = await remoteKiosk({ clientSecret: 'the-real-secret' })
    try {
      await k.outboxUntil((s) => s.online === true, 'the first probe, on the right secret')
      // A capture began while the servers answered: the kiosk knows its tenant asks for no liveness
      // (a kiosk that never read it would require every check, and refuse this enrollment without them).
      expect(await k.call('startLivenessChallenge', { purpose: 'enroll' })).toMatchObject({ required: false })
      await k.call('setCredentials', { clientSecret: 'a-wrong-secret' })
      const queued = await k.call('enrollVisitor', { userId: 'locked-out@faults.example', samples: [ANA], consent: true, consentVersion: CONSENT.version })
      expect(queued).toMatchObject({ outcome: 'queued', reason: expect.stringContaining('HTTP 401') })
      // The dispatcher retries on its own (backing off); each attempt needs a token.
      const item = (s: any) => s.items.find((i: { id: string }) => i.id === queued.outboxId)
      await k.outboxUntil((s) => item(s)?.attempts >= 3 && item(s)?.lastError?.code === 'UNAUTHORIZED', 'three failed delivery attempts')
      expect(k.standin.failedSignIns).toBe(1)
      // New credentials end the hold at once, and the queued enrollment goes through.
      await k.call('setCredentials', { clientSecret: 'the-real-secret' })
      // Now rather than at the next backoff (refused, harmlessly, if an attempt is under way).
      await k.services.dispatch('retryOutboxItem', { id: queued.outboxId })
      await k.outboxUntil((s) => s.items.some((i: { id: string; state: string }) => i.id === queued.outboxId && i.state === 'delivered'), 'delivered with the right secret')
      expect(tally(k.standin, 'locked-out@faults.example')).toEqual({ persons: 1, templates: 1 })
      expect(k.standin.departures).toEqual([])
    } finally {
      await k.close()
    }
  })

  it('uses a stored BioEngine JWT for every BioEngine call but /match', async () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJraW9zayJ9.c2lnbmF0dXJl'
    const k = await remoteKiosk({ bioEngineJwt: jwt }, { bioEngineAuth: 'stored-jwt' })
    try {
      await k.call('setCredentials', { bioengineJwt: jwt })
      expect(await k.call('enrollVisitor', { userId: 'jwt@example.org', samples: [ANA], consent: true, consentVersion: CONSENT.version })).toMatchObject({ outcome: 'enrolled' })
      expect(await k.call('verifyVisitor', { userId: 'jwt@example.org', sample: ANA })).toMatchObject({ decision: 'match' })
      expect(k.standin.departures).toEqual([])
    } finally {
      await k.close()
    }
  })
})

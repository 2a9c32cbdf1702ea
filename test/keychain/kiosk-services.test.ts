import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadFacePlugins } from '../../electron/engine/face'
import { launchEngineFromSource } from '../../electron/services/engine-launch'
import { createKioskServices, type KioskServices } from '../../electron/services/kiosk-services'
import { createCredentialStore } from '../../electron/services/secrets/credentials'
import { createKeychain } from '../../electron/services/secrets/keychain'
import type { KioskEvent } from '../../electron/shared/events'
import { startTestEngine, TEST_CLIENT, TEST_TENANT } from '../support/engine'
import { projectRoot } from '../support/process'
import { adminDispatch, TEST_ADMIN, type SessionCall } from '../support/staff'
import { CONSENT } from '../../electron/shared/consent'

// The kiosk services as the web host and Electron compose them: the real keychain (gnome-keyring),
// the embedded engine as a child process on its per-install credentials, every call through dispatch.
const sample = (name: string) => readFileSync(join(projectRoot, 'test/fixtures/generated', name)).toString('base64')

describe('kiosk services on the embedded engine', () => {
  const keychainService = `identity-kiosk-services-${randomBytes(4).toString('hex')}`
  const dataDir = mkdtempSync(join(tmpdir(), 'kiosk-services-'))
  const events: KioskEvent[] = []
  /** What a visitor's tab (a key with no staff session) is pushed. */
  const visitorEvents: KioskEvent[] = []
  const logLines: string[] = []
  let services: KioskServices
  let dispatch: SessionCall
  const call = async (method: string, input: unknown = {}) => {
    const reply = await dispatch(method, input)
    if (!reply.ok) throw Object.assign(new Error(reply.error.message), { code: reply.error.code })
    return reply.value as any
  }
  const failure = async (method: string, input: unknown = {}) => {
    const reply = await dispatch(method, input)
    if (reply.ok) throw new Error(`${method} unexpectedly succeeded`)
    return reply.error
  }
  const waitForEngine = async () => {
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
      if ((await call('getEngineStatus')).state === 'running') return
    }
    throw new Error('the embedded engine did not get ready within 60 s')
  }

  beforeAll(async () => {
    services = createKioskServices({ shell: 'web', version: '0.0.0-test', dataDir, launchEngine: launchEngineFromSource(projectRoot), keychain: createKeychain(keychainService), log: (line) => logLines.push(line) })
    services.onEvent('test:admin', (event) => events.push(event))
    services.onEvent('test:visitor-tab', (event) => visitorEvents.push(event))
    dispatch = await adminDispatch(services.dispatch)
    await services.start()
    await waitForEngine()
  })
  afterAll(async () => {
    await services?.stop()
  })

  it('starts the embedded engine and reports it, pushing engine events', async () => {
    const status = await call('getEngineStatus')
    expect(status).toMatchObject({ mode: 'embedded', state: 'running', url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) })
    expect(events.some((e) => e.type === 'engine' && e.status.state === 'running')).toBe(true)
  })

  it('starts quietly: the outbox sends once the engine runs, and never calls the kiosk offline while it starts', async () => {
    await expect.poll(async () => (await call('getOutbox')).online, { timeout: 25_000, interval: 200 }).toBe(true)
    expect(logLines.filter((line) => line.startsWith('outbox:'))).toEqual([])
  })

  it('passes the connection test step by step', async () => {
    const result = await call('testConnection')
    expect(result.ok).toBe(true)
    expect(result.steps.map((s: { name: string; ok: boolean }) => [s.name, s.ok])).toEqual([
      ['servers', true],
      ['token', true],
      ['templateTypes', true],
      ['tenant', true],
    ])
  })

  it('keeps settings validated and persisted, credentials write-only', async () => {
    expect(await call('getSettings')).toMatchObject({ mode: 'embedded', tenantCode: 'KIOSK', templateType: 'Face:HumanFaceRes' })
    expect((await call('saveSettings', { identifyMaxResults: 3 })).identifyMaxResults).toBe(3)
    expect(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')).identifyMaxResults).toBe(3)
    expect((await failure('saveSettings', { verifyThresholdOverride: 101 })).code).toBe('INVALID_INPUT')
    expect((await failure('saveSettings', { mode: 'remote' })).message).toMatch(/required in remote mode/)

    const status = await call('setCredentials', { clientId: 'remote-client', clientSecret: 'remote-secret-value' })
    expect(status).toEqual({ clientId: true, clientSecret: true, bioengineJwt: false })
    expect(JSON.stringify(await call('getCredentialStatus'))).not.toContain('remote-secret-value')
    expect(await call('clearCredentials', { names: ['clientSecret'] })).toEqual({ clientId: true, clientSecret: false, bioengineJwt: false })
  })

  it('runs every visitor workflow end to end', async () => {
    const enrolled = await call('enrollVisitor', { userId: 'visitor@kiosk.example', samples: [sample('person-a1.jpg')], consent: true, consentVersion: CONSENT.version })
    expect(enrolled).toMatchObject({ outcome: 'enrolled', created: true, enrollmentStatus: 'ENROLLED' })
    expect((await failure('enrollVisitor', { userId: 'x@kiosk.example', samples: [sample('person-a1.jpg')] })).code).toBe('INVALID_INPUT') // no consent

    expect(await call('verifyVisitor', { userId: 'visitor@kiosk.example', sample: sample('person-a2.jpg') })).toMatchObject({ decision: 'match' })
    expect(await call('verifyVisitor', { userId: 'visitor@kiosk.example', sample: sample('person-b.jpg') })).toMatchObject({ decision: 'no-match' })
    const identified = await call('identifyVisitor', { sample: sample('person-a2.jpg') })
    expect(identified.candidates[0]).toMatchObject({ userId: 'visitor@kiosk.example' })
    expect(await call('identifyVisitor', { sample: sample('person-c.jpg') })).toMatchObject({ decision: 'no-match', candidates: [] })
    expect(await call('faceMatch', { image1: sample('person-a1.jpg'), image2: sample('person-a2.jpg') })).toMatchObject({ pass: true })
    expect((await call('searchPersons', { find: 'visitor@' })).content).toHaveLength(1)
    const detail = await call('getPersonDetail', { personUuid: enrolled.person.uuid })
    expect(detail.templates).toHaveLength(1)
    expect((await call('getTemplateTypes')).map((t: { templateType: string }) => t.templateType)).toContain('Face:HumanFaceRes')
    // An invite for the visitor (tomorrow, kiosk time) goes with them when they are removed.
    const next = new Date(Date.now() + 86_400_000)
    const date = `${next.getFullYear()}-${String(next.getMonth() + 1).padStart(2, '0')}-${String(next.getDate()).padStart(2, '0')}`
    const { invite, token } = await call('createInvite', { email: 'visitor@kiosk.example', hostId: null, date })
    expect(await call('checkInvite', { token })).toMatchObject({ status: 'valid', email: 'visitor@kiosk.example' })
    expect(await call('removeVisitor', { userId: 'visitor@kiosk.example' })).toEqual({ outcome: 'deleted', otherTenants: [] })
    expect((await call('listInvites')).invites.map((i: { id: string }) => i.id)).not.toContain(invite.id)
    expect(await call('checkInvite', { token })).toEqual({ status: 'refused', reason: 'invalid' })
  })

  it('pushes a watchlist alert to staff sessions only, as an id: a visitor’s tab is sent nothing of it', async () => {
    const enroll = (userId: string) => call('enrollVisitor', { userId, samples: [sample('person-d.jpg')], consent: true, consentVersion: CONSENT.version })
    expect(await enroll('listed@kiosk.example')).toMatchObject({ outcome: 'enrolled' })
    const entry = await call('addToWatchlist', { email: 'listed@kiosk.example', reason: 'Incident at the gate' })
    const before = events.length
    expect(await enroll('alias@kiosk.example')).toEqual({ outcome: 'needs-staff', reason: 'see-front-desk' })
    const pushed = events.slice(before).filter((e) => e.type === 'watchlist-alert')
    expect(pushed).toEqual([{ type: 'watchlist-alert', alertId: expect.any(String) }])
    expect(visitorEvents.filter((e) => e.type === 'watchlist-alert')).toEqual([])
    // The visitor tab still gets what every screen shows (it follows the same events otherwise).
    expect(visitorEvents.some((e) => e.type === 'engine')).toBe(true)
    expect((await call('getWatchlistAlerts')).map((a: { id: string }) => a.id)).toContain((pushed[0] as { alertId: string }).alertId)
    // The list is the kiosk's own front desk's (it is on its own), in its private file.
    expect(statSync(join(dataDir, 'frontdesk.db')).mode & 0o777).toBe(0o600)
    await call('removeFromWatchlist', { personUuid: entry.personUuid })
    await call('removeVisitor', { userId: 'listed@kiosk.example' })
  })

  it('creates a tenant chosen in Settings on the embedded engine, so the seed rule can be exercised across tenants', async () => {
    await call('saveSettings', { tenantCode: 'BRANCH' })
    await call('enrollVisitor', { userId: 'twice@kiosk.example', samples: [sample('person-e.jpg')], consent: true, consentVersion: CONSENT.version })
    await call('saveSettings', { tenantCode: 'KIOSK' })
    // Staff see the face already enrolled under this e-mail (in the other tenant) and add to it.
    expect(await call('enrollVisitor', { userId: 'twice@kiosk.example', samples: [sample('person-e.jpg')], consent: true, consentVersion: CONSENT.version, onExisting: 'add' })).toMatchObject({
      outcome: 'enrolled',
      created: false,
    })
    expect(await call('removeVisitor', { userId: 'twice@kiosk.example' })).toEqual({ outcome: 'disassociated', otherTenants: ['BRANCH'] })
  })

  it('restarts the engine after it is killed, and keeps its data', async () => {
    await call('enrollVisitor', { userId: 'survivor@kiosk.example', samples: [sample('person-b.jpg')], consent: true, consentVersion: CONSENT.version })
    const { pid } = await call('getEngineStatus')
    process.kill(pid, 'SIGKILL')
    await expect.poll(async () => (await call('getEngineStatus')).pid, { timeout: 60_000, interval: 200 }).not.toBe(pid)
    await waitForEngine()
    expect((await call('getEngineStatus')).restarts).toBeGreaterThanOrEqual(1)
    expect((await call('identifyVisitor', { sample: sample('person-b.jpg') })).candidates[0]).toMatchObject({ userId: 'survivor@kiosk.example' })
  })

  it('queues an enrollment while the engine is down and delivers it when the engine is back', async () => {
    const { pid } = await call('getEngineStatus')
    process.kill(pid, 'SIGKILL')
    const queued = await call('enrollVisitor', { userId: 'offline@kiosk.example', samples: [sample('person-c.jpg')], consent: true, consentVersion: CONSENT.version })
    expect(queued).toMatchObject({ outcome: 'queued', outboxId: expect.any(String) })
    // The audit answers "why was this visitor queued?": the reason the servers were not used.
    const audited = (await call('getAuditLog', { actions: ['enroll'], limit: 5 })).entries.find((e: { outcome: string }) => e.outcome === 'queued')
    expect(audited).toMatchObject({ subject: { userId: 'offline@kiosk.example', outboxId: queued.outboxId } })
    expect(audited.detail).toContain(`queued: ${queued.reason}`.slice(0, 60))

    const itemState = async () => (await call('getOutbox')).items.find((i: { id: string }) => i.id === queued.outboxId)
    await expect.poll(async () => (await itemState())?.state, { timeout: 90_000, interval: 500 }).toBe('delivered')
    expect((await itemState()).attempts).toBeGreaterThanOrEqual(1)
    expect((await call('identifyVisitor', { sample: sample('person-c.jpg') })).candidates[0]).toMatchObject({ userId: 'offline@kiosk.example' })
    expect(events.some((e) => e.type === 'outbox')).toBe(true)
  })

  it('leaves no secret, token or image in the data folder (the audit trail and staff accounts included)', async () => {
    const engineSecret = (await createCredentialStore(createKeychain(keychainService)).embeddedEngineCredentials()).clientSecret
    const files: string[] = []
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name)
        if (statSync(path).isDirectory()) walk(path)
        else files.push(path)
      }
    }
    walk(dataDir)
    expect(files).toEqual(expect.arrayContaining([join(dataDir, 'audit.db'), join(dataDir, 'frontdesk.db')]))
    expect(logLines.length).toBeGreaterThan(0)
    const logText = Buffer.from(logLines.join('\n'))
    // JPEG as FF D8 FF + a segment marker: three random bytes turn up in ciphertext now and then.
    const jpegs = [0xdb, 0xe0, 0xe1, 0xee].map((marker) => Buffer.from([0xff, 0xd8, 0xff, marker]))
    // The staff secret, in the two encodings a careless store would use.
    const needles = [Buffer.from(engineSecret), Buffer.from(TEST_ADMIN.secret), Buffer.from(TEST_ADMIN.secret, 'utf16le'), Buffer.from('remote-client'), Buffer.from('eyJhbGciOi'), Buffer.from('\x89PNG', 'binary'), ...jpegs]
    // The person server and the audit trail (whom each act concerned) keep e-mails by design; the
    // kiosk's other files (outbox, settings) must not.
    const kioskOwn = (file: string) => !file.startsWith(join(dataDir, 'engine')) && !file.startsWith(join(dataDir, 'audit.db'))
    for (const file of files) {
      const bytes = readFileSync(file)
      for (const needle of kioskOwn(file) ? [...needles, Buffer.from('visitor@kiosk.example')] : needles) {
        expect(bytes.includes(needle), `${file} holds ${needle.toString('hex').slice(0, 12)}`).toBe(false)
      }
    }
    for (const needle of needles) expect(logText.includes(needle), `the log holds ${needle.toString('hex').slice(0, 12)}`).toBe(false)
  })

  it('works against remote servers: credentials from the keychain, then a stored BioEngine JWT', async () => {
    const remote = await startTestEngine(await loadFacePlugins({ threads: 1, log: () => {} }))
    try {
      await call('setCredentials', { clientId: TEST_CLIENT.id, clientSecret: TEST_CLIENT.secret })
      await call('saveSettings', { mode: 'remote', personServerUrl: remote.url, bioEngineUrl: remote.bio, tenantCode: TEST_TENANT })
      await expect.poll(async () => (await call('getEngineStatus')).state, { timeout: 30_000 }).toBe('stopped') // no embedded engine in remote mode
      expect((await call('testConnection')).ok).toBe(true)
      expect(await call('enrollVisitor', { userId: 'remote@kiosk.example', samples: [sample('person-d.jpg')], consent: true, consentVersion: CONSENT.version })).toMatchObject({ outcome: 'enrolled' })
      expect((await call('identifyVisitor', { sample: sample('person-d.jpg') })).candidates[0]).toMatchObject({ userId: 'remote@kiosk.example' })

      await call('setCredentials', { bioengineJwt: await remote.token() })
      await call('saveSettings', { bioEngineAuth: 'stored-jwt' })
      expect((await call('getTemplateTypes')).length).toBeGreaterThan(0)

      await call('setCredentials', { clientSecret: 'not-the-secret' })
      const refused = await call('testConnection')
      expect(refused.ok).toBe(false)
      expect(refused.steps.at(-1)).toMatchObject({ name: 'token', ok: false, detail: expect.stringContaining('HTTP 401') })
    } finally {
      await remote.close()
    }
  })
})

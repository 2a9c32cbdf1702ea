import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { launchEngineFromSource } from '../../electron/services/engine-launch'
import { createKioskServices } from '../../electron/services/kiosk-services'
import { createKeychain } from '../../electron/services/secrets/keychain'
import { CONSENT } from '../../electron/shared/consent'
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy'
import { IMAGE_MAGIC } from '../support/outbox-helpers'
import { projectRoot } from '../support/process'
import { kioskAt, remoteKiosk, remoteSettings, type KioskAt, type RemoteKiosk } from '../support/remote-kiosk'
import { adminDispatch } from '../support/staff'
import { startStandin, type Standin } from '../support/vendor-standin'
import { floatVectorRun } from '../support/vector-scan'

// Remote mode with the offline replica on, against the vendor stand-in taken offline mid-run: the
// kiosk's own engine (started on demand) decides Verify, Identify and Face match while the servers
// cannot be reached, and the servers decide again once they answer.

vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 })

const photo = (name: string) => readFileSync(join(projectRoot, 'test/fixtures/generated', name)).toString('base64')
// Real faces for the replica's real recognition: a1 and a2 are the same woman, the others each someone else.
const [ANA, ANA_OTHER_PHOTO, BO, STRANGER, EVE] = ['person-a1.jpg', 'person-a2.jpg', 'person-b.jpg', 'person-d.jpg', 'person-e.jpg'].map(photo) as [string, string, string, string, string]
const enroll = (userId: string, sample: string) => ({ userId, samples: [sample], consent: true, consentVersion: CONSENT.version })
const DAY = 86_400_000

/** Every file under a folder, with its path. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]))
}

describe('the offline replica (vendor stand-in, the kiosk’s own engine on demand)', () => {
  let k: RemoteKiosk
  let dataDir = ''
  let clock = Date.now()
  const replicaUntil = async (done: (status: any) => boolean, what: string) => {
    for (let polls = 0; polls < 600; polls++) {
      const status = await k.call('getReplicaStatus')
      if (done(status)) return status
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error(`the replica never reached: ${what}`)
  }

  beforeAll(async () => {
    k = await remoteKiosk({}, { offlineReplica: true }, (dir) => (dataDir = dir), true, launchEngineFromSource(projectRoot), () => clock)
  })
  afterAll(async () => {
    await k?.close()
  })

  it('is off by default, and the engine does not start at launch', async () => {
    const plain = await remoteKiosk()
    try {
      expect((await plain.call('getSettings')).offlineReplica).toBe(false)
      expect(await plain.call('enrollVisitor', enroll('plain@remote.example', ANA))).toMatchObject({ outcome: 'enrolled' })
      // Off: nothing kept locally, so the engine (whose launcher throws here) is never started.
      expect(await plain.call('getReplicaStatus')).toMatchObject({ enabled: false, persons: 0, bytes: 0 })
    } finally {
      await plain.close()
    }
    expect((await k.call('getEngineStatus')).state).toBe('stopped')
  })

  it('online: the servers enroll and decide; each enrollment is also kept on this device', async () => {
    for (const [userId, sample] of [['ana@remote.example', ANA], ['eve@remote.example', EVE]] as const) {
      expect(await k.call('enrollVisitor', enroll(userId, sample))).toMatchObject({ outcome: 'enrolled' })
    }
    const status = await replicaUntil((s) => s.persons === 2, 'two persons')
    expect(status).toMatchObject({ enabled: true, lastSyncAt: null })
    expect(status.bytes).toBeGreaterThan(0)
    expect((await k.call('getEngineStatus')).state).toBe('running')
    const online = await k.call('verifyVisitor', { userId: 'ana@remote.example', sample: ANA })
    expect(online).toMatchObject({ decision: 'match' })
    expect(online.offline).toBeUndefined()
  })

  it('offline: enrollment queues and is kept locally; Verify, Identify and Face match decide on this device', async () => {
    k.standin.setOnline(false)
    expect(await k.call('enrollVisitor', enroll('bo@remote.example', BO))).toMatchObject({ outcome: 'queued' })
    await replicaUntil((s) => s.persons === 3, 'the queued visitor kept locally')
    // Meanwhile another desk removes Eve on the servers; the kiosk cannot know yet.
    k.standin.removePerson('eve@remote.example')

    const same = await k.call('verifyVisitor', { userId: 'ana@remote.example', sample: ANA_OTHER_PHOTO })
    expect(same).toMatchObject({ decision: 'match', offline: { recordAt: expect.any(Number), lastSyncAt: null } })
    expect(same.offline.recordAt).toBeGreaterThan(Date.now() - 10 * 60_000)
    expect(await k.call('verifyVisitor', { userId: 'ana@remote.example', sample: STRANGER })).toMatchObject({ decision: 'no-match', offline: { recordAt: expect.any(Number) } })
    expect(await k.call('verifyVisitor', { userId: 'bo@remote.example', sample: BO })).toMatchObject({ decision: 'match', offline: {} })

    const found = await k.call('identifyVisitor', { sample: ANA_OTHER_PHOTO })
    expect(found).toMatchObject({ decision: 'match', candidates: [{ userId: 'ana@remote.example' }], offline: { recordAt: expect.any(Number) } })
    expect(await k.call('identifyVisitor', { sample: STRANGER })).toMatchObject({ decision: 'no-match', candidates: [], offline: { recordAt: null } })

    const matched = await k.call('faceMatch', { image1: ANA, image2: ANA_OTHER_PHOTO })
    expect(matched).toMatchObject({ pass: true, threshold: 48, offline: { recordAt: null } })
    expect(await k.call('faceMatch', { image1: ANA, image2: STRANGER })).toMatchObject({ pass: false, offline: {} })

    // Each offline decision is an audit entry that says so.
    const { entries } = await k.call('getAuditLog', { limit: 50 })
    const offline = entries.filter((e: any) => e.outcome === 'ok' && /^offline: checked on this device/.test(e.detail ?? ''))
    expect(offline.map((e: any) => e.action).sort()).toEqual(['face-match', 'face-match', 'identify', 'identify', 'verify', 'verify', 'verify'])
  })

  it('a visitor offline sees no record age for an e-mail that did not match', async () => {
    const reply = await k.services.dispatch('verifyVisitor', { userId: 'ana@remote.example', sample: STRANGER }, 'test:visitor')
    expect(reply).toMatchObject({ ok: true, value: { decision: 'no-match', score: null, person: null, offline: { recordAt: null } } })
  })

  it('back online: the queued enrollment is delivered exactly once, the replica syncs, and the servers decide again', async () => {
    k.standin.setOnline(true)
    await k.outboxUntil((s) => s.counts.delivered === 1 && s.counts.queued === 0, 'delivered')
    const state = k.standin.state()
    const bo = state.persons.filter((p) => p.userId === 'bo@remote.example')
    expect(bo).toHaveLength(1)
    expect(state.templates.filter((t) => t.personId === bo[0]!.uuid)).toHaveLength(1)

    // The connection came back: the kiosk syncs by itself, and Eve (removed on the servers) goes.
    const synced = await replicaUntil((s) => s.lastSyncAt !== null && s.persons === 2, 'synced without Eve')
    expect(synced.lastSyncAt).toBeGreaterThan(0)
    const { entries } = await k.call('getAuditLog', { limit: 100 })
    expect(entries.find((e: any) => e.action === 'remove' && e.outcome === 'ok' && e.subject?.userId === 'eve@remote.example')).toMatchObject({ role: 'system', detail: expect.stringMatching(/removed on the server/) })

    const online = await k.call('verifyVisitor', { userId: 'bo@remote.example', sample: BO })
    expect(online).toMatchObject({ decision: 'match' })
    expect(online.offline).toBeUndefined()
    // A staff sync asks the servers again: nothing more to remove.
    expect(await k.call('syncReplica')).toMatchObject({ checked: 2, removed: 0 })
  })

  it('keeps nothing readable on disk: no photo bytes, no plaintext template or vector, files private', async () => {
    const files = filesUnder(join(dataDir, 'replica'))
    expect(files.length).toBeGreaterThan(0)
    for (const file of files) {
      const data = readFileSync(file)
      for (const { name, bytes } of IMAGE_MAGIC) expect(data.includes(bytes), `${name} in ${file}`).toBe(false)
      expect(data.includes(Buffer.from('BKT\u0001')), `a template header in ${file}`).toBe(false)
      expect(floatVectorRun(data), `a float vector in ${file}`).toBe(false)
      expect(statSync(file).mode & 0o077, file).toBe(0)
    }
    expect(statSync(join(dataDir, 'replica')).mode & 0o077).toBe(0)
  })

  it('removal of a person removes their local record', async () => {
    expect(await k.call('removeVisitor', { userId: 'ana@remote.example' })).toMatchObject({ outcome: 'deleted' })
    expect(await k.call('getReplicaStatus')).toMatchObject({ persons: 1 })
    k.standin.setOnline(false)
    expect(await k.call('verifyVisitor', { userId: 'ana@remote.example', sample: ANA })).toMatchObject({ decision: 'not-found', offline: { recordAt: null } })
    k.standin.setOnline(true)
  })

  it('the retention (days since a record was confirmed) and the size limit purge the replica; a wipe empties it', async () => {
    expect(await k.call('enrollVisitor', enroll('ana@remote.example', ANA))).toMatchObject({ outcome: 'enrolled' })
    await replicaUntil((s) => s.persons === 2, 'Ana kept again')
    // Over the size limit: the record confirmed longest ago (Bo's) goes.
    await k.call('saveSettings', { offlineReplicaMaxPersons: 1 })
    await k.services.purgeExpired()
    expect(await k.call('getReplicaStatus')).toMatchObject({ persons: 1 })
    k.standin.setOnline(false)
    expect(await k.call('verifyVisitor', { userId: 'bo@remote.example', sample: BO })).toMatchObject({ decision: 'not-found' })
    expect(await k.call('verifyVisitor', { userId: 'ana@remote.example', sample: ANA })).toMatchObject({ decision: 'match' })
    k.standin.setOnline(true)

    // Two days on, with a one-day retention: Ana's record goes too.
    await k.call('saveSettings', { offlineReplicaDays: 1 })
    clock += 2 * DAY
    await k.services.purgeExpired()
    expect(await k.call('getReplicaStatus')).toMatchObject({ persons: 0 })
    const { entries } = await k.call('getAuditLog', { limit: 100 })
    expect(entries.filter((e: any) => e.action === 'remove' && e.role === 'system' && e.outcome === 'ok').map((e: any) => e.detail)).toEqual(
      expect.arrayContaining([expect.stringMatching(/over 1 persons/), expect.stringMatching(/older than 1 days/)]),
    )

    expect(await k.call('verifyVisitor', { userId: 'ana@remote.example', sample: ANA })).toMatchObject({ decision: 'match' })
    await replicaUntil((s) => s.persons === 1, 'Ana verified and kept again')
    await k.call('wipeReplica')
    expect(await k.call('getReplicaStatus')).toMatchObject({ persons: 0, bytes: 0, lastSyncAt: null })
    expect((await k.call('getAuditLog', { limit: 5 })).entries[0]).toMatchObject({ action: 'replica-wipe', outcome: 'ok' })
    // Turned off: nothing is kept any more, and offline decisions are not made.
    await k.call('saveSettings', { offlineReplica: false })
    k.standin.setOnline(false)
    expect((await k.failure('verifyVisitor', { userId: 'ana@remote.example', sample: ANA })).code).toBe('UNREACHABLE')
    k.standin.setOnline(true)
  })
})

describe('the replica when remote mode is chosen while the kiosk is still starting', () => {
  it('keeps the replica in its own folder, never in the engine embedded mode started with', async () => {
    const credentials = { clientId: 'kiosk-race', clientSecret: 'vendor-secret-race-1' }
    const standin = await startStandin({ ...credentials, tenants: ['KIOSK'] })
    const dataDir = mkdtempSync(join(tmpdir(), 'kiosk-replica-race-'))
    const services = createKioskServices({
      shell: 'web',
      version: '0.0.0-test',
      dataDir,
      launchEngine: launchEngineFromSource(projectRoot),
      keychain: createKeychain(`identity-kiosk-race-${randomBytes(4).toString('hex')}`),
      log: () => {},
    })
    try {
      const admin = await adminDispatch(services.dispatch)
      const ok = async (method: string, input: unknown = {}) => {
        const reply = await admin(method, input)
        if (!reply.ok) throw new Error(`${method}: ${reply.error.message}`)
        return reply.value as any
      }
      // As the web host does: the launch URL is out (staff can act) while start() still runs, having read embedded mode.
      const starting = services.start()
      await ok('saveSettings', { ...remoteSettings(standin), offlineReplica: true })
      await ok('setCredentials', credentials)
      await starting
      expect(await ok('enrollVisitor', enroll('race@remote.example', ANA))).toMatchObject({ outcome: 'enrolled' })
      for (let polls = 0; (await ok('getReplicaStatus')).persons < 1; polls++) {
        if (polls > 300) throw new Error('the enrollment never reached the replica')
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      expect(existsSync(join(dataDir, 'replica'))).toBe(true)
    } finally {
      await services.stop()
      await standin.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})

describe('the offline replica behind a gateway that answers while the servers are away', () => {
  // A proxy per server, as an ingress or a captive portal stands before them: while the servers are
  // away it answers every request itself with an HTML 404, a 200 sign-in page or a 302 to one.
  let standin: Standin
  let proxies: FaultProxy[] = []
  let k: KioskAt
  const credentials = { clientId: 'kiosk-gateway', clientSecret: 'vendor-secret-gw-01' }
  const people = [
    ['ana@gateway.example', ANA],
    ['bo@gateway.example', BO],
    ['cy@gateway.example', photo('person-c.jpg')],
    ['dee@gateway.example', STRANGER],
    ['eve@gateway.example', EVE],
  ] as const
  const away = (fault: 'html404' | 'login200' | 'redirect302') => {
    for (const proxy of proxies) {
      proxy.clear()
      proxy.inject({ path: /./, fault, times: Infinity })
    }
  }
  const back = () => proxies.forEach((proxy) => proxy.clear())
  const removals = async () => (await k.call('getAuditLog', { limit: 200 })).entries.filter((e: any) => e.action === 'remove' && e.outcome === 'ok').map((e: any) => e.subject?.userId)

  beforeAll(async () => {
    standin = await startStandin({ ...credentials, tenants: ['KIOSK'] })
    proxies = [await startFaultProxy(standin.personServerUrl), await startFaultProxy(new URL(standin.bioEngineUrl).origin)]
    const bioPath = new URL(standin.bioEngineUrl).pathname
    k = await kioskAt(
      { personServerUrl: proxies[0]!.url, bioEngineUrl: `${proxies[1]!.url}${bioPath}`, ...credentials },
      { settings: { offlineReplica: true, requestTimeoutSeconds: 2, connectTimeoutSeconds: 1 }, launchEngine: launchEngineFromSource(projectRoot) },
    )
  })
  afterAll(async () => {
    await k?.close()
    await Promise.all(proxies.map((proxy) => proxy.close()))
    await standin?.close()
  })

  it('keeps every person and decides offline while the gateway answers; removes exactly the persons deleted there once the servers are back', async () => {
    for (const [userId, sample] of people) expect(await k.call('enrollVisitor', enroll(userId, sample))).toMatchObject({ outcome: 'enrolled' })
    for (let polls = 0; (await k.call('getReplicaStatus')).persons < people.length; polls++) {
      if (polls > 300) throw new Error('the enrollments never reached the replica')
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    // Meanwhile another desk removes Eve on the servers.
    standin.removePerson('eve@gateway.example')

    for (const fault of ['html404', 'login200', 'redirect302'] as const) {
      away(fault)
      const same = await k.call('verifyVisitor', { userId: 'ana@gateway.example', sample: ANA_OTHER_PHOTO })
      expect(same, fault).toMatchObject({ decision: 'match', offline: { recordAt: expect.any(Number) } })
      expect(await k.call('identifyVisitor', { sample: BO }), fault).toMatchObject({ decision: 'match', candidates: [{ userId: 'bo@gateway.example' }], offline: {} })
      // A staff sync meets the gateway too: it fails, and removes nobody.
      expect((await k.failure('syncReplica')).code, fault).toBe('UNREACHABLE')
      expect((await k.call('getReplicaStatus')).persons, fault).toBe(people.length)
    }
    // The kiosk's own recheck (every 15 s while it decides offline) does not take the gateway for the servers.
    away('html404')
    await new Promise((resolve) => setTimeout(resolve, 16_500))
    expect((await k.call('getReplicaStatus')).persons).toBe(people.length)
    expect(await removals()).toEqual([])

    // The servers are back: the next answered call syncs, and only Eve goes.
    back()
    // (The stand-in's matcher knows the very photo it enrolled.)
    const online = await k.call('verifyVisitor', { userId: 'ana@gateway.example', sample: ANA })
    expect(online).toMatchObject({ decision: 'match' })
    expect(online.offline).toBeUndefined()
    for (let polls = 0; (await k.call('getReplicaStatus')).persons !== people.length - 1; polls++) {
      if (polls > 300) throw new Error('the replica never synced')
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(await removals()).toEqual(['eve@gateway.example'])
  })

  it('a sync that would remove more than a quarter of the replica at once holds the removals until an administrator confirms', async () => {
    // Four of the four left are deleted on the servers at once.
    for (const [userId] of people.slice(0, 4)) standin.removePerson(userId)
    const held = await k.call('syncReplica')
    expect(held).toMatchObject({ checked: 4, removed: 0, held: 4 })
    expect(await k.call('getReplicaStatus')).toMatchObject({ persons: 4, heldRemovals: { count: 4, checked: 4 } })
    expect(await removals()).toEqual(['eve@gateway.example'])
    const { entries } = await k.call('getAuditLog', { limit: 5 })
    expect(entries[0]).toMatchObject({ action: 'replica-sync', outcome: 'ok', detail: expect.stringMatching(/0 removed .*4 gone from the server held for staff: more than a quarter/) })

    // Only an administrator confirms (a visitor here; operators are refused too, by the contract).
    expect((await k.services.dispatch('confirmReplicaRemovals', {}, 'test:visitor')) as any).toMatchObject({ ok: false })
    expect(await k.call('confirmReplicaRemovals')).toMatchObject({ checked: 4, removed: 4, held: 0 })
    expect(await k.call('getReplicaStatus')).toMatchObject({ persons: 0, heldRemovals: null })
    const after = await k.call('getAuditLog', { limit: 10 })
    expect(after.entries.filter((e: any) => e.action === 'remove' && e.outcome === 'ok').map((e: any) => e.detail)).toEqual(
      Array(4).fill(expect.stringMatching(/removed on the server \(confirmed by staff\)/)),
    )
    expect(after.entries[0]).toMatchObject({ action: 'replica-sync', role: 'admin', detail: expect.stringMatching(/^removals confirmed by staff: 4 checked, 4 removed/) })
  })
})

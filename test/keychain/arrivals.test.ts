import { createHmac, randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchEngineFromSource } from '../../electron/services/engine-launch'
import { checkWebhook, WEBHOOK_HEADERS } from '../../electron/records/frontdesk/notices/signature'
import { createKioskServices, type KioskServices } from '../../electron/services/kiosk-services'
import { createKeychain } from '../../electron/services/secrets/keychain'
import { CONSENT } from '../../electron/shared/consent'
import type { HostNotice } from '../../electron/shared/host-notices'
import { readMail, startReceiver, startSmtp, type LocalReceiver, type LocalSmtp } from '../support/notice-servers'
import { projectRoot } from '../support/process'
import { adminDispatch, valueOf, type SessionCall } from '../support/staff'
import { eventually } from '../support/until'

// Visits tied to the host notifications on the composed services (createKioskServices), as Electron
// and the web host build them: the real keychain, the embedded engine, every call through dispatch
// with its session's role. The host is told through a real SMTP server and a loopback webhook receiver.
const sample = (name: string) => readFileSync(join(projectRoot, 'test/fixtures/generated', name)).toString('base64')
const VISITOR = 'arrival@kiosk.example'
const VISITOR_WINDOW = 'test:visitor'

describe('a check-in tells its host, once, on the composed services', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'kiosk-arrivals-'))
  const logLines: string[] = []
  const signing = `whsec-${randomBytes(18).toString('base64url')}`
  let services: KioskServices
  let staff: SessionCall
  let smtp: LocalSmtp
  let receiver: LocalReceiver
  const call = async (method: string, input: unknown = {}) => valueOf(staff(method, input))
  /** A call from a kiosk window nobody signed in to: the visitor's role. */
  const visitor = async (method: string, input: unknown = {}) => valueOf(services.dispatch(method, input, VISITOR_WINDOW))
  const notices = async (): Promise<HostNotice[]> => (await call('getHostNotices')).items
  const kioskFiles = (dir = dataDir): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name)
      if (path === join(dataDir, 'engine') || entry.name.startsWith('audit.db')) return []
      return entry.isDirectory() ? kioskFiles(path) : [path]
    })

  const keychain = createKeychain(`identity-kiosk-arrivals-${randomBytes(4).toString('hex')}`)
  /** The kiosk's services started on the data folder and keychain (again, after a stop: a restart). */
  const startKiosk = async () => {
    services = createKioskServices({ shell: 'web', version: '0.0.0-test', dataDir, launchEngine: launchEngineFromSource(projectRoot), keychain, log: (line) => logLines.push(line) })
    staff = await adminDispatch(services.dispatch)
    await services.start()
    await eventually('the embedded engine running', async () => (await call('getEngineStatus')).state === 'running', { attempts: 600 })
  }

  beforeAll(async () => {
    smtp = await startSmtp()
    receiver = await startReceiver()
    await startKiosk()
  }, 120_000)
  afterAll(async () => {
    await services?.stop()
    await smtp?.close()
    await receiver?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('e-mails the host and POSTs one signed webhook for a check-in after enrolling; a second check-in while on site tells nobody again; removing the visitor removes the visit and its notices', async () => {
    // An administrator sets up the channels and the host, as on the Settings and Visits screens.
    await call('saveHostNoticeSettings', { smtp: { host: '127.0.0.1', port: smtp.port, security: 'none', from: 'front-desk@kiosk.example', user: null } })
    expect(await call('setHostNoticeSecrets', { webhookSecret: signing })).toEqual({ smtpPassword: false, webhookSecret: true })
    const grace = await call('addHost', { name: 'Grace Hopper', email: 'grace@host.example', webhookUrl: receiver.url })

    // A visitor enrolls at the kiosk and checks in with that host.
    const enrolled = await visitor('enrollVisitor', { userId: VISITOR, samples: [sample('person-a1.jpg')], consent: true, consentVersion: CONSENT.version })
    expect(enrolled).toMatchObject({ outcome: 'enrolled' })
    const checkedIn = await visitor('checkIn', { personUuid: enrolled.person.uuid, hostId: grace.id, firstName: 'Frida', purpose: 'Interview' })
    // Both channels are set up: the visitor may be told their host will hear.
    expect(checkedIn).toMatchObject({ outcome: 'checked-in', greeting: 'Frida', hostName: 'Grace Hopper', alreadyOnSite: false, hostNotified: true })
    expect(checkedIn.personUuid).toBeUndefined() // a visitor's result names nobody

    await eventually('both notices delivered', async () => {
      const items = await notices()
      return items.length === 2 && items.every((n) => n.state === 'delivered')
    })
    expect((await notices()).map((n) => [n.channel, n.visitId, n.hostName])).toEqual(
      expect.arrayContaining([
        ['email', checkedIn.visitId, 'Grace Hopper'],
        ['webhook', checkedIn.visitId, 'Grace Hopper'],
      ]),
    )
    expect(smtp.mails).toHaveLength(1)
    expect(smtp.mails[0]).toMatchObject({ from: 'front-desk@kiosk.example', to: ['grace@host.example'] })
    const mail = readMail(smtp.mails[0]!.raw)
    expect(mail.subject).toBe('Frida has arrived')
    expect(mail.text).toContain('Frida has arrived at the front desk to see you.')
    expect(mail.text).toContain('Purpose: Interview')

    expect(receiver.posts).toHaveLength(1)
    const [post] = receiver.posts
    const headers = { timestamp: post!.headers[WEBHOOK_HEADERS.timestamp] as string, signature: post!.headers[WEBHOOK_HEADERS.signature] as string, delivery: post!.headers[WEBHOOK_HEADERS.delivery] as string }
    expect(checkWebhook(signing, headers, post!.body)).toBeNull()
    // And as a receiver that never saw our code would check it: HMAC-SHA256 over "<timestamp>.<delivery id>.<body>".
    expect(headers.signature).toBe(`v2=${createHmac('sha256', signing).update(`${headers.timestamp}.${headers.delivery}.${post!.body}`).digest('hex')}`)
    expect(JSON.parse(post!.body)).toMatchObject({ type: 'visitor.arrived', visitId: checkedIn.visitId, host: { id: grace.id, name: 'Grace Hopper' } })

    // Checking in again while on site (by face, this time): the open visit is given back, no one told twice.
    const again = await visitor('checkInByFace', { sample: sample('person-a2.jpg') })
    // Nor promised again: the host was told of the visit they are already on.
    expect(again).toMatchObject({ outcome: 'checked-in', visitId: checkedIn.visitId, alreadyOnSite: true, hostNotified: false })
    // Staff checking the same person in: the same.
    expect(await call('checkIn', { personUuid: enrolled.person.uuid, hostId: grace.id })).toMatchObject({ visitId: checkedIn.visitId, alreadyOnSite: true, hostNotified: false })
    await new Promise((resolve) => setTimeout(resolve, 1_500))
    expect(await notices()).toHaveLength(2)
    expect(smtp.mails).toHaveLength(1)
    expect(receiver.posts).toHaveLength(1)

    // Removing the person takes the visit and its notices with them.
    expect(await call('removeVisitor', { userId: VISITOR })).toMatchObject({ outcome: 'deleted' })
    expect((await call('visitLog', {})).visits).toEqual([])
    expect((await call('listOnSite')).visits).toEqual([])
    expect(await notices()).toEqual([])
    expect((await call('getHostNotices')).counts).toMatchObject({ queued: 0, delivered: 0, needsAttention: 0 })
    // Nor do their bytes linger in the kiosk's own files (WAL frames, freed pages); the person
    // server and the audit trail (whom each act concerned) are apart.
    for (const file of kioskFiles()) {
      const bytes = readFileSync(file)
      for (const needle of [VISITOR, 'Frida']) expect(bytes.includes(needle), `${file} holds ${needle}`).toBe(false)
    }
  }, 120_000)

  it('removing a visitor whose host could not be told takes the notice that needs attention, which kept their name for a retry, with no trace left', async () => {
    const ada = await call('addHost', { name: 'Ada Lovelace', email: 'ada@host.example' })
    smtp.answer([550])
    const enrolled = await visitor('enrollVisitor', { userId: 'refused@kiosk.example', samples: [sample('person-b.jpg')], consent: true, consentVersion: CONSENT.version })
    const checkedIn = await visitor('checkIn', { personUuid: enrolled.person.uuid, hostId: ada.id, firstName: 'Zelda' })
    expect(checkedIn).toMatchObject({ outcome: 'checked-in', hostName: 'Ada Lovelace' })
    await eventually('the e-mail refused for good', async () => (await notices()).find((n) => n.visitId === checkedIn.visitId)?.state === 'needs-attention')
    expect(smtp.refused).toBe(1)

    await call('removeVisitor', { userId: 'refused@kiosk.example' })
    expect(await notices()).toEqual([])
    for (const file of kioskFiles()) {
      const bytes = readFileSync(file)
      for (const needle of ['refused@kiosk.example', 'Zelda']) expect(bytes.includes(needle), `${file} holds ${needle}`).toBe(false)
    }
  }, 120_000)

  it('an arrival is queued with its visit, in one transaction: with e-mail off it is not promised and waits for staff; sent once e-mail is set up after a restart; later starts tell nobody again', async () => {
    // E-mail off for now, so the notice cannot be sent before the stop.
    await call('saveHostNoticeSettings', { smtp: null })
    const katherine = await call('addHost', { name: 'Katherine Johnson', email: 'katherine@host.example' })
    const enrolled = await visitor('enrollVisitor', { userId: 'restart@kiosk.example', samples: [sample('person-c.jpg')], consent: true, consentVersion: CONSENT.version })
    const checkedIn = await visitor('checkIn', { personUuid: enrolled.person.uuid, hostId: katherine.id, firstName: 'Hedy' })
    expect(checkedIn).toMatchObject({ outcome: 'checked-in', hostName: 'Katherine Johnson', alreadyOnSite: false, hostNotified: false })
    const queued = (await notices()).filter((n) => n.visitId === checkedIn.visitId)
    expect(queued).toMatchObject([{ channel: 'email', hostName: 'Katherine Johnson' }])
    // A configuration error is staff's to see, not tried again and again.
    await eventually('the notice needs attention', async () => (await notices()).find((n) => n.id === queued[0]!.id)?.state === 'needs-attention')
    expect((await notices()).find((n) => n.id === queued[0]!.id)).toMatchObject({ attempts: 1, lastError: { code: 'NOT_CONFIGURED' } })
    // The visit and its notice are in the same file, written by the same commit.
    const frontDeskDb = new Database(join(dataDir, 'frontdesk.db'), { readonly: true })
    expect(frontDeskDb.prepare("SELECT subject FROM jobs WHERE kind = 'host-notice' AND id = ?").get(queued[0]!.id)).toEqual({ subject: checkedIn.visitId })
    frontDeskDb.close()
    await services.stop()

    await startKiosk()
    expect((await notices()).filter((n) => n.visitId === checkedIn.visitId).map((n) => n.id)).toEqual([queued[0]!.id])
    const mails = smtp.mails.length
    await call('saveHostNoticeSettings', { smtp: { host: '127.0.0.1', port: smtp.port, security: 'none', from: 'front-desk@kiosk.example', user: null } })
    await eventually('the notice delivered after the restart', async () => (await notices()).find((n) => n.id === queued[0]!.id)?.state === 'delivered')
    expect(smtp.mails.slice(mails).map((mail) => [mail.to, readMail(mail.raw).subject])).toEqual([[['katherine@host.example'], 'Hedy has arrived']])

    // Started again: the arrival was told, so nothing new.
    await services.stop()
    await startKiosk()
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    expect((await notices()).filter((n) => n.visitId === checkedIn.visitId).map((n) => n.id)).toEqual([queued[0]!.id])
    expect(smtp.mails).toHaveLength(mails + 1)
    await call('removeVisitor', { userId: 'restart@kiosk.example' })
  }, 180_000)

  it('a watchlisted visitor checking in by face reads only "see the front desk": no visit, no host told, staff alerted', async () => {
    const enrolled = await visitor('enrollVisitor', { userId: 'listed@kiosk.example', samples: [sample('person-d.jpg')], consent: true, consentVersion: CONSENT.version })
    expect(enrolled).toMatchObject({ outcome: 'enrolled' })
    await call('addToWatchlist', { personUuid: enrolled.person.uuid, reason: 'Trespass notice on file' })
    const before = { notices: (await notices()).length, mails: smtp.mails.length, alerts: (await call('getWatchlistAlerts')).length }

    expect(await visitor('checkInByFace', { sample: sample('person-d.jpg') })).toEqual({ outcome: 'refused', reason: 'see-front-desk' })
    expect((await call('listOnSite')).visits.filter((v: { email: string }) => v.email === 'listed@kiosk.example')).toEqual([])
    expect((await notices()).length).toBe(before.notices)
    const alerts = await call('getWatchlistAlerts')
    expect(alerts).toHaveLength(before.alerts + 1)
    expect(alerts.at(-1)).toMatchObject({ personUuid: enrolled.person.uuid, place: 'check-in' })
    expect(smtp.mails).toHaveLength(before.mails)

    await call('removeFromWatchlist', { personUuid: enrolled.person.uuid })
    await call('removeVisitor', { userId: 'listed@kiosk.example' })
  }, 120_000)

  it('keeps the visitor’s name and the signing secret out of the log', () => {
    const log = logLines.join('\n')
    expect(log).toContain('host notices:')
    for (const needle of [VISITOR, 'Frida', 'refused@kiosk.example', 'Zelda', 'restart@kiosk.example', 'Hedy', 'grace@host.example', signing]) expect(log).not.toContain(needle)
  })
})

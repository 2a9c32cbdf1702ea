import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { launchEngineFromSource } from '../../electron/services/engine-launch'
import { createKioskServices, type KioskServices } from '../../electron/services/kiosk-services'
import { createKeychain } from '../../electron/services/secrets/keychain'
import { CONSENT } from '../../electron/shared/consent'
import { startReceiver, startSmtp, type LocalReceiver, type LocalSmtp } from '../support/notice-servers'
import { projectRoot } from '../support/process'
import { adminDispatch, valueOf, type SessionCall } from '../support/staff'
import { eventually } from '../support/until'

// The kiosk's every workflow on the composed services (as Electron and the web host build them),
// run with recognisable values a visitor and staff would give: neither the kiosk's log nor its
// embedded engine's holds one of them afterwards, at any level.
const sample = (name: string) => readFileSync(join(projectRoot, 'test/fixtures/generated', name)).toString('base64')
const CANARY = {
  email: 'quentin.canary.5521@example.com',
  invited: 'ursula.canaryinvite.5521@example.com',
  listed: 'viktor.canarylisted.5521@example.com',
  unknown: 'wanda.canaryunknown.5521@example.com',
  name: 'Quentincanary',
  staff: 'Roberta Canarystaff',
  secret: 'canary-staff-pin-5521',
  host: 'Sigrid Canaryhost',
  hostEmail: 'sigrid.canaryhost@example.com',
  purpose: 'Canarypurpose review',
  reason: 'Canaryreason trespass',
}
const VISITOR_WINDOW = 'test:visitor'
const WEBHOOK_SECRET = `whsec-${randomBytes(18).toString('base64url')}`

describe('the kiosk’s logs', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'kiosk-logs-'))
  const logLines: string[] = []
  let services: KioskServices
  let staff: SessionCall
  let smtp: LocalSmtp
  let receiver: LocalReceiver
  const call = async (method: string, input: unknown = {}) => valueOf(staff(method, input))
  const visitor = async (method: string, input: unknown = {}) => valueOf(services.dispatch(method, input, VISITOR_WINDOW))
  /** Every log file under the data folder (the embedded engine's logs/), as text. */
  const logFiles = (dir = dataDir): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) return logFiles(path)
      return /\.log(\.\d)?$/.test(entry.name) ? [readFileSync(path, 'utf8')] : []
    })

  beforeAll(async () => {
    smtp = await startSmtp()
    receiver = await startReceiver()
    const keychain = createKeychain(`identity-kiosk-logs-${randomBytes(4).toString('hex')}`)
    services = createKioskServices({ shell: 'web', version: '0.0.0-test', dataDir, launchEngine: launchEngineFromSource(projectRoot), keychain, log: (line) => logLines.push(line) })
    staff = await adminDispatch(services.dispatch)
    await services.start()
    await eventually('the embedded engine running', async () => (await call('getEngineStatus')).state === 'running', { attempts: 600 })
  }, 120_000)
  afterAll(async () => {
    await services?.stop()
    await smtp?.close()
    await receiver?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('hold none of what a visitor or staff gave, after enrolling, verifying, visits, host notices, invites, the watchlist and refusals', async () => {
    // Staff: an operator account, a refused sign-in, a host told by e-mail and webhook.
    await call('createAccount', { name: CANARY.staff, role: 'operator', secret: CANARY.secret })
    await expect(visitor('signIn', { name: CANARY.staff, secret: `${CANARY.secret}-wrong` })).rejects.toThrow()
    await call('saveHostNoticeSettings', { smtp: { host: '127.0.0.1', port: smtp.port, security: 'none', from: 'front-desk@kiosk.example', user: null } })
    await call('setHostNoticeSecrets', { webhookSecret: WEBHOOK_SECRET })
    const host = await call('addHost', { name: CANARY.host, email: CANARY.hostEmail, webhookUrl: receiver.url })

    // A visitor enrolls, verifies, checks in (the host told), out and in again by face.
    const enrolled = await visitor('enrollVisitor', { userId: CANARY.email, samples: [sample('person-a1.jpg')], consent: true, consentVersion: CONSENT.version })
    expect(enrolled).toMatchObject({ outcome: 'enrolled' })
    expect(await visitor('verifyVisitor', { userId: CANARY.email, sample: sample('person-a2.jpg') })).toMatchObject({ decision: 'match' })
    await visitor('checkIn', { personUuid: enrolled.person.uuid, hostId: host.id, firstName: CANARY.name, purpose: CANARY.purpose })
    await eventually('the host notices delivered', async () => {
      const items = (await call('getHostNotices')).items as Array<{ state: string }>
      return items.length === 2 && items.every((n) => n.state === 'delivered')
    })
    expect(await visitor('checkOutByFace', { sample: sample('person-a2.jpg') })).toMatchObject({ outcome: 'checked-out' })
    await call('identifyVisitor', { sample: sample('person-a2.jpg') })

    // Invites and the watchlist; a listed face enrolling is stopped; an unknown e-mail verifying is refused.
    await call('createInvite', { email: CANARY.invited, hostId: host.id, date: new Date().toISOString().slice(0, 10) })
    await call('enrollVisitor', { userId: CANARY.listed, samples: [sample('person-b.jpg')], consent: true, consentVersion: CONSENT.version })
    await call('addToWatchlist', { email: CANARY.listed, reason: CANARY.reason })
    // (Whether as a refusal or as a result, a visitor is answered; the log is what is checked here.)
    await visitor('enrollVisitor', { userId: `x.${CANARY.listed}`, samples: [sample('person-b.jpg')], consent: true, consentVersion: CONSENT.version }).catch(() => undefined)
    await visitor('verifyVisitor', { userId: CANARY.unknown, sample: sample('person-a2.jpg') }).catch(() => undefined)
    await call('removeVisitor', { userId: CANARY.email })

    const text = [...logLines, ...logFiles()].join('\n')
    // The engine logged the calls (by route), and the kiosk its refusals (by code): the logs were written.
    expect(text).toContain('"route":"/bioengine/persons/:personid/verify"')
    expect(logLines.some((line) => line.includes('refused for a visitor'))).toBe(true)
    for (const value of [...Object.values(CANARY), WEBHOOK_SECRET]) expect(text.includes(value), `a log line holds "${value}"`).toBe(false)
    // Nor the photos.
    expect(text).not.toContain(sample('person-a1.jpg').slice(200, 260))
  }, 180_000)
})

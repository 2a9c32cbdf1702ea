import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { openLocalFrontDesk } from '../../electron/records/frontdesk/local'
import { hostNotices } from '../../electron/services/features/host-notices'
import { createKeychain } from '../../electron/services/secrets/keychain'
import type { Call } from '../../electron/services/dispatch'
import { startReceiver, startSmtp } from '../support/notice-servers'
import { eventually } from '../support/until'

// Two senders on one data folder (the desktop app and the web host both open it: two feature
// instances, each on its own SQLite connection to frontdesk.db), a webhook receiver and an SMTP
// relay that each take three claims to answer (a claim of 1.5 s: the proportion of production's
// 30 s against a receiver slower than 90 s). Each notice must reach its host once.

const admin: Call = { actor: { role: 'admin', account: 'Ada Admin' }, key: null }
const cleanup: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

it('a notice is sent once while two senders share the queue and the receivers are slower than the claim', async () => {
  const parent = mkdtempSync(join(tmpdir(), 'kiosk-notices-once-'))
  cleanup.push(() => rmSync(parent, { recursive: true, force: true }))
  const dataDir = join(parent, 'data')
  const keychain = createKeychain(`identity-kiosk-test-${randomBytes(4).toString('hex')}`)
  // Receivers three claims slow; a claim renewed every third of it survives a stall of up to 1 s on a busy machine.
  const claimMs = 1_500
  const smtp = await startSmtp({ delayMs: 3 * claimMs })
  cleanup.push(() => smtp.close())
  const receiver = await startReceiver([], 3 * claimMs)
  cleanup.push(() => receiver.close())

  const timing = { backoff: { baseMs: 20, capMs: 200 }, claimMs, pollMs: 100, stopGraceMs: 3_000 }
  const lines: string[] = []
  const desks = [await openLocalFrontDesk({ dataDir }), await openLocalFrontDesk({ dataDir })]
  for (const desk of desks) cleanup.push(() => desk.close())
  const senders = desks.map((desk) => hostNotices({ database: async () => desk.database, keychain, timing, log: (line) => lines.push(line) }))
  for (const sender of senders) cleanup.push(() => sender.stop())
  const [first] = senders
  await first!.handlers.saveHostNoticeSettings!({ smtp: { host: '127.0.0.1', port: smtp.port, security: 'none', from: 'front-desk@example.com', user: null } }, admin)
  await first!.handlers.setHostNoticeSecrets!({ webhookSecret: randomBytes(24).toString('base64url') }, admin)
  for (const sender of senders) await sender.start()

  // A real check-in on the kiosk's own desk: its transaction queues one notice per channel.
  const { frontDesk } = desks[0]!
  const host = await frontDesk.addHost({ name: 'Grace Host', email: 'grace@example.com', webhookUrl: receiver.url })
  const checkedIn = await frontDesk.checkIn({
    person: { personUuid: randomUUID(), email: 'amelie@example.com', firstName: 'Amélie' },
    hostId: host.id,
    purpose: 'Interview',
    inviteToken: null,
    asLastTime: false,
    kioskId: 'front-desk-1',
  })
  expect(checkedIn).toMatchObject({ outcome: 'checked-in', alreadyOnSite: false })
  const service = await first!.service()
  expect(await service.list()).toHaveLength(2)
  for (const sender of senders) sender.wake()

  await eventually('both notices delivered', async () => (await service.list()).every((n) => n.state === 'delivered'), { attempts: 2_000, everyMs: 50 })
  await Promise.all(senders.map(async (sender) => (await sender.service()).passNow()))
  expect(receiver.posts).toHaveLength(1)
  expect(smtp.mails).toHaveLength(1)
  expect(lines.filter((line) => line.includes(' delivered'))).toHaveLength(2)
}, 120_000)

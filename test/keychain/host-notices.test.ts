import { spawn } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import { FRONTDESK_FILE, openLocalFrontDesk, type LocalFrontDesk } from '../../electron/records/frontdesk/local'
import { addArrival } from '../../electron/records/frontdesk/notices/notice-jobs'
import type { NoticeTiming } from '../../electron/records/frontdesk/notices/service'
import { checkWebhook, WEBHOOK_HEADERS } from '../../electron/records/frontdesk/notices/signature'
import { hostNotices, type HostNoticesFeature } from '../../electron/services/features/host-notices'
import { noticeSecrets } from '../../electron/services/host-notices/secrets'
import { credentialAccounts } from '../../electron/services/secrets/credentials'
import { createKeychain, type Keychain } from '../../electron/services/secrets/keychain'
import { openAuditLog } from '../../electron/services/audit'
import { auditedHandlers } from '../../electron/services/audited-handlers'
import type { Call, Handlers } from '../../electron/services/dispatch'
import type { HostNotice, SmtpSettings } from '../../electron/shared/host-notices'
import type { ArrivalNotice, Host } from '../../electron/shared/visits'
import { readMail, startReceiver, startSilentServer, startSmtp, type LocalReceiver, type LocalSmtp } from '../support/notice-servers'
import { projectRoot } from '../support/process'
import { rejection } from '../support/rejection'
import { eventually } from '../support/until'

// Runs inside test/keychain/run-with-secret-service.sh: the SMTP password and the webhook signing
// secret are in a real gnome-keyring; e-mails go to a real SMTP server (smtp-server) and webhooks
// to a node:http receiver, both on 127.0.0.1. Each test has its own data folder and keychain
// service. Arrivals are real check-ins on the kiosk's own desk (frontdesk.db): the check-in's
// transaction queues the notices, and the kiosk's runner sends them.

const FAST = { backoff: { baseMs: 20, capMs: 200 }, claimMs: 3_000, pollMs: 100, stopGraceMs: 2_000 }
const admin: Call = { actor: { role: 'admin', account: 'Ada Admin' }, key: null }

const cleanup: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

interface Kiosk {
  dataDir: string
  keychain: Keychain
  lines: string[]
  desk: LocalFrontDesk
  feature: HostNoticesFeature
  /** Stops the runner and closes frontdesk.db (a kiosk stopped). */
  close(): Promise<void>
}

/** A kiosk's own front desk and host notifications on a fresh data folder (removed after the test), or on another kiosk's folder and keychain (a restart). */
async function kiosk(dataDir?: string, keychain: Keychain = createKeychain(`identity-kiosk-test-${randomBytes(4).toString('hex')}`), timing: Partial<NoticeTiming> = {}): Promise<Kiosk> {
  if (!dataDir) {
    const parent = mkdtempSync(join(tmpdir(), 'kiosk-notices-'))
    cleanup.push(() => rmSync(parent, { recursive: true, force: true }))
    dataDir = join(parent, 'data')
  }
  const lines: string[] = []
  const desk = await openLocalFrontDesk({ dataDir, noticeSecrets: noticeSecrets(keychain) })
  const feature = hostNotices({ database: async () => desk.database, keychain, timing: { ...FAST, ...timing }, log: (line) => lines.push(line) })
  let closed = false
  const close = async () => {
    if (closed) return
    closed = true
    await feature.stop()
    await desk.close()
  }
  cleanup.push(close)
  return { dataDir, keychain, lines, desk, feature, close }
}

async function servers(options: Parameters<typeof startSmtp>[0] = {}, statuses: number[] = []): Promise<{ smtp: LocalSmtp; receiver: LocalReceiver }> {
  const smtp = await startSmtp(options)
  cleanup.push(() => smtp.close())
  const receiver = await startReceiver(statuses)
  cleanup.push(() => receiver.close())
  return { smtp, receiver }
}

const smtpAt = (port: number, user: string | null = null): SmtpSettings => ({ host: '127.0.0.1', port, security: 'none', from: 'front-desk@example.com', user })

interface Arrival {
  notice: ArrivalNotice
  /** The notices the check-in queued, one per channel the host has. */
  queued: HostNotice[]
  /** The check-in's word that the host will be told (a notice queued on a channel that is set up). */
  hostNotified: boolean
}

/** A visitor checks in at the kiosk's own desk to see a host (with these contacts): what the host is told, and the notices queued. */
async function arrive(k: Kiosk, visitorName = 'Amélie Visitor', contacts: Partial<Pick<Host, 'email' | 'webhookUrl'>> = {}): Promise<Arrival> {
  const host = await k.desk.frontDesk.addHost({ name: 'Grace Host', email: 'grace@example.com', webhookUrl: null, ...contacts })
  const checkedIn = await k.desk.frontDesk.checkIn({
    person: { personUuid: randomUUID(), email: `visitor-${randomBytes(4).toString('hex')}@example.com`, firstName: visitorName },
    hostId: host.id,
    purpose: 'Interview',
    inviteToken: null,
    asLastTime: false,
    kioskId: 'front-desk-1',
  })
  if (checkedIn.outcome !== 'checked-in') throw new Error('not checked in')
  const { visit } = checkedIn
  // What the visits feature does after a check-in on the kiosk's own desk.
  k.feature.wake()
  const notice: ArrivalNotice = { visitId: visit.id, host, visitorName, purpose: 'Interview', arrivedAt: visit.checkedInAt, kioskId: 'front-desk-1' }
  return { notice, queued: (await list(k)).filter((n) => n.visitId === visit.id), hostNotified: checkedIn.hostNotified }
}

const list = async (k: Kiosk) => (await k.feature.service()).list()
const stateOf = async (k: Kiosk, id: string) => (await list(k)).find((n) => n.id === id)
const passNow = async (k: Kiosk) => (await k.feature.service()).passNow()

describe('host notifications (real SMTP server, webhook receiver and keychain)', () => {
  it('e-mails the host once through the SMTP server, signing in with the password from the keychain, even when the arrival is queued twice', async () => {
    const password = `smtp-${randomBytes(9).toString('base64url')}`
    const { smtp } = await servers({ login: { user: 'kiosk', password } })
    const k = await kiosk()
    await k.feature.handlers.saveHostNoticeSettings!({ smtp: smtpAt(smtp.port, 'kiosk') }, admin)
    expect(await k.feature.handlers.setHostNoticeSecrets!({ smtpPassword: password }, admin)).toEqual({ smtpPassword: true, webhookSecret: false })
    expect(await k.keychain.get(credentialAccounts.smtpPassword)).toBe(password)
    await k.feature.start()

    const { notice, queued: [queued] } = await arrive(k)
    expect(queued).toMatchObject({ channel: 'email', hostName: 'Grace Host', visitId: notice.visitId })
    // The same arrival again (a replayed check-in): nothing new is queued.
    expect(await addArrival(k.desk.database, notice, Date.now())).toEqual([])

    await eventually('the e-mail delivered', async () => (await stateOf(k, queued!.id))?.state === 'delivered')
    await passNow(k)
    expect(smtp.mails).toHaveLength(1)
    const [mail] = smtp.mails
    expect(mail).toMatchObject({ from: 'front-desk@example.com', to: ['grace@example.com'], user: 'kiosk' })
    const read = readMail(mail!.raw)
    expect(read.subject).toBe('Amélie Visitor has arrived')
    expect(read.headers['message-id']).toBe(`<${queued!.id}@host-notices.identity-kiosk.invalid>`)
    expect(read.headers['content-type']).toMatch(/^text\/plain/)
    expect(read.text).toBe(
      ['Hello Grace Host,', '', 'Amélie Visitor has arrived at the front desk to see you.', '', 'Purpose: Interview', `Arrived: ${notice.arrivedAt}`, 'Kiosk: front-desk-1', '', 'Identity Kiosk', ''].join('\n'),
    )
    expect(await stateOf(k, queued!.id)).toMatchObject({ attempts: 1, lastError: null })
  })

  it('tries again after the SMTP server refuses the first attempt for now (451)', async () => {
    const { smtp } = await servers({ answers: [451] })
    const k = await kiosk()
    await k.feature.handlers.saveHostNoticeSettings!({ smtp: smtpAt(smtp.port) }, admin)
    await k.feature.start()
    const [queued] = (await arrive(k)).queued
    await eventually('the e-mail delivered on a retry', async () => (await stateOf(k, queued!.id))?.state === 'delivered')
    expect(smtp.refused).toBe(1)
    expect(smtp.mails).toHaveLength(1)
    expect((await stateOf(k, queued!.id))!.attempts).toBe(2)
  })

  it('stops at a permanent refusal (SMTP 5xx), shows it to staff as needing attention, and sends it again only when staff retry it', async () => {
    const { smtp } = await servers({ answers: [550] })
    const k = await kiosk()
    await k.feature.handlers.saveHostNoticeSettings!({ smtp: smtpAt(smtp.port) }, admin)
    await k.feature.start()
    const [queued] = (await arrive(k)).queued
    await eventually('the notice needs attention', async () => (await stateOf(k, queued!.id))?.state === 'needs-attention')
    // Well past several backoffs (20-200 ms): still one attempt.
    await new Promise((resolve) => setTimeout(resolve, 600))
    const queue = await k.feature.handlers.getHostNotices!({}, admin)
    expect(queue.counts).toMatchObject({ needsAttention: 1, queued: 0, delivered: 0 })
    expect(queue.items[0]).toMatchObject({ id: queued!.id, state: 'needs-attention', attempts: 1, lastError: { code: 'REJECTED' } })
    expect(queue.items[0]!.lastError!.message).toMatch(/refused the e-mail/)
    expect(smtp.mails).toHaveLength(0)

    expect(await k.feature.handlers.retryHostNotice!({ id: queued!.id }, admin)).toMatchObject({ state: 'queued', attempts: 0 })
    await eventually('delivered after the retry', async () => (await stateOf(k, queued!.id))?.state === 'delivered')
    expect(smtp.mails).toHaveLength(1)
    // A delivered notice is never sent again, whoever asks.
    const again = await rejection(k.feature.handlers.retryHostNotice!({ id: queued!.id }, admin))
    expect(again.code).toBe('INVALID_INPUT')
    expect((await rejection(k.feature.handlers.retryHostNotice!({ id: randomUUID() }, admin))).code).toBe('NOT_FOUND')
  })

  it('a refused SMTP login is a permanent failure naming the login, without the password', async () => {
    const password = `right-${randomBytes(6).toString('hex')}`
    const wrong = `wrong-${randomBytes(6).toString('hex')}`
    const { smtp } = await servers({ login: { user: 'kiosk', password } })
    const k = await kiosk()
    await k.feature.handlers.saveHostNoticeSettings!({ smtp: smtpAt(smtp.port, 'kiosk') }, admin)
    await k.feature.handlers.setHostNoticeSecrets!({ smtpPassword: wrong }, admin)
    await k.feature.start()
    const [queued] = (await arrive(k)).queued
    await eventually('the notice needs attention', async () => (await stateOf(k, queued!.id))?.state === 'needs-attention')
    const failed = (await stateOf(k, queued!.id))!
    expect(failed.lastError!.message).toMatch(/refused the login/)
    expect(JSON.stringify(failed)).not.toContain(wrong)
    expect(k.lines.join('\n')).not.toContain(wrong)
  })

  it('parks a notice at once while e-mail is not set up (shown to staff, not retried), promises nothing at check-in, and sends it once an administrator sets e-mail up', async () => {
    const { smtp } = await servers()
    const k = await kiosk()
    await k.feature.start()
    const arrival = await arrive(k)
    expect(arrival.hostNotified).toBe(false)
    const [queued] = arrival.queued
    await eventually('the notice needs attention', async () => (await stateOf(k, queued!.id))?.state === 'needs-attention')
    // Well past several backoffs (20-200 ms): a configuration error is not tried again on its own.
    await new Promise((resolve) => setTimeout(resolve, 600))
    const queue = await k.feature.handlers.getHostNotices!({}, admin)
    expect(queue.counts).toMatchObject({ needsAttention: 1, queued: 0, delivered: 0 })
    expect(queue.items[0]).toMatchObject({ id: queued!.id, state: 'needs-attention', attempts: 1, lastError: { code: 'NOT_CONFIGURED' } })
    expect(queue.items[0]!.lastError!.message).toMatch(/E-mail is not set up/)

    // Setting e-mail up sends what was parked for the want of it.
    await k.feature.handlers.saveHostNoticeSettings!({ smtp: smtpAt(smtp.port) }, admin)
    await eventually('delivered once set up', async () => (await stateOf(k, queued!.id))?.state === 'delivered')
    expect(smtp.mails).toHaveLength(1)
    expect((await arrive(k, 'Bea Later')).hostNotified).toBe(true)
  })

  it('promises the host only on a channel that can be sent on: an SMTP login needs its password, a webhook its signing secret', async () => {
    const { smtp, receiver } = await servers({ login: { user: 'kiosk', password: 'smtp-password-1' } })
    const k = await kiosk()
    await k.feature.handlers.saveHostNoticeSettings!({ smtp: smtpAt(smtp.port, 'kiosk') }, admin)
    await k.feature.start()
    const noPassword = await arrive(k, 'Amélie Visitor')
    expect(noPassword.hostNotified).toBe(false)
    await eventually('parked for the password', async () => (await stateOf(k, noPassword.queued[0]!.id))?.lastError?.code === 'NOT_CONFIGURED')
    expect((await stateOf(k, noPassword.queued[0]!.id))!.state).toBe('needs-attention')
    const webhookOnly = await arrive(k, 'Bea Hooked', { email: null, webhookUrl: receiver.url })
    expect(webhookOnly.hostNotified).toBe(false)
    await eventually('parked for the secret', async () => (await stateOf(k, webhookOnly.queued[0]!.id))?.state === 'needs-attention')

    // Storing the secrets sends both, and later arrivals are promised.
    await k.feature.handlers.setHostNoticeSecrets!({ smtpPassword: 'smtp-password-1', webhookSecret: `whsec-${randomBytes(18).toString('hex')}` }, admin)
    await eventually('both delivered', async () => (await stateOf(k, noPassword.queued[0]!.id))?.state === 'delivered' && (await stateOf(k, webhookOnly.queued[0]!.id))?.state === 'delivered')
    expect(smtp.mails).toHaveLength(1)
    expect(receiver.posts).toHaveLength(1)
    expect((await arrive(k, 'Cleo Mailed')).hostNotified).toBe(true)
    expect((await arrive(k, 'Dora Hooked', { email: null, webhookUrl: receiver.url })).hostNotified).toBe(true)
  })

  it('POSTs one signed webhook per arrival: the signature verifies, the timestamp is fresh, a repeat queueing sends nothing', async () => {
    const secret = `whsec-${randomBytes(18).toString('base64url')}`
    const { receiver } = await servers()
    const k = await kiosk()
    await k.feature.handlers.setHostNoticeSecrets!({ webhookSecret: secret }, admin)
    await k.feature.start()
    const { notice, queued: created } = await arrive(k, 'Amélie Visitor', { email: null, webhookUrl: receiver.url })
    expect(created.map((n) => n.channel)).toEqual(['webhook'])
    expect(await addArrival(k.desk.database, notice, Date.now())).toEqual([])
    await eventually('the webhook delivered', async () => (await stateOf(k, created[0]!.id))?.state === 'delivered')
    await passNow(k)
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(receiver.posts).toHaveLength(1)

    const [post] = receiver.posts
    const headers = { timestamp: post!.headers[WEBHOOK_HEADERS.timestamp] as string, signature: post!.headers[WEBHOOK_HEADERS.signature] as string, delivery: post!.headers[WEBHOOK_HEADERS.delivery] as string }
    expect(post!.headers['content-type']).toBe('application/json')
    expect(post!.headers[WEBHOOK_HEADERS.delivery]).toBe(created[0]!.id)
    expect(checkWebhook(secret, headers, post!.body)).toBeNull()
    expect(Math.abs(Date.now() / 1000 - Number(headers.timestamp))).toBeLessThan(60)
    expect(JSON.parse(post!.body)).toEqual({
      type: 'visitor.arrived',
      id: created[0]!.id,
      visitId: notice.visitId,
      host: { id: notice.host.id, name: 'Grace Host' },
      visitor: { name: 'Amélie Visitor' },
      purpose: 'Interview',
      arrivedAt: notice.arrivedAt,
      kioskId: 'front-desk-1',
    })
    // What a receiver refuses: another secret, an altered body, the same request replayed 6 minutes later.
    expect(checkWebhook('another-secret-entirely', headers, post!.body)).toBe('bad-signature')
    expect(checkWebhook(secret, headers, post!.body.replace('Interview', 'Audit'))).toBe('bad-signature')
    expect(checkWebhook(secret, headers, post!.body, Number(headers.timestamp) + 6 * 60)).toBe('stale')
    expect(checkWebhook(secret, { ...headers, timestamp: undefined }, post!.body)).toBe('unsigned')
    // The delivery id is signed: the same request passed off as another delivery (past a receiver's repeat check) is refused.
    expect(checkWebhook(secret, { ...headers, delivery: 'another-delivery-id' }, post!.body)).toBe('bad-signature')
    expect(checkWebhook(secret, { ...headers, delivery: undefined }, post!.body)).toBe('unsigned')
  })

  it('retries a webhook answered 503 or 429, and parks one answered 400 for staff to see', async () => {
    const { receiver } = await servers({}, [503, 429])
    const k = await kiosk()
    await k.feature.handlers.setHostNoticeSecrets!({ webhookSecret: `whsec-${randomBytes(18).toString('hex')}` }, admin)
    await k.feature.start()
    const [retried] = (await arrive(k, 'Amélie Visitor', { email: null, webhookUrl: receiver.url })).queued
    await eventually('delivered on the third attempt', async () => (await stateOf(k, retried!.id))?.state === 'delivered')
    expect((await stateOf(k, retried!.id))!.attempts).toBe(3)
    expect(receiver.posts).toHaveLength(3)

    receiver.answer([400])
    const [refused] = (await arrive(k, 'Amélie Visitor', { email: null, webhookUrl: receiver.url })).queued
    await eventually('needs attention', async () => (await stateOf(k, refused!.id))?.state === 'needs-attention')
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(receiver.posts).toHaveLength(4)
    expect((await stateOf(k, refused!.id))!.lastError).toMatchObject({ code: 'REJECTED', message: expect.stringMatching(/HTTP 400/) })
  })

  it('after a restart, delivers what was pending and never repeats what was delivered', async () => {
    const { smtp, receiver } = await servers()
    const secret = `whsec-${randomBytes(18).toString('hex')}`
    const first = await kiosk()
    await first.feature.handlers.saveHostNoticeSettings!({ smtp: smtpAt(smtp.port) }, admin)
    await first.feature.handlers.setHostNoticeSecrets!({ webhookSecret: secret }, admin)
    await first.feature.start()
    const delivered = (await arrive(first, 'Amélie Visitor', { webhookUrl: receiver.url })).queued
    expect(delivered).toHaveLength(2)
    await eventually('both channels delivered', async () => (await list(first)).filter((n) => delivered.some((d) => d.id === n.id)).every((n) => n.state === 'delivered'))
    // Pending when the kiosk stops: the receiver answers 503 and the SMTP server 421 until told
    // otherwise, so both wait to be retried. (Ten such answers last about a second of 20–200 ms
    // backoffs: on a busy machine one notice could be delivered before the wait below saw both waiting.)
    receiver.answer(Array<number>(1000).fill(503))
    smtp.answer(Array<number>(1000).fill(421))
    const pending = (await arrive(first, 'Bea Pending', { webhookUrl: receiver.url })).queued
    await eventually('both tried and waiting', async () => {
      const now = (await list(first)).filter((n) => pending.some((p) => p.id === n.id))
      return now.every((n) => n.attempts >= 1 && n.state === 'queued')
    })
    await first.close()

    receiver.answer([])
    smtp.answer([])
    const mailsBefore = smtp.mails.length
    const postsBefore = receiver.posts.length
    const second = await kiosk(first.dataDir, first.keychain)
    await second.feature.start()
    await eventually('everything delivered after the restart', async () => (await list(second)).filter((n) => pending.some((p) => p.id === n.id)).every((n) => n.state === 'delivered'))
    await passNow(second)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(smtp.mails.length - mailsBefore).toBe(1)
    const newPosts = receiver.posts.slice(postsBefore).map((p) => p.headers[WEBHOOK_HEADERS.delivery])
    expect(newPosts).toEqual([pending.find((n) => n.channel === 'webhook')!.id])
    // The notices delivered before the restart were not sent again.
    const allDeliveries = receiver.posts.filter((p) => p.headers[WEBHOOK_HEADERS.delivery] === delivered.find((n) => n.channel === 'webhook')!.id)
    expect(allDeliveries).toHaveLength(1)
    expect(smtp.mails.filter((m) => m.raw.includes(delivered.find((n) => n.channel === 'email')!.id))).toHaveLength(1)
  })

  it('a notice in flight when its kiosk process is killed (SIGKILL) is sent again by the next one, with the same delivery id, then never again', async () => {
    // The first POST hangs: the child is killed while it waits for the answer.
    const { receiver } = await servers({}, [0])
    const service = `identity-kiosk-test-${randomBytes(4).toString('hex')}`
    const keychain = createKeychain(service)
    await keychain.set(credentialAccounts.webhookSecret, `whsec-${randomBytes(18).toString('hex')}`)
    const parent = mkdtempSync(join(tmpdir(), 'kiosk-notices-'))
    cleanup.push(() => rmSync(parent, { recursive: true, force: true }))
    const dataDir = join(parent, 'data')

    const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/notice-child.ts', dataDir, service, receiver.url], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] })
    cleanup.push(() => void child.kill('SIGKILL'))
    const guard = setTimeout(() => child.kill('SIGKILL'), 20_000)
    const stderr: string[] = []
    createInterface({ input: child.stderr! }).on('line', (line) => stderr.push(line))
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)))
    let id = ''
    createInterface({ input: child.stdout! }).on('line', (line) => (id = /^queued (\S+)$/.exec(line)?.[1] ?? id))
    await eventually(`the POST in flight (child stderr: ${stderr.join(' | ')})`, async () => receiver.posts.length === 1)
    child.kill('SIGKILL')
    expect(await exited).toBe('SIGKILL')
    clearTimeout(guard)
    expect(receiver.posts[0]!.headers[WEBHOOK_HEADERS.delivery]).toBe(id)

    // Its row was left in flight, claimed by a process that is gone: the next kiosk takes it over as it starts.
    const next = await kiosk(dataDir, keychain)
    expect(await stateOf(next, id)).toMatchObject({ state: 'in-flight', attempts: 1 })
    await next.feature.start()
    await eventually('delivered by the next kiosk', async () => (await stateOf(next, id))?.state === 'delivered')
    expect(receiver.posts.map((p) => p.headers[WEBHOOK_HEADERS.delivery])).toEqual([id, id])
    await next.close()

    const third = await kiosk(dataDir, keychain)
    await third.feature.start()
    await passNow(third)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(receiver.posts).toHaveLength(2)
  })

  it('gives up an attempt on a server that never answers (bounded timeouts) and tries it again later', async () => {
    const silent = await startSilentServer()
    cleanup.push(() => silent.close())
    const { receiver } = await servers({}, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    const k = await kiosk(undefined, undefined, { channelTimeoutMs: 300 })
    await k.feature.handlers.saveHostNoticeSettings!({ smtp: smtpAt(silent.port) }, admin)
    await k.feature.handlers.setHostNoticeSecrets!({ webhookSecret: `whsec-${randomBytes(18).toString('hex')}` }, admin)
    await k.feature.start()
    const notices = (await arrive(k, 'Amélie Visitor', { webhookUrl: receiver.url })).queued
    const ours = async () => (await list(k)).filter((n) => notices.some((q) => q.id === n.id))
    await eventually('both timed out and waiting', async () => (await ours()).every((n) => n.lastError?.code === 'TIMEOUT' && n.state !== 'needs-attention'))
    await eventually('both tried again', async () => (await ours()).every((n) => n.attempts >= 2))
  })

  it('parks, without sending, a webhook address that is plain http to another machine', async () => {
    const k = await kiosk()
    await k.feature.handlers.setHostNoticeSecrets!({ webhookSecret: `whsec-${randomBytes(18).toString('hex')}` }, admin)
    await k.feature.start()
    const [notice] = (await arrive(k, 'Amélie Visitor', { email: null, webhookUrl: 'http://hooks.example.com/arrivals' })).queued
    await eventually('needs attention', async () => (await stateOf(k, notice!.id))?.state === 'needs-attention')
    expect(await stateOf(k, notice!.id)).toMatchObject({ attempts: 1, lastError: { code: 'INVALID_INPUT', message: expect.stringMatching(/https/) } })
  })

  it('keeps no secret in the rows, the file or the logs, drops a delivered notice’s arrival, and forgets the visitor with their visits', async () => {
    const password = `smtp-${randomBytes(12).toString('hex')}`
    const secret = `whsec-${randomBytes(18).toString('hex')}`
    const { smtp, receiver } = await servers({ login: { user: 'kiosk', password } })
    const k = await kiosk()
    await k.feature.handlers.saveHostNoticeSettings!({ smtp: smtpAt(smtp.port, 'kiosk') }, admin)
    await k.feature.handlers.setHostNoticeSecrets!({ smtpPassword: password, webhookSecret: secret }, admin)
    expect(await k.feature.handlers.getHostNoticeSettings!({}, admin)).toEqual({ smtp: smtpAt(smtp.port, 'kiosk'), secrets: { smtpPassword: true, webhookSecret: true } })
    await k.feature.start()
    const sent = (await arrive(k, 'Amélie Visitor', { webhookUrl: receiver.url })).queued
    await eventually('delivered', async () => (await list(k)).filter((n) => sent.some((s) => s.id === n.id)).every((n) => n.state === 'delivered'))
    receiver.answer([])
    smtp.answer([421, 421, 421, 421, 421, 421, 421, 421, 421, 421, 421, 421, 421, 421, 421])
    const waiting = await arrive(k, 'Zygmunt Waiting', { webhookUrl: 'https://hooks.invalid/arrivals' })
    await eventually('tried once', async () => (await list(k)).filter((n) => n.visitId === waiting.notice.visitId).every((n) => n.attempts >= 1))
    await k.close()

    const file = join(k.dataDir, FRONTDESK_FILE)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(statSync(k.dataDir).mode & 0o777).toBe(0o700)
    const bytes = [file, `${file}-wal`].filter(existsSync).map((f) => readFileSync(f).toString('latin1')).join('')
    expect(bytes).not.toContain(password)
    expect(bytes).not.toContain(secret)
    const logs = k.lines.join('\n')
    for (const secretOrName of [password, secret, 'Amélie', 'Zygmunt', 'grace@example.com']) expect(logs).not.toContain(secretOrName)

    // Delivered notices keep no arrival; pending ones do, until delivered or forgotten.
    const again = await kiosk(k.dataDir, k.keychain)
    const payloads = await again.desk.database.all<{ subject: string; state: string; payload: Buffer | null }>("SELECT subject, state, payload FROM jobs WHERE kind = 'host-notice' ORDER BY seq")
    expect(payloads.filter((p) => p.state === 'delivered').map((p) => p.payload)).toEqual([null, null])
    expect(payloads.filter((p) => p.subject === waiting.notice.visitId).every((p) => p.payload?.includes(Buffer.from('Zygmunt Waiting')))).toBe(true)
    // The visitor removed: their visit and its notices go in one transaction, and leave no trace in the file.
    const person = (await again.desk.frontDesk.onSite()).find((v) => v.id === waiting.notice.visitId)!.personUuid
    expect(await again.desk.frontDesk.forgetPerson({ personUuid: person })).toMatchObject({ visitIds: [waiting.notice.visitId] })
    expect((await list(again)).filter((n) => n.visitId === waiting.notice.visitId)).toEqual([])
    await again.close()
    const after = [file, `${file}-wal`].filter(existsSync).map((f) => readFileSync(f)).reduce((a, b) => Buffer.concat([a, b]), Buffer.alloc(0))
    expect(after.includes(Buffer.from('Zygmunt Waiting'))).toBe(false)
  })

  it('audits the staff acts: the SMTP settings, which secrets were stored or cleared (never their values), a retry', async () => {
    const { smtp } = await servers({ answers: [550] })
    const k = await kiosk()
    const audit = openAuditLog({ dir: k.dataDir, kioskId: 'front-desk-1' })
    cleanup.push(() => audit.close())
    const handlers = auditedHandlers(k.feature.handlers as Handlers, () => audit, () => {})
    const password = `smtp-${randomBytes(9).toString('hex')}`
    await handlers.saveHostNoticeSettings({ smtp: smtpAt(smtp.port) }, admin)
    await handlers.setHostNoticeSecrets({ smtpPassword: password, webhookSecret: null }, admin)
    await k.feature.start()
    const [notice] = (await arrive(k)).queued
    await eventually('needs attention', async () => (await stateOf(k, notice!.id))?.state === 'needs-attention')
    await handlers.retryHostNotice({ id: notice!.id }, admin)

    const entries = audit.query({ limit: 100 }).filter((e) => e.outcome === 'ok').reverse()
    expect(entries.map((e) => [e.action, e.role, e.account, e.detail])).toEqual([
      ['settings-change', 'admin', 'Ada Admin', `host notifications: SMTP 127.0.0.1:${smtp.port} (none)`],
      ['credentials-change', 'admin', 'Ada Admin', 'smtpPassword stored, webhookSecret cleared'],
      ['host-notice-retry', 'admin', 'Ada Admin', `host notice ${notice!.id}`],
    ])
    expect(audit.exportJson({})).not.toContain(password)
  })

  it('refuses bad input plainly: settings that are not SMTP settings, a short signing secret; a host with no address is told nothing', async () => {
    const k = await kiosk()
    // A host with neither an e-mail nor a webhook: nothing to send, nothing queued.
    expect((await arrive(k, 'Amélie Visitor', { email: null, webhookUrl: null })).queued).toEqual([])
    expect(await list(k)).toEqual([])
    const { contract } = await import('../../electron/shared/contract')
    expect(contract.saveHostNoticeSettings.input.safeParse({ smtp: { ...smtpAt(25), host: 'smtp.example.com\r\nRCPT TO:<x@y.z>' } }).success).toBe(false)
    expect(contract.saveHostNoticeSettings.input.safeParse({ smtp: { ...smtpAt(25), port: 70_000 } }).success).toBe(false)
    // A password over a plain connection crosses the network in clear: only to this machine.
    const plain = contract.saveHostNoticeSettings.input.safeParse({ smtp: { ...smtpAt(25, 'kiosk'), host: 'smtp.example.com' } })
    expect(plain.error?.issues[0]).toMatchObject({ path: ['smtp', 'security'], message: expect.stringMatching(/TLS or STARTTLS/) })
    expect(contract.saveHostNoticeSettings.input.safeParse({ smtp: smtpAt(25, 'kiosk') }).success).toBe(true)
    expect(contract.saveHostNoticeSettings.input.safeParse({ smtp: { ...smtpAt(25), host: 'smtp.example.com' } }).success).toBe(true)
    expect(contract.setHostNoticeSecrets.input.safeParse({ webhookSecret: 'short' }).success).toBe(false)
    expect(contract.setHostNoticeSecrets.input.safeParse({ webhookSecret: null }).success).toBe(true)
  })
})

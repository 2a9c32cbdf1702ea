import { KioskError } from '../../shared/errors'
import type { HostNotice, HostNoticeQueue, NoticeChannel, SmtpSettings } from '../../shared/host-notices'
import { arrivalNoticeSchema, type ArrivalNotice } from '../../shared/visits'
import { OutboxLease, processAlive } from '../outbox/lease'
import { openHostNoticesDatabase } from './database'
import { sendEmail } from '../../records/frontdesk/notices/email'
import { DeliveryFailure, describeFailure } from '../../records/frontdesk/notices/failure'
import type { NoticeSecrets } from './secrets'
import { DEFAULT_NOTICE_TIMING, NoticeSender, type NoticeTiming, type SendFn } from './sender'
import { NoticeStore } from './store'
import { sendWebhook } from '../../records/frontdesk/notices/webhook'

export { checkWebhook, signWebhook, WEBHOOK_HEADERS, WEBHOOK_TOLERANCE_SECONDS } from '../../records/frontdesk/notices/signature'
export { DEFAULT_NOTICE_TIMING, type NoticeTiming } from './sender'

export interface HostNoticesOptions {
  /** The kiosk's data folder; the queue is `<dir>/host-notices.db`. */
  dir: string
  secrets: NoticeSecrets
  timing?: Partial<NoticeTiming>
  now?: () => number
  random?: () => number
  /** Lines carry ids, channels and codes: never a name, an address or a secret. */
  log?: (line: string) => void
}

export interface HostNotices {
  /**
   * Queues the arrival on each channel its host has (e-mail, webhook), once: an arrival enqueued
   * again is recognised by its visit and channel. Durable when it returns. Returns the notices
   * created (none when the host has no address, or the arrival was already queued).
   */
  enqueue(notice: ArrivalNotice): HostNotice[]
  /** Removes every notice of these visits (the visitor was removed). */
  forgetVisits(visitIds: readonly string[]): number
  state(): HostNoticeQueue
  list(): HostNotice[]
  /** A failed or waiting notice tried again now; NOT_FOUND / INVALID_INPUT (in flight or delivered) otherwise. */
  retry(id: string): HostNotice
  smtp(): SmtpSettings | null
  /** Saves the SMTP settings; notices waiting for them are due at once. */
  setSmtp(smtp: SmtpSettings | null): void
  /** The secrets changed: notices waiting for them are due at once. */
  secretsChanged(): void
  start(): void
  /** Stops the sender (a send in progress is queued again) and closes the file. */
  close(): Promise<void>
  /** Resolves once nothing is due. */
  idle(): Promise<void>
}

/** Opens the host notices' queue (see README.md here). The sender starts with start(). */
export function openHostNotices(options: HostNoticesOptions): HostNotices {
  const timing = { ...DEFAULT_NOTICE_TIMING, ...options.timing }
  const now = options.now ?? Date.now
  const log = options.log ?? (() => {})
  const db = openHostNoticesDatabase(options.dir)
  const store = new NoticeStore(db)
  const lease = new OutboxLease(db)
  // A sender that died mid-send (no live lease holder) left rows in flight: they are queued again.
  const reset = lease.resetStale(now(), processAlive)
  if (reset > 0) log(`host notices: ${reset} notice(s) in flight at the last stop queued again`)

  const send: SendFn = async (claimed, signal) => {
    const { notice } = claimed
    const used: Array<string | null> = []
    try {
      if (claimed.channel === 'email') {
        const smtp = store.smtp()
        if (!smtp) throw new DeliveryFailure('NOT_CONFIGURED', 'E-mail is not set up: an administrator enters the SMTP server in Settings, Host notifications.', false)
        if (!notice.host.email) throw new DeliveryFailure('INVALID_INPUT', 'The host has no e-mail address.', true)
        const password = smtp.user ? await options.secrets.smtpPassword() : null
        if (smtp.user && password === null) throw new DeliveryFailure('NOT_CONFIGURED', 'The SMTP password is not stored: an administrator enters it in Settings, Host notifications.', false)
        used.push(password)
        await sendEmail(smtp, password, notice.host.email, claimed.id, notice, signal, timing.channelTimeoutMs)
      } else {
        if (!notice.host.webhookUrl) throw new DeliveryFailure('INVALID_INPUT', 'The host has no webhook address.', true)
        const secret = await options.secrets.webhookSecret()
        if (secret === null) throw new DeliveryFailure('NOT_CONFIGURED', 'The webhook signing secret is not stored: an administrator enters it in Settings, Host notifications.', false)
        used.push(secret)
        await sendWebhook(notice.host.webhookUrl, secret, claimed.id, notice, signal, now, timing.channelTimeoutMs)
      }
    } catch (error) {
      if (signal.aborted) throw error
      const { error: failure, permanent } = describeFailure(error, used)
      throw new DeliveryFailure(failure.code, failure.message, permanent)
    }
  }

  const sender = new NoticeSender({ store, lease, send, timing, now, random: options.random ?? Math.random, log })
  let closed = false
  const open = () => {
    if (closed) throw new KioskError('INTERNAL', 'The host notices are closed.')
  }
  const waitingForSettings = () => {
    if (store.makeDue(now(), ['NOT_CONFIGURED', 'KEYCHAIN_LOCKED', 'KEYCHAIN_UNAVAILABLE']) > 0) sender.wakeUp()
  }

  return {
    enqueue(input) {
      open()
      const parsed = arrivalNoticeSchema.safeParse(input)
      if (!parsed.success) throw new KioskError('INVALID_INPUT', 'The arrival notice is not complete; no host was told.')
      const notice = parsed.data
      const channels: NoticeChannel[] = []
      if (notice.host.email) channels.push('email')
      if (notice.host.webhookUrl) channels.push('webhook')
      const created = store.insert(notice, channels, now())
      if (created.length > 0) {
        log(`host notices: ${created.map((n) => `${n.id} (${n.channel})`).join(', ')} queued for visit ${notice.visitId}`)
        sender.wakeUp()
      }
      return created
    },
    forgetVisits(visitIds) {
      open()
      return store.forgetVisits(visitIds)
    },
    state() {
      open()
      return { running: sender.isRunning, counts: store.counts(), ...store.summary() }
    },
    list: () => store.list(),
    retry(id) {
      open()
      const result = store.retry(id, now())
      if (result === null) throw new KioskError('NOT_FOUND', 'There is no such host notice (it may have been removed).')
      if (result === 'busy') throw new KioskError('INVALID_INPUT', 'That notice is being sent or was already delivered; it is not sent again.')
      sender.wakeUp()
      return result
    },
    smtp: () => store.smtp(),
    setSmtp(smtp) {
      open()
      store.setSmtp(smtp)
      waitingForSettings()
    },
    secretsChanged: waitingForSettings,
    start() {
      open()
      sender.start()
    },
    async close() {
      if (closed) return
      closed = true
      await sender.stop()
      db.close()
    },
    idle: () => sender.idle(),
  }
}

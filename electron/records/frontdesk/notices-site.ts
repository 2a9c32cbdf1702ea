import { KioskError } from '../../shared/errors'
import { smtpSettingsSchema, type HostNotice, type HostNoticeQueue, type NotificationSecretStatus, type NotificationSecretsInput, type NotificationSettings, type SmtpSettings } from '../../shared/host-notices'
import type { Database } from '../sql/types'
import { HostNoticeRepository, type NoticeSettingsRow } from './host-notices-repository'
import { sendEmail } from './notices/email'
import { DeliveryFailure, describeFailure } from './notices/failure'
import { sendWebhook } from './notices/webhook'
import { DEFAULT_SITE_NOTICE_TIMING, noticeSender, type SendNotice, type SiteNoticeTiming } from './notices-sender'

/** How the site's notice secrets are kept in its database: the engine's template sealer (AES-256-GCM under the key every engine of the site shares). */
export interface NoticeSealer {
  seal(plain: Uint8Array): Buffer
  open(sealed: Uint8Array): Buffer
}

export interface SiteHostNoticesOptions {
  sealer: NoticeSealer
  timing?: Partial<SiteNoticeTiming>
  now?: () => number
  random?: () => number
  log?: (line: string) => void
}

/** The site's host notices as its engine serves them: staff's views and settings, and this engine's sender. */
export interface SiteHostNotices {
  queue(): Promise<HostNoticeQueue>
  /** A failed or waiting notice tried again now; NOT_FOUND / INVALID_INPUT (in flight or delivered) otherwise. */
  retry(id: string): Promise<HostNotice>
  settings(): Promise<NotificationSettings>
  /** Notices waiting for the settings are due at once. */
  saveSettings(smtp: SmtpSettings | null): Promise<NotificationSettings>
  /** Stores (sealed) the secrets given, clears those given as null; the values are never given back. */
  setSecrets(input: NotificationSecretsInput): Promise<NotificationSecretStatus>
  /** This engine queued notices (a check-in): its sender looks now rather than at its next poll. */
  wake(): void
  start(): void
  stop(): Promise<void>
}

/** The failures that wait for an administrator (e-mail not set up, a secret not stored): due again once they act. */
const WAITING_FOR_SETTINGS = ['NOT_CONFIGURED'] as const

/**
 * The site tells hosts of arrivals: the notices the check-in queued (visits-rules.ts, in its
 * transaction) are sent by every engine's sender, each notice by one engine at a time, with the
 * SMTP settings and the secrets the site keeps (sealed) in notice_settings. The channels are the
 * kiosk's own (notices/email.ts, notices/webhook.ts): the same e-mail, the same signed webhook.
 */
export function siteHostNotices(db: Database, options: SiteHostNoticesOptions): SiteHostNotices {
  const timing = { ...DEFAULT_SITE_NOTICE_TIMING, ...options.timing }
  const now = options.now ?? Date.now
  const log = options.log ?? (() => {})
  const records = new HostNoticeRepository(db)

  const smtpOf = (row: NoticeSettingsRow | null): SmtpSettings | null => {
    if (!row?.smtp) return null
    try {
      const parsed = smtpSettingsSchema.safeParse(JSON.parse(row.smtp))
      return parsed.success ? parsed.data : null
    } catch {
      return null
    }
  }
  const opened = (sealed: Buffer | null, what: string): string | null => {
    if (sealed === null) return null
    try {
      return options.sealer.open(sealed).toString('utf8')
    } catch {
      throw new DeliveryFailure('NOT_CONFIGURED', `The ${what} cannot be read by this engine (its template key is not the site's): an administrator enters it again in Settings, Host notifications.`, false)
    }
  }
  const statusOf = (row: NoticeSettingsRow | null): NotificationSecretStatus => ({ smtpPassword: (row?.smtp_password ?? null) !== null, webhookSecret: (row?.webhook_secret ?? null) !== null })

  const send: SendNotice = async (claimed, signal) => {
    const { notice } = claimed
    const used: Array<string | null> = []
    try {
      const row = await records.settings()
      if (claimed.channel === 'email') {
        const smtp = smtpOf(row)
        if (!smtp) throw new DeliveryFailure('NOT_CONFIGURED', 'E-mail is not set up: an administrator enters the SMTP server in Settings, Host notifications.', false)
        if (!notice.host.email) throw new DeliveryFailure('INVALID_INPUT', 'The host has no e-mail address.', true)
        const password = smtp.user ? opened(row?.smtp_password ?? null, 'SMTP password') : null
        if (smtp.user && password === null) throw new DeliveryFailure('NOT_CONFIGURED', 'The SMTP password is not stored: an administrator enters it in Settings, Host notifications.', false)
        used.push(password)
        await sendEmail(smtp, password, notice.host.email, claimed.id, notice, signal, timing.channelTimeoutMs)
      } else {
        if (!notice.host.webhookUrl) throw new DeliveryFailure('INVALID_INPUT', 'The host has no webhook address.', true)
        const secret = opened(row?.webhook_secret ?? null, 'webhook signing secret')
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

  const sender = noticeSender(db, { send, timing, now, log, ...(options.random ? { random: options.random } : {}) })
  const settingsChanged = async () => {
    if ((await records.makeDue(now(), WAITING_FOR_SETTINGS)) > 0) sender.wake()
  }
  const settings = async (): Promise<NotificationSettings> => {
    const row = await records.settings()
    return { smtp: smtpOf(row), secrets: statusOf(row) }
  }
  const sealed = (value: string | null | undefined): Buffer | null | undefined => (value === undefined || value === null ? value : options.sealer.seal(Buffer.from(value, 'utf8')))

  return {
    async queue() {
      const [counts, summary] = await Promise.all([records.counts(), records.summary()])
      return { running: sender.running, counts, ...summary }
    },
    async retry(id) {
      const result = await records.retry(id, now())
      if (result === null) throw new KioskError('NOT_FOUND', 'There is no such host notice (it may have been removed).')
      if (result === 'busy') throw new KioskError('INVALID_INPUT', 'That notice is being sent or was already delivered; it is not sent again.')
      sender.wake()
      return result
    },
    settings,
    async saveSettings(smtp) {
      await records.setSmtp(smtp === null ? null : JSON.stringify(smtp), now())
      await settingsChanged()
      return settings()
    },
    async setSecrets(input) {
      await records.setSecrets({ smtpPassword: sealed(input.smtpPassword), webhookSecret: sealed(input.webhookSecret) }, now())
      await settingsChanged()
      return statusOf(await records.settings())
    },
    wake: () => sender.wake(),
    start: () => sender.start(),
    stop: () => sender.stop(),
  }
}

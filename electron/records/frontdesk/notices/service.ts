import type { ErrorCode } from '../../../shared/errors'
import { KioskError } from '../../../shared/errors'
import type { HostNotice, HostNoticeQueue, HostNoticeSecretStatus, HostNoticeSecretsInput, HostNoticeSettings, SmtpSettings } from '../../../shared/host-notices'
import { arrivalNoticeSchema, type ArrivalNotice } from '../../../shared/visits'
import { DEFAULT_RUNNER_TIMING, JobRunner, type JobKind, type RunnerTiming } from '../../queue/job-runner'
import type { Database } from '../../sql/types'
import { sendEmail } from './email'
import { DeliveryFailure, describeFailure } from './failure'
import { channelOf, HOST_NOTICE_KIND, hostNoticeOf, NOTICE_KEEP_MS, NOTICE_MAX_AGE_MS, NOTICE_TOO_OLD, noticeJobs, pruneOrphanedNotices, requeueParked } from './notice-jobs'
import { NoticeSettingsRepository, type NoticeSecrets } from './settings'
import { sendWebhook } from './webhook'

export interface NoticeTiming extends RunnerTiming {
  /** Each channel's connect / greeting / headers / idle-socket limit: a silent server is tried again later, never waited on. */
  channelTimeoutMs: number
}

/** The runner's defaults, but a poll of a second: another engine's (or process's) check-in is told within one. */
export const DEFAULT_NOTICE_TIMING: NoticeTiming = { ...DEFAULT_RUNNER_TIMING, pollMs: 1_000, channelTimeoutMs: 15_000 }

export interface HostNoticesOptions {
  /** A site's: sealed in its database (sealedNoticeSecrets); a kiosk on its own: its keychain. */
  secrets: NoticeSecrets
  timing?: Partial<NoticeTiming>
  now?: () => number
  random?: () => number
  /** Lines carry ids, states and codes: never a name, an address or a secret. */
  log?: (line: string) => void
}

/** The host notices of one database (a site's, or a kiosk's own frontdesk.db): staff's views and settings, and this process's runner. */
export interface HostNoticesService {
  queue(): Promise<HostNoticeQueue>
  /** Every notice, in the order they were queued. */
  list(): Promise<HostNotice[]>
  /** A notice that needs attention, or is waiting, tried again now; NOT_FOUND / INVALID_INPUT (in flight or delivered) otherwise. */
  retry(id: string): Promise<HostNotice>
  settings(): Promise<HostNoticeSettings>
  /** Notices waiting for the settings are due at once. */
  saveSettings(smtp: SmtpSettings | null): Promise<HostNoticeSettings>
  /** Stores the secrets given, clears those given as null; the values are never given back. */
  setSecrets(input: HostNoticeSecretsInput): Promise<HostNoticeSecretStatus>
  /** Notices were queued here (a check-in): the runner looks now rather than at its next poll. */
  wake(): void
  /** Resolves once the runner is idle (nothing due); at once when it is not running. */
  passNow(): Promise<void>
  /** Notices left in flight by a process of this machine that is gone are queued again, then the runner starts. */
  start(): Promise<void>
  /** Stops the runner; a send in progress is queued again at once. */
  stop(): Promise<void>
}

/**
 * The failures an administrator's change to the settings or secrets may mend: e-mail not set up or
 * a secret not stored (parked for staff), a keychain locked or a sealed secret this engine cannot
 * open (still queued, tried again). Such notices are due again at once when they act.
 */
const WAITING_FOR_SETTINGS: readonly ErrorCode[] = ['NOT_CONFIGURED', 'KEYCHAIN_LOCKED', 'KEYCHAIN_UNAVAILABLE']

interface OpenedNotice {
  channel: 'email' | 'webhook'
  notice: ArrivalNotice
}

/**
 * Hosts told of arrivals, over the one delivery queue: the check-in queues the notices in its
 * transaction (visits-rules.ts, one job per channel), and every runner on the database (each
 * engine of a site; each process on a kiosk's data folder) sends them, each notice by one runner
 * at a time, its claim renewed while the send runs. The channels (email.ts, webhook.ts) are the
 * same everywhere; the SMTP settings are in notice_settings, the secrets where `secrets` keeps them.
 */
export function hostNoticesService(db: Database, options: HostNoticesOptions): HostNoticesService {
  const timing = { ...DEFAULT_NOTICE_TIMING, ...options.timing }
  const now = options.now ?? Date.now
  const log = options.log ?? (() => {})
  const jobs = noticeJobs(db)
  const settingsRows = new NoticeSettingsRepository(db)
  const { secrets } = options

  const kind: JobKind<OpenedNotice> = {
    kind: HOST_NOTICE_KIND,
    label: 'host notices',
    open(claimed) {
      const notice = arrivalNoticeSchema.parse(JSON.parse((claimed.payload ?? Buffer.alloc(0)).toString('utf8')))
      return { channel: channelOf(claimed.summary), notice }
    },
    unreadable: { code: 'INTERNAL', message: 'The stored notice is damaged and cannot be sent.' },
    async send({ channel, notice }, claimed, signal) {
      const used: Array<string | null> = []
      try {
        if (channel === 'email') {
          const smtp = await settingsRows.smtp()
          // Not set up: staff's to fix, so parked for them at once rather than tried again and again.
          if (!smtp) throw new DeliveryFailure('NOT_CONFIGURED', 'E-mail is not set up: an administrator enters the SMTP server in Settings, Host notifications.', true)
          if (!notice.host.email) throw new DeliveryFailure('INVALID_INPUT', 'The host has no e-mail address.', true)
          const password = smtp.user ? await secrets.smtpPassword() : null
          if (smtp.user && password === null) throw new DeliveryFailure('NOT_CONFIGURED', 'The SMTP password is not stored: an administrator enters it in Settings, Host notifications.', true)
          used.push(password)
          await sendEmail(smtp, password, notice.host.email, claimed.id, notice, signal, timing.channelTimeoutMs)
        } else {
          if (!notice.host.webhookUrl) throw new DeliveryFailure('INVALID_INPUT', 'The host has no webhook address.', true)
          const secret = await secrets.webhookSecret()
          if (secret === null) throw new DeliveryFailure('NOT_CONFIGURED', 'The webhook signing secret is not stored: an administrator enters it in Settings, Host notifications.', true)
          used.push(secret)
          await sendWebhook(notice.host.webhookUrl, secret, claimed.id, notice, signal, now, timing.channelTimeoutMs)
        }
      } catch (error) {
        if (signal.aborted) throw error
        // Any secret the channel used cut out of the message (a server may echo what it was sent).
        const { error: failure, permanent } = describeFailure(error, used)
        throw new DeliveryFailure(failure.code, failure.message, permanent)
      }
    },
    classify(error) {
      const { error: failure, permanent } = describeFailure(error, [])
      return permanent ? { action: 'park', error: failure } : { action: 'retry', error: failure }
    },
    timedOut: (ms) => ({ code: 'TIMEOUT', message: `Not sent within ${Math.round(ms / 1000)} s.` }),
    maxAge: { ms: NOTICE_MAX_AGE_MS, error: NOTICE_TOO_OLD },
    async prune(repository, at) {
      return (await repository.prune(at, { deliveredMaxAgeMs: NOTICE_KEEP_MS, parkedMaxAgeMs: NOTICE_KEEP_MS })) + (await pruneOrphanedNotices(db))
    },
  }
  const runner = new JobRunner({ db, kind, timing, now, random: options.random ?? Math.random, log })

  const settingsChanged = async () => {
    const due = (await jobs.makeDue(now(), WAITING_FOR_SETTINGS)) + (await requeueParked(db, now(), WAITING_FOR_SETTINGS))
    if (due > 0) runner.wake()
  }
  const settings = async (): Promise<HostNoticeSettings> => ({ smtp: await settingsRows.smtp(), secrets: await secrets.status() })

  return {
    async queue() {
      const [counts, summary] = await Promise.all([jobs.counts(), jobs.summary()])
      return { running: runner.isRunning, counts, items: summary.items.map(hostNoticeOf), truncated: summary.truncated }
    },
    list: async () => (await jobs.list()).map(hostNoticeOf),
    async retry(id) {
      const result = await jobs.retry(id, now(), true)
      if (result === null) throw new KioskError('NOT_FOUND', 'There is no such host notice (it may have been removed).')
      if (result === 'busy') throw new KioskError('INVALID_INPUT', 'That notice is being sent or was already delivered; it is not sent again.')
      runner.wake()
      return hostNoticeOf(result)
    },
    settings,
    async saveSettings(smtp) {
      await settingsRows.setSmtp(smtp, now())
      await settingsChanged()
      return settings()
    },
    async setSecrets(input) {
      const status = await secrets.set(input)
      await settingsChanged()
      return status
    },
    wake: () => runner.wake(),
    passNow: () => runner.passNow(),
    async start() {
      if (runner.isRunning) return
      const recovered = await runner.recoverDead()
      if (recovered > 0) log(`host notices: ${recovered} notice(s) in flight when their process stopped queued again`)
      runner.start()
    },
    stop: () => runner.stop(),
  }
}

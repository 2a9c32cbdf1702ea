import { KioskError } from '../../shared/errors'
import type { ArrivalNotice } from '../../shared/visits'
import type { HostNotice } from '../../shared/host-notices'
import { openHostNotices, type HostNotices, type NoticeTiming } from '../host-notices'
import { noticeSecrets } from '../host-notices/secrets'
import type { Keychain } from '../secrets/keychain'
import type { Feature } from './feature'

export interface HostNotificationsDeps {
  dataDir: string
  /** The kiosk's keychain: the SMTP password and the webhook signing secret live there. */
  keychain: Pick<Keychain, 'get' | 'set' | 'delete'>
  timing?: Partial<NoticeTiming>
  now?: () => number
  log: (line: string) => void
}

export interface HostNotificationsFeature extends Feature {
  /** Queues the host's notices for an arrival, once per channel; throws INVALID_INPUT for an incomplete notice. */
  enqueueArrival(notice: ArrivalNotice): HostNotice[]
  /**
   * The visits feature's hook: enqueueArrival that never throws. A check-in is not undone because
   * its host cannot be told; the failure is logged (visit id and code only) and answered false.
   * True when the arrival is in the queue (queued now or already).
   */
  onArrival(notice: ArrivalNotice): boolean
  /** The visits feature removes a visitor's visits: their notices go too. */
  forgetVisits(visitIds: readonly string[]): number
  /** The queue, opened on first use. */
  opened(): HostNotices
  /** Starts the sender. */
  start(): void
  /** Stops the sender (a send in progress is queued again) and closes the queue's file. */
  stop(): Promise<void>
}

/**
 * Hosts told of their visitors' arrivals (issue 31, item 4): a durable queue of its own, delivered
 * by one sender with backoff; staff see the queue and retry a failed notice, an administrator sets
 * the SMTP server and the secrets. The queue needs no key, so it opens without the keychain; the
 * secrets are read at each send.
 */
export function hostNotifications(deps: HostNotificationsDeps): HostNotificationsFeature {
  const secrets = noticeSecrets(deps.keychain)
  let queue: HostNotices | null = null
  const opened = () => (queue ??= openHostNotices({ dir: deps.dataDir, secrets, timing: deps.timing, now: deps.now, log: deps.log }))
  return {
    enqueueArrival: (notice) => opened().enqueue(notice),
    onArrival(notice) {
      try {
        opened().enqueue(notice)
        return true
      } catch (error) {
        deps.log(`host notices: the arrival of visit ${String(notice?.visitId).slice(0, 64)} was not queued (${error instanceof KioskError ? error.code : 'INTERNAL'})`)
        return false
      }
    },
    forgetVisits: (visitIds) => opened().forgetVisits(visitIds),
    opened,
    handlers: {
      getHostNotices: async () => opened().state(),
      retryHostNotice: async (input) => opened().retry(input.id),
      getNotificationSettings: async () => ({ smtp: opened().smtp(), secrets: await secrets.status() }),
      saveNotificationSettings: async (input) => {
        opened().setSmtp(input.smtp)
        return { smtp: opened().smtp(), secrets: await secrets.status() }
      },
      setNotificationSecrets: async (input) => {
        const status = await secrets.set(input)
        opened().secretsChanged()
        return status
      },
    },
    start() {
      opened().start()
    },
    async stop() {
      await queue?.close()
      queue = null
    },
  }
}

import { KioskError } from '../../shared/errors'
import type { ArrivalNotice } from '../../shared/visits'
import type { HostNotice } from '../../shared/host-notices'
import { openHostNotices, type HostNotices, type NoticeTiming } from '../host-notices'
import { noticeSecrets } from '../host-notices/secrets'
import type { Keychain } from '../secrets/keychain'
import type { Call } from '../dispatch'
import type { KioskDesk, StaffDesk } from '../front-desk/desk'
import type { Feature } from './feature'

export interface HostNotificationsDeps {
  dataDir: string
  /** The kiosk's keychain: the SMTP password and the webhook signing secret live there. */
  keychain: Pick<Keychain, 'get' | 'set' | 'delete'>
  timing?: Partial<NoticeTiming>
  now?: () => number
  log: (line: string) => void
  /**
   * The front desk in use: on a site, the site tells hosts (its check-in queues the notices), so
   * staff's views and settings are the site's, through the caller's session. Absent: always this
   * kiosk's own queue.
   */
  site?: { desk: () => Promise<KioskDesk>; staffDesk: (call: Call) => Promise<StaffDesk> }
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
 * Hosts told of their visitors' arrivals: on its own, a durable queue of the kiosk's, delivered by
 * one sender with backoff; staff see the queue and retry a failed notice, an administrator sets
 * the SMTP server and the secrets. The queue needs no key, so it opens without the keychain; the
 * secrets are read at each send. On a site the site tells hosts (its check-in queues the notices
 * and answers no host), and these handlers are the site's calls; notices queued here before the
 * kiosk joined are still sent from here.
 */
export function hostNotifications(deps: HostNotificationsDeps): HostNotificationsFeature {
  const secrets = noticeSecrets(deps.keychain)
  let queue: HostNotices | null = null
  const opened = () => (queue ??= openHostNotices({ dir: deps.dataDir, secrets, timing: deps.timing, now: deps.now, log: deps.log }))
  /** The site's desk as the caller's session when the kiosk is on a site; null on its own. */
  const siteDesk = async (call: Call): Promise<StaffDesk | null> => (deps.site && (await deps.site.desk()).onSite ? deps.site.staffDesk(call) : null)
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
      getHostNotices: async (_input, call) => ((await siteDesk(call))?.hostNotices() ?? opened().state()),
      retryHostNotice: async (input, call) => ((await siteDesk(call))?.retryHostNotice(input.id) ?? opened().retry(input.id)),
      getNotificationSettings: async (_input, call) => {
        const site = await siteDesk(call)
        return site ? site.notificationSettings() : { smtp: opened().smtp(), secrets: await secrets.status() }
      },
      saveNotificationSettings: async (input, call) => {
        const site = await siteDesk(call)
        if (site) return site.saveNotificationSettings(input.smtp)
        opened().setSmtp(input.smtp)
        return { smtp: opened().smtp(), secrets: await secrets.status() }
      },
      setNotificationSecrets: async (input, call) => {
        const site = await siteDesk(call)
        if (site) return site.setNotificationSecrets(input)
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

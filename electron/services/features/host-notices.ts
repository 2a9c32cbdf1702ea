import { hostNoticesService, type HostNoticesService, type NoticeTiming } from '../../records/frontdesk/notices/service'
import type { Database } from '../../records/sql/types'
import { noticeSecrets } from '../host-notices/secrets'
import type { Keychain } from '../secrets/keychain'
import type { Call } from '../dispatch'
import type { KioskDesk, StaffDesk } from '../front-desk/desk'
import type { Feature } from './feature'

export interface HostNoticesDeps {
  /** The kiosk's own front desk's database (frontdesk.db): its check-ins queue the notices there, and its SMTP settings are kept there. */
  database: () => Promise<Database>
  /** The kiosk's keychain: the SMTP password and the webhook signing secret live there. */
  keychain: Pick<Keychain, 'get' | 'set' | 'delete'>
  timing?: Partial<NoticeTiming>
  now?: () => number
  log: (line: string) => void
  /**
   * The front desk in use: on a site, the site tells hosts (its check-in queues the notices), so
   * staff's views and settings are the site's, through the caller's session. Absent: always this
   * kiosk's own.
   */
  site?: { desk: () => Promise<KioskDesk>; staffDesk: (call: Call) => Promise<StaffDesk> }
}

export interface HostNoticesFeature extends Feature {
  /** A check-in on the kiosk's own desk queued notices (in its transaction): the runner looks now. */
  wake(): void
  /** The kiosk's own notices, over its frontdesk.db (opened on first use). */
  service(): Promise<HostNoticesService>
  /** Starts the kiosk's own runner. */
  start(): Promise<void>
  /** Stops it (a send in progress is queued again at once). */
  stop(): Promise<void>
}

/**
 * Hosts told of their visitors' arrivals. On its own, the kiosk is a site of one: its check-in
 * queues the notices in the one delivery queue of its frontdesk.db, and its runner sends them
 * (records/frontdesk/notices/service.ts, the site's own code), with the secrets from the keychain,
 * read at each send. Two processes on one data folder (the desktop app and the web host) each run
 * one; a notice is claimed by one at a time. On a site the site tells hosts, and these handlers
 * are the site's calls; notices queued here before the kiosk joined are still sent from here.
 */
export function hostNotices(deps: HostNoticesDeps): HostNoticesFeature {
  const secrets = noticeSecrets(deps.keychain)
  let opening: Promise<HostNoticesService> | null = null
  let opened: HostNoticesService | null = null
  let started = false
  const service = (): Promise<HostNoticesService> =>
    (opening ??= deps
      .database()
      .then(async (db) => {
        const notices = hostNoticesService(db, { secrets, timing: deps.timing, now: deps.now, log: deps.log })
        // Opened after a start that could not open it: its runner starts now.
        if (started) await notices.start()
        return (opened = notices)
      })
      .catch((error: unknown) => {
        // A failed open is not kept: the next use tries again.
        opening = null
        throw error
      }))
  /** The site's desk as the caller's session when the kiosk is on a site; null on its own. */
  const siteDesk = async (call: Call): Promise<StaffDesk | null> => (deps.site && (await deps.site.desk()).onSite ? deps.site.staffDesk(call) : null)
  return {
    wake: () => opened?.wake(),
    service,
    handlers: {
      getHostNotices: async (_input, call) => ((await siteDesk(call))?.hostNotices() ?? (await service()).queue()),
      retryHostNotice: async (input, call) => ((await siteDesk(call))?.retryHostNotice(input.id) ?? (await service()).retry(input.id)),
      getHostNoticeSettings: async (_input, call) => ((await siteDesk(call))?.hostNoticeSettings() ?? (await service()).settings()),
      saveHostNoticeSettings: async (input, call) => ((await siteDesk(call))?.saveHostNoticeSettings(input.smtp) ?? (await service()).saveSettings(input.smtp)),
      setHostNoticeSecrets: async (input, call) => ((await siteDesk(call))?.setHostNoticeSecrets(input) ?? (await service()).setSecrets(input)),
    },
    async start() {
      started = true
      try {
        await (await service()).start()
      } catch (error) {
        // The kiosk starts without it; staff's next look at the notices opens it again.
        deps.log(`host notices: not started: ${error instanceof Error ? error.message : 'unknown error'}`)
      }
    },
    async stop() {
      started = false
      const current = opening
      opening = null
      opened = null
      await (await current?.catch(() => null))?.stop()
    },
  }
}

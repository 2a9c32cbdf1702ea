import type { FrontDesk } from '../../records/frontdesk/front-desk'

/** How often a site engine applies the site's retention. */
export const RETENTION_EVERY_MS = 60 * 60_000
/** The first pass, a little after the engine starts: an engine restarted often still gets to it. */
export const RETENTION_FIRST_MS = 60_000
/** Invites that ended (used, revoked or expired) are kept this long, then removed. */
export const INVITE_KEEP_MS = 30 * 24 * 60 * 60_000
const DAY_MS = 24 * 60 * 60_000
/** The front desk's change log keeps this many of its newest changes; a kiosk further behind is sent everything. */
export const CHANGES_KEPT = 100_000

export interface SiteRetention {
  /** One pass now (the timer's, and tests'). Never throws: a failure is logged and tried next time. */
  runOnce(): Promise<void>
  /** Stops the timer and waits for a pass under way (before the database closes). */
  stop(): Promise<void>
}

/**
 * The site forgets on its own: every `everyMs`, visits older than the look's visitorRetentionDays
 * (null: kept), invites that ended more than INVITE_KEEP_MS ago, and all but the newest
 * CHANGES_KEPT changes of the kiosks' change log. Every engine of a site may do
 * it: the deletes are idempotent, so two passes at once remove each row once. The first pass comes
 * `firstMs` after the start. The timer is unref'd: it never keeps a process alive.
 */
export function siteRetention(
  frontDesk: Pick<FrontDesk, 'getLook' | 'purgeVisitsBefore' | 'purgeInvitesBefore' | 'pruneChanges'>,
  options: { now: () => number; everyMs?: number; firstMs?: number; log: (line: string) => void; changed?: () => Promise<void> },
): SiteRetention {
  let running: Promise<void> | null = null
  let stopped = false
  const pass = async () => {
    const now = options.now()
    const { visitorRetentionDays } = await frontDesk.getLook()
    const visits = visitorRetentionDays === null ? [] : await frontDesk.purgeVisitsBefore(now - visitorRetentionDays * DAY_MS)
    const invites = await frontDesk.purgeInvitesBefore(now - INVITE_KEEP_MS)
    if (visits.length > 0 || invites > 0) options.log(`retention: removed ${visits.length} visit(s) and ${invites} ended invite(s)`)
    // Removed visits leave the kiosks' copies at their next pull.
    if (visits.length > 0) await options.changed?.()
    await frontDesk.pruneChanges(CHANGES_KEPT)
  }
  const runOnce = async () => {
    if (stopped) return
    // One pass at a time on this engine: a slow pass is not overtaken by the next tick.
    running ??= pass()
      .catch((error: unknown) => options.log(`retention failed (tried again at the next pass): ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => (running = null))
    await running
  }
  let timer: NodeJS.Timeout
  const schedule = (ms: number) => {
    timer = setTimeout(() => {
      void runOnce().then(() => {
        if (!stopped) schedule(options.everyMs ?? RETENTION_EVERY_MS)
      })
    }, ms)
    timer.unref()
  }
  schedule(options.firstMs ?? RETENTION_FIRST_MS)
  return {
    runOnce,
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}

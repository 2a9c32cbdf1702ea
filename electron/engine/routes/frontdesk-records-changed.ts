import type { FrontDesk } from '../../records/frontdesk/front-desk'
import type { EngineApp } from '../http/zod-provider'
import type { SiteEvents } from '../store/site-events'

export interface RecordsChanged {
  /** Announces `records-changed` when the change log's head moved past the last one this engine announced. Never throws. */
  check(): Promise<void>
}

/**
 * Tells the site's kiosks to pull (GET /sync/pull) after something may have written: one max(seq)
 * read, and an event only when the head moved. Each engine keeps its own last head, so two engines
 * may both announce one change: a second pull finds nothing, which is cheap.
 */
export function recordsChangedAnnouncer(frontDesk: Pick<FrontDesk, 'changesHead'>, events: Pick<SiteEvents, 'announce'>, log: (line: string) => void): RecordsChanged {
  let announced = 0
  return {
    async check() {
      try {
        const head = await frontDesk.changesHead()
        if (head <= announced) return
        announced = head
        events.announce({ type: 'records-changed', seq: head })
      } catch (error) {
        // The change is committed; kiosks also pull on their own timer and on reconnecting.
        log(`could not read the front desk's change log head: ${error instanceof Error ? error.message : String(error)}`)
      }
    },
  }
}

/**
 * After each front-desk call that may have written (any but GET and HEAD, answered below 400), once
 * its reply is sent: the write is committed by then, and the caller does not wait on the check.
 */
export function announceAfterWrites(app: EngineApp, changed: RecordsChanged): void {
  app.addHook('onResponse', async (request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD' || reply.statusCode >= 400) return
    await changed.check()
  })
}

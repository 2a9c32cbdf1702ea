import { listen, type Listener } from '../../records/sql/listener'
import type { Sql } from '../../records/sql/types'
import { siteEventSchema, type SiteEvent } from '../../shared/frontdesk-api'

/** The PostgreSQL channel a site's engines tell each other the front desk's events on. */
export const SITE_EVENTS_CHANNEL = 'frontdesk'

export interface SiteEvents {
  /** Tells every engine of the site (this one included); called by the FrontDesk after its commit. */
  announce(event: SiteEvent): void
  /** Hears every event announced on any engine of the site; returns how to stop hearing. */
  subscribe(listener: (event: SiteEvent) => void): () => void
  close(): Promise<void>
}

/**
 * The front desk's events across a site. On PostgreSQL an event is a NOTIFY on SITE_EVENTS_CHANNEL
 * (its payload the SiteEvent, a few dozen bytes), heard by every engine's listener, this one's too,
 * so each engine delivers each event once whichever engine raised it. On SQLite there is one engine:
 * in-process. An event sent while a listener is reconnecting is not replayed: kiosks read the alerts
 * list as well, so a lost event delays an alert, it does not lose it.
 */
export function createSiteEvents(db: Sql, databaseUrl: string | undefined, log: (line: string) => void): SiteEvents {
  const listeners = new Set<(event: SiteEvent) => void>()
  const deliver = (event: SiteEvent) => {
    for (const listener of listeners) {
      try {
        listener(event)
      } catch (error) {
        log(`a front-desk event listener failed: ${(error as Error).message}`)
      }
    }
  }

  let listener: Listener | null = null
  if (databaseUrl) {
    let up = false
    listener = listen(databaseUrl, SITE_EVENTS_CHANNEL, {
      notified(payload?: string) {
        const event = parseEvent(payload)
        if (event) deliver(event)
        else log('ignored a front-desk notification that is not a site event')
      },
      connected(now) {
        if (now === up) return
        up = now
        log(now ? 'listening for front-desk events' : 'lost the front-desk event listener; reconnecting')
      },
    }, 'identity-kiosk-engine front-desk listener')
  }

  return {
    announce(event) {
      if (!databaseUrl) return deliver(event)
      // After the commit, outside any transaction: NOTIFY in one would wait for it, and this one is done.
      db.run('SELECT pg_notify(?, ?)', [SITE_EVENTS_CHANNEL, JSON.stringify(event)]).catch((error: unknown) =>
        log(`could not announce a front-desk event (${event.type}): ${(error as Error).message}`),
      )
    },
    subscribe(next) {
      listeners.add(next)
      return () => listeners.delete(next)
    },
    async close() {
      listeners.clear()
      await listener?.close()
    },
  }
}

function parseEvent(payload: string | undefined): SiteEvent | null {
  if (!payload) return null
  try {
    const parsed = siteEventSchema.safeParse(JSON.parse(payload))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

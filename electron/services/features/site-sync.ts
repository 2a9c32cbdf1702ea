import type { SiteSync } from '../site/site-sync'
import type { Feature } from './feature'

/** A site kiosk's copy of its site and the acts it waits to push (site/site-sync.ts): its state for staff, its loop started and stopped with the services. Null where there is no site to follow (tests without servers). */
export function siteSyncFeature(sync: SiteSync | null): Feature {
  return {
    handlers: { getSiteSync: async () => (sync ? sync.state() : null) },
    start: () => sync?.start(),
    stop: () => sync?.stop(),
  }
}

import type { KioskSettings } from '../../shared/settings'
import type { KioskDesk } from './desk'

/**
 * Which front desk the kiosk uses now: its site's while the settings say mode 'site' (remote mode
 * against a vendor's servers keeps the front desk on the kiosk), else its own. Read on every call,
 * so joining a site (or leaving it) takes effect at once.
 */
export function frontDesks(deps: { settings: () => Promise<KioskSettings>; own: KioskDesk; site: (id: string) => KioskDesk }): () => Promise<KioskDesk> {
  let site: KioskDesk | null = null
  return async () => {
    const settings = await deps.settings()
    if (settings.mode !== 'site') return deps.own
    // A session is good only at the desk that issued it: another site is another desk.
    const id = `site|${settings.personServerUrl}`
    if (site?.id !== id) site = deps.site(id)
    return site
  }
}

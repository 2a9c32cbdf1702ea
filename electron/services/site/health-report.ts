import { KioskError } from '../../shared/errors'
import { KIOSK_HEALTH_INTERVAL_MS, type KioskHealthReport } from '../../shared/frontdesk-api'
import type { SiteConnection } from '../clients/connect'
import { siteCall } from './site-http'

export interface HealthReporter {
  /** Gathers and sends one report now (the timer's work; a test's too). */
  reportNow(): Promise<void>
  stop(): void
}

/**
 * A site's kiosk telling its site how it is, every KIOSK_HEALTH_INTERVAL_MS: what `gather` finds
 * (counts and states, never a person). A report that does not get through is not kept for later:
 * the next one says the same, newer, and the site shows the gap as "not heard from since". The log
 * says when reports stop getting through and when they do again, not every miss.
 */
export function reportHealth(deps: { connection: () => Promise<SiteConnection | null>; gather: () => Promise<KioskHealthReport>; log: (line: string) => void; intervalMs?: number }): HealthReporter {
  let failing = false
  const reportNow = async () => {
    const site = await deps.connection()
    if (!site) return
    try {
      await siteCall(site, 'reportHealth', { body: await deps.gather() })
      if (failing) deps.log('site: health reports get through again')
      failing = false
    } catch (error) {
      if (!failing) deps.log(`site: a health report did not get through (${error instanceof KioskError ? error.code : 'unknown error'})`)
      failing = true
    }
  }
  const timer = setInterval(() => void reportNow(), deps.intervalMs ?? KIOSK_HEALTH_INTERVAL_MS)
  timer.unref()
  return { reportNow, stop: () => clearInterval(timer) }
}

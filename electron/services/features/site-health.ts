import type { KioskHealthReport } from '../../shared/frontdesk-api'
import type { SiteConnection } from '../clients/connect'
import { reportHealth } from '../site/health-report'
import type { Feature } from './feature'

/**
 * A site's kiosk telling its site how it is (site/health-report.ts), with what its screen last said
 * of the camera (reportCamera: whether the browser lists one). A change of camera is said at once.
 */
export function siteHealth(deps: { connection: () => Promise<SiteConnection | null>; gather: () => Promise<Omit<KioskHealthReport, 'camera'>>; log: (line: string) => void }): Feature & { reportNow(): Promise<void> } {
  let camera: KioskHealthReport['camera'] = 'unknown'
  const reporter = reportHealth({ connection: deps.connection, gather: async () => ({ ...(await deps.gather()), camera }), log: deps.log })
  return {
    reportNow: reporter.reportNow,
    handlers: {
      async reportCamera({ found }) {
        const seen = found ? 'found' : 'none'
        if (seen !== camera) {
          camera = seen
          void reporter.reportNow()
        }
        return { ok: true as const }
      },
    },
    stop: () => reporter.stop(),
  }
}

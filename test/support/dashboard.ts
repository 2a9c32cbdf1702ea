import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { projectRoot } from './process'

/** Each metric the Grafana dashboard that ships (resources/grafana) queries. */
export function dashboardMetrics(): string[] {
  const dashboard = JSON.parse(readFileSync(join(projectRoot, 'resources/grafana/identity-kiosk-site.json'), 'utf8')) as { panels: { targets: { expr: string }[] }[] }
  return [...new Set(dashboard.panels.flatMap((panel) => panel.targets.flatMap((target) => target.expr.match(/\b(?:http|kiosk|haproxy|nodejs)_[a-z0-9_]+/g) ?? [])))]
}

/** The dashboard's metrics about the site's kiosks: exposed once a kiosk has reported its health. */
export const isKioskHealthMetric = (metric: string) => metric.startsWith('kiosk_site_kiosk_')

import { KIOSK_HEALTH_INTERVAL_MS, type KioskHealth } from '@shared/frontdesk-api'
import { formatDateTime } from './staff/format'

const CAMERA: Record<KioskHealth['camera'], string | null> = { found: null, none: 'no camera found', unknown: null }

/**
 * A kiosk's last health report in a line for the Kiosks table: what needs staff first (failed
 * enrollments, no camera, a fault), then the rest. Two reports missed: "Not heard from since …".
 */
export function healthWords(health: KioskHealth | null, now: number): string {
  if (health === null) return 'No report yet'
  if (now - health.reportedAt > 2 * KIOSK_HEALTH_INTERVAL_MS) return `Not heard from since ${formatDateTime(health.reportedAt)}`
  const parts = [
    health.outbox.failed > 0 ? `${health.outbox.failed} enrollment${health.outbox.failed === 1 ? '' : 's'} need${health.outbox.failed === 1 ? 's' : ''} staff` : null,
    CAMERA[health.camera],
    health.lastErrorCode === null ? null : `last fault ${health.lastErrorCode}`,
    health.outbox.waiting > 0 ? `${health.outbox.waiting} waiting to be sent` : null,
    health.hostNoticesWaiting > 0 ? `${health.hostNoticesWaiting} host notice${health.hostNoticesWaiting === 1 ? '' : 's'} waiting` : null,
    health.replicaAgeSeconds === null ? null : `copy ${Math.round(health.replicaAgeSeconds / 60)} min old`,
  ].filter((part): part is string => part !== null)
  return `${parts.length > 0 ? parts.join('; ') : 'All well'} (version ${health.version})`
}

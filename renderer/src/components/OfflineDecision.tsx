import type { OfflineCheck } from '../../../electron/shared/workflows'
import { formatDateTime } from '../screens/staff/format'
import { Notice } from './ui'

const DAY_MS = 86_400_000

/** How old a local record is, in words a visitor reads at a glance. */
export function recordAge(recordAt: number, now = Date.now()): string {
  const days = Math.floor((now - recordAt) / DAY_MS)
  return days <= 0 ? 'from today' : days === 1 ? '1 day old' : `${days} days old`
}

/**
 * Said with every result decided on this device because the servers could not be reached: where
 * it was checked, and how old the local record behind it is. Nothing when the servers decided.
 */
export function OfflineDecision({ offline }: { offline: OfflineCheck | undefined }) {
  if (!offline) return null
  const record = offline.recordAt === null ? '' : ` against a local record ${recordAge(offline.recordAt)} (${formatDateTime(offline.recordAt)})`
  return (
    <Notice kind="warning" title="Checked on this device (offline)">
      <p data-testid="offline-decision">
        The servers could not be reached, so this was checked on this device{record}. Last synced with the servers:{' '}
        {offline.lastSyncAt === null ? 'never' : formatDateTime(offline.lastSyncAt)}.
      </p>
    </Notice>
  )
}

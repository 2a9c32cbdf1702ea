import { useTranslation } from 'react-i18next'
import type { OfflineCheck } from '@shared/workflows'
import { t } from '../i18n'
import { formatDateTime } from '../screens/staff/format'
import { Notice } from './ui'

const DAY_MS = 86_400_000

/** How old a local record is, in words a visitor reads at a glance. */
export function recordAge(recordAt: number, now = Date.now()): string {
  const days = Math.floor((now - recordAt) / DAY_MS)
  return days <= 0 ? t('offline.today') : t('offline.age', { count: days })
}

/**
 * Said with every result decided on this device because the servers could not be reached: where
 * it was checked, and how old the local record behind it is. Nothing when the servers decided.
 */
export function OfflineDecision({ offline }: { offline: OfflineCheck | undefined }) {
  const { t } = useTranslation()
  if (!offline) return null
  const lastSync = offline.lastSyncAt === null ? t('offline.never') : formatDateTime(offline.lastSyncAt)
  return (
    <Notice kind="warning" title={t('offline.decisionTitle')}>
      <p data-testid="offline-decision">
        {offline.recordAt === null
          ? t('offline.decision', { lastSync })
          : t('offline.decisionWithRecord', { age: recordAge(offline.recordAt), recordAt: formatDateTime(offline.recordAt), lastSync })}
      </p>
    </Notice>
  )
}

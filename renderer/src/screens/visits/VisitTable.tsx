import type { ReactNode } from 'react'
import type { Visit } from '@shared/visits'
import { DataTable } from '../../components/DataTable'
import { formatDateTime } from '../staff/format'

const when = (iso: string | null) => (iso === null ? '—' : formatDateTime(Date.parse(iso)))

/** Visits as a table; `action` adds a button per row (ending a visit). On a site, the kiosk each visitor came through. */
export function VisitTable({ visits, caption, testId, action }: { visits: Visit[]; caption: string; testId: string; action?: (visit: Visit) => ReactNode }) {
  const byKiosk = visits.some((v) => v.kioskName !== null)
  return (
    <DataTable
      caption={caption}
      captionHidden
      testId={testId}
      rows={visits}
      rowKey={(v) => v.id}
      columns={[
        { header: 'Visitor', rowHeader: true, cell: (v) => (v.firstName ? `${v.firstName} (${v.email})` : v.email) },
        { header: 'Host', cell: (v) => v.hostName ?? '—' },
        { header: 'Purpose', cell: (v) => v.purpose || '—' },
        { header: 'In', cell: (v) => when(v.checkedInAt) },
        { header: 'Out', cell: (v) => (v.checkedOutAt ? `${when(v.checkedOutAt)}${v.checkedOutBy === 'staff' ? ' (by staff)' : ''}` : 'On site') },
        ...(byKiosk ? [{ header: 'Kiosk', cell: (v: Visit) => v.kioskName ?? '—' }] : []),
        ...(action ? [{ header: 'Actions', actions: true, cell: (v: Visit) => action(v) }] : []),
      ]}
    />
  )
}

import { createPortal } from 'react-dom'
import type { OnSiteCopy, Visit } from '@shared/visits'
import { formatDateTime } from '../staff/format'
import { copyWords } from './copy-words'
import '../../frontdesk/PrintCard.css'
import './evacuation.css'

/**
 * Everyone on site at `at`, as a printed page for the fire marshal: a portal beside the app that
 * only print shows (the app itself is hidden in print by PrintCard.css, the one rule for everything
 * the kiosk prints). Its rows come from the front desk (the kiosk's own, or its site's: then each
 * row says which kiosk the visitor came through, to look for them near it). Read from the kiosk's
 * copy while its site is away, it says as of when and which kiosks it has not heard from.
 */
export function EvacuationList({ visits, at, offline }: { visits: Visit[]; at: string; offline: OnSiteCopy | null }) {
  const byKiosk = visits.some((visit) => visit.kioskName !== null)
  return createPortal(
    <section className="evacuation-print print-only" lang="en" dir="ltr" aria-hidden="true" data-testid="evacuation-list">
      <h1>Evacuation list</h1>
      <p>
        {visits.length === 1 ? '1 visitor' : `${visits.length} visitors`} on site at {formatDateTime(Date.parse(at))}. Tick each person once they are accounted for.
      </p>
      {offline ? (
        <p className="evacuation-offline" data-testid="evacuation-offline">
          {copyWords(offline)}
        </p>
      ) : null}
      <table>
        <thead>
          <tr>
            <th scope="col">Safe</th>
            <th scope="col">Visitor</th>
            <th scope="col">E-mail</th>
            <th scope="col">Host</th>
            <th scope="col">Since</th>
            {byKiosk ? <th scope="col">Kiosk</th> : null}
          </tr>
        </thead>
        <tbody>
          {visits.map((visit) => (
            <tr key={visit.id}>
              <td className="tick">☐</td>
              <td>{visit.firstName ?? '—'}</td>
              <td>{visit.email}</td>
              <td>{visit.hostName ?? '—'}</td>
              <td>{formatDateTime(Date.parse(visit.checkedInAt))}</td>
              {byKiosk ? <td>{visit.kioskName ?? '—'}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </section>,
    document.body,
  )
}

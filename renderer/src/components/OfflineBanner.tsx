import { useLive } from '../store/live'
import { useNavigation } from '../store/navigation'
import { useSession } from '../store/session'

/** On every screen: the servers are unreachable, or enrollments are waiting or need attention. */
export function OfflineBanner() {
  const outbox = useLive((s) => s.outbox)
  const staff = useSession((s) => s.role !== 'visitor')
  const go = useNavigation((s) => s.go)
  if (!outbox) return null
  const waiting = outbox.counts.queued + outbox.counts.inFlight
  const parked = outbox.counts.needsAttention
  if (outbox.online !== false && waiting === 0 && parked === 0) return null
  const parts = [
    outbox.online === false ? 'Offline: the servers cannot be reached.' : null,
    waiting > 0 ? `${waiting} enrollment${waiting === 1 ? '' : 's'} waiting to be sent.` : null,
    parked > 0 ? `${parked} need${parked === 1 ? 's' : ''} attention.` : null,
  ].filter(Boolean)
  return (
    <div className="offline-banner" role="status" data-testid="offline-banner">
      <span>{parts.join(' ')}</span>
      {staff ? (
        <button type="button" className="link" onClick={() => go('outbox')}>
          Open the outbox
        </button>
      ) : null}
    </div>
  )
}

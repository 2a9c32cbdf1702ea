import { kiosk } from '../../bridge/kiosk'
import { Busy, LoadError, Notice } from '../../components/ui'
import { AuditTable } from '../AuditScreen'
import { useLoad } from './hooks'

/** The audit entries about one person: by person id, and by e-mail for acts before the id was known. */
export function PersonHistory({ personUuid, userId }: { personUuid: string; userId: string }) {
  const history = useLoad(async () => {
    const [byUuid, byUserId] = await Promise.all([kiosk.getAuditLog({ personUuid, limit: 100 }), kiosk.getAuditLog({ userId, limit: 100 })])
    const bySeq = new Map([...byUuid.entries, ...byUserId.entries].map((e) => [e.seq, e]))
    return [...bySeq.values()].sort((a, b) => b.seq - a.seq)
  }, `${personUuid}|${userId}`)
  return (
    <section aria-labelledby="person-history-title">
      <h3 id="person-history-title">History</h3>
      {history.loading && !history.data ? <Busy label="Loading the history…" /> : null}
      {history.error ? <LoadError error={history.error} title="The history could not be read" onRetry={() => void history.reload()} /> : null}
      {history.data?.length === 0 ? <Notice kind="info">The audit trail holds nothing about this person.</Notice> : null}
      {history.data?.length ? <AuditTable entries={history.data} caption={`What was done concerning ${userId}, newest first`} /> : null}
    </section>
  )
}

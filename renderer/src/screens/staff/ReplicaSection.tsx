import { useState } from 'react'
import { roleAllows } from '../../../../electron/shared/staff'
import type { ReplicaSyncResult } from '../../../../electron/shared/workflows'
import { kiosk } from '../../bridge/kiosk'
import { Busy, Button, ErrorNotice, LoadError, Notice } from '../../components/ui'
import { useSession } from '../../store/session'
import { ConfirmDialog } from './controls'
import { formatBytes, formatDateTime, plural } from './format'
import { useAction, useLoad } from './hooks'

/** The offline replica as staff see it: size, age and last sync; a sync now, and (administrators) a wipe. */
export function ReplicaSection() {
  const status = useLoad(() => kiosk.getReplicaStatus({}))
  const admin = useSession((s) => roleAllows(s.role, 'admin'))
  const action = useAction()
  const [wiping, setWiping] = useState(false)
  const [message, setMessage] = useState<string | null>(null)

  const sync = async () => {
    setMessage(null)
    const outcome = await action.run(() => kiosk.syncReplica({}), 'sync')
    if (outcome.ok) {
      setMessage(syncWords(outcome.value))
      await status.reload()
    }
  }
  const wipe = async () => {
    setMessage(null)
    const outcome = await action.run(() => kiosk.wipeReplica({}), 'wipe')
    if (outcome.ok) {
      setWiping(false)
      setMessage('The offline replica was wiped: nothing is kept on this device now.')
      await status.reload()
    }
  }

  const s = status.data
  return (
    <section className="staff-section" aria-labelledby="replica-title">
      <h2 id="replica-title">Offline replica</h2>
      {!s && status.loading ? <Busy label="Reading the offline replica…" /> : null}
      {!s && status.error ? <LoadError error={status.error} title="The offline replica could not be read" onRetry={() => void status.reload()} /> : null}
      {s ? (
        <>
          <p data-testid="replica-state">
            {s.enabled
              ? 'On: when the servers cannot be reached, Verify and Identify decide on this device against these records.'
              : 'Off: nothing is decided on this device. An administrator can turn it on in Settings (remote servers only).'}
          </p>
          <dl className="staff-counts" data-testid="replica-status">
            <div>
              <dt>Persons</dt>
              <dd>{s.persons}</dd>
            </div>
            <div>
              <dt>Size on disk</dt>
              <dd>{formatBytes(s.bytes)}</dd>
            </div>
            <div>
              <dt>Oldest record</dt>
              <dd>{formatDateTime(s.oldestAt)}</dd>
            </div>
            <div>
              <dt>Last sync</dt>
              <dd>{s.lastSyncAt === null ? 'never' : formatDateTime(s.lastSyncAt)}</dd>
            </div>
          </dl>
          {action.error && !wiping ? <ErrorNotice error={action.error} title="That did not work" /> : null}
          {message ? (
            <Notice kind="success">
              <span data-testid="replica-message">{message}</span>
            </Notice>
          ) : null}
          <div className="actions">
            {s.enabled ? (
              <Button variant="secondary" busy={action.busyKey === 'sync'} disabled={action.busy} onClick={() => void sync()}>
                Sync now
              </Button>
            ) : null}
            {admin && (s.persons > 0 || s.bytes > 0) ? (
              <Button
                variant="danger"
                disabled={action.busy}
                onClick={() => {
                  action.clear()
                  setWiping(true)
                }}
              >
                Wipe replica
              </Button>
            ) : null}
          </div>
        </>
      ) : null}
      {wiping && s ? (
        <ConfirmDialog title="Wipe the offline replica?" confirmLabel="Wipe replica" busy={action.busy} error={action.error} onCancel={() => setWiping(false)} onConfirm={() => void wipe()}>
          <p>
            The local records of {plural(s.persons, 'person')} are deleted from this device. The servers keep every enrollment; the replica fills again as
            visitors enroll or verify here.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  )
}

function syncWords({ checked, removed }: ReplicaSyncResult): string {
  return `Checked ${plural(checked, 'local record')} against the servers: ${removed === 0 ? 'all are still there' : `${plural(removed, 'record')} removed there, so deleted here too`}.`
}

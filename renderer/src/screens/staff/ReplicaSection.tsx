import { useState } from 'react'
import { roleAllows } from '@shared/staff'
import type { ReplicaSyncResult } from '@shared/workflows'
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
  const [confirming, setConfirming] = useState(false)
  const [message, setMessage] = useState<string | null>(null)

  const sync = async () => {
    setMessage(null)
    const outcome = await action.run(() => kiosk.syncReplica({}), 'sync')
    if (outcome.ok) {
      setMessage(syncWords(outcome.value))
      await status.reload()
    }
  }
  const confirmRemovals = async () => {
    setMessage(null)
    const outcome = await action.run(() => kiosk.confirmReplicaRemovals({}), 'confirm')
    if (outcome.ok) {
      setConfirming(false)
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
          {s.heldRemovals ? (
            <Notice kind="warning">
              <span data-testid="replica-held">
                The last sync found {plural(s.heldRemovals.count, 'person')} of {s.heldRemovals.checked} gone from the servers and removed none: that many at once can
                mean the servers answered wrongly. {admin ? 'Check the servers, then confirm the removal.' : 'An administrator must confirm the removal.'}
              </span>
            </Notice>
          ) : null}
          {action.error && !wiping && !confirming ? <ErrorNotice error={action.error} title="That did not work" /> : null}
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
            {admin && s.enabled && s.heldRemovals ? (
              <Button
                variant="danger"
                disabled={action.busy}
                onClick={() => {
                  action.clear()
                  setConfirming(true)
                }}
              >
                Confirm removals
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
      {confirming && s?.heldRemovals ? (
        <ConfirmDialog
          title="Remove the persons gone from the servers?"
          confirmLabel="Remove them"
          busy={action.busy}
          error={action.error}
          onCancel={() => setConfirming(false)}
          onConfirm={() => void confirmRemovals()}
        >
          <p>
            The servers are asked again about every local record; those still gone there are deleted from this device (the last sync found{' '}
            {plural(s.heldRemovals.count, 'person')}). Each removal is audited.
          </p>
        </ConfirmDialog>
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

function syncWords({ checked, removed, held }: ReplicaSyncResult): string {
  if (held > 0) return `Checked ${plural(checked, 'local record')} against the servers: ${plural(held, 'record')} gone there, but none deleted here until an administrator confirms.`
  return `Checked ${plural(checked, 'local record')} against the servers: ${removed === 0 ? 'all are still there' : `${plural(removed, 'record')} removed there, so deleted here too`}.`
}

import { useEffect, useRef, useState } from 'react'
import type { RemoveVisitorResult } from '@shared/workflows'
import { kiosk } from '../../bridge/kiosk'
import { DataTable } from '../../components/DataTable'
import { Busy, Button, LoadError } from '../../components/ui'
import { AppUserSection } from './AppUserSection'
import { PersonHistory } from './PersonHistory'
import { ConfirmDialog } from './controls'
import { enrollmentWords, formatDateTime } from './format'
import { useAction, useLoad } from './hooks'
import { PersonTemplates } from './PersonTemplates'
import { TypeEnrollment } from './TypeEnrollment'
import { WatchlistPersonSection } from './WatchlistPersonSection'

/** One visitor: who they are, which tenants hold them, their templates and app user data; remove them or delete templates. */
export function PersonDetailPanel({
  personUuid,
  tenantCode,
  templateTypes,
  onClose,
  onTemplatesChanged,
  onRemoved,
}: {
  personUuid: string
  tenantCode: string | undefined
  /** The installed template types: enrollment is shown for each. */
  templateTypes: readonly string[]
  onClose: () => void
  onTemplatesChanged: () => void
  onRemoved: (userId: string, result: RemoveVisitorResult) => void
}) {
  const detail = useLoad(() => kiosk.getPersonDetail({ personUuid }), personUuid)
  const heading = useRef<HTMLHeadingElement>(null)
  const [confirming, setConfirming] = useState(false)
  const action = useAction()

  // Opening a visitor takes the reader there.
  useEffect(() => heading.current?.focus(), [])

  const d = detail.data
  const userId = d?.person.userId ?? ''
  const otherTenants = d ? d.tenants.map((t) => t.code).filter((code) => code !== tenantCode) : []

  const confirm = async () => {
    if (!d) return
    const outcome = await action.run(() => kiosk.removeVisitor({ userId }))
    if (outcome.ok) {
      setConfirming(false)
      onRemoved(userId, outcome.value)
    }
  }

  return (
    <section className="staff-panel" aria-labelledby="person-detail-title" data-testid="person-detail">
      <div className="staff-panel-head">
        <h2 id="person-detail-title" ref={heading} tabIndex={-1}>
          {d ? `Visitor ${d.person.userId}` : 'Visitor details'}
        </h2>
        <Button variant="secondary" className="btn-small" onClick={onClose}>
          Close details
        </Button>
      </div>

      {detail.loading && !d ? <Busy label="Loading the visitor…" /> : null}
      {detail.error ? (
        <LoadError error={detail.error} title="This visitor could not be loaded" onRetry={() => void detail.reload()} />
      ) : null}

      {d ? (
        <>
          <dl className="staff-facts">
            <dt>User ID</dt>
            <dd>{d.person.userId}</dd>
            <dt>Person UUID</dt>
            <dd className="mono">{d.person.uuid}</dd>
            <dt>Device ID</dt>
            <dd>{d.person.deviceId || '—'}</dd>
            <dt>Created</dt>
            <dd>{d.person.created === null ? 'Not reported by this server' : formatDateTime(d.person.created)}</dd>
            <dt>Changed</dt>
            <dd>{d.person.modified === null ? 'Not reported by this server' : formatDateTime(d.person.modified)}</dd>
            <dt>In tenant {tenantCode ?? 'of this kiosk'}</dt>
            <dd data-testid="enrollment-status">{d.inTenant ? enrollmentWords(d.inTenant.enrollmentStatus) : 'Not a user of this tenant'}</dd>
            <dt>By template type</dt>
            <dd data-testid="enrollment-per-type">
              <TypeEnrollment held={[...new Set(d.templates.map((t) => t.templateType))]} status={null} types={templateTypes} />
            </dd>
          </dl>

          <h3>Tenants</h3>
          {d.tenants.length === 0 ? (
            <p>No tenant holds this visitor.</p>
          ) : (
            <DataTable
              caption={`Tenants that hold ${d.person.userId}`}
              captionHidden
              rows={d.tenants}
              rowKey={(t) => t.code}
              columns={[
                { header: 'Code', rowHeader: true, cell: (t) => t.code },
                { header: 'Name', cell: (t) => t.name },
              ]}
            />
          )}

          <PersonTemplates
            personUuid={personUuid}
            userId={d.person.userId}
            templates={d.templates}
            refreshing={detail.loading}
            onChanged={() => {
              void detail.reload()
              onTemplatesChanged()
            }}
          />

          <AppUserSection userId={d.person.userId} />

          <PersonHistory personUuid={personUuid} userId={d.person.userId} />

          <WatchlistPersonSection personUuid={d.person.uuid} />

          <div className="actions">
            <Button
              variant="danger"
              onClick={() => {
                action.clear()
                setConfirming(true)
              }}
            >
              Remove visitor
            </Button>
          </div>
        </>
      ) : null}

      {confirming && d ? (
        <ConfirmDialog
          title={`Remove ${userId}?`}
          confirmLabel="Remove visitor"
          busy={action.busy}
          error={action.error}
          onCancel={() => setConfirming(false)}
          onConfirm={() => void confirm()}
        >
          {otherTenants.length > 0 ? (
            <p>
              {userId} leaves tenant {tenantCode}. Other tenants hold them too ({otherTenants.join(', ')}), so the person and their templates stay for those
              tenants.
            </p>
          ) : (
            <p>
              {userId} leaves tenant {tenantCode}. No other tenant holds them, so the person and all their templates are deleted for good. This cannot be
              undone.
            </p>
          )}
        </ConfirmDialog>
      ) : null}
    </section>
  )
}

import { useEffect, useRef, useState } from 'react'
import type { BiometricInfo } from '../../../../electron/shared/api-models'
import type { RemoveVisitorResult } from '../../../../electron/shared/workflows'
import { kiosk } from '../../bridge/kiosk'
import { Busy, Button, Notice, LoadError } from '../../components/ui'
import { ConfirmDialog } from './controls'
import { enrollmentWords, formatBytes, formatDateTime, plural } from './format'
import { useAction, useLoad } from './hooks'

type Confirming = { kind: 'remove' } | { kind: 'all-templates' } | { kind: 'template'; template: BiometricInfo }

/** One visitor: who they are, which tenants hold them, their templates; remove them or delete templates. */
export function PersonDetailPanel({
  personUuid,
  tenantCode,
  onClose,
  onTemplatesChanged,
  onRemoved,
}: {
  personUuid: string
  tenantCode: string | undefined
  onClose: () => void
  onTemplatesChanged: () => void
  onRemoved: (userId: string, result: RemoveVisitorResult) => void
}) {
  const detail = useLoad(() => kiosk.getPersonDetail({ personUuid }), personUuid)
  const heading = useRef<HTMLHeadingElement>(null)
  const templatesHeading = useRef<HTMLHeadingElement>(null)
  const [confirming, setConfirming] = useState<Confirming | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const action = useAction()

  // Opening a visitor takes the reader there.
  useEffect(() => heading.current?.focus(), [])

  const d = detail.data
  const userId = d?.person.userId ?? ''
  const otherTenants = d ? d.tenants.map((t) => t.code).filter((code) => code !== tenantCode) : []

  const confirm = async () => {
    if (!confirming || !d) return
    if (confirming.kind === 'remove') {
      const outcome = await action.run(() => kiosk.removeVisitor({ userId }))
      if (outcome.ok) {
        setConfirming(null)
        onRemoved(userId, outcome.value)
      }
      return
    }
    const one = confirming.kind === 'template' ? confirming.template : null
    const outcome = await action.run(() =>
      kiosk.deleteTemplates({ personUuid, ...(one ? { templateType: one.templateType, templateContext: one.templateContext } : {}) }),
    )
    if (outcome.ok) {
      setConfirming(null)
      setDone(
        `${one ? `The ${one.templateType} template “${one.templateContext}” was deleted.` : 'All templates were deleted.'} ${plural(outcome.value.remaining, 'template')} left.`,
      )
      void detail.reload()
      onTemplatesChanged()
      // The button that opened the dialog may be gone with its row: continue from the list's heading.
      requestAnimationFrame(() => templatesHeading.current?.focus())
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
            <dd>{formatDateTime(d.person.created)}</dd>
            <dt>Changed</dt>
            <dd>{formatDateTime(d.person.modified)}</dd>
            <dt>In tenant {tenantCode ?? 'of this kiosk'}</dt>
            <dd data-testid="enrollment-status">{d.inTenant ? enrollmentWords(d.inTenant.enrollmentStatus) : 'Not a user of this tenant'}</dd>
          </dl>

          <h3>Tenants</h3>
          {d.tenants.length === 0 ? (
            <p>No tenant holds this visitor.</p>
          ) : (
            <div className="staff-table-wrap">
              <table className="data">
                <caption className="visually-hidden">Tenants that hold {d.person.userId}</caption>
                <thead>
                  <tr>
                    <th scope="col">Code</th>
                    <th scope="col">Name</th>
                  </tr>
                </thead>
                <tbody>
                  {d.tenants.map((t) => (
                    <tr key={t.code}>
                      <th scope="row">{t.code}</th>
                      <td>{t.name}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}

          <h3 ref={templatesHeading} tabIndex={-1}>
            Templates
          </h3>
          {done ? <Notice kind="success">{done}</Notice> : null}
          {detail.loading ? <Busy label="Refreshing…" /> : null}
          {d.templates.length === 0 ? (
            <p>No templates: this visitor cannot be verified or identified until they are enrolled again.</p>
          ) : (
            <div className="staff-table-wrap">
              <table className="data" data-testid="templates">
                <caption className="visually-hidden">Templates of {d.person.userId}</caption>
                <thead>
                  <tr>
                    <th scope="col">Type</th>
                    <th scope="col">Context</th>
                    <th scope="col">Size</th>
                    <th scope="col">Made</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {d.templates.map((t) => (
                    <tr key={`${t.templateType}/${t.templateContext}`}>
                      <th scope="row">{t.templateType}</th>
                      <td className="mono">{t.templateContext}</td>
                      <td>{formatBytes(t.size)}</td>
                      <td>{formatDateTime(t.timestamp)}</td>
                      <td>
                        <Button
                          variant="secondary"
                          className="btn-small"
                          aria-label={`Delete the ${t.templateType} template ${t.templateContext}`}
                          onClick={() => {
                            setDone(null)
                            action.clear()
                            setConfirming({ kind: 'template', template: t })
                          }}
                        >
                          Delete
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}

          <div className="actions">
            <Button
              variant="secondary"
              disabled={d.templates.length === 0}
              onClick={() => {
                setDone(null)
                action.clear()
                setConfirming({ kind: 'all-templates' })
              }}
            >
              Delete all templates
            </Button>
            <Button
              variant="danger"
              onClick={() => {
                setDone(null)
                action.clear()
                setConfirming({ kind: 'remove' })
              }}
            >
              Remove visitor
            </Button>
          </div>
        </>
      ) : null}

      {confirming && d ? (
        <ConfirmDialog
          title={
            confirming.kind === 'remove'
              ? `Remove ${userId}?`
              : confirming.kind === 'all-templates'
                ? `Delete all templates of ${userId}?`
                : `Delete this template of ${userId}?`
          }
          confirmLabel={confirming.kind === 'remove' ? 'Remove visitor' : confirming.kind === 'all-templates' ? 'Delete all templates' : 'Delete template'}
          busy={action.busy}
          error={action.error}
          onCancel={() => setConfirming(null)}
          onConfirm={() => void confirm()}
        >
          {confirming.kind === 'remove' ? (
            otherTenants.length > 0 ? (
              <p>
                {userId} leaves tenant {tenantCode}. Other tenants hold them too ({otherTenants.join(', ')}), so the person and their templates stay for those
                tenants.
              </p>
            ) : (
              <p>
                {userId} leaves tenant {tenantCode}. No other tenant holds them, so the person and all their templates are deleted for good. This cannot be
                undone.
              </p>
            )
          ) : confirming.kind === 'all-templates' ? (
            <p>
              All {plural(d.templates.length, 'template')} are deleted for good. {userId} can no longer be verified or identified until they are enrolled
              again.
            </p>
          ) : (
            <p>
              The {confirming.template.templateType} template “{confirming.template.templateContext}” is deleted for good.
              {d.templates.length === 1 ? ` It is the only one: ${userId} can no longer be verified or identified until they are enrolled again.` : ''}
            </p>
          )}
        </ConfirmDialog>
      ) : null}
    </section>
  )
}

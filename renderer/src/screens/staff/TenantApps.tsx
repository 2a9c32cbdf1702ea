import { codeField } from '@shared/workflows'
import { useRef, useState, type FormEvent } from 'react'
import type { AppRecord, Tenant } from '@shared/api-models'
import { kiosk } from '../../bridge/kiosk'
import { DataTable } from '../../components/DataTable'
import { Busy, Button, ErrorNotice, Field, LoadError, Notice } from '../../components/ui'
import { useLive } from '../../store/live'
import { formatDateTime } from './format'
import { useAction, useLoad } from './hooks'

const codeHint = 'Letters, digits, dot, dash or underscore (1–64).'

/**
 * Apps associated with the tenant, as the person server lists them (its tenant app list, not the
 * tenant record, which a vendor server may send without apps): list, details, add, remove.
 */
export function AppsSection({ tenant, onChange }: { tenant: Tenant; onChange: (tenant: Tenant) => void }) {
  const kioskApp = useLive((s) => s.settings?.appCode)
  const apps = useLoad(() => kiosk.getTenantApps({}))
  const [code, setCode] = useState('')
  const [codeProblem, setCodeProblem] = useState<string | null>(null)
  const [message, setMessage] = useState<string | null>(null)
  const [shown, setShown] = useState<AppRecord | null>(null)
  const action = useAction()
  const details = useAction()
  const heading = useRef<HTMLHeadingElement>(null)

  const add = async (event: FormEvent) => {
    event.preventDefault()
    setMessage(null)
    const value = code.trim()
    const problem = codeField.safeParse(value).success ? null : `Enter a code: ${codeHint.toLowerCase()}`
    setCodeProblem(problem)
    if (problem) return
    const outcome = await action.run(() => kiosk.associateApp({ appCode: value }), 'add')
    if (outcome.ok) {
      onChange(outcome.value)
      setCode('')
      setMessage(`App ${value} was added.`)
      void apps.reload()
    }
  }

  const remove = async (appCode: string) => {
    setMessage(null)
    const outcome = await action.run(() => kiosk.disassociateApp({ appCode }), `remove:${appCode}`)
    if (outcome.ok) {
      onChange(outcome.value)
      setMessage(`App ${appCode} was removed.`)
      if (shown?.code === appCode) setShown(null)
      void apps.reload()
    }
  }

  const showDetails = async (appCode: string) => {
    setShown(null)
    const outcome = await details.run(() => kiosk.getTenantApp({ appCode }), appCode)
    if (outcome.ok) setShown(outcome.value)
  }

  const list = apps.data
  const kioskAppMissing = list !== null && kioskApp !== undefined && !list.some((app) => app.code === kioskApp)

  return (
    <section className="staff-section" aria-labelledby="apps-title">
      <h2 id="apps-title" ref={heading} tabIndex={-1}>
        Apps
      </h2>
      <p className="hint">Apps allowed to use tenant {tenant.code}, as the person server lists them.</p>
      {apps.loading && !list ? <Busy label="Loading the apps…" /> : null}
      {apps.error ? <LoadError error={apps.error} title="The apps could not be loaded" onRetry={() => void apps.reload()} /> : null}
      {list ? (
        list.length === 0 ? (
          <p>No app is associated yet.</p>
        ) : (
          <DataTable
            caption={`Apps of tenant ${tenant.code}`}
            captionHidden
            testId="apps"
            rows={list}
            rowKey={(app) => app.code}
            columns={[
              { header: 'Code', rowHeader: true, cell: (app) => app.code },
              { header: 'Name', cell: (app) => app.name ?? '—' },
              { header: 'Added', cell: (app) => formatDateTime(app.associated) },
              {
                header: null,
                actions: true,
                cell: (app) => (
                  <>
                    <Button variant="secondary" className="btn-small" aria-label={`Details of app ${app.code}`} busy={details.busyKey === app.code} onClick={() => void showDetails(app.code)}>
                      Details
                    </Button>
                    <Button variant="secondary" className="btn-small" aria-label={`Remove app ${app.code}`} busy={action.busyKey === `remove:${app.code}`} disabled={action.busy} onClick={() => void remove(app.code)}>
                      Remove
                    </Button>
                  </>
                ),
              },
            ]}
          />
        )
      ) : null}
      {kioskAppMissing ? (
        <p className="hint">The kiosk’s own app, {kioskApp}, is not among them: looking up a visitor’s app user data for it finds nobody.</p>
      ) : null}

      <div aria-live="polite" data-testid="app-details">
        {details.error ? <ErrorNotice error={details.error} title="The app’s details could not be loaded" /> : null}
        {shown ? <AppDetails
            app={shown}
            tenantCode={tenant.code}
            onClose={() => {
              setShown(null)
              heading.current?.focus()
            }}
          /> : null}
      </div>

      <form className="staff-inline-form" onSubmit={(e) => void add(e)} noValidate>
        <Field label="App code" value={code} onChange={(e) => setCode(e.target.value)} hint={codeHint} error={codeProblem} autoComplete="off" />
        <Button type="submit" busy={action.busyKey === 'add'} disabled={action.busy}>
          Add app
        </Button>
      </form>
      {action.error ? <ErrorNotice error={action.error} title="The apps were not changed" /> : null}
      {message ? <Notice kind="success">{message}</Notice> : null}
    </section>
  )
}

/** One app's record as the person server gives it. */
function AppDetails({ app, tenantCode, onClose }: { app: AppRecord; tenantCode: string; onClose: () => void }) {
  return (
    <article className="staff-card" aria-labelledby="app-details-title">
      <h3 id="app-details-title">App {app.code}</h3>
      <dl className="staff-facts">
        <dt>Code</dt>
        <dd>{app.code}</dd>
        <dt>Name</dt>
        <dd>{app.name ?? 'Not given by this server'}</dd>
        <dt>Added to tenant {tenantCode}</dt>
        <dd>{app.associated === null ? 'Not reported by this server' : formatDateTime(app.associated)}</dd>
      </dl>
      <Button variant="secondary" className="btn-small" onClick={onClose}>
        Close app details
      </Button>
    </article>
  )
}

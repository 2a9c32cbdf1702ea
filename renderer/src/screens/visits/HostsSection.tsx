import { useState } from 'react'
import type { Host } from '@shared/visits'
import { kiosk } from '../../bridge/kiosk'
import { DataTable } from '../../components/DataTable'
import { Busy, Button, ErrorNotice, Field, LoadError, Notice } from '../../components/ui'
import { ConfirmDialog } from '../staff/controls'
import { useAction, useLoad } from '../staff/hooks'

interface Draft {
  id: string | null
  name: string
  email: string
  webhookUrl: string
}
const empty: Draft = { id: null, name: '', email: '', webhookUrl: '' }

/** The hosts directory: whom visitors come to see, and where each is told of an arrival. */
export function HostsSection() {
  const load = useLoad(() => kiosk.listHosts({}))
  const action = useAction()
  const [draft, setDraft] = useState<Draft>(empty)
  // Removing a host is asked first: invites and returning visitors name them, and one tap must not lose them.
  const [removing, setRemoving] = useState<Host | null>(null)
  const ask = (host: Host) => {
    action.clear()
    setRemoving(host)
  }

  const save = async () => {
    const fields = { name: draft.name.trim(), email: draft.email.trim() || null, webhookUrl: draft.webhookUrl.trim() || null }
    const outcome = await action.run(() => (draft.id ? kiosk.updateHost({ id: draft.id, ...fields }) : kiosk.addHost(fields)), 'save')
    if (outcome.ok) {
      setDraft(empty)
      await load.reload()
    }
  }
  const remove = async (host: Host) => {
    const outcome = await action.run(() => kiosk.removeHost({ id: host.id }), `remove-${host.id}`)
    if (!outcome.ok) return
    setRemoving(null)
    await load.reload()
  }

  return (
    <section className="staff-section" aria-labelledby="hosts-title">
      <h2 id="hosts-title">Hosts</h2>
      <form
        className="staff-toolbar"
        aria-label={draft.id ? 'Change a host' : 'Add a host'}
        onSubmit={(event) => {
          event.preventDefault()
          void save()
        }}
      >
        <Field label="Name" value={draft.name} maxLength={120} required onChange={(e) => setDraft({ ...draft, name: e.target.value })} autoComplete="off" />
        <Field label="E-mail" hint="Told of each arrival." type="email" value={draft.email} onChange={(e) => setDraft({ ...draft, email: e.target.value })} autoComplete="off" />
        <Field label="Webhook" hint="Optional: an https address that receives each arrival." value={draft.webhookUrl} onChange={(e) => setDraft({ ...draft, webhookUrl: e.target.value })} autoComplete="off" />
        <Button type="submit" busy={action.busyKey === 'save'}>
          {draft.id ? 'Save host' : 'Add host'}
        </Button>
        {draft.id ? (
          <Button variant="secondary" onClick={() => setDraft(empty)}>
            Cancel
          </Button>
        ) : null}
      </form>
      {action.error && !removing ? <ErrorNotice error={action.error} /> : null}
      {load.loading && !load.data ? <Busy label="Loading the hosts…" /> : null}
      {load.error ? <LoadError error={load.error} title="The hosts could not be read" onRetry={() => void load.reload()} /> : null}
      {load.data && load.data.length === 0 ? <Notice kind="info">No host yet: visitors check in without naming one.</Notice> : null}
      {load.data && load.data.length > 0 ? (
        <DataTable
          caption="Hosts"
          captionHidden
          testId="hosts"
          rows={load.data}
          rowKey={(h) => h.id}
          columns={[
            { header: 'Name', rowHeader: true, cell: (h) => h.name },
            { header: 'E-mail', cell: (h) => h.email ?? '—' },
            { header: 'Webhook', cell: (h) => h.webhookUrl ?? '—' },
            {
              header: 'Actions',
              actions: true,
              cell: (h) => (
                <>
                  <Button variant="secondary" onClick={() => setDraft({ id: h.id, name: h.name, email: h.email ?? '', webhookUrl: h.webhookUrl ?? '' })}>
                    Edit
                  </Button>
                  <Button variant="danger" aria-label={`Remove ${h.name}`} onClick={() => ask(h)}>
                    Remove
                  </Button>
                </>
              ),
            },
          ]}
        />
      ) : null}
      {removing ? (
        <ConfirmDialog
          title={`Remove ${removing.name}?`}
          confirmLabel="Remove host"
          busy={action.busyKey === `remove-${removing.id}`}
          error={action.error}
          onConfirm={() => void remove(removing)}
          onCancel={() => setRemoving(null)}
        >
          <p>Visitors can no longer choose {removing.name}. Visits and invites already made keep the name.</p>
        </ConfirmDialog>
      ) : null}
    </section>
  )
}

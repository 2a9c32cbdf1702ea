import { useEffect, useState } from 'react'
import type { OnSiteCopy, Visit } from '@shared/visits'
import { kiosk } from '../bridge/kiosk'
import { Busy, Button, ErrorNotice, Field, LoadError, Notice } from '../components/ui'
import { SelectField } from './staff/controls'
import { dayToEpochMs } from './staff/format'
import { useAction, useLoad } from './staff/hooks'
import { saveFile } from './staff/save-file'
import { ScreenFrame } from './ScreenFrame'
import { copyWords } from './visits/copy-words'
import { EvacuationList } from './visits/EvacuationList'
import { HostsSection } from './visits/HostsSection'
import { VisitOverview } from './visits/VisitOverview'
import { VisitTable } from './visits/VisitTable'
import './staff/staff.css'

interface Filters {
  search: string
  from: string
  to: string
  hostId: string
  status: '' | 'on-site' | 'ended'
}
const PAGE = 50
const DAY = 86_400_000

/** The filters as the contract takes them: dates are whole days (UTC), the end day included. */
function toFilter(f: Filters) {
  const from = dayToEpochMs(f.from)
  const to = dayToEpochMs(f.to)
  return {
    ...(f.search.trim() ? { search: f.search.trim() } : {}),
    ...(from !== null ? { from: new Date(from).toISOString() } : {}),
    ...(to !== null ? { to: new Date(to + DAY - 1).toISOString() } : {}),
    ...(f.hostId ? { hostId: f.hostId } : {}),
    ...(f.status ? { onSite: f.status === 'on-site' } : {}),
  }
}

/** Who is on site now (and the evacuation list), the visit log, and the hosts directory: the front desk's (the kiosk's own, or its site's). */
export function VisitsScreen() {
  const onSite = useLoad(() => kiosk.listOnSite({}))
  const hosts = useLoad(() => kiosk.listHosts({}))
  const [draft, setDraft] = useState<Filters>({ search: '', from: '', to: '', hostId: '', status: '' })
  const [filters, setFilters] = useState<Filters>(draft)
  const [pageNo, setPageNo] = useState(0)
  const log = useLoad(() => kiosk.visitLog({ ...toFilter(filters), pageNo, pageSize: PAGE }), `${JSON.stringify(filters)}:${pageNo}`)
  const action = useAction()
  const [ended, setEnded] = useState(0)
  const [message, setMessage] = useState<string | null>(null)
  const [evacuation, setEvacuation] = useState<{ visits: Visit[]; at: string; offline: OnSiteCopy | null } | null>(null)

  // Printed once the list is on the page: it reads only the kiosk's store, so it prints with the network down.
  useEffect(() => {
    if (!evacuation) return
    window.print()
  }, [evacuation])

  const printEvacuation = async () => {
    const outcome = await action.run(() => kiosk.listOnSite({}), 'evacuation')
    if (outcome.ok) {
      onSite.setData(outcome.value)
      setEvacuation({ visits: outcome.value.visits, at: outcome.value.at, offline: outcome.value.offline })
    }
  }
  const end = async (visit: Visit) => {
    const outcome = await action.run(() => kiosk.endVisit({ id: visit.id }), `end-${visit.id}`)
    if (outcome.ok) {
      setEnded((n) => n + 1)
      await Promise.all([onSite.reload(), log.reload()])
    }
  }
  const exportCsv = async () => {
    setMessage(null)
    const outcome = await action.run(() => kiosk.exportVisitsCsv(toFilter(filters)), 'export')
    if (outcome.ok) {
      saveFile(outcome.value.fileName, outcome.value.content, 'text/csv')
      setMessage(`Downloaded ${outcome.value.fileName} (${outcome.value.visits} visits).`)
    }
  }
  const total = log.data?.total ?? 0
  const pages = Math.max(1, Math.ceil(total / PAGE))

  return (
    <ScreenFrame staff title="Visits" purpose="Who is on site now, the day in charts, every visit, and the hosts visitors come to see. The evacuation list prints with the network down: on a site, from this kiosk's copy of the site's list.">
      <section className="staff-section" aria-labelledby="on-site-title">
        <h2 id="on-site-title">On site now</h2>
        <div className="actions">
          <Button onClick={() => void printEvacuation()} busy={action.busyKey === 'evacuation'} data-testid="print-evacuation">
            Print evacuation list
          </Button>
          <Button variant="secondary" onClick={() => void onSite.reload()}>
            Refresh
          </Button>
        </div>
        {onSite.loading && !onSite.data ? <Busy label="Loading who is on site…" /> : null}
        {onSite.error ? <LoadError error={onSite.error} title="Who is on site could not be read" onRetry={() => void onSite.reload()} /> : null}
        {onSite.data?.offline ? (
          <div data-testid="on-site-offline">
            <Notice kind="warning" title="Offline">
              {copyWords(onSite.data.offline)}
            </Notice>
          </div>
        ) : null}
        {onSite.data && onSite.data.visits.length === 0 ? <Notice kind="info">Nobody is checked in.</Notice> : null}
        {onSite.data && onSite.data.visits.length > 0 ? (
          <VisitTable
            visits={onSite.data.visits}
            caption="On site now"
            testId="on-site"
            action={(v) => (
              <Button variant="secondary" onClick={() => void end(v)} busy={action.busyKey === `end-${v.id}`}>
                End visit
              </Button>
            )}
          />
        ) : null}
      </section>

      <VisitOverview changed={ended} />

      <section className="staff-section" aria-labelledby="visit-log-title">
        <h2 id="visit-log-title">Visit log</h2>
        <form
          role="search"
          aria-label="Filter the visit log"
          className="staff-toolbar"
          onSubmit={(event) => {
            event.preventDefault()
            setPageNo(0)
            setFilters(draft)
          }}
        >
          <Field label="Search" hint="E-mail, name, host or purpose." value={draft.search} onChange={(e) => setDraft({ ...draft, search: e.target.value })} autoComplete="off" />
          <Field label="From" type="date" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
          <Field label="To" type="date" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
          <SelectField label="Host" value={draft.hostId} onChange={(e) => setDraft({ ...draft, hostId: e.target.value })} options={[{ value: '', label: 'Every host' }, ...(hosts.data ?? []).map((h) => ({ value: h.id, label: h.name }))]} />
          <SelectField
            label="Status"
            value={draft.status}
            onChange={(e) => setDraft({ ...draft, status: e.target.value as Filters['status'] })}
            options={[
              { value: '', label: 'Every visit' },
              { value: 'on-site', label: 'On site' },
              { value: 'ended', label: 'Ended' },
            ]}
          />
          <Button type="submit">Show visits</Button>
        </form>
        <div className="actions">
          <Button variant="secondary" onClick={() => void exportCsv()} busy={action.busyKey === 'export'}>
            Export CSV
          </Button>
        </div>
        {message ? <Notice kind="success">{message}</Notice> : null}
        {action.error ? <ErrorNotice error={action.error} /> : null}
        {log.loading && !log.data ? <Busy label="Loading the visit log…" /> : null}
        {log.error ? <LoadError error={log.error} title="The visit log could not be read" onRetry={() => void log.reload()} /> : null}
        {log.data && log.data.visits.length === 0 ? <Notice kind="info">No visit matches these filters.</Notice> : null}
        {log.data && log.data.visits.length > 0 ? <VisitTable visits={log.data.visits} caption="Visits, newest first" testId="visit-log" /> : null}
        {pages > 1 ? (
          <div className="actions">
            <Button variant="secondary" disabled={pageNo === 0} onClick={() => setPageNo(pageNo - 1)}>
              Newer
            </Button>
            <span>
              Page {pageNo + 1} of {pages} ({total} visits)
            </span>
            <Button variant="secondary" disabled={pageNo + 1 >= pages} onClick={() => setPageNo(pageNo + 1)}>
              Older
            </Button>
          </div>
        ) : null}
      </section>

      <HostsSection />
      {evacuation ? <EvacuationList visits={evacuation.visits} at={evacuation.at} offline={evacuation.offline} /> : null}
    </ScreenFrame>
  )
}

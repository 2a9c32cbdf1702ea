import { useEffect, useRef, useState, type FormEvent } from 'react'
import type { RemoveVisitorResult } from '@shared/workflows'
import { kiosk } from '../bridge/kiosk'
import { DataTable } from '../components/DataTable'
import { Busy, Button, Field, Notice, LoadError } from '../components/ui'
import { useLive } from '../store/live'
import { SelectField } from './staff/controls'
import { formatDateTime, plural } from './staff/format'
import { DeviceLookup } from './staff/DeviceLookup'
import { useLoad } from './staff/hooks'
import { ScreenFrame } from './ScreenFrame'
import { PersonDetailPanel } from './staff/PersonDetailPanel'
import { TypeEnrollment } from './staff/TypeEnrollment'
import './staff/staff.css'

const sortOptions = [
  { value: '+userId', label: 'User ID, A to Z' },
  { value: '-userId', label: 'User ID, Z to A' },
  { value: '-created', label: 'Newest first' },
  { value: '+created', label: 'Oldest first' },
] as const
const pageSizes = [5, 10, 20, 50, 100] as const

interface Query {
  find: string
  sort: string
  pageNo: number
  pageSize: number
}

/** The kiosk tenant's visitors: search, sort, page, look up by device; one visitor's detail with removal and template deletion. */
export function PersonsScreen() {
  const tenantCode = useLive((s) => s.settings?.tenantCode)
  const [findText, setFindText] = useState('')
  const [query, setQuery] = useState<Query>({ find: '', sort: '+userId', pageNo: 0, pageSize: 20 })
  const list = useLoad(
    () => kiosk.searchPersons({ find: query.find || undefined, sort: query.sort, pageNo: query.pageNo, pageSize: query.pageSize }),
    query,
  )
  // The installed template types: each row shows enrollment per type.
  const types = useLoad(() => kiosk.getTemplateTypes({}))
  const typeNames = types.data?.map((t) => t.templateType) ?? []
  const [selected, setSelected] = useState<string | null>(null)
  const [removed, setRemoved] = useState<{ userId: string; result: RemoveVisitorResult } | null>(null)
  const outcomeRef = useRef<HTMLDivElement>(null)

  const search = (event: FormEvent) => {
    event.preventDefault()
    setRemoved(null)
    setQuery((q) => ({ ...q, find: findText.trim(), pageNo: 0 }))
  }

  const page = list.data
  // A removal can empty the last page: step back to the page that now is the last one.
  useEffect(() => {
    if (page && page.content.length === 0 && page.pageNo > 0 && page.totalPages > 0) setQuery((q) => ({ ...q, pageNo: page.totalPages - 1 }))
  }, [page])
  const sortedBy = query.sort.slice(1)
  const direction = query.sort.startsWith('-') ? 'descending' : 'ascending'

  return (
    <ScreenFrame staff title="Persons" purpose={`Find visitors of tenant ${tenantCode ?? '…'}, see their enrollment and templates, and remove them.`}>

      <form role="search" aria-label="Find visitors" className="staff-toolbar" onSubmit={search}>
        <Field label="Find" type="search" value={findText} onChange={(e) => setFindText(e.target.value)} hint="Part of a user ID (e-mail) or device ID, or the start of a person UUID." maxLength={256} />
        <Button type="submit" busy={list.loading}>
          Search
        </Button>
        <SelectField label="Sort by" value={query.sort} options={sortOptions} onChange={(e) => setQuery((q) => ({ ...q, sort: e.target.value, pageNo: 0 }))} />
        <SelectField
          label="Per page"
          value={String(query.pageSize)}
          options={pageSizes.map((n) => ({ value: String(n), label: String(n) }))}
          onChange={(e) => setQuery((q) => ({ ...q, pageSize: Number(e.target.value), pageNo: 0 }))}
        />
      </form>
      <DeviceLookup
        onFound={(person) => {
          setRemoved(null)
          setSelected(person.uuid)
        }}
      />

      <div ref={outcomeRef} tabIndex={-1} className="staff-outcome">
        {removed ? <RemovalOutcome userId={removed.userId} result={removed.result} tenantCode={tenantCode} /> : null}
      </div>

      <div className={selected ? 'staff-split' : undefined}>
        <div className="staff-list">
          {list.loading ? <Busy label="Searching…" /> : null}
          {list.error ? (
            <LoadError error={list.error} title="The visitor list could not be loaded" onRetry={() => void list.reload()} />
          ) : null}
          {page ? (
            page.totalElements === 0 ? (
              <Notice kind="info" title={query.find ? `No visitor matches “${query.find}”.` : 'No visitors yet.'}>
                {query.find ? 'Check the spelling, or search for a shorter part of the e-mail.' : 'Visitors appear here once they are enrolled.'}
              </Notice>
            ) : (
              <>
                <DataTable
                  caption={`Visitors of tenant ${tenantCode ?? '…'}${query.find ? ` matching “${query.find}”` : ''}`}
                  describedBy="persons-summary"
                  rows={page.content}
                  rowKey={(p) => p.uuid}
                  isCurrent={(p) => p.uuid === selected}
                  columns={[
                    { header: 'User ID', rowHeader: true, sort: sortedBy === 'userId' ? direction : undefined, cell: (p) => p.userId },
                    { header: 'Enrollment per template type', cell: (p) => <TypeEnrollment held={p.templateTypes} status={p.enrollmentStatus} types={typeNames} /> },
                    { header: 'Created', sort: sortedBy === 'created' ? direction : undefined, cell: (p) => formatDateTime(p.created) },
                    {
                      header: null,
                      actions: true,
                      cell: (p) => (
                        <Button
                          variant="secondary"
                          className="btn-small"
                          aria-label={`Details of ${p.userId}`}
                          aria-pressed={p.uuid === selected}
                          onClick={() => {
                            setRemoved(null)
                            setSelected(p.uuid === selected ? null : p.uuid)
                          }}
                        >
                          Details
                        </Button>
                      ),
                    },
                  ]}
                />
                <nav aria-label="Pages" className="staff-pager">
                  <Button variant="secondary" disabled={page.pageNo <= 0 || list.loading} onClick={() => setQuery((q) => ({ ...q, pageNo: q.pageNo - 1 }))}>
                    Previous page
                  </Button>
                  <p id="persons-summary" aria-live="polite" data-testid="persons-summary">
                    Page {page.pageNo + 1} of {Math.max(page.totalPages, 1)} · {plural(page.totalElements, 'visitor')}
                  </p>
                  <Button variant="secondary" disabled={page.pageNo + 1 >= page.totalPages || list.loading} onClick={() => setQuery((q) => ({ ...q, pageNo: q.pageNo + 1 }))}>
                    Next page
                  </Button>
                </nav>
              </>
            )
          ) : null}
        </div>

        {selected ? (
          <PersonDetailPanel
            key={selected}
            personUuid={selected}
            tenantCode={tenantCode}
            templateTypes={typeNames}
            onClose={() => setSelected(null)}
            onTemplatesChanged={() => void list.reload()}
            onRemoved={(userId, result) => {
              setSelected(null)
              setRemoved({ userId, result })
              void list.reload()
              // The panel (and the button that opened the dialog) is gone: put focus on the outcome.
              requestAnimationFrame(() => outcomeRef.current?.focus())
            }}
          />
        ) : null}
      </div>
    </ScreenFrame>
  )
}

function RemovalOutcome({ userId, result, tenantCode }: { userId: string; result: RemoveVisitorResult; tenantCode: string | undefined }) {
  if (result.outcome === 'deleted') {
    return (
      <Notice kind="success" title={`${userId} was deleted.`}>
        No other tenant held this visitor, so the person and all their templates are gone.
      </Notice>
    )
  }
  if (result.outcome === 'disassociated') {
    return (
      <Notice kind="info" title={`${userId} was removed from tenant ${tenantCode ?? 'of this kiosk'} only.`}>
        <p>Other tenants still hold this visitor, so the person and their templates were kept for them:</p>
        <ul>
          {result.otherTenants.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </ul>
      </Notice>
    )
  }
  return (
    <Notice kind="warning" title={`No visitor with user ID ${userId} was found.`}>
      Nothing was removed: someone may have removed them already. Search again to see the current list.
    </Notice>
  )
}

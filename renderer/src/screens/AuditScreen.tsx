import { useState } from 'react'
import { auditActions, type AuditAction, type AuditEntryView, type AuditVerdictView } from '@shared/audit'
import type { SiteKiosk } from '@shared/frontdesk-api'
import { kiosk } from '../bridge/kiosk'
import { DataTable } from '../components/DataTable'
import { Busy, Button, ErrorNotice, Field, LoadError, Notice } from '../components/ui'
import { useLive } from '../store/live'
import { useSession } from '../store/session'
import { actionWords, kioskWords, outcomeWords, previousFormatWords, subjectWords } from './staff/audit-words'
import { SelectField } from './staff/controls'
import { dayToEpochMs, formatDateTime } from './staff/format'
import { useAction, useLoad } from './staff/hooks'
import { saveFile } from './staff/save-file'
import { ScreenFrame } from './ScreenFrame'
import './staff/staff.css'

interface Filters {
  action: '' | AuditAction
  person: string
  account: string
  from: string
  to: string
  /** On a site: one of its kiosks, or '' for all. */
  kiosk: string
  /** On a site: the site's trail, or this kiosk's own. */
  trail: 'site' | 'kiosk'
}
const PAGE = 50
const DAY = 86_400_000
const uuidLike = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** The filters as the contract takes them: a person is an e-mail or a person id; dates are whole days. */
function toQuery(f: Filters) {
  const from = dayToEpochMs(f.from)
  const to = dayToEpochMs(f.to)
  const person = f.person.trim()
  const account = f.account.trim()
  return {
    ...(f.action ? { actions: [f.action] } : {}),
    ...(account ? { account } : {}),
    ...(person ? (uuidLike.test(person) ? { personUuid: person } : { userId: person }) : {}),
    ...(from !== null ? { from } : {}),
    ...(to !== null ? { to: to + DAY - 1 } : {}),
    ...(f.trail === 'site' && f.kiosk ? { kioskId: f.kiosk } : {}),
    trail: f.trail,
  }
}

/**
 * The kiosks a site's trail can be filtered by: the site's list (administrators may read it) and
 * every kiosk an entry shown names (a removed kiosk's entries stay).
 */
function kioskChoices(listed: readonly SiteKiosk[], entries: readonly AuditEntryView[], chosen: string): Array<{ value: string; label: string }> {
  const names = new Map<string, string>()
  for (const k of listed) names.set(k.id, k.name)
  for (const e of entries) if (e.kioskId && !names.has(e.kioskId)) names.set(e.kioskId, kioskWords(e))
  if (chosen && !names.has(chosen)) names.set(chosen, `kiosk ${chosen.slice(0, 8)}`)
  const sorted = [...names].sort(([, a], [, b]) => a.localeCompare(b)).map(([value, label]) => ({ value, label }))
  return [{ value: '', label: 'Every kiosk' }, ...sorted]
}

/**
 * Every act recorded: what, when, by whom, about whom, with what outcome; the chain's state;
 * exports. On a site, the site's trail (every kiosk's calls), filterable by kiosk.
 */
export function AuditScreen() {
  const onSite = useLive((s) => s.settings?.mode === 'site')
  const isAdmin = useSession((s) => s.role === 'admin')
  const [draft, setDraft] = useState<Filters>({ action: '', person: '', account: '', from: '', to: '', kiosk: '', trail: 'site' })
  const [filters, setFilters] = useState<Filters>(draft)
  const [older, setOlder] = useState<AuditEntryView[]>([])
  const [verdict, setVerdict] = useState<AuditVerdictView | null>(null)
  const [message, setMessage] = useState<string | null>(null)
  const load = useLoad(() => kiosk.getAuditLog({ ...toQuery(filters), limit: PAGE }), filters)
  // The site's kiosks by name (administrators only; operators choose among the kiosks entries name).
  const siteKiosks = useLoad(() => (onSite && isAdmin ? kiosk.listKiosks({}).catch(() => []) : Promise.resolve([])), `${onSite}|${isAdmin}`)
  const action = useAction()

  const entries = [...(load.data?.entries ?? []), ...older]
  const shownVerdict = verdict ?? load.data?.verdict ?? null
  // Entries an older kiosk wrote in the previous format: verified, and said so.
  const olderFormat = shownVerdict ? previousFormatWords(shownVerdict.previousFormat) : null
  const canPage = entries.length > 0 && entries.length % PAGE === 0

  const apply = () => {
    setOlder([])
    setMessage(null)
    // Another trail has another chain: its verdict is its own.
    if (draft.trail !== filters.trail) setVerdict(null)
    setFilters(draft)
  }
  const siteTrail = onSite && filters.trail === 'site'
  const loadOlder = async () => {
    const outcome = await action.run(() => kiosk.getAuditLog({ ...toQuery(filters), limit: PAGE, beforeSeq: entries.at(-1)!.seq }), 'older')
    if (outcome.ok) setOlder((shown) => [...shown, ...outcome.value.entries])
  }
  const verify = async () => {
    const outcome = await action.run(() => kiosk.verifyAuditLog({ trail: filters.trail }), 'verify')
    if (outcome.ok) setVerdict(outcome.value)
  }
  const exportAs = async (format: 'csv' | 'json') => {
    setMessage(null)
    const outcome = await action.run(() => kiosk.exportAuditLog({ ...toQuery(filters), format }), `export-${format}`)
    if (outcome.ok) {
      saveFile(outcome.value.fileName, outcome.value.content, format === 'csv' ? 'text/csv' : 'application/json')
      setMessage(`Downloaded ${outcome.value.fileName}.`)
    }
  }

  return (
    <ScreenFrame
      staff
      title="Audit"
      purpose={
        onSite
          ? 'Every act the site did for its kiosks, from every kiosk, or this kiosk’s own acts. Entries cannot be changed without it showing.'
          : 'Every act the kiosk has done, oldest kept for the retention set in Settings. Entries cannot be changed without it showing.'
      }
    >

      <section className="staff-section" aria-labelledby="audit-chain-title">
        <h2 id="audit-chain-title">Trail</h2>
        <div aria-live="polite" data-testid="audit-verdict">
          {shownVerdict ? (
            shownVerdict.ok ? (
              <Notice kind="success">
                {verdict
                  ? `Intact: all ${verdict.entries} entries, each linked to the one before (verified just now).`
                  : siteTrail
                    ? `Intact when the site last checked it (${shownVerdict.entries} entries then). Verify now to check every entry since.`
                    : `Intact when the kiosk started (${shownVerdict.entries} entries then). Verify now to check every entry since.`}
                {olderFormat ? ` ${olderFormat}` : null}
              </Notice>
            ) : (
              <Notice kind="error" title={`The trail is broken at entry ${shownVerdict.firstBadSeq}.`}>
                {shownVerdict.reason}. Entries from there on cannot be trusted; keep the file for investigation.
              </Notice>
            )
          ) : null}
        </div>
        <Button variant="secondary" onClick={() => void verify()} busy={action.busyKey === 'verify'}>
          Verify now
        </Button>
      </section>

      <section className="staff-section" aria-labelledby="audit-entries-title">
        <h2 id="audit-entries-title">Entries</h2>
        <form
          role="search" aria-label="Filter the audit trail" className="staff-toolbar"
          onSubmit={(event) => {
            event.preventDefault()
            apply()
          }}
        >
          <SelectField
            label="Action"
            value={draft.action}
            onChange={(e) => setDraft({ ...draft, action: e.target.value as Filters['action'] })}
            options={[{ value: '', label: 'Every action' }, ...auditActions.map((a) => ({ value: a, label: actionWords[a] }))]}
          />
          <Field label="Person" hint="An e-mail or a person id." value={draft.person} onChange={(e) => setDraft({ ...draft, person: e.target.value })} autoComplete="off" />
          <Field label="Staff account" hint="Who acted, as they sign in." value={draft.account} onChange={(e) => setDraft({ ...draft, account: e.target.value })} autoComplete="off" />
          <Field label="From" type="date" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
          <Field label="To" type="date" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
          {onSite ? (
            <SelectField
              label="Trail"
              value={draft.trail}
              onChange={(e) => setDraft({ ...draft, trail: e.target.value as Filters['trail'] })}
              options={[
                { value: 'site', label: 'The site’s (every kiosk)' },
                { value: 'kiosk', label: 'This kiosk’s own' },
              ]}
            />
          ) : null}
          {onSite && draft.trail === 'site' ? (
            <SelectField
              label="Kiosk"
              value={draft.kiosk}
              onChange={(e) => setDraft({ ...draft, kiosk: e.target.value })}
              options={kioskChoices(siteKiosks.data ?? [], entries, draft.kiosk)}
            />
          ) : null}
          <Button type="submit">Show entries</Button>
        </form>
        <div className="actions">
          <Button variant="secondary" onClick={() => void exportAs('csv')} busy={action.busyKey === 'export-csv'}>
            Export CSV
          </Button>
          <Button variant="secondary" onClick={() => void exportAs('json')} busy={action.busyKey === 'export-json'}>
            Export JSON
          </Button>
        </div>
        {message ? <Notice kind="success">{message}</Notice> : null}
        {action.error ? <ErrorNotice error={action.error} /> : null}
        {load.loading && !load.data ? <Busy label="Loading the audit trail…" /> : null}
        {load.error ? <LoadError error={load.error} title="The audit trail could not be read" onRetry={() => void load.reload()} /> : null}
        {load.data && entries.length === 0 ? <Notice kind="info">No entry matches these filters.</Notice> : null}
        {entries.length > 0 ? <AuditTable entries={entries} showKiosk={siteTrail} /> : null}
        {canPage ? (
          <Button variant="secondary" onClick={() => void loadOlder()} busy={action.busyKey === 'older'}>
            Older entries
          </Button>
        ) : null}
      </section>
    </ScreenFrame>
  )
}

/** Entries newest first, as a table (also used for a person's history); the kiosk of each when they come from a site's trail. */
export function AuditTable({ entries, caption = 'Audit entries, newest first', showKiosk }: { entries: AuditEntryView[]; caption?: string; showKiosk?: boolean }) {
  const withKiosk = showKiosk ?? entries.some((e) => e.kioskName !== undefined)
  return (
    <DataTable
      caption={caption}
      captionHidden
      testId="audit-entries"
      rows={entries}
      rowKey={(e) => String(e.seq)}
      columns={[
        { header: 'When', cell: (e) => formatDateTime(e.at) },
        ...(withKiosk ? [{ header: 'Kiosk', cell: (e: AuditEntryView) => kioskWords(e) }] : []),
        { header: 'Action', rowHeader: true, cell: (e) => actionWords[e.action] },
        { header: 'Outcome', cell: (e) => outcomeWords[e.outcome] },
        { header: 'By', cell: (e) => (e.account ? `${e.account} (${e.role})` : e.role) },
        { header: 'About', cell: (e) => subjectWords(e.subject) },
        { header: 'Score', cell: (e) => (e.score === null ? '—' : e.score) },
        { header: 'Detail', cell: (e) => e.detail ?? '—' },
      ]}
    />
  )
}

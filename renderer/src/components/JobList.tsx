import { useEffect, useState, type ReactNode } from 'react'
import type { JobCounts, JobFields, JobState } from '@shared/jobs'
import { t } from '../i18n'
import { formatDateTime, formatFromNow } from '../screens/staff/format'
import { DataTable, type Column } from './DataTable'
import { Button } from './ui'
import './JobList.css'

/**
 * The kiosk's one delivery queue as staff see it (electron/shared/jobs.ts), whatever the kind of
 * job: the Outbox screen's enrollments and the host notices both list theirs here. A kind brings
 * only what is its own: the columns that say what a job is (the first names the row), its words,
 * and its actions' handlers. The states, attempts, times, last error, counts and the staff actions
 * look and read the same for every kind.
 */

/** A job's state in words: the same word for the same state in every list, count and glossary. */
export function jobStateWord(state: JobState): string {
  return t(`staff:jobs.state.${state}`)
}

/** A job's state as a badge: the word itself, drawn in the state's colours (the word, not the colour, says it). */
export function JobStateBadge({ state }: { state: JobState }) {
  return <span className={`job-state job-state-${state}`}>{jobStateWord(state)}</span>
}

/** The states a job can be retried or discarded in: waiting for its next attempt, or parked for a person. */
const actionable: readonly JobState[] = ['queued', 'needs-attention']

/** How long a kind keeps its delivered jobs on screen, for the count's label. */
export type DeliveredWindow = 'day' | 'week'

/** The queue's counts (all of its jobs, however many are listed), one term per state. */
export function JobCountSummary({ counts, deliveredWindow, testId }: { counts: JobCounts; deliveredWindow: DeliveredWindow; testId: string }) {
  const terms: ReadonlyArray<{ key: keyof JobCounts; label: string }> = [
    { key: 'queued', label: t('staff:jobs.counts.queued') },
    { key: 'inFlight', label: t('staff:jobs.counts.inFlight') },
    { key: 'needsAttention', label: t('staff:jobs.counts.needsAttention') },
    { key: 'delivered', label: t(`staff:jobs.counts.delivered_${deliveredWindow}`) },
  ]
  return (
    <dl className="staff-counts" data-testid={testId}>
      {terms.map(({ key, label }) => (
        <div key={key} className={key === 'needsAttention' && counts.needsAttention > 0 ? 'job-count-attention' : undefined}>
          <dt>{label}</dt>
          <dd>{counts[key]}</dd>
        </div>
      ))}
    </dl>
  )
}

/** A staff action on one job: what it does, and its accessible name for that job ("Retry the enrollment of …"). */
export interface JobAction<Job> {
  label: (job: Job) => string
  run: (job: Job) => void
}

export interface JobListProps<Job extends JobFields> {
  /** The table's caption, for screen readers (a heading above already says what the list is). */
  caption: string
  testId: string
  jobs: readonly Job[]
  /** The kind's own columns, first in each row; the one that names the job has `rowHeader`. */
  columns: ReadonlyArray<Column<Job>>
  /** The header over when the job was created ("Taken", "Arrival"). */
  createdHeader: string
  /** Shown instead of the table when there are no jobs. */
  empty: ReactNode
  /** True when the service sent only the first jobs; `truncatedWhat` names them ("enrollments"). */
  truncated: boolean
  truncatedWhat: string
  /** "Retry now", offered on a job waiting or needing attention; busy while the screen's action `retry:<id>` runs. */
  retry?: JobAction<Job>
  /** "Discard", where the screen offers it, on the same jobs. */
  discard?: JobAction<Job>
  /** The screen's action in progress (useAction): every button waits while one runs. */
  busy: boolean
  busyKey: string | null
}

/** Where a job stands in time: when it is next tried, when it was delivered, or nothing to wait for. */
function nextOrDelivered(job: JobFields, now: number): string {
  if (job.state === 'queued') return formatFromNow(job.nextAttemptAt, now)
  if (job.state === 'delivered') return t('staff:jobs.deliveredAt', { when: formatDateTime(job.deliveredAt) })
  return t('staff:jobs.none')
}

/** Now, again every few seconds: "in 12 s" counts down while the list is on screen. */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs)
    return () => clearInterval(timer)
  }, [everyMs])
  return now
}

/** The jobs of one kind, a row each, with the staff actions; a job that needs attention stands out. */
export function JobList<Job extends JobFields>(props: JobListProps<Job>) {
  const { caption, testId, jobs, columns, createdHeader, empty, truncated, truncatedWhat, retry, discard, busy, busyKey } = props
  const now = useNow(5000)
  if (jobs.length === 0) return <>{empty}</>

  const shared: Array<Column<Job>> = [
    { header: t('staff:jobs.columns.state'), cell: (job) => <JobStateBadge state={job.state} /> },
    { header: t('staff:jobs.columns.attempts'), cell: (job) => job.attempts },
    { header: createdHeader, cell: (job) => formatDateTime(job.createdAt) },
    { header: t('staff:jobs.columns.nextAttempt'), cell: (job) => nextOrDelivered(job, now) },
    {
      header: t('staff:jobs.columns.lastError'),
      cell: (job) =>
        job.lastError ? (
          <>
            {job.lastError.message} <span className="hint">({job.lastError.code})</span>
          </>
        ) : (
          t('staff:jobs.none')
        ),
    },
  ]
  const actions: Array<Column<Job>> =
    retry || discard
      ? [
          {
            header: null,
            actions: true,
            cell: (job) =>
              actionable.includes(job.state) ? (
                <>
                  {retry ? (
                    <Button variant="secondary" className="btn-small" aria-label={retry.label(job)} busy={busyKey === `retry:${job.id}`} disabled={busy} onClick={() => retry.run(job)}>
                      {t('staff:jobs.retry')}
                    </Button>
                  ) : null}
                  {discard ? (
                    <Button variant="danger" className="btn-small" aria-label={discard.label(job)} disabled={busy} onClick={() => discard.run(job)}>
                      {t('staff:jobs.discard')}
                    </Button>
                  ) : null}
                </>
              ) : null,
          },
        ]
      : []

  return (
    <>
      <DataTable
        caption={caption}
        captionHidden
        testId={testId}
        rows={jobs}
        rowKey={(job) => job.id}
        rowClass={(job) => (job.state === 'needs-attention' ? 'attention' : undefined)}
        columns={[...columns, ...shared, ...actions]}
      />
      {truncated ? <p className="hint">{t('staff:jobs.truncated', { count: jobs.length, what: truncatedWhat })}</p> : null}
    </>
  )
}

import { useEffect, useState } from 'react'
import type { HostNotice } from '@shared/host-notices'
import { kiosk } from '../../bridge/kiosk'
import { JobCountSummary, JobList } from '../../components/JobList'
import { Busy, ErrorNotice, LoadError, Notice } from '../../components/ui'
import { t } from '../../i18n'
import { useAction, useLoad } from './hooks'

/** The notices telling hosts of arrivals, as staff see them: counts, each notice's state, and a retry for one waiting or needing attention. */
export function HostNoticesSection() {
  const queue = useLoad(() => kiosk.getHostNotices({}))
  const action = useAction()
  const [message, setMessage] = useState<string | null>(null)

  // Notices go out on their own: the list follows them while it is on screen.
  const { reload } = queue
  useEffect(() => {
    const timer = setInterval(() => void reload(), 5000)
    return () => clearInterval(timer)
  }, [reload])

  const retry = async (notice: HostNotice) => {
    setMessage(null)
    const outcome = await action.run(() => kiosk.retryHostNotice({ id: notice.id }), `retry:${notice.id}`)
    if (outcome.ok) {
      setMessage(t('staff:hostNotices.retried', { host: notice.hostName }))
      await queue.reload()
    }
  }

  const q = queue.data
  const words = 'staff:hostNotices'
  return (
    <section className="staff-section" aria-labelledby="host-notices-title">
      <h2 id="host-notices-title">{t(`${words}.title`)}</h2>
      <p className="hint">{t(`${words}.purpose`)}</p>
      {!q && queue.loading ? <Busy label={t(`${words}.loading`)} /> : null}
      {!q && queue.error ? <LoadError error={queue.error} title={t(`${words}.loadError`)} onRetry={() => void queue.reload()} /> : null}
      {q ? (
        <>
          {!q.running ? <Notice kind="warning">{t(`${words}.notSending`)}</Notice> : null}
          <JobCountSummary counts={q.counts} deliveredWindow="week" testId="host-notice-counts" />
          {action.error ? <ErrorNotice error={action.error} title={t(`${words}.retryError`)} /> : null}
          {message ? (
            <Notice kind="success">
              <span data-testid="host-notice-message">{message}</span>
            </Notice>
          ) : null}
          <JobList
            caption={t(`${words}.caption`)}
            testId="host-notices"
            jobs={q.items}
            columns={[
              { header: t(`${words}.columns.host`), rowHeader: true, cell: (notice) => notice.hostName },
              { header: t(`${words}.columns.channel`), cell: (notice) => t(`${words}.channel.${notice.channel}`) },
              { header: t(`${words}.columns.visit`), cell: (notice) => <span className="job-ref">{notice.visitId}</span> },
            ]}
            createdHeader={t(`${words}.columns.queuedAt`)}
            empty={<p>{t(`${words}.empty`)}</p>}
            truncated={q.truncated}
            truncatedWhat={t(`${words}.truncatedWhat`)}
            retry={{ label: (notice) => t(`${words}.retryLabel`, { host: notice.hostName }), run: (notice) => void retry(notice) }}
            busy={action.busy}
            busyKey={action.busyKey}
          />
        </>
      ) : null}
    </section>
  )
}

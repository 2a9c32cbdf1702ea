import { useEffect, useState } from 'react'
import type { HostNotice } from '@shared/host-notices'
import { kiosk } from '../../bridge/kiosk'
import { DataTable } from '../../components/DataTable'
import { Busy, Button, ErrorNotice, LoadError, Notice } from '../../components/ui'
import { t } from '../../i18n'
import { formatDateTime } from './format'
import { useAction, useLoad } from './hooks'

/** The notices telling hosts of arrivals, as staff see them: counts, each notice's state, and a retry for one that failed. */
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
          <dl className="staff-counts" data-testid="host-notice-counts">
            {(['queued', 'inFlight', 'failed', 'delivered'] as const).map((key) => (
              <div key={key}>
                <dt>{t(`${words}.counts.${key}`)}</dt>
                <dd>{q.counts[key]}</dd>
              </div>
            ))}
          </dl>
          {action.error ? <ErrorNotice error={action.error} title={t(`${words}.retryError`)} /> : null}
          {message ? (
            <Notice kind="success">
              <span data-testid="host-notice-message">{message}</span>
            </Notice>
          ) : null}
          {q.items.length === 0 ? (
            <p>{t(`${words}.empty`)}</p>
          ) : (
            <DataTable
              caption={t(`${words}.caption`)}
              captionHidden
              testId="host-notices"
              rows={q.items}
              rowKey={(notice) => notice.id}
              rowClass={(notice) => (notice.state === 'failed' ? 'attention' : undefined)}
              columns={[
                { header: t(`${words}.columns.host`), rowHeader: true, cell: (notice) => notice.hostName },
                { header: t(`${words}.columns.channel`), cell: (notice) => t(`${words}.channel.${notice.channel}`) },
                { header: t(`${words}.columns.state`), cell: (notice) => t(`${words}.state.${notice.state}`) },
                { header: t(`${words}.columns.attempts`), cell: (notice) => notice.attempts },
                { header: t(`${words}.columns.queuedAt`), cell: (notice) => formatDateTime(notice.createdAt) },
                {
                  header: t(`${words}.columns.lastError`),
                  cell: (notice) =>
                    notice.lastError ? (
                      <>
                        {notice.lastError.message} <span className="hint">({notice.lastError.code})</span>
                      </>
                    ) : (
                      '—'
                    ),
                },
                {
                  header: null,
                  actions: true,
                  cell: (notice) =>
                    notice.state === 'failed' || notice.state === 'queued' ? (
                      <Button
                        variant="secondary"
                        className="btn-small"
                        aria-label={t(`${words}.retryLabel`, { host: notice.hostName })}
                        busy={action.busyKey === `retry:${notice.id}`}
                        disabled={action.busy}
                        onClick={() => void retry(notice)}
                      >
                        {t(`${words}.retry`)}
                      </Button>
                    ) : null,
                },
              ]}
            />
          )}
        </>
      ) : null}
    </section>
  )
}

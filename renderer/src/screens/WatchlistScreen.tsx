import { useRef, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { WatchlistEntry } from '@shared/watchlist'
import { kiosk } from '../bridge/kiosk'
import { DataTable } from '../components/DataTable'
import { Busy, Button, ErrorNotice, Field, LoadError, Notice } from '../components/ui'
import { useSession } from '../store/session'
import { fieldErrorsOf, formatDateTime } from './staff/format'
import { useAction, useLoad } from './staff/hooks'
import { ScreenFrame } from './ScreenFrame'
import './staff/staff.css'

/**
 * The watchlist: operators see who is on it and why; an administrator puts a person on it (by
 * their e-mail, with a reason) and takes them off. Each change is audited in the services.
 */
export function WatchlistScreen() {
  const { t } = useTranslation('staff')
  const admin = useSession((s) => s.role === 'admin')
  const entries = useLoad(() => kiosk.listWatchlist({}))
  const add = useAction()
  const remove = useAction()
  const form = useRef<HTMLFormElement>(null)
  const [problems, setProblems] = useState<{ email?: string; reason?: string }>({})
  const [message, setMessage] = useState<string | null>(null)
  const serviceProblems = fieldErrorsOf(add.error, ['email', 'reason'] as const)

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    setMessage(null)
    remove.clear()
    const data = new FormData(event.currentTarget)
    const email = String(data.get('email') ?? '').trim()
    const reason = String(data.get('reason') ?? '').trim()
    const found = { ...(email ? {} : { email: t('watchlist.emailMissing') }), ...(reason ? {} : { reason: t('watchlist.reasonMissing') }) }
    setProblems(found)
    if (Object.keys(found).length > 0) {
      add.clear()
      return
    }
    const outcome = await add.run(() => kiosk.addToWatchlist({ email, reason }))
    if (outcome.ok) {
      form.current?.reset()
      setMessage(t('watchlist.added', { email: outcome.value.email }))
      await entries.reload()
    }
  }

  const takeOff = async (entry: WatchlistEntry) => {
    setMessage(null)
    add.clear()
    const outcome = await remove.run(() => kiosk.removeFromWatchlist({ personUuid: entry.personUuid }), entry.personUuid)
    if (!outcome.ok) return
    setMessage(t('watchlist.removed', { email: entry.email }))
    await entries.reload()
  }

  const list = entries.data
  return (
    <ScreenFrame staff title={t('screens.watchlist')} purpose={t('watchlist.purpose')}>
      <div className="staff-columns">
        <section className="staff-section" aria-labelledby="watchlist-list-title">
          <h2 id="watchlist-list-title">{t('watchlist.listTitle')}</h2>
          {entries.loading && !list ? <Busy label={t('watchlist.loading')} /> : null}
          {entries.error ? <LoadError error={entries.error} title={t('watchlist.notLoaded')} onRetry={() => void entries.reload()} /> : null}
          {list ? (
            <>
              <p className="hint" data-testid="watchlist-summary">
                {list.length === 0 ? t('watchlist.empty') : t('watchlist.count', { count: list.length })}
              </p>
              {list.length > 0 ? (
                <DataTable
                  caption={t('watchlist.listTitle')}
                  captionHidden
                  testId="watchlist"
                  rows={list}
                  rowKey={(entry) => entry.personUuid}
                  columns={[
                    { header: t('watchlist.colEmail'), rowHeader: true, cell: (entry) => entry.email },
                    { header: t('watchlist.colReason'), cell: (entry) => entry.reason },
                    { header: t('watchlist.colAddedBy'), cell: (entry) => entry.addedBy },
                    { header: t('watchlist.colAddedAt'), cell: (entry) => formatDateTime(entry.addedAt) },
                    ...(admin
                      ? [
                          {
                            header: null,
                            actions: true,
                            cell: (entry: WatchlistEntry) => (
                              <Button
                                variant="secondary"
                                className="btn-small"
                                aria-label={t('watchlist.removeLabel', { email: entry.email })}
                                busy={remove.busyKey === entry.personUuid}
                                disabled={remove.busy}
                                onClick={() => void takeOff(entry)}
                              >
                                {t('watchlist.remove')}
                              </Button>
                            ),
                          },
                        ]
                      : []),
                  ]}
                />
              ) : null}
            </>
          ) : null}
          {remove.error ? <ErrorNotice error={remove.error} title={t('watchlist.notRemoved')} /> : null}
        </section>

        <section className="staff-section" aria-labelledby="watchlist-add-title">
          <h2 id="watchlist-add-title">{t('watchlist.addTitle')}</h2>
          {admin ? (
            <form ref={form} onSubmit={(e) => void submit(e)} noValidate autoComplete="off">
              <Field label={t('watchlist.email')} name="email" type="email" spellCheck={false} hint={t('watchlist.addHint')} error={problems.email ?? serviceProblems?.fields.email ?? null} />
              <Field label={t('watchlist.reason')} name="reason" maxLength={500} hint={t('watchlist.reasonHint')} error={problems.reason ?? serviceProblems?.fields.reason ?? null} />
              <div className="actions">
                <Button type="submit" busy={add.busy}>
                  {t('watchlist.add')}
                </Button>
              </div>
            </form>
          ) : (
            <p>{t('watchlist.adminOnly')}</p>
          )}
          {add.error ? <ErrorNotice error={add.error} title={t('watchlist.notAdded')} /> : null}
          {message ? <Notice kind="success">{message}</Notice> : null}
        </section>
      </div>
    </ScreenFrame>
  )
}

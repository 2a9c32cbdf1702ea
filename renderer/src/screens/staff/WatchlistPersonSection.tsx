import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { kiosk } from '../../bridge/kiosk'
import { Button, ErrorNotice, Field } from '../../components/ui'
import { useSession } from '../../store/session'
import { fieldErrorsOf, formatDateTime } from './format'
import { useAction, useLoad } from './hooks'

/** In a person's details: whether they are on the watchlist and why; an administrator puts them on it or takes them off. */
export function WatchlistPersonSection({ personUuid }: { personUuid: string }) {
  const { t } = useTranslation('staff')
  const admin = useSession((s) => s.role === 'admin')
  const list = useLoad(() => kiosk.listWatchlist({}), personUuid)
  const action = useAction()
  const [missing, setMissing] = useState<string | null>(null)
  const entry = list.data?.find((e) => e.personUuid.toLowerCase() === personUuid.toLowerCase()) ?? null
  const serviceProblems = fieldErrorsOf(action.error, ['reason'] as const)

  const put = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const reason = String(new FormData(event.currentTarget).get('reason') ?? '').trim()
    setMissing(reason ? null : t('watchlist.reasonMissing'))
    if (!reason) return
    if ((await action.run(() => kiosk.addToWatchlist({ personUuid, reason }))).ok) await list.reload()
  }
  const takeOff = async () => {
    if ((await action.run(() => kiosk.removeFromWatchlist({ personUuid }))).ok) await list.reload()
  }

  return (
    <section aria-labelledby="person-watchlist-title" data-testid="person-watchlist">
      <h3 id="person-watchlist-title">{t('watchlist.personTitle')}</h3>
      {list.data ? (
        <p data-testid="person-watchlist-status">
          {entry ? t('watchlist.personListed', { time: formatDateTime(entry.addedAt), by: entry.addedBy, reason: entry.reason }) : t('watchlist.personNotListed')}
        </p>
      ) : null}
      {admin && list.data && entry ? (
        <div className="actions">
          <Button variant="secondary" busy={action.busy} onClick={() => void takeOff()}>
            {t('watchlist.remove')}
          </Button>
        </div>
      ) : null}
      {admin && list.data && !entry ? (
        <form onSubmit={(e) => void put(e)} noValidate autoComplete="off">
          <Field label={t('watchlist.reason')} name="reason" maxLength={500} hint={t('watchlist.reasonHint')} error={missing ?? serviceProblems?.fields.reason ?? null} />
          <div className="actions">
            <Button type="submit" variant="danger" busy={action.busy}>
              {t('watchlist.add')}
            </Button>
          </div>
        </form>
      ) : null}
      {list.error ? <ErrorNotice error={list.error} title={t('watchlist.notLoaded')} /> : null}
      {action.error && !serviceProblems ? <ErrorNotice error={action.error} title={entry ? t('watchlist.notRemoved') : t('watchlist.notAdded')} /> : null}
    </section>
  )
}

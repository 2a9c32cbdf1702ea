import type { Invite } from '@shared/invites'
import { i18n, type LanguageCode } from '../i18n'
import { formatVisitDay } from '../i18n/dates'
import { QrCode } from './QrCode'
import './Badge.css'

/**
 * The invitation staff print or send: who is invited, when, to see whom, and the code the visitor
 * shows to the kiosk's camera. It is the only paper the visitor gets before arriving, so it is in
 * the language chosen when the invite was made, whatever the staff screen around it speaks.
 */
export function InviteCard({ invite, token, language }: { invite: Invite; token: string; language: LanguageCode }) {
  const t = i18n.getFixedT(language, 'visitor')
  return (
    <article className="badge" lang={language} dir={i18n.dir(language)} aria-label={t('invite.cardLabel', { email: invite.email })} data-testid="invite-card">
      <header className="badge-head">
        <p className="badge-kind">{t('invite.cardKind')}</p>
        <h2 className="badge-name">{invite.email}</h2>
      </header>
      <div>
        <dl className="badge-facts">
          <dt>{t('badge.date')}</dt>
          <dd>{formatVisitDay(invite.date, language)}</dd>
          <dt>{t('badge.host')}</dt>
          <dd>{invite.hostName ?? t('badge.frontDesk')}</dd>
        </dl>
        <p>{t('invite.cardHowTo')}</p>
      </div>
      <div className="badge-side">
        <QrCode className="badge-qr" text={token} label={t('invite.cardCode')} />
      </div>
    </article>
  )
}

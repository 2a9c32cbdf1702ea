import { useTranslation } from 'react-i18next'
import { badgeExpiry, type BadgeVisit, visitQrText } from './badge-facts'
import { QrCode } from './QrCode'
import './Badge.css'

export interface BadgeProps {
  visit: BadgeVisit
  /**
   * The visitor's face cut from their check-in photo (a data URL), or null. The caller passes it
   * only when the services allow it (the tenant keeps face crops and this visitor agreed); otherwise
   * the badge has no photo.
   */
  faceCrop?: string | null
}

/** A visitor's badge, in the visitor's language: name, host, date, until when, and a QR code of the visit. */
export function Badge({ visit, faceCrop = null }: BadgeProps) {
  const { t, i18n } = useTranslation()
  const day = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'long' })
  const until = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' })
  // The first name the visitor gave, else their e-mail: a badge says nothing else about them.
  const name = visit.firstName ?? visit.email
  return (
    <article className="badge" aria-label={t('badge.label', { name })} data-testid="badge">
      <header className="badge-head">
        <p className="badge-kind">{t('badge.visitor')}</p>
        <h2 className="badge-name">{name}</h2>
      </header>
      <div>
        <dl className="badge-facts">
          <dt>{t('badge.host')}</dt>
          <dd>{visit.hostName ?? t('badge.frontDesk')}</dd>
          <dt>{t('badge.date')}</dt>
          <dd>{day.format(new Date(visit.checkedInAt))}</dd>
          <dt>{t('badge.validUntil')}</dt>
          <dd>{until.format(badgeExpiry(visit.checkedInAt))}</dd>
        </dl>
      </div>
      <div className="badge-side">
        {faceCrop ? <img className="badge-face" src={faceCrop} alt={t('badge.photoAlt', { name })} /> : null}
        <QrCode className="badge-qr" text={visitQrText(visit.id)} label={t('badge.qrLabel')} />
      </div>
    </article>
  )
}
